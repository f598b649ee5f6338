//! SplitMix64: a tiny, fast, seedable PRNG (Steele, Lea and Flood, "Fast splittable
//! pseudorandom number generators", OOPSLA 2014), so generated programs are reproducible from
//! their seed without any external crate.

/// A SplitMix64 generator, optionally reading its first draws from a tape of bytes.
#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
    /// Bytes that give the next draws, 8 per draw, before SplitMix64 takes over (a fuzzer's
    /// input: mutating a byte changes one choice of the generator).
    tape: Vec<u8>,
    /// How much of `tape` was read.
    read: usize,
}

impl Rng {
    /// A generator starting from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng {
            state: seed,
            tape: Vec::new(),
            read: 0,
        }
    }

    /// A generator whose draws are the bytes of `tape`, 8 at a time (little-endian), while they
    /// last, then those of SplitMix64 from `seed`: coverage-guided fuzzing steers the choices
    /// of a generator driven by it.
    pub fn with_tape(seed: u64, tape: &[u8]) -> Rng {
        Rng {
            state: seed,
            tape: tape.to_vec(),
            read: 0,
        }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        if let Some(bytes) = self.tape.get(self.read..self.read + 8) {
            self.read += 8;
            return u64::from_le_bytes(bytes.try_into().expect("8 bytes"));
        }
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform integer in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "Rng::below(0)");
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }

    /// A uniform index into a collection of `n > 0` elements.
    pub fn index(&mut self, n: usize) -> usize {
        self.below(n as u64) as usize
    }

    /// A uniform integer in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        assert!(lo <= hi, "Rng::range({lo}, {hi})");
        lo.wrapping_add(self.below((hi - lo) as u64 + 1) as i64)
    }

    /// True with probability `percent`/100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    /// A uniformly chosen element of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.index(items.len())]
    }

    /// Picks an index with probability proportional to `weights[i]` (not all zero).
    pub fn weighted(&mut self, weights: &[u32]) -> usize {
        let total: u64 = weights.iter().map(|&w| w as u64).sum();
        assert!(total > 0, "Rng::weighted with all weights zero");
        let mut r = self.below(total);
        for (i, &w) in weights.iter().enumerate() {
            if r < w as u64 {
                return i;
            }
            r -= w as u64;
        }
        unreachable!("r < total")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_reference_splitmix64_sequence() {
        // First outputs of the reference C implementation seeded with 1234567.
        let mut r = Rng::new(1234567);
        assert_eq!(r.next_u64(), 6457827717110365317);
        assert_eq!(r.next_u64(), 3203168211198807973);
        assert_eq!(r.next_u64(), 9817491932198370423);
    }

    #[test]
    fn below_and_range_stay_in_bounds() {
        let mut r = Rng::new(7);
        for _ in 0..10_000 {
            assert!(r.below(13) < 13);
            let x = r.range(-5, 5);
            assert!((-5..=5).contains(&x));
        }
        assert_eq!(r.range(3, 3), 3);
    }

    #[test]
    fn weighted_never_picks_zero_weight() {
        let mut r = Rng::new(9);
        for _ in 0..1000 {
            assert_ne!(r.weighted(&[3, 0, 5]), 1);
        }
    }
}
