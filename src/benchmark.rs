//! The measurement protocol of `docs/benchmarks.md`, shared by `cargo bench`, the native
//! runner (`ropelab bench W1 --solver xpbd`) and the browser harness, so every figure is
//! taken the same way:
//!
//! 1. build the scene (not timed);
//! 2. 100 warm-up steps (not timed);
//! 3. 1,000 timed steps in 100 chunks of 10, a monotonic clock around each chunk, the
//!    stretch sampled between chunks (not timed);
//! 4. `us_per_step` = total timed time / 1,000;
//! 5. `stretch` = max over segments of |‖p[i+1] − p[i]‖ − L| / L after the last step,
//!    `peak_stretch` = the largest of the 100 samples; the native runner also prints the
//!    samples' mean and median (a whipping chain's last sample is one draw from a wide
//!    spread: W4's ranges over 0.02–0.6 from sample to sample).

use crate::world::World;

pub const DT: f32 = 1.0 / 60.0;
pub const WARMUP_STEPS: usize = 100;
pub const CHUNKS: usize = 100;
pub const CHUNK_STEPS: usize = 10;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BenchResult {
    pub us_per_step: f64,
    pub stretch: f32,
    pub peak_stretch: f32,
    /// The mean and the median of the 100 samples (for Box2D's loop, the one sample).
    pub mean_stretch: f32,
    pub median_stretch: f32,
}

/// Runs the protocol on a freshly built `world`. `now` is a monotonic clock in seconds
/// (`Instant` natively, `performance.now()` in a browser).
pub fn run_protocol(world: &mut World, now: impl FnMut() -> f64) -> BenchResult {
    run_protocol_with(world, now, World::max_stretch)
}

/// [`run_protocol`] with the workload's own stretch measure (W4: body centres).
pub fn run_protocol_with(
    world: &mut World,
    mut now: impl FnMut() -> f64,
    stretch: impl Fn(&World) -> f32,
) -> BenchResult {
    for _ in 0..WARMUP_STEPS {
        world.step(DT).expect("fixed dt is valid");
    }
    let mut total = 0.0f64;
    let mut samples = [0.0f32; CHUNKS];
    for sample in samples.iter_mut() {
        let t0 = now();
        for _ in 0..CHUNK_STEPS {
            world.step(DT).expect("fixed dt is valid");
        }
        total += now() - t0;
        *sample = stretch(world);
    }
    let peak = samples.iter().fold(0.0f32, |m, &x| m.max(x));
    let mean = samples.iter().sum::<f32>() / CHUNKS as f32;
    // (The crate's own small sort: the standard one adds kilobytes to the wasm.)
    crate::sort::insertion_sort_by(&mut samples, |a, b| a.total_cmp(b).is_lt());
    BenchResult {
        us_per_step: total * 1e6 / (CHUNKS * CHUNK_STEPS) as f64,
        stretch: stretch(world),
        peak_stretch: peak,
        mean_stretch: mean,
        median_stretch: samples[CHUNKS / 2],
    }
}

/// Steps of Box2D v3's own benchmark loop (its `benchmark/main.c`): the first untimed ("the
/// initial step can be expensive and skew the benchmark"), the other 499 timed as one
/// interval. W7 `large_pyramid` runs it, so its line sits beside the Box2D peer's.
pub const BOX2D_STEPS: usize = 500;

/// Box2D's loop on a freshly built `world`: one untimed step, then [`BOX2D_STEPS`] − 1 timed
/// as one interval; `quality` is measured once, at the end (`stretch` and `peak_stretch` both).
pub fn run_box2d_protocol(
    world: &mut World,
    mut now: impl FnMut() -> f64,
    quality: impl Fn(&World) -> f32,
) -> BenchResult {
    world.step(DT).expect("fixed dt is valid");
    let t0 = now();
    for _ in 1..BOX2D_STEPS {
        world.step(DT).expect("fixed dt is valid");
    }
    let total = now() - t0;
    let q = quality(world);
    let us_per_step = total * 1e6 / (BOX2D_STEPS - 1) as f64;
    BenchResult { us_per_step, stretch: q, peak_stretch: q, mean_stretch: q, median_stretch: q }
}

/// Median of several results, field by field (the peers' figures are medians of 5 runs).
pub fn median(results: &[BenchResult]) -> BenchResult {
    fn med<T: Copy + PartialOrd>(mut v: Vec<T>) -> T {
        crate::sort::insertion_sort_by(&mut v, |a, b| a.partial_cmp(b).expect("no NaN in results").is_lt());
        v[v.len() / 2]
    }
    BenchResult {
        us_per_step: med(results.iter().map(|r| r.us_per_step).collect()),
        stretch: med(results.iter().map(|r| r.stretch).collect()),
        peak_stretch: med(results.iter().map(|r| r.peak_stretch).collect()),
        mean_stretch: med(results.iter().map(|r| r.mean_stretch).collect()),
        median_stretch: med(results.iter().map(|r| r.median_stretch).collect()),
    }
}

/// `x.xxxe±n`, the number format of docs/benchmarks.md (sign of the exponent always shown).
pub fn sci(x: f32) -> String {
    let s = format!("{:.3e}", x);
    match s.split_once('e') {
        Some((m, e)) if !e.starts_with('-') => format!("{m}e+{e}"),
        _ => s,
    }
}

/// One line in the exact output format of docs/benchmarks.md.
pub fn format_line(engine: &str, workload: &str, r: &BenchResult) -> String {
    format_line_as(engine, workload, r, ("stretch", "peak_stretch"))
}

/// [`format_line`] with the quality figures named `names` (W6 `pyramid20`: `drift`,
/// `peak_drift`, as docs/benchmarks.md's line for it).
pub fn format_line_as(engine: &str, workload: &str, r: &BenchResult, names: (&str, &str)) -> String {
    format!(
        "{engine} {workload} us_per_step={:.3} {}={} {}={}",
        r.us_per_step,
        names.0,
        sci(r.stretch),
        names.1,
        sci(r.peak_stretch)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_format_matches_benchmarks_md() {
        let r =
            BenchResult { us_per_step: 8.8, stretch: 0.53, peak_stretch: 1.42, mean_stretch: 0.5, median_stretch: 0.5 };
        assert_eq!(
            format_line("ropelab-classic", "W1", &r),
            "ropelab-classic W1 us_per_step=8.800 stretch=5.300e-1 peak_stretch=1.420e+0"
        );
        assert_eq!(
            format_line_as("ropelab-impulse", "pyramid20", &r, ("drift", "peak_drift")),
            "ropelab-impulse pyramid20 us_per_step=8.800 drift=5.300e-1 peak_drift=1.420e+0"
        );
        assert_eq!(sci(0.0), "0.000e+0");
        assert_eq!(sci(1.0e-5), "1.000e-5");
    }

    #[test]
    fn median_is_per_field() {
        let r =
            |u, s, p| BenchResult { us_per_step: u, stretch: s, peak_stretch: p, mean_stretch: s, median_stretch: s };
        let m = median(&[r(3.0, 0.1, 0.5), r(1.0, 0.3, 0.4), r(2.0, 0.2, 0.6)]);
        assert_eq!(m, r(2.0, 0.2, 0.5));
    }
}
