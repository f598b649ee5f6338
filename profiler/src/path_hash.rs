//! A hasher for the keys path profilers count by: (function, path id) pairs, whose ids are
//! dense small integers. Used by the k-slab forest's root table ([`crate::kblpp`]) and by the
//! VM's Ball-Larus path table.

/// The hash of a (function, path id) key: the function and the id combined into one word,
/// then one 64x64 -> 128-bit multiply by an odd constant, folded (high half xor low half) so
/// that the high bits hashbrown uses for its control tags depend on every input bit. Path ids
/// are dense small integers; a general-purpose hasher spends more time for no better spread.
#[derive(Clone, Copy, Debug, Default)]
pub struct PathKeyHash;

/// The hasher of [`PathKeyHash`].
#[derive(Clone, Copy, Debug, Default)]
pub struct PathKeyHasher {
    word: u64,
}

impl std::hash::BuildHasher for PathKeyHash {
    type Hasher = PathKeyHasher;
    #[inline(always)]
    fn build_hasher(&self) -> PathKeyHasher {
        PathKeyHasher::default()
    }
}

impl std::hash::Hasher for PathKeyHasher {
    #[inline(always)]
    fn finish(&self) -> u64 {
        let product = u128::from(self.word) * 0xA076_1D64_78BD_642F;
        (product as u64) ^ ((product >> 64) as u64)
    }

    #[inline(always)]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.word = self.word.rotate_left(8) ^ u64::from(b);
        }
    }

    #[inline(always)]
    fn write_u16(&mut self, v: u16) {
        self.word = self.word.rotate_left(32) ^ u64::from(v);
    }

    #[inline(always)]
    fn write_u32(&mut self, v: u32) {
        self.word = self.word.rotate_left(32) ^ u64::from(v);
    }

    #[inline(always)]
    fn write_u64(&mut self, v: u64) {
        self.word = self.word.rotate_left(32) ^ v;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dense_keys_spread() {
        use std::hash::BuildHasher;
        let mut tags = std::collections::HashSet::new();
        let mut low = std::collections::HashSet::new();
        let mut all = std::collections::HashSet::new();
        for function in 0..8u32 {
            for id in 0..512u64 {
                let h = PathKeyHash.hash_one((function, id));
                tags.insert(h >> 57); // hashbrown's 7-bit control tag
                low.insert(h & 0xfff); // a 4096-bucket table's index
                all.insert(h);
            }
        }
        assert_eq!(all.len(), 8 * 512);
        assert_eq!(tags.len(), 128);
        assert!(low.len() > 2500, "{} of 4096 buckets", low.len());
    }
}
