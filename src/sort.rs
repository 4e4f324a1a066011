//! Sorting with less wasm (issue 12 §5, the size budget). std's sorts are monomorphised per
//! element type and comparator, several KB of wasm each (driftsort for `sort_by`, ipnsort for
//! `sort_unstable_by`); the engine had six stable and seven unstable copies. Here:
//! - [`insertion_sort_by`] for the short, cold slices (a contact patch's ≤ 4 points, a hull's
//!   8 points, 2 roots, 5 benchmark runs): a few hundred bytes, and being stable it returns
//!   exactly what `sort_by` returns for the same comparator (a stable sort's output is unique);
//! - [`sort_f32_total`], which routes one more sort to an instantiation the engine has
//!   anyway (as the broad phase and the top-view report sort `(u32, u32)` keys,
//!   `collide::broad::key`, rather than floats with a comparator).
//!
//! So no stable sort is left in the wasm.

/// Sorts `v` stably by `less` (`less(a, b)` ⇔ `a` orders strictly before `b`), like
/// `v.sort_by(cmp)` with `less = |a, b| cmp(a, b) == Ordering::Less`. Quadratic: for short
/// slices only.
pub fn insertion_sort_by<T>(v: &mut [T], mut less: impl FnMut(&T, &T) -> bool) {
    for i in 1..v.len() {
        let mut j = i;
        while j > 0 && less(&v[j], &v[j - 1]) {
            v.swap(j, j - 1);
            j -= 1;
        }
    }
}

/// `v.sort_by(f32::total_cmp)`, done as `sort_unstable()` of `u32` keys that order like
/// `total_cmp` (the engine sorts `u32`s already, so no new sort is instantiated). Exact:
/// floats equal under `total_cmp` have the same bits, and the keys map back bit for bit.
pub fn sort_f32_total(v: &mut [f32]) {
    // Negative floats (sign set): flip every bit, so larger magnitudes come first and all
    // sit below the positives; positive: set the sign bit. -0 sorts just below +0, NaNs at
    // the ends, as total_cmp orders them.
    let key = |x: f32| {
        let b = x.to_bits();
        if b >> 31 == 1 {
            !b
        } else {
            b | 0x8000_0000
        }
    };
    let unkey = |k: u32| f32::from_bits(if k >> 31 == 1 { k & 0x7fff_ffff } else { !k });
    let mut keys: Vec<u32> = v.iter().map(|&x| key(x)).collect();
    keys.sort_unstable();
    for (x, k) in v.iter_mut().zip(keys) {
        *x = unkey(k);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_std_stable_sort_including_ties() {
        // Pairs sorted by their first field only: ties must keep their input order.
        let mut seed = 12345u32;
        for n in 0..40 {
            let v: Vec<(u8, u32)> = (0..n)
                .map(|i| {
                    seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                    ((seed >> 16) as u8 % 5, i)
                })
                .collect();
            let mut a = v.clone();
            let mut b = v.clone();
            a.sort_by_key(|x| x.0);
            insertion_sort_by(&mut b, |x, y| x.0 < y.0);
            assert_eq!(a, b);
        }
    }

    #[test]
    fn f32_keys_sort_like_total_cmp() {
        let mut v = vec![
            1.5,
            -0.0,
            0.0,
            -2.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            -f32::NAN,
            f32::MIN_POSITIVE,
            -f32::MIN_POSITIVE,
            1e-45,
            -1e-45,
            3.0,
            -7.25,
            1.5,
        ];
        let mut want = v.clone();
        want.sort_by(f32::total_cmp);
        sort_f32_total(&mut v);
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&v), bits(&want));
    }
}
