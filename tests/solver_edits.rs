//! Solvers under editing: random edits between steps (grab, drag, release, lock, remove,
//! subdivide, cut, pin, unpin, obstacles, solver and option switches) must never panic
//! nor produce non-finite positions — the solvers' cached structure follows every change.

use glam::Vec3;
use ropelab::collide::{Obstacle, Shape};
use ropelab::{LinkDef, ParticleDef, Settings, SolverKind, World};

/// A tiny deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn unit(&mut self) -> f32 {
        (self.next() % 10_000) as f32 / 10_000.0
    }
}

#[test]
fn random_edits_between_steps_never_break_a_solver() {
    for seed in 1..=6u64 {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ seed);
        let mut w = World::new(Settings { iterations: 4, ..Settings::default() });
        for i in 0..30 {
            w.add_particle(&ParticleDef {
                pos: Vec3::new(0.1 * i as f32, 1.0, 0.0),
                locked: i == 0,
                ..Default::default()
            })
            .unwrap();
        }
        for i in 0..29 {
            w.add_link(&LinkDef { a: i, b: i + 1, ..Default::default() }).unwrap();
        }
        for step in 0..400 {
            let n = w.particles.len();
            match rng.below(16) {
                0 => w.settings.solver = SolverKind::ALL[rng.below(SolverKind::ALL.len())],
                1 if n > 0 => {
                    let _ = w.grab(rng.below(3) as u32, rng.below(n) as i64);
                }
                2 => {
                    let _ = w.drag_to(rng.below(3) as u32, rng.unit() * 3.0 - 1.0, rng.unit() * 2.0);
                }
                3 => {
                    w.release(rng.below(3) as u32);
                }
                4 if n > 0 => {
                    let _ = w.set_locked(rng.below(n) as i64, rng.below(2) == 0);
                }
                5 if n > 2 => {
                    let _ = w.remove_point(rng.below(n) as i64);
                }
                6 if !w.links.is_empty() => {
                    let _ = w.subdivide(rng.below(w.links.len()) as i64, 1 + rng.below(3) as u32);
                }
                7 => {
                    let x = rng.unit() * 3.0;
                    let _ = w.cut(x, -1.0, x + 0.1, 2.0);
                }
                8 if n > 0 => {
                    let i = rng.below(n);
                    let _ = w.pin(i as i64, w.particles.pos[i] + Vec3::Y * 0.1, rng.unit() * 1e-3);
                }
                9 if n > 0 => {
                    let _ = w.unpin(rng.below(n) as i64);
                }
                10 => {
                    let c = Vec3::new(rng.unit() * 3.0, rng.unit(), 0.0);
                    let _ = w.add_obstacle(&Obstacle::new(Shape::Circle { center: c, radius: 0.1 + 0.3 * rng.unit() }));
                }
                11 => w.settings.tethers = !w.settings.tethers,
                12 => w.settings.bending = !w.settings.bending,
                13 => w.settings.drag_compliance = if rng.below(2) == 0 { 0.0 } else { 1e-3 },
                14 if n > 1 => {
                    let (a, b) = (rng.below(n) as i64, rng.below(n) as i64);
                    let _ = w.connect(a, b);
                }
                _ => {}
            }
            w.step(1.0 / 60.0).unwrap();
            assert!(
                w.particles.pos.iter().all(|p| p.is_finite()),
                "seed {seed}, step {step}: non-finite position under {:?}",
                w.settings.solver
            );
        }
    }
}

/// The PBD-family solvers reuse their packed copy of the links from step to step; every
/// change the packing depends on must still reach the solve: the step length (α̃ = α/h²),
/// a link's compliance (with `Links::version` bumped, as documented), a particle's mass.
/// A 1 kg mass hangs from a locked point on one link of compliance α: at rest it sits
/// m·g·α below the rest length (XPBD's physical stiffness), whatever the step.
#[test]
fn packed_links_follow_step_length_compliance_and_mass_changes() {
    for solver in [SolverKind::Xpbd, SolverKind::Exact] {
        let g = 9.81;
        let mut w = World::new(Settings {
            solver,
            iterations: 20,
            substeps: 4,
            gravity: Vec3::new(0.0, -g, 0.0),
            damping: 0.98,
            ..Settings::default()
        });
        w.add_particle(&ParticleDef { pos: Vec3::ZERO, locked: true, ..Default::default() }).unwrap();
        w.add_particle(&ParticleDef { pos: Vec3::new(0.0, -1.0, 0.0), mass: 1.0, ..Default::default() }).unwrap();
        w.add_link(&LinkDef { a: 0, b: 1, rest: Some(1.0), compliance: 1e-3, ..Default::default() }).unwrap();
        let sag = |w: &World| -w.particles.pos[1].y - 1.0;
        let settle = |w: &mut World, dt: f32| {
            for _ in 0..(10.0 / dt) as usize {
                w.step(dt).unwrap();
            }
        };
        settle(&mut w, 1.0 / 60.0);
        let want = |m: f32, alpha: f32| m * g * alpha;
        // XPBD's sag is within a couple of per cent of m·g·α at these iteration counts
        // (tests/solvers.rs measures it); a stale packing would be off by 4× or 2×.
        let close = |got: f32, want: f32| (got - want).abs() < 0.02 * want;
        assert!(close(sag(&w), want(1.0, 1e-3)), "{solver:?}: sag {} at dt 1/60", sag(&w));
        // Another step length: same physical stiffness.
        settle(&mut w, 1.0 / 240.0);
        assert!(close(sag(&w), want(1.0, 1e-3)), "{solver:?}: sag {} at dt 1/240", sag(&w));
        // A softer link (same step length, so only the version tells).
        w.links.compliance[0] = 4e-3;
        w.links.version += 1;
        settle(&mut w, 1.0 / 240.0);
        assert!(close(sag(&w), want(1.0, 4e-3)), "{solver:?}: sag {} after α = 4e-3", sag(&w));
        // A heavier mass.
        w.particles.mass[1] = 2.0;
        w.particles.refresh_inv_mass(1);
        settle(&mut w, 1.0 / 240.0);
        assert!(close(sag(&w), want(2.0, 4e-3)), "{solver:?}: sag {} after m = 2 kg", sag(&w));
    }
}
