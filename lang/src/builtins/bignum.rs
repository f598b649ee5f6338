//! A minimal arbitrary-precision unsigned integer: the exact arithmetic behind constant
//! folding of math calls ([`super::Builtin::eval_constant`]) and behind `vm::printf`'s exact
//! decimal conversion of doubles. Only the operations those need.

/// A non-negative arbitrary-precision integer: little-endian 32-bit limbs, no trailing zero
/// limbs (so equal values have equal representations).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Big {
    limbs: Vec<u32>,
}

/// `5^13`, the largest power of five that fits in a `u32`.
const POW5_13: u32 = 1_220_703_125;

impl Big {
    /// The value `v`.
    pub fn from_u64(v: u64) -> Big {
        let mut b = Big {
            limbs: vec![v as u32, (v >> 32) as u32],
        };
        b.trim();
        b
    }

    /// Zero.
    pub fn zero() -> Big {
        Big { limbs: Vec::new() }
    }

    /// Whether the value is zero.
    pub fn is_zero(&self) -> bool {
        self.limbs.is_empty()
    }

    /// The number of significant bits (0 for zero).
    pub fn bit_len(&self) -> usize {
        match self.limbs.last() {
            None => 0,
            Some(top) => self.limbs.len() * 32 - top.leading_zeros() as usize,
        }
    }

    /// Bit `i` (0 = least significant).
    pub fn bit(&self, i: usize) -> bool {
        self.limbs
            .get(i / 32)
            .is_some_and(|limb| (limb >> (i % 32)) & 1 == 1)
    }

    /// Whether any of the bits below bit `n` is set.
    pub fn any_bits_below(&self, n: usize) -> bool {
        let (words, rest) = (n / 32, n % 32);
        let full = self.limbs.iter().take(words).any(|&l| l != 0);
        let partial = rest != 0
            && self
                .limbs
                .get(words)
                .is_some_and(|&l| l & ((1u32 << rest) - 1) != 0);
        full || partial
    }

    /// The lowest 64 bits.
    pub fn low_u64(&self) -> u64 {
        let lo = u64::from(self.limbs.first().copied().unwrap_or(0));
        let hi = u64::from(self.limbs.get(1).copied().unwrap_or(0));
        lo | (hi << 32)
    }

    /// `self + other`.
    pub fn add(&self, other: &Big) -> Big {
        let (long, short) = if self.limbs.len() >= other.limbs.len() {
            (self, other)
        } else {
            (other, self)
        };
        let mut limbs = Vec::with_capacity(long.limbs.len() + 1);
        let mut carry = 0u64;
        for (i, &l) in long.limbs.iter().enumerate() {
            let sum = u64::from(l) + u64::from(short.limbs.get(i).copied().unwrap_or(0)) + carry;
            limbs.push(sum as u32);
            carry = sum >> 32;
        }
        if carry != 0 {
            limbs.push(carry as u32);
        }
        Big { limbs }
    }

    /// `self - other`; requires `self >= other`.
    pub fn sub(&self, other: &Big) -> Big {
        debug_assert!(*self >= *other);
        let mut limbs = Vec::with_capacity(self.limbs.len());
        let mut borrow = 0i64;
        for (i, &l) in self.limbs.iter().enumerate() {
            let mut d = i64::from(l) - i64::from(other.limbs.get(i).copied().unwrap_or(0)) - borrow;
            borrow = 0;
            if d < 0 {
                d += 1 << 32;
                borrow = 1;
            }
            limbs.push(d as u32);
        }
        let mut b = Big { limbs };
        b.trim();
        b
    }

    /// `self * other` (schoolbook).
    pub fn mul(&self, other: &Big) -> Big {
        if self.is_zero() || other.is_zero() {
            return Big::zero();
        }
        let mut limbs = vec![0u32; self.limbs.len() + other.limbs.len()];
        for (i, &a) in self.limbs.iter().enumerate() {
            let mut carry = 0u64;
            for (j, &b) in other.limbs.iter().enumerate() {
                let cur = u64::from(limbs[i + j]) + u64::from(a) * u64::from(b) + carry;
                limbs[i + j] = cur as u32;
                carry = cur >> 32;
            }
            let mut k = i + other.limbs.len();
            while carry != 0 {
                let cur = u64::from(limbs[k]) + carry;
                limbs[k] = cur as u32;
                carry = cur >> 32;
                k += 1;
            }
        }
        let mut b = Big { limbs };
        b.trim();
        b
    }

    /// `floor(self / divisor)`; requires a non-zero divisor. Schoolbook long division with
    /// 32-bit digits (Knuth, TAOCP vol. 2, 4.3.1, Algorithm D).
    pub fn div(&self, divisor: &Big) -> Big {
        debug_assert!(!divisor.is_zero());
        if *self < *divisor {
            return Big::zero();
        }
        if divisor.limbs.len() == 1 {
            let mut q = self.clone();
            q.div_small(divisor.limbs[0]);
            return q;
        }
        // D1: normalize so that the divisor's top digit has its high bit set.
        let shift = divisor.limbs[divisor.limbs.len() - 1].leading_zeros() as usize;
        let mut v = divisor.clone();
        v.shl(shift);
        let mut u = self.clone();
        u.shl(shift);
        u.limbs.resize(self.limbs.len() + 1, 0);
        let (v, u) = (&v.limbs, &mut u.limbs);
        let n = v.len();
        let m = u.len() - n;
        let base = 1u64 << 32;
        let mut q = vec![0u32; m];
        for j in (0..m).rev() {
            // D3: estimate the quotient digit from the top two digits, then correct it.
            let top = (u64::from(u[j + n]) << 32) | u64::from(u[j + n - 1]);
            let mut qhat = top / u64::from(v[n - 1]);
            let mut rhat = top % u64::from(v[n - 1]);
            while qhat >= base
                || qhat * u64::from(v[n - 2]) > ((rhat << 32) | u64::from(u[j + n - 2]))
            {
                qhat -= 1;
                rhat += u64::from(v[n - 1]);
                if rhat >= base {
                    break;
                }
            }
            // D4: subtract qhat * v from the current window of u.
            let mut borrow = 0i64;
            let mut carry = 0u64;
            for i in 0..n {
                let p = qhat * u64::from(v[i]) + carry;
                carry = p >> 32;
                let t = i64::from(u[i + j]) - borrow - (p & 0xffff_ffff) as i64;
                u[i + j] = t as u32;
                borrow = i64::from(t < 0);
            }
            let t = i64::from(u[j + n]) - borrow - carry as i64;
            u[j + n] = t as u32;
            if t < 0 {
                // D6: qhat was one too large; add v back.
                qhat -= 1;
                let mut c = 0u64;
                for i in 0..n {
                    let sum = u64::from(u[i + j]) + u64::from(v[i]) + c;
                    u[i + j] = sum as u32;
                    c = sum >> 32;
                }
                u[j + n] = u[j + n].wrapping_add(c as u32);
            }
            q[j] = qhat as u32;
        }
        let mut quotient = Big { limbs: q };
        quotient.trim();
        quotient
    }

    /// `floor(sqrt(self))`, by Newton's iteration from above.
    pub fn isqrt(&self) -> Big {
        if self.is_zero() {
            return Big::zero();
        }
        let mut x = Big::from_u64(1);
        x.shl(self.bit_len().div_ceil(2));
        loop {
            // y = (x + self / x) / 2
            let mut y = x.add(&self.div(&x));
            y.shr(1);
            if y >= x {
                return x;
            }
            x = y;
        }
    }

    /// Drops leading zero limbs, restoring the representation invariant.
    fn trim(&mut self) {
        while self.limbs.last() == Some(&0) {
            self.limbs.pop();
        }
    }

    /// Whether the value is odd.
    pub fn is_odd(&self) -> bool {
        self.limbs.first().is_some_and(|l| l & 1 == 1)
    }

    /// Adds `v` in place.
    pub fn add_small(&mut self, mut v: u32) {
        for limb in &mut self.limbs {
            let (sum, carry) = limb.overflowing_add(v);
            *limb = sum;
            if !carry {
                return;
            }
            v = 1;
        }
        if v != 0 {
            self.limbs.push(v);
        }
    }

    /// Multiplies by `factor` in place.
    pub fn mul_small(&mut self, factor: u32) {
        let mut carry = 0u64;
        for limb in &mut self.limbs {
            let p = u64::from(*limb) * u64::from(factor) + carry;
            *limb = p as u32;
            carry = p >> 32;
        }
        if carry != 0 {
            self.limbs.push(carry as u32);
        }
    }

    /// Divides by `divisor` (non-zero) in place, returning the remainder.
    pub fn div_small(&mut self, divisor: u32) -> u32 {
        let mut rem = 0u64;
        for limb in self.limbs.iter_mut().rev() {
            let cur = (rem << 32) | u64::from(*limb);
            *limb = (cur / u64::from(divisor)) as u32;
            rem = cur % u64::from(divisor);
        }
        self.trim();
        rem as u32
    }

    /// Multiplies by `5^n` in place.
    pub fn mul_pow5(&mut self, mut n: usize) {
        while n >= 13 {
            self.mul_small(POW5_13);
            n -= 13;
        }
        if n > 0 {
            self.mul_small(5u32.pow(n as u32));
        }
    }

    /// Floor division by `5^n` (successive floor divisions compose exactly).
    pub fn div_pow5(&mut self, mut n: usize) {
        while n >= 13 {
            self.div_small(POW5_13);
            n -= 13;
        }
        if n > 0 {
            self.div_small(5u32.pow(n as u32));
        }
    }

    /// Multiplies by `2^bits` in place.
    pub fn shl(&mut self, bits: usize) {
        if self.limbs.is_empty() {
            return;
        }
        let (words, rest) = (bits / 32, bits % 32);
        if rest != 0 {
            let mut carry = 0u32;
            for limb in &mut self.limbs {
                let next = *limb >> (32 - rest);
                *limb = (*limb << rest) | carry;
                carry = next;
            }
            if carry != 0 {
                self.limbs.push(carry);
            }
        }
        if words > 0 {
            self.limbs.splice(0..0, vec![0; words]);
        }
    }

    /// Floor division by `2^bits`.
    pub fn shr(&mut self, bits: usize) {
        let (words, rest) = (bits / 32, bits % 32);
        if words >= self.limbs.len() {
            self.limbs.clear();
            return;
        }
        self.limbs.drain(..words);
        if rest != 0 {
            let len = self.limbs.len();
            for i in 0..len {
                let high = if i + 1 < len {
                    self.limbs[i + 1] << (32 - rest)
                } else {
                    0
                };
                self.limbs[i] = (self.limbs[i] >> rest) | high;
            }
        }
        self.trim();
    }

    /// The decimal digits, most significant first (`"0"` for zero).
    pub fn to_decimal(&self) -> Vec<u8> {
        let mut n = self.clone();
        let mut chunks = Vec::new();
        while !n.limbs.is_empty() {
            chunks.push(n.div_small(1_000_000_000));
        }
        let mut text = Vec::with_capacity(chunks.len() * 9 + 1);
        match chunks.pop() {
            None => text.push(b'0'),
            Some(top) => text.extend_from_slice(top.to_string().as_bytes()),
        }
        for chunk in chunks.iter().rev() {
            text.extend_from_slice(format!("{chunk:09}").as_bytes());
        }
        text
    }
}

impl PartialOrd for Big {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Big {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.limbs
            .len()
            .cmp(&other.limbs.len())
            .then_with(|| self.limbs.iter().rev().cmp(other.limbs.iter().rev()))
    }
}
