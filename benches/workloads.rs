//! `cargo bench`: the docs/benchmarks.md workloads for every solver.
//!
//! Two outputs: criterion's statistics for `world.step(1/60)` on each workload (after the
//! protocol's warm-up), then one line per (solver, workload) in the exact docs/benchmarks.md
//! format, from the protocol itself (100 warm-up steps, 1,000 timed steps in chunks of 10,
//! median of 5 fresh runs), so the figures sit beside the peers' lines.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, BenchmarkId, Criterion};
use ropelab::benchmark::{format_line, median, run_protocol, WARMUP_STEPS};
use ropelab::workloads::{BenchConfig, Workload};
use ropelab::SolverKind;

fn steps(c: &mut Criterion) {
    // (W7's 5,050 boxes only under `cargo bench`: `cargo test`'s unoptimised quick run of
    // the benches would take minutes over its warm-up.)
    let bench_mode = std::env::args().any(|a| a == "--bench");
    for workload in Workload::ALL.into_iter().filter(|&w| bench_mode || w != Workload::W7) {
        let mut group = c.benchmark_group(workload.name());
        if workload == Workload::W7 {
            // (5,050 boxes: about 6 ms a step)
            group.sample_size(10).measurement_time(Duration::from_secs(6));
        } else if matches!(workload, Workload::W2 | Workload::W6) {
            group.sample_size(20).measurement_time(Duration::from_secs(4));
        } else {
            group.measurement_time(Duration::from_secs(2));
        }
        for config in BenchConfig::all().into_iter().filter(|c| workload.runs_under(c.solver)) {
            let mut world = config.build(workload);
            for _ in 0..WARMUP_STEPS {
                world.step(1.0 / 60.0).unwrap();
            }
            group.bench_function(BenchmarkId::new("step", config.name()), |b| {
                b.iter(|| black_box(&mut world).step(black_box(1.0 / 60.0)).unwrap())
            });
        }
        group.finish();
    }
}

/// The leash scene (ropelab's own workload: three leashes with rope–rope contacts, dogs,
/// tangles and the braid every step).
fn leash(c: &mut Criterion) {
    let mut group = c.benchmark_group("leash");
    group.measurement_time(Duration::from_secs(2));
    for solver in [SolverKind::Xpbd, SolverKind::Pbd, SolverKind::Jacobi] {
        let mut world = ropelab::workloads::leash_world();
        world.settings.solver = solver;
        for _ in 0..WARMUP_STEPS {
            world.step(1.0 / 60.0).unwrap();
        }
        group.bench_function(BenchmarkId::new("step", solver.name()), |b| {
            b.iter(|| black_box(&mut world).step(black_box(1.0 / 60.0)).unwrap())
        });
    }
    group.finish();
}

/// `braid()` (`report::braid_json`: reduced form, hint, normal form) on the leash after
/// 52,000 steps, where the remembered word used to reach 496 letters and one call took
/// 100+ ms; it must stay under 1 ms. (600 steps in `cargo test`'s quick run of the benches.)
fn braid(c: &mut Criterion) {
    let steps = if std::env::args().any(|a| a == "--bench") { 52_000 } else { 600 };
    let mut world = ropelab::workloads::leash_world();
    for _ in 0..steps {
        world.step(1.0 / 60.0).unwrap();
    }
    let mut group = c.benchmark_group("braid");
    group.measurement_time(Duration::from_secs(2));
    group.bench_function(BenchmarkId::new("braid_json", steps), |b| {
        b.iter(|| ropelab::report::braid_json(black_box(&world), false))
    });
    group.finish();
}

criterion_group!(benches, steps, leash, braid);

/// Prints the docs/benchmarks.md lines (skipped in `cargo test`'s quick test mode). With a
/// criterion filter (`cargo bench --bench workloads -- W6`), only the workloads whose name
/// (`W6`) or line label (`pyramid20`) contains it, and the leash line only for `leash`.
fn protocol_lines(filter: Option<&str>) {
    let clock = Instant::now();
    let now = || clock.elapsed().as_secs_f64();
    let wanted = |name: &str| filter.is_none_or(|f| name.contains(f));
    for workload in Workload::ALL.into_iter().filter(|w| wanted(w.name()) || wanted(w.label())) {
        for config in BenchConfig::all().into_iter().filter(|c| workload.runs_under(c.solver)) {
            let runs: Vec<_> = (0..5).map(|_| workload.run(&mut config.build(workload), now)).collect();
            println!("{}", workload.line(&format!("ropelab-{}", config.name()), &median(&runs)));
        }
    }
    if wanted("leash") {
        let runs: Vec<_> = (0..5).map(|_| run_protocol(&mut ropelab::workloads::leash_world(), now)).collect();
        println!("{}", format_line("ropelab-xpbd", "leash", &median(&runs)));
    }
}

fn main() {
    let bench_mode = std::env::args().any(|a| a == "--bench");
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    benches();
    if bench_mode {
        protocol_lines(filter.as_deref());
    }
    Criterion::default().configure_from_args().final_summary();
}
