//! Numbers in messages, without `core::fmt`'s float formatting (issue 12 §5, the lite wasm's
//! size). `format!("{x}")` on an `f32` or `f64` links std's Grisu and Dragon4 (with their
//! bignum and power tables), about 30 KB of wasm that the engine needs for nothing but its
//! error messages. serde_json already links `zmij` (shortest round-trip digits, for the scene
//! export); [`Num`] and [`Num32`] print through it and lay the digits out as std does.
//!
//! [`Num`]`(x)` prints what `format!("{x}")` prints for an `f64` (shortest digits that read
//! back as `x`, never an exponent: `0.000001`, `100000`, `-0`, `NaN`, `inf`), [`Num32`] the
//! same for an `f32`, and [`Exp`] what `format!("{x:e}")` prints (`1e5`, `2.5e-7`). One
//! difference: when `x` lies exactly halfway between two shortest forms (the `f32`
//! 301484.625 has 301484.62 and 301484.63), zmij picks the even last digit and std the upper
//! one. Checked against std on random bit patterns in the tests below.

use std::fmt;

/// An `f64` printed as `{}` prints it.
#[derive(Clone, Copy, Debug)]
pub struct Num(pub f64);

/// An `f32` printed as `{}` prints it (its own shortest digits, not the `f64`'s).
#[derive(Clone, Copy, Debug)]
pub struct Num32(pub f32);

/// An `f64` printed as `{:e}` prints it.
#[derive(Clone, Copy, Debug)]
pub struct Exp(pub f64);

/// A finite number's shortest decimal digits: value = 0.`digits` × 10^`point`, no leading
/// or trailing zeros in `digits` (empty for zero).
struct Decimal {
    neg: bool,
    digits: [u8; 24],
    n: usize,
    point: i32,
}

impl Decimal {
    /// Reads zmij's output (`-`? digits, `.`? digits, then `e±N`?) into digits and a point.
    fn parse(neg: bool, text: &str) -> Decimal {
        let mut d = Decimal { neg, digits: [0; 24], n: 0, point: 0 };
        // Bytes, not `str` slices: a `str` slice links core's char-boundary panic, which prints
        // the char with `Debug` (std's Unicode tables) in the lite wasm.
        let text = text.as_bytes();
        let (mantissa, e) = match text.iter().position(|&c| c == b'e') {
            Some(k) => (&text[..k], &text[k + 1..]),
            None => (text, &[][..]),
        };
        let mut before_point = true;
        for &c in mantissa {
            match c {
                b'.' => before_point = false,
                b'0'..=b'9' => {
                    if d.n == 0 && c == b'0' {
                        // A leading zero: moves the point left once past the decimal point.
                        if !before_point {
                            d.point -= 1;
                        }
                        continue;
                    }
                    if d.n < d.digits.len() {
                        d.digits[d.n] = c;
                        d.n += 1;
                    }
                    if before_point {
                        d.point += 1;
                    }
                }
                _ => {}
            }
        }
        while d.n > 0 && d.digits[d.n - 1] == b'0' {
            d.n -= 1;
        }
        if d.n == 0 {
            d.point = 0;
            return d;
        }
        let (sign, rest) = match e.first() {
            Some(b'-') => (-1, &e[1..]),
            Some(b'+') => (1, &e[1..]),
            _ => (1, e),
        };
        let mut v = 0i32;
        for &c in rest {
            v = v * 10 + i32::from(c - b'0');
        }
        d.point += sign * v;
        d
    }

    fn digits(&self) -> &[u8] {
        &self.digits[..self.n]
    }

    /// As `{}`: no exponent.
    fn plain(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.neg {
            f.write_str("-")?;
        }
        let (ds, n, p) = (self.digits(), self.n as i32, self.point);
        if n == 0 {
            return f.write_str("0");
        }
        if p <= 0 {
            f.write_str("0.")?;
            zeros(f, -p)?;
            f.write_str(ascii(ds))
        } else if p < n {
            f.write_str(ascii(&ds[..p as usize]))?;
            f.write_str(".")?;
            f.write_str(ascii(&ds[p as usize..]))
        } else {
            f.write_str(ascii(ds))?;
            zeros(f, p - n)
        }
    }

    /// As `{:e}`: `d[.ddd]eN`.
    fn exp(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.neg {
            f.write_str("-")?;
        }
        if self.n == 0 {
            return f.write_str("0e0");
        }
        let ds = self.digits();
        f.write_str(ascii(&ds[..1]))?;
        if self.n > 1 {
            f.write_str(".")?;
            f.write_str(ascii(&ds[1..]))?;
        }
        f.write_str("e")?;
        int(f, i64::from(self.point - 1))
    }
}

/// ASCII bytes (digits) as a `str`.
fn ascii(b: &[u8]) -> &str {
    std::str::from_utf8(b).unwrap_or("")
}

fn zeros(f: &mut fmt::Formatter<'_>, mut k: i32) -> fmt::Result {
    const Z: &str = "0000000000000000";
    while k > 0 {
        let m = k.min(Z.len() as i32);
        f.write_str(ascii(&Z.as_bytes()[..m as usize]))?;
        k -= m;
    }
    Ok(())
}

fn int(f: &mut fmt::Formatter<'_>, v: i64) -> fmt::Result {
    fmt::Display::fmt(&v, f)
}

/// `Some(text)` for NaN and the infinities, spelt as std spells them.
fn special(nan: bool, inf: bool, neg: bool) -> Option<&'static str> {
    if nan {
        Some("NaN")
    } else if inf {
        Some(if neg { "-inf" } else { "inf" })
    } else {
        None
    }
}

fn decimal64(x: f64) -> Decimal {
    let mut b = zmij::Buffer::new();
    Decimal::parse(x.is_sign_negative(), b.format_finite(x.abs()))
}

fn decimal32(x: f32) -> Decimal {
    let mut b = zmij::Buffer::new();
    Decimal::parse(x.is_sign_negative(), b.format_finite(x.abs()))
}

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let x = self.0;
        match special(x.is_nan(), x.is_infinite(), x < 0.0) {
            Some(s) => f.write_str(s),
            None => decimal64(x).plain(f),
        }
    }
}

impl fmt::Display for Num32 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let x = self.0;
        match special(x.is_nan(), x.is_infinite(), x < 0.0) {
            Some(s) => f.write_str(s),
            None => decimal32(x).plain(f),
        }
    }
}

impl fmt::Display for Exp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let x = self.0;
        match special(x.is_nan(), x.is_infinite(), x < 0.0) {
            Some(s) => f.write_str(s),
            None => decimal64(x).exp(f),
        }
    }
}

/// `[a, b, c]` with each number as [`Num`] prints it.
pub struct List<'a>(pub &'a [f64]);

impl fmt::Display for List<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        for (k, &x) in self.0.iter().enumerate() {
            if k > 0 {
                f.write_str(", ")?;
            }
            Num(x).fmt(f)?;
        }
        f.write_str("]")
    }
}

/// `x` rounded to `places` decimals (half away from zero), for messages that print fewer
/// digits (`{:.3}` without std's exact-precision float formatting). `1.2` prints as `1.2`,
/// not `1.200`.
pub fn rounded(x: f64, places: i32) -> Num {
    let s = libm::pow(10.0, f64::from(places));
    Num(libm::round(x * s) / s)
}

/// The `f64` nearest the shortest decimal that reads back as `x` (`0.1f32` → `0.1`, not
/// `0.10000000149011612`), when that decimal's digits and power of ten are exact `f64`s —
/// then one correctly rounded multiplication or division gives it (every `f32` with a
/// decimal exponent within ±22 of its digits); otherwise `x` itself, exactly.
pub fn f32_as_short_f64(x: f32) -> f64 {
    if !x.is_finite() {
        return x as f64;
    }
    let d = decimal32(x);
    let mut m: u64 = 0;
    for &c in &d.digits[..d.n] {
        m = m * 10 + u64::from(c - b'0');
    }
    // value = m × 10^(point − n)
    let e = d.point - d.n as i32;
    const POW10: [f64; 23] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
        1e20, 1e21, 1e22,
    ];
    let v = match usize::try_from(e.unsigned_abs()).ok().and_then(|k| POW10.get(k)) {
        Some(&p) if m < (1 << 53) => {
            if e >= 0 {
                m as f64 * p
            } else {
                m as f64 / p
            }
        }
        _ => return x as f64,
    };
    if d.neg {
        -v
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bits64(seed: &mut u64) -> u64 {
        // xorshift64*
        *seed ^= *seed >> 12;
        *seed ^= *seed << 25;
        *seed ^= *seed >> 27;
        seed.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn specials64() -> Vec<f64> {
        vec![
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.1,
            0.5,
            5.0,
            1e-6,
            1e-7,
            1e5,
            1e15,
            1e16,
            1e17,
            1e21,
            1e22,
            1e23,
            123456.789,
            0.000123,
            f64::MAX,
            f64::MIN_POSITIVE,
            5e-324,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            9.81,
            1.0 / 3.0,
            2.5e-7,
            0.1f32 as f64,
        ]
    }

    /// `got` is what std prints, or (a tie, see the module docs) a form as short that reads
    /// back as the same number and differs from std's in one digit (the last).
    fn same<T: std::str::FromStr + PartialEq + std::fmt::Debug>(got: &str, want: &str, x: T) {
        if got == want {
            return;
        }
        let (g, w) = (got.as_bytes(), want.as_bytes());
        let last_only = g.len() == w.len() && g.iter().zip(w).filter(|(a, b)| a != b).count() == 1;
        let back = got.parse::<T>().ok();
        assert!(last_only && back == Some(x), "{got} vs std's {want}");
    }

    #[test]
    fn num_prints_as_std_display_f64() {
        for x in specials64() {
            assert_eq!(Num(x).to_string(), format!("{x}"), "{:#x}", x.to_bits());
            assert_eq!(Exp(x).to_string(), format!("{x:e}"), "{:#x}", x.to_bits());
        }
        let mut ties = 0;
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..200_000 {
            let x = f64::from_bits(bits64(&mut s));
            if x.is_nan() {
                continue;
            }
            let got = Num(x).to_string();
            ties += usize::from(got != format!("{x}"));
            same(&got, &format!("{x}"), x);
            same(&Exp(x).to_string(), &format!("{x:e}"), x);
        }
        // Numbers of ordinary size (random bit patterns are mostly huge or tiny).
        for _ in 0..200_000 {
            let r = bits64(&mut s);
            let x = (r >> 11) as f64 / (1u64 << 53) as f64 * 10f64.powi((r % 24) as i32 - 12);
            let got = Num(x).to_string();
            ties += usize::from(got != format!("{x}"));
            same(&got, &format!("{x}"), x);
            same(&Exp(x).to_string(), &format!("{x:e}"), x);
        }
        // Ties are rare: 56 in these 400,000.
        assert!(ties < 200, "{ties} differences from std");
    }

    #[test]
    fn num32_prints_as_std_display_f32() {
        for x in specials64() {
            let x = x as f32;
            assert_eq!(Num32(x).to_string(), format!("{x}"), "{:#x}", x.to_bits());
        }
        let mut s = 0x1234_5678_9abc_def1u64;
        let mut ties = 0;
        for _ in 0..300_000 {
            let x = f32::from_bits(bits64(&mut s) as u32);
            if x.is_nan() {
                continue;
            }
            let got = Num32(x).to_string();
            ties += usize::from(got != format!("{x}"));
            same(&got, &format!("{x}"), x);
        }
        // An f32's ties are commoner (0.2 % of random bit patterns).
        assert!(ties < 1_500, "{ties} differences from std");
    }

    #[test]
    fn short_f64_is_the_f32s_shortest_decimal() {
        for x in [0.1f32, 0.999, 9.81, 1e-6, 2.5e-7, 1e20, 0.3, 123.456, -0.7, 0.0, -0.0] {
            let want: f64 = format!("{x}").parse().unwrap();
            assert_eq!(f32_as_short_f64(x).to_bits(), want.to_bits(), "{x}");
        }
        // Every f32 in the fast path gives the correctly rounded f64 of its shortest decimal;
        // outside it, the f32's own value.
        let mut s = 0x0ddb_a11c_afe5_eed5u64;
        for _ in 0..300_000 {
            let x = f32::from_bits(bits64(&mut s) as u32);
            if !x.is_finite() {
                continue;
            }
            let got = f32_as_short_f64(x);
            let want: f64 = Num32(x).to_string().parse().unwrap();
            assert!(got.to_bits() == want.to_bits() || got.to_bits() == (x as f64).to_bits(), "{x}");
            assert_eq!(got as f32, x);
        }
    }

    #[test]
    fn rounded_prints_fewer_digits() {
        assert_eq!(rounded(1.23456, 3).to_string(), "1.235");
        assert_eq!(rounded(1.2, 3).to_string(), "1.2");
        assert_eq!(rounded(2.0, 3).to_string(), "2");
        assert_eq!(List(&[1.0, -0.5, 1e-7]).to_string(), "[1, -0.5, 0.0000001]");
    }
}
