//! Unsigned integers of a fixed number of 64-bit limbs, for edge weights that
//! pack many pairing criteria, one above the other, into a single number.

// Limb loops read two arrays at the same index.
#![allow(clippy::needless_range_loop)]

use std::cmp::Ordering;

/// An unsigned integer of `N` × 64 bits (little-endian limbs). Arithmetic wraps;
/// callers size `N` so that it never has to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Wide<const N: usize>(pub [u64; N]);

impl<const N: usize> Default for Wide<N> {
    fn default() -> Self {
        Wide([0; N])
    }
}

impl<const N: usize> Wide<N> {
    /// Zero.
    pub const ZERO: Self = Wide([0; N]);

    /// A small value.
    pub fn from_u64(value: u64) -> Self {
        let mut limbs = [0; N];
        limbs[0] = value;
        Wide(limbs)
    }

    /// Whether the value is zero.
    pub fn is_zero(&self) -> bool {
        self.0.iter().all(|&l| l == 0)
    }

    /// `self + rhs`.
    pub fn add(&self, rhs: &Self) -> Self {
        let mut out = [0; N];
        let mut carry = false;
        for (i, slot) in out.iter_mut().enumerate() {
            let (sum, c1) = self.0[i].overflowing_add(rhs.0[i]);
            let (sum, c2) = sum.overflowing_add(u64::from(carry));
            *slot = sum;
            carry = c1 || c2;
        }
        Wide(out)
    }

    /// `self - rhs` (wrapping).
    pub fn sub(&self, rhs: &Self) -> Self {
        let mut out = [0; N];
        let mut borrow = false;
        for (i, slot) in out.iter_mut().enumerate() {
            let (diff, b1) = self.0[i].overflowing_sub(rhs.0[i]);
            let (diff, b2) = diff.overflowing_sub(u64::from(borrow));
            *slot = diff;
            borrow = b1 || b2;
        }
        Wide(out)
    }

    /// `self / 2`.
    pub fn half(&self) -> Self {
        let mut out = [0; N];
        for i in 0..N {
            let high = if i + 1 < N { self.0[i + 1] << 63 } else { 0 };
            out[i] = (self.0[i] >> 1) | high;
        }
        Wide(out)
    }

    /// `self << bits`.
    pub fn shl(&self, bits: u32) -> Self {
        let limbs = (bits / 64) as usize;
        let bits = bits % 64;
        let mut out = [0; N];
        for i in (limbs..N).rev() {
            let source = i - limbs;
            let mut value = self.0[source] << bits;
            if bits > 0 && source > 0 {
                value |= self.0[source - 1] >> (64 - bits);
            }
            out[i] = value;
        }
        Wide(out)
    }
}

impl<const N: usize> PartialOrd for Wide<N> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<const N: usize> Ord for Wide<N> {
    fn cmp(&self, other: &Self) -> Ordering {
        for i in (0..N).rev() {
            match self.0[i].cmp(&other.0[i]) {
                Ordering::Equal => continue,
                unequal => return unequal,
            }
        }
        Ordering::Equal
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_carries_across_limbs() {
        let a = Wide::<2>([u64::MAX, 0]);
        let one = Wide::<2>::from_u64(1);
        assert_eq!(a.add(&one), Wide([0, 1]));
        assert_eq!(Wide([0, 1]).sub(&one), a);
        assert_eq!(Wide::<2>([0, 1]).half(), Wide([1 << 63, 0]));
        assert_eq!(one.shl(64), Wide([0, 1]));
        assert_eq!(one.shl(65).half(), Wide([0, 1]));
        assert_eq!(Wide::<2>([3, 0]).shl(63), Wide([1 << 63, 1]));
        assert!(Wide::<2>([0, 1]) > a);
    }
}
