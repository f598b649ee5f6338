//! `lang::builtins::bignum::Big` against Rust's `u128` arithmetic (the oracle) on random
//! operands, including multi-limb divisions that exercise every branch of Algorithm D.

use lang::builtins::bignum::Big;
use proptest::prelude::*;

fn big(v: u128) -> Big {
    let mut b = Big::from_u64((v >> 64) as u64);
    b.shl(64);
    b.add(&Big::from_u64(v as u64))
}

fn decimal(b: &Big) -> String {
    String::from_utf8(b.to_decimal()).unwrap()
}

/// Operands with runs of zero and one bits, where carries and quotient corrections happen.
fn operand() -> impl Strategy<Value = u128> {
    prop_oneof![
        any::<u128>(),
        any::<u64>().prop_map(u128::from),
        (0u32..128, 0u32..128).prop_map(|(a, b)| (u128::MAX >> a) << (b % (128 - a).max(1))),
        (any::<u128>(), 0u32..127).prop_map(|(v, s)| v >> s),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arithmetic_matches_u128(a in operand(), b in operand()) {
        prop_assert_eq!(decimal(&big(a)), a.to_string());
        prop_assert_eq!(big(a).bit_len(), (128 - a.leading_zeros()) as usize);
        prop_assert_eq!(big(a).cmp(&big(b)), a.cmp(&b));
        if let Some(sum) = a.checked_add(b) {
            prop_assert_eq!(decimal(&big(a).add(&big(b))), sum.to_string());
        }
        let (hi, lo) = if a >= b { (a, b) } else { (b, a) };
        prop_assert_eq!(decimal(&big(hi).sub(&big(lo))), (hi - lo).to_string());
        let (x, y) = (a as u64, b as u64);
        prop_assert_eq!(
            decimal(&big(u128::from(x)).mul(&big(u128::from(y)))),
            (u128::from(x) * u128::from(y)).to_string()
        );
        if b != 0 {
            prop_assert_eq!(decimal(&big(a).div(&big(b))), (a / b).to_string());
        }
        let mut shifted = big(a);
        shifted.shr((b % 130) as usize);
        prop_assert_eq!(decimal(&shifted), a.checked_shr((b % 130) as u32).unwrap_or(0).to_string());
        prop_assert_eq!(big(a).any_bits_below((b % 128) as usize), a & ((1u128 << (b % 128)) - 1) != 0);
    }

    #[test]
    fn wide_division_and_square_root(a in operand(), b in operand(), c in operand()) {
        // (a * 2^128 + b) / c with a < c checked via q * c + r == n and r < c.
        prop_assume!(c != 0);
        let n = big(a).mul(&{ let mut s = Big::from_u64(1); s.shl(128); s }).add(&big(b));
        let q = big_div_checked(&n, &big(c));
        prop_assert!(q);
        let root = big(a).isqrt();
        let r: u128 = decimal(&root).parse().unwrap();
        prop_assert!(r * r <= a);
        let next_square_exceeds = match (r + 1).checked_mul(r + 1) {
            Some(square) => square > a,
            None => true,
        };
        prop_assert!(next_square_exceeds);
    }
}

/// Checks `n / d` by the defining identity `q * d + r == n`, `r < d`.
fn big_div_checked(n: &Big, d: &Big) -> bool {
    let q = n.div(d);
    let product = q.mul(d);
    if product > *n {
        return false;
    }
    let r = n.sub(&product);
    r < *d
}
