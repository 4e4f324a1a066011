//! A JSON number's text to f64 and to f32, correctly rounded (to nearest, ties to even), as
//! serde_json's `float_roundtrip` and core's `str::parse` read it, in far less wasm than core's
//! parser (whose Eisel–Lemire table of 128-bit powers of five is about 10 KB gzipped).
//!
//! Most numbers take Clinger's fast path: a significand that is exact in the format times or
//! divided by a power of ten that is exact too is one correctly rounded operation. Every other
//! number starts from an estimate a few ulps off at most (the significand's first 19 digits
//! scaled by the table of powers of ten) and is corrected by exact comparison: the decimal
//! `D·10^e` against the midpoint `(2m+1)·2^(k-1)` between a candidate `m·2^k` and its
//! neighbour, both sides integers once the powers of five and two are moved across. The
//! estimate steps one ulp at a time until the value lies between the candidate's two
//! midpoints. Digits past the 800th only matter by being non-zero: 800 digits are more than the
//! 767 significant digits of the longest midpoint between two f64s, so one sticky digit in
//! their place rounds the same.

use std::cmp::Ordering;

/// A float format by its bits: f64 or f32 (its bits in a u64).
#[derive(Clone, Copy)]
struct Format {
    /// Fraction bits.
    mant: u32,
    bias: i32,
    /// The bits of the largest finite value (one more is infinity).
    max: u64,
}

const F64: Format = Format { mant: 52, bias: 1023, max: 0x7fef_ffff_ffff_ffff };
const F32: Format = Format { mant: 23, bias: 127, max: 0x7f7f_ffff };

/// Significant digits kept (see the module docs).
const MAX_DIGITS: usize = 800;

/// The decimal `D·10^exp`, D by its digits (0-9, no leading zeros).
struct Decimal {
    digits: Vec<u8>,
    exp: i32,
}

impl Decimal {
    /// The digits of a JSON number's text (syntax already checked, no sign).
    fn new(text: &[u8]) -> Decimal {
        let (mut digits, mut exp, mut frac, mut sticky) = (Vec::new(), 0i32, false, false);
        let mut i = 0;
        while i < text.len() {
            match text[i] {
                b'.' => frac = true,
                c @ b'0'..=b'9' => {
                    let d = c - b'0';
                    if digits.is_empty() && d == 0 {
                        exp -= i32::from(frac);
                    } else if digits.len() < MAX_DIGITS {
                        digits.push(d);
                        exp -= i32::from(frac);
                    } else {
                        sticky |= d != 0;
                        exp += i32::from(!frac);
                    }
                }
                _ => break,
            }
            i += 1;
        }
        if i < text.len() {
            // `e`/`E`, a sign, digits: past ±100,000 every non-zero value is 0 or infinite.
            let negative = text.get(i + 1) == Some(&b'-');
            let e = text[i + 1..]
                .iter()
                .filter(|c| c.is_ascii_digit())
                .fold(0i32, |e, c| (e * 10 + i32::from(c - b'0')).min(100_000));
            exp = if negative { exp - e } else { exp + e };
        }
        if sticky {
            digits.push(1);
            exp -= 1;
        }
        Decimal { digits, exp }
    }

    /// The first 19 digits as an integer and the power of ten that scales them to the value
    /// (the estimate's parts).
    fn head(&self) -> (u64, i32) {
        let n = self.digits.len().min(19);
        let sig = self.digits[..n].iter().fold(0u64, |s, &d| s * 10 + u64::from(d));
        (sig, self.exp + (self.digits.len() - n) as i32)
    }
}

/// An unsigned integer in 32-bit limbs, least significant first.
#[derive(Clone)]
struct Big(Vec<u32>);

impl Big {
    fn times_plus(&mut self, m: u32, a: u32) {
        let mut carry = u64::from(a);
        for limb in &mut self.0 {
            let x = u64::from(*limb) * u64::from(m) + carry;
            *limb = x as u32;
            carry = x >> 32;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
    }

    fn mul_pow5(&mut self, mut n: u32) {
        while n > 0 {
            let k = n.min(13);
            self.times_plus(5u32.pow(k), 0);
            n -= k;
        }
    }

    fn shl(&mut self, n: u32) {
        let (limbs, bits) = ((n / 32) as usize, n % 32);
        if bits > 0 {
            self.times_plus(1 << bits, 0);
        }
        self.0.splice(0..0, std::iter::repeat_n(0, limbs));
    }

    fn cmp(&self, other: &Big) -> Ordering {
        let len = |b: &Big| b.0.iter().rposition(|&l| l != 0).map_or(0, |i| i + 1);
        let (a, b) = (len(self), len(other));
        a.cmp(&b).then_with(|| self.0[..a].iter().rev().cmp(other.0[..b].iter().rev()))
    }
}

/// The decimal (D as `d`) against the midpoint above the finite value with bits `b`.
fn cmp_upper_midpoint(d: &Big, exp: i32, b: u64, f: Format) -> Ordering {
    let (field, frac) = ((b >> f.mant) as i32, b & ((1 << f.mant) - 1));
    let (m, k) = if field == 0 {
        (frac, 1 - f.bias - f.mant as i32)
    } else {
        (frac | 1 << f.mant, field - f.bias - f.mant as i32)
    };
    // D·5^e·2^e against (2m+1)·2^(k-1): the fives to the side whose power is positive, then
    // the twos' difference to the other side.
    let (mut l, mut r) = (d.clone(), Big(vec![(2 * m + 1) as u32, ((2 * m + 1) >> 32) as u32]));
    if exp >= 0 {
        l.mul_pow5(exp as u32);
    } else {
        r.mul_pow5(exp.unsigned_abs());
    }
    let two = k - 1 - exp;
    if two >= 0 {
        r.shl(two as u32);
    } else {
        l.shl(two.unsigned_abs());
    }
    l.cmp(&r)
}

/// The bits of the decimal rounded to the format, from an estimate's bits (positive, finite or
/// not): infinity's bits past the largest finite value.
fn correct(dec: &Decimal, estimate: u64, f: Format) -> u64 {
    let mut d = Big(Vec::new());
    for &digit in &dec.digits {
        d.times_plus(10, u32::from(digit));
    }
    let mut b = estimate.min(f.max);
    // Down while the value is below the lower midpoint (or on it, and the lower neighbour even).
    while b > 0 {
        match cmp_upper_midpoint(&d, dec.exp, b - 1, f) {
            Ordering::Less => b -= 1,
            Ordering::Equal if (b - 1) % 2 == 0 => b -= 1,
            _ => break,
        }
    }
    // Up while it is above the upper midpoint (or on it, and this one odd); past the largest
    // finite value is infinity (its fraction is odd, so a tie goes up too).
    while b <= f.max {
        match cmp_upper_midpoint(&d, dec.exp, b, f) {
            Ordering::Greater => b += 1,
            Ordering::Equal if b % 2 == 1 => b += 1,
            _ => break,
        }
    }
    b
}

/// 10^|n| from the table (n ≤ 22 on the fast paths, where it is exact).
fn pow10(pow10: &[f64], n: i32) -> f64 {
    pow10[n.unsigned_abs() as usize]
}

/// The number's text (no sign) read as an f64 and as an f32, correctly rounded; infinite
/// where too large for the format. `table` is 10^0 … 10^308 (the estimate's scale).
pub(super) fn parse(text: &[u8], table: &[f64]) -> (f64, f32) {
    let dec = Decimal::new(text);
    let n = dec.digits.len() as i32;
    if n == 0 || dec.exp + n < -330 {
        // Zero, or below half the smallest subnormal.
        return (0.0, 0.0);
    }
    if dec.exp + n > 310 {
        return (f64::INFINITY, f32::INFINITY);
    }
    let (sig, e) = dec.head();
    let exact = n <= 19;
    // f64: Clinger's fast path, or the estimate corrected.
    let x = if exact && sig <= 1 << 53 && e.abs() <= 22 {
        if e >= 0 {
            sig as f64 * pow10(table, e)
        } else {
            sig as f64 / pow10(table, e)
        }
    } else {
        let mut est = sig as f64;
        let mut e = e;
        // Within a few ulps (each step one rounding), so the correction takes a few steps.
        while e < -308 {
            est /= 1e308;
            e += 308;
        }
        while e > 308 {
            est *= 1e308;
            e -= 308;
        }
        est = if e >= 0 { est * table[e as usize] } else { est / table[(-e) as usize] };
        f64::from_bits(correct(&dec, if est.is_finite() { est.to_bits() } else { F64.max }, F64))
    };
    // f32: its fast path (5^10 < 2^24), or the f64's rounding as the estimate, corrected.
    let y = if exact && sig <= 1 << 24 && e.abs() <= 10 {
        let p = pow10(table, e) as f32;
        if e >= 0 {
            sig as f32 * p
        } else {
            sig as f32 / p
        }
    } else {
        let est = x as f32;
        f32::from_bits(correct(&dec, if est.is_finite() { u64::from(est.to_bits()) } else { F32.max }, F32) as u32)
    };
    (x, y)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Vec<f64> {
        (0..=308).map(|n| format!("1e{n}").parse().unwrap()).collect()
    }

    /// Against core's parser (correctly rounded), text by text, as f64 and f32 bits.
    fn check(text: &str, table: &[f64]) {
        let (x, y) = parse(text.as_bytes(), table);
        let (wx, wy): (f64, f32) = (text.parse().unwrap(), text.parse().unwrap());
        assert_eq!(x.to_bits(), wx.to_bits(), "{text} as f64: {x:e}, want {wx:e}");
        assert_eq!(y.to_bits(), wy.to_bits(), "{text} as f32: {y:e}, want {wy:e}");
    }

    #[test]
    fn reads_as_cores_parser() {
        let table = table();
        let mut texts: Vec<String> = [
            "0",
            "0.0",
            "1",
            "0.1",
            "0.30000000000000004",
            "0.23333334550261497",
            "9007199254740993",
            "9007199254740995",
            "9007199254740993.0000000000000000000000000000001",
            "2.2250738585072011e-308",
            "2.2250738585072014e-308",
            "4.9e-324",
            "2.4703282292062327e-324",
            "2.4703282292062328e-324",
            "1e-330",
            "1.7976931348623157e308",
            "1.7976931348623158e308",
            "1.7976931348623159e308",
            "1e309",
            "3.4028235e38",
            "3.40282356779733661637539395458142568448e38",
            "3.4028236e38",
            "1e-45",
            "7e-46",
            "1.00000005960464477539062499",
            "1.000000059604644775390625",
            "1.00000005960464477539062501",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        texts.push(format!("{}e-400", "1".repeat(900)));
        texts.push(format!("0.{}1e10", "0".repeat(850)));
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..20_000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let x = f64::from_bits(s);
            if x.is_finite() {
                let x = x.abs();
                texts.push(format!("{x}"));
                texts.push(format!("{x:e}"));
                texts.push(format!("{x:.25e}"));
            }
            // An f32 midpoint, exactly (ties to even), and just off it either way.
            let g = f32::from_bits(s as u32 & 0x7fff_fffe);
            if g.is_finite() && g > 0.0 {
                let mid = (f64::from(g) + f64::from(f32::from_bits(g.to_bits() + 1))) / 2.0;
                let exact = format!("{mid:.800e}");
                let (m, e) = exact.split_once('e').unwrap();
                let m = m.trim_end_matches('0');
                texts.push(format!("{m}e{e}"));
                texts.push(format!("{m}1e{e}"));
                texts.push(format!("{mid:.30e}"));
            }
        }
        for text in &texts {
            check(text, &table);
        }
    }
}
