//! The accumulator and output kernels. Written once as plain loops over 16-wide
//! chunks, which the compiler vectorises; on x86-64 the same loops are compiled a
//! second time with AVX2 enabled and chosen at run time when the CPU has it.
//! Integer arithmetic: every version gives the same result.

#[inline(always)]
fn add_portable(acc: &mut [i16], row: &[i16]) {
    for (a, r) in acc.chunks_exact_mut(16).zip(row.chunks_exact(16)) {
        for i in 0..16 {
            a[i] = a[i].wrapping_add(r[i]);
        }
    }
}

#[inline(always)]
fn sub_portable(acc: &mut [i16], row: &[i16]) {
    for (a, r) in acc.chunks_exact_mut(16).zip(row.chunks_exact(16)) {
        for i in 0..16 {
            a[i] = a[i].wrapping_sub(r[i]);
        }
    }
}

/// `out = input + add − sub`, one pass.
#[inline(always)]
fn add_sub_portable(out: &mut [i16], input: &[i16], add: &[i16], sub: &[i16]) {
    for (((o, i), a), s) in out
        .chunks_exact_mut(16)
        .zip(input.chunks_exact(16))
        .zip(add.chunks_exact(16))
        .zip(sub.chunks_exact(16))
    {
        for k in 0..16 {
            o[k] = i[k].wrapping_add(a[k]).wrapping_sub(s[k]);
        }
    }
}

/// `out = input + add − sub1 − sub2` (captures), one pass.
#[inline(always)]
fn add_sub_sub_portable(out: &mut [i16], input: &[i16], add: &[i16], sub1: &[i16], sub2: &[i16]) {
    for ((((o, i), a), s1), s2) in out
        .chunks_exact_mut(16)
        .zip(input.chunks_exact(16))
        .zip(add.chunks_exact(16))
        .zip(sub1.chunks_exact(16))
        .zip(sub2.chunks_exact(16))
    {
        for k in 0..16 {
            o[k] = i[k]
                .wrapping_add(a[k])
                .wrapping_sub(s1[k])
                .wrapping_sub(s2[k]);
        }
    }
}

/// `Σ clamp(a, 0, QA)² · w`, each product formed as `(v · w) · v` so the first
/// factor fits in 16 bits.
#[inline(always)]
fn screlu_dot_portable(acc: &[i16], weights: &[i16]) -> i64 {
    let mut sums = [0i32; 16];
    for (a, w) in acc.chunks_exact(16).zip(weights.chunks_exact(16)) {
        for i in 0..16 {
            let v = a[i].clamp(0, super::QA as i16);
            let t = v.wrapping_mul(w[i]);
            sums[i] = sums[i].wrapping_add(i32::from(t) * i32::from(v));
        }
    }
    // Each lane stays within i32 (at most 32 terms of 255² · 127); their total
    // may not.
    sums.iter().map(|&x| i64::from(x)).sum()
}

pub(super) use dispatch::{add, add_sub, add_sub_sub, screlu_dot, sub};

#[cfg(not(target_arch = "x86_64"))]
mod dispatch {
    pub(in crate::nnue) fn add(acc: &mut [i16], row: &[i16]) {
        super::add_portable(acc, row)
    }
    pub(in crate::nnue) fn sub(acc: &mut [i16], row: &[i16]) {
        super::sub_portable(acc, row)
    }
    pub(in crate::nnue) fn screlu_dot(acc: &[i16], weights: &[i16]) -> i64 {
        super::screlu_dot_portable(acc, weights)
    }
    pub(in crate::nnue) fn add_sub(out: &mut [i16], input: &[i16], add: &[i16], sub: &[i16]) {
        super::add_sub_portable(out, input, add, sub)
    }
    pub(in crate::nnue) fn add_sub_sub(
        out: &mut [i16],
        input: &[i16],
        add: &[i16],
        sub1: &[i16],
        sub2: &[i16],
    ) {
        super::add_sub_sub_portable(out, input, add, sub1, sub2)
    }
}

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod dispatch {
    use std::sync::atomic::{AtomicU8, Ordering};

    const UNKNOWN: u8 = 0;
    const PORTABLE: u8 = 1;
    const AVX2: u8 = 2;
    static LEVEL: AtomicU8 = AtomicU8::new(UNKNOWN);

    #[inline(always)]
    fn has_avx2() -> bool {
        match LEVEL.load(Ordering::Relaxed) {
            AVX2 => true,
            PORTABLE => false,
            _ => {
                // CAISSA_PORTABLE_KERNELS=1 keeps the portable loops (to compare).
                let forced = std::env::var_os("CAISSA_PORTABLE_KERNELS").is_some();
                let level = if !forced && std::is_x86_feature_detected!("avx2") {
                    AVX2
                } else {
                    PORTABLE
                };
                LEVEL.store(level, Ordering::Relaxed);
                level == AVX2
            }
        }
    }

    #[target_feature(enable = "avx2")]
    fn add_avx2(acc: &mut [i16], row: &[i16]) {
        super::add_portable(acc, row)
    }
    #[target_feature(enable = "avx2")]
    fn sub_avx2(acc: &mut [i16], row: &[i16]) {
        super::sub_portable(acc, row)
    }
    #[target_feature(enable = "avx2")]
    fn screlu_dot_avx2(acc: &[i16], weights: &[i16]) -> i64 {
        super::screlu_dot_portable(acc, weights)
    }
    #[target_feature(enable = "avx2")]
    fn add_sub_avx2(out: &mut [i16], input: &[i16], add: &[i16], sub: &[i16]) {
        super::add_sub_portable(out, input, add, sub)
    }
    #[target_feature(enable = "avx2")]
    fn add_sub_sub_avx2(out: &mut [i16], input: &[i16], add: &[i16], s1: &[i16], s2: &[i16]) {
        super::add_sub_sub_portable(out, input, add, s1, s2)
    }

    #[inline]
    pub(in crate::nnue) fn add_sub(out: &mut [i16], input: &[i16], add: &[i16], sub: &[i16]) {
        if has_avx2() {
            // SAFETY: as in `add`.
            unsafe { add_sub_avx2(out, input, add, sub) }
        } else {
            super::add_sub_portable(out, input, add, sub)
        }
    }
    #[inline]
    pub(in crate::nnue) fn add_sub_sub(
        out: &mut [i16],
        input: &[i16],
        add: &[i16],
        sub1: &[i16],
        sub2: &[i16],
    ) {
        if has_avx2() {
            // SAFETY: as in `add`.
            unsafe { add_sub_sub_avx2(out, input, add, sub1, sub2) }
        } else {
            super::add_sub_sub_portable(out, input, add, sub1, sub2)
        }
    }

    #[inline]
    pub(in crate::nnue) fn add(acc: &mut [i16], row: &[i16]) {
        if has_avx2() {
            // SAFETY: the CPU has AVX2 (checked at run time above); the function
            // is the portable loop, compiled with AVX2 enabled.
            unsafe { add_avx2(acc, row) }
        } else {
            super::add_portable(acc, row)
        }
    }
    #[inline]
    pub(in crate::nnue) fn sub(acc: &mut [i16], row: &[i16]) {
        if has_avx2() {
            // SAFETY: as in `add`.
            unsafe { sub_avx2(acc, row) }
        } else {
            super::sub_portable(acc, row)
        }
    }
    #[inline]
    pub(in crate::nnue) fn screlu_dot(acc: &[i16], weights: &[i16]) -> i64 {
        if has_avx2() {
            // SAFETY: as in `add`.
            unsafe { screlu_dot_avx2(acc, weights) }
        } else {
            super::screlu_dot_portable(acc, weights)
        }
    }

    /// Whether the AVX2 kernels are in use (tests compare them with the portable ones).
    #[cfg(test)]
    pub(in crate::nnue) fn avx2_in_use() -> bool {
        has_avx2()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rng;

    fn random(rng: &mut Rng, n: usize, lo: i16, hi: i16) -> Vec<i16> {
        let span = (i32::from(hi) - i32::from(lo) + 1) as usize;
        (0..n).map(|_| lo + rng.below(span) as i16).collect()
    }

    #[test]
    fn vector_and_portable_kernels_agree() {
        let mut rng = Rng::new(11);
        for n in [16, 64, 128, 256, 512] {
            let acc = random(&mut rng, n, -600, 600);
            let row = random(&mut rng, n, -500, 500);
            let w = random(&mut rng, n, -126, 126);
            let mut a1 = acc.clone();
            let mut a2 = acc.clone();
            add(&mut a1, &row);
            add_portable(&mut a2, &row);
            assert_eq!(a1, a2);
            sub(&mut a1, &row);
            sub_portable(&mut a2, &row);
            assert_eq!(a1, acc);
            assert_eq!(a2, acc);
            assert_eq!(screlu_dot(&acc, &w), screlu_dot_portable(&acc, &w));
            let other = random(&mut rng, n, -500, 500);
            let (mut o1, mut o2) = (vec![0; n], vec![0; n]);
            add_sub(&mut o1, &acc, &row, &other);
            add_sub_portable(&mut o2, &acc, &row, &other);
            assert_eq!(o1, o2);
            let mut expected = acc.clone();
            add_portable(&mut expected, &row);
            sub_portable(&mut expected, &other);
            assert_eq!(o1, expected);
            add_sub_sub(&mut o1, &acc, &row, &other, &w);
            add_sub_sub_portable(&mut o2, &acc, &row, &other, &w);
            assert_eq!(o1, o2);
            sub_portable(&mut expected, &w);
            assert_eq!(o1, expected);
            let expected: i64 = acc
                .iter()
                .zip(&w)
                .map(|(&a, &w)| i64::from(a.clamp(0, 255)).pow(2) * i64::from(w))
                .sum();
            assert_eq!(screlu_dot(&acc, &w), expected);
        }
        #[cfg(target_arch = "x86_64")]
        eprintln!("AVX2 kernels in use: {}", dispatch::avx2_in_use());
    }
}
