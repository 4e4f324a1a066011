//! `World::step` allocates nothing once warmed up, for every solver, with every shared
//! constraint and collision in play (obstacles, walls, bending, tethers, pins, a soft
//! mouse, tear thresholds). A counting global allocator watches this thread only.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use glam::Vec3;
use ropelab::collide::{Obstacle, Shape};
use ropelab::{LinkDef, ParticleDef, Settings, SolverKind, World};

struct Counting;

thread_local! {
    static ARMED: Cell<bool> = const { Cell::new(false) };
    static COUNT: Cell<u64> = const { Cell::new(0) };
}

fn note() {
    // `try_with`: the thread-locals may be gone while a thread shuts down.
    let _ = ARMED.try_with(|armed| {
        if armed.get() {
            let _ = COUNT.try_with(|c| c.set(c.get() + 1));
        }
    });
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note();
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// Allocations this thread makes while `f` runs.
fn allocations_in(f: impl FnOnce()) -> u64 {
    COUNT.with(|c| c.set(0));
    ARMED.with(|a| a.set(true));
    f();
    ARMED.with(|a| a.set(false));
    COUNT.with(|c| c.get())
}

fn busy_world(solver: SolverKind) -> World {
    let settings = Settings {
        solver,
        tethers: true,
        bending: true,
        drag_compliance: if solver == SolverKind::Classic { 0.0 } else { 1e-3 },
        walls: Some(ropelab::Walls { min: glam::Vec2::new(-3.0, -3.0), max: glam::Vec2::new(3.0, 3.0) }),
        substeps: 2,
        iterations: 3,
        ..Settings::default()
    };
    let mut w = World::new(settings);
    w.add_obstacle(&Obstacle::new(Shape::Circle { center: Vec3::new(0.5, -0.6, 0.0), radius: 0.3 })).unwrap();
    w.add_obstacle(&Obstacle::new(Shape::Box {
        center: Vec3::new(-1.0, -1.0, 0.0),
        half: Vec3::splat(0.3),
        angle: 0.2,
    }))
    .unwrap();
    // A rope, and a small net (so the exact solver also has loop links).
    for i in 0..20 {
        w.add_particle(&ParticleDef { pos: Vec3::new(0.1 * i as f32, 0.0, 0.0), locked: i == 0, ..Default::default() })
            .unwrap();
    }
    for i in 0..19 {
        let k = w.add_link(&LinkDef { a: i, b: i + 1, ..Default::default() }).unwrap();
        w.links.tear_force[k] = 1e6;
    }
    let first = w.particles.len() as u32;
    for r in 0..3 {
        for c in 0..3 {
            w.add_particle(&ParticleDef {
                pos: Vec3::new(-2.0 + 0.2 * c as f32, 1.0 - 0.2 * r as f32, 0.0),
                ..Default::default()
            })
            .unwrap();
        }
    }
    for r in 0..3u32 {
        for c in 0..3u32 {
            let i = first + r * 3 + c;
            if c < 2 {
                w.add_link(&LinkDef { a: i, b: i + 1, ..Default::default() }).unwrap();
            }
            if r < 2 {
                w.add_link(&LinkDef { a: i, b: i + 3, ..Default::default() }).unwrap();
            }
        }
    }
    // (Classic has no pins and refuses them: pin under another solver; the loop below runs
    // every solver over the same world.)
    w.settings.solver = ropelab::SolverKind::Xpbd;
    w.pin(first as i64, Vec3::new(-2.0, 1.0, 0.0), 1e-4).unwrap();
    w.grab(1, 10).unwrap();
    w
}

#[test]
fn step_does_not_allocate_after_warm_up() {
    for &solver in SolverKind::ALL {
        let mut w = busy_world(solver);
        for _ in 0..5 {
            w.step(1.0 / 60.0).unwrap();
        }
        let n = allocations_in(|| {
            for s in 0..30 {
                w.drag_to(1, 1.0 + 0.01 * s as f32, -0.5).unwrap();
                w.step(1.0 / 60.0).unwrap();
            }
        });
        assert_eq!(n, 0, "{solver:?}: {n} allocations in 30 steps");
        assert!(w.particles.pos.iter().all(|p| p.is_finite()));
    }
}

/// The leash scene: rope–rope contacts, dogs, tangles and the braid tracked every step.
/// Drags the leash's first dog for 150 steps (buffers grow to the scene's contacts), then
/// counts the allocations of 30 more steps of the same drag.
fn drag_a_dog_counting_allocations(w: &mut World) -> u64 {
    let dog = w.leash.as_ref().unwrap().dogs[0].particle;
    w.grab(1, dog as i64).unwrap();
    let path = |s: usize| (-0.7 + 0.02 * (s % 60) as f32, 1.2 + 0.005 * (s % 60) as f32);
    for s in 0..150 {
        let (x, z) = path(s);
        w.drag_to(1, x, z).unwrap();
        w.step(1.0 / 60.0).unwrap();
    }
    allocations_in(|| {
        for s in 0..30 {
            let (x, z) = path(s);
            w.drag_to(1, x, z).unwrap();
            w.step(1.0 / 60.0).unwrap();
        }
    })
}

#[test]
fn leash_step_does_not_allocate_after_warm_up() {
    for &solver in &[SolverKind::Xpbd, SolverKind::Pbd, SolverKind::Jacobi, SolverKind::Exact] {
        let mut w = ropelab::workloads::leash_world();
        w.settings.solver = solver;
        let n = drag_a_dog_counting_allocations(&mut w);
        assert_eq!(n, 0, "{solver:?}: {n} allocations in 30 leash steps");
        assert!(!w.ropes.segs().is_empty());
    }
}

/// The leash with bodies in the world too: the one broad phase's list then holds the
/// bodies' boxes (body pass, every step) and the segments' swept boxes (rope pass, per
/// substep) together; neither pass allocates once warmed up.
#[test]
fn leash_with_bodies_step_does_not_allocate_after_warm_up() {
    use ropelab::bodies::{BodyDef, BodyKind, Shape as BodyShape};
    for &solver in &[SolverKind::Xpbd, SolverKind::Exact] {
        let mut w = ropelab::workloads::leash_world();
        w.settings.solver = solver;
        let slab = Vec3::new(0.5, -0.5, 4.5);
        let half = Vec3::new(3.0, 0.5, 0.5);
        w.add_body(&BodyDef {
            kind: BodyKind::Static,
            shape: BodyShape::Box { half },
            pos: slab,
            ..Default::default()
        })
        .unwrap();
        for k in 0..8 {
            let pos = slab + Vec3::new(-2.5 + 0.6 * k as f32, 0.7, 0.0);
            let shape = BodyShape::Box { half: Vec3::splat(0.2) };
            w.add_body(&BodyDef { shape, mass: 1.0, pos, ..Default::default() }).unwrap();
        }
        let n = drag_a_dog_counting_allocations(&mut w);
        assert_eq!(n, 0, "{solver:?}: {n} allocations in 30 leash steps with bodies");
        assert_eq!((w.broad_phase().bodies(), w.broad_phase().segments()), (9, 57));
        assert!(!w.rope_contacts().pairs().is_empty());
    }
}

/// The counter itself works (so the zero above means something).
#[test]
fn the_counter_sees_allocations() {
    COUNT.with(|c| c.set(0));
    ARMED.with(|a| a.set(true));
    let v = std::hint::black_box(vec![1u8; 16]);
    ARMED.with(|a| a.set(false));
    drop(v);
    assert!(COUNT.with(|c| c.get()) >= 1);
}

/// The exact solver's body forest (`solver::exact::body_tree`): W4 (every joint in the tree,
/// no rows) and a square of bodies whose fourth side closes a loop (rows and the tree
/// together) step without allocating once warmed up.
#[test]
fn body_forest_step_does_not_allocate_after_warm_up() {
    use ropelab::bodies::BodyDef;
    use ropelab::joints::{JointDef, JointKind};
    use ropelab::workloads::Workload;
    let w4 = Workload::W4.build(SolverKind::Exact);
    let mut square =
        World::new(Settings { solver: SolverKind::Exact, substeps: 2, iterations: 5, ..Settings::default() });
    let c =
        [Vec3::new(0.0, -0.2, 0.0), Vec3::new(0.3, -0.2, 0.0), Vec3::new(0.3, -0.5, 0.0), Vec3::new(0.0, -0.5, 0.0)];
    let ids: Vec<_> = c.iter().map(|&pos| square.add_body(&BodyDef { pos, ..Default::default() }).unwrap()).collect();
    square.add_joint(&JointDef { kind: JointKind::BallSocket, b: Some(ids[0]), ..Default::default() }).unwrap();
    for k in 0..4 {
        let anchor = (c[k] + c[(k + 1) % 4]) * 0.5;
        let def = JointDef {
            kind: JointKind::BallSocket,
            a: Some(ids[k]),
            b: Some(ids[(k + 1) % 4]),
            anchor,
            ..Default::default()
        };
        square.add_joint(&def).unwrap();
    }
    for mut w in [w4, square] {
        for _ in 0..5 {
            w.step(1.0 / 60.0).unwrap();
        }
        let n = allocations_in(|| {
            for _ in 0..30 {
                w.step(1.0 / 60.0).unwrap();
            }
        });
        assert_eq!(n, 0, "{n} allocations in 30 steps");
        assert!(w.direct_body_joints() > 0 && w.bodies.pos.iter().all(|p| p.is_finite()));
    }
}

/// W6's planar pyramid (the 2D contacts: flat patches, their packs and colours, the locks
/// left out of a step) steps without allocating once warmed up.
#[test]
fn planar_pyramid_step_does_not_allocate_after_warm_up() {
    use ropelab::workloads::Workload;
    let mut w = Workload::W6.build(SolverKind::Impulse);
    for _ in 0..120 {
        w.step(1.0 / 60.0).unwrap();
    }
    let n = allocations_in(|| {
        for _ in 0..60 {
            w.step(1.0 / 60.0).unwrap();
        }
    });
    assert_eq!(n, 0, "{n} allocations in 60 steps");
    assert!(!w.contacts().flat.is_empty(), "the pyramid's contacts are flat patches");
}

/// Rope–body contacts (`contacts::rope_body`): a rope over a wheel on a hinge with heavy
/// end points steps without allocating once warmed up, under the position-based family
/// (projections), the impulse solver (rows) and the exact solver.
#[test]
fn rope_body_contacts_step_does_not_allocate_after_warm_up() {
    use ropelab::bodies::{BodyDef, Shape as BodyShape};
    use ropelab::joints::{JointDef, JointKind};
    for solver in [SolverKind::Xpbd, SolverKind::Pbd, SolverKind::Jacobi, SolverKind::Impulse, SolverKind::Exact] {
        let mut w = World::new(Settings { solver, substeps: 4, iterations: 4, ..Settings::default() });
        let c = Vec3::new(0.0, 2.0, 0.0);
        let wheel =
            w.add_body(&BodyDef { shape: BodyShape::Sphere { radius: 0.2 }, pos: c, ..Default::default() }).unwrap();
        w.add_joint(&JointDef {
            kind: JointKind::Hinge { limit: None, motor: None },
            b: Some(wheel),
            anchor: c,
            ..Default::default()
        })
        .unwrap();
        let mut pts = vec![];
        for k in 0..10 {
            pts.push(Vec3::new(-0.21, 1.5 + 0.05 * k as f32, 0.0));
        }
        for k in 0..=12 {
            let a = std::f32::consts::PI * (1.0 - k as f32 / 12.0);
            pts.push(c + Vec3::new(0.21 * a.cos(), 0.21 * a.sin(), 0.0));
        }
        for k in 1..=10 {
            pts.push(Vec3::new(0.21, 2.0 - 0.05 * k as f32, 0.0));
        }
        let n = pts.len();
        for (k, &p) in pts.iter().enumerate() {
            // Heavy end points as the weights (a particle attached to a body changes its
            // proxy mass every step, which repacks the links: not this test's subject).
            let mass = if k == 0 {
                0.3
            } else if k == n - 1 {
                0.2
            } else {
                0.01
            };
            w.add_particle(&ParticleDef { pos: p, mass, radius: 0.01, ..Default::default() }).unwrap();
            if k > 0 {
                w.add_link(&LinkDef { a: k as u32 - 1, b: k as u32, ..Default::default() }).unwrap();
            }
        }
        let idx: Vec<u32> = (0..pts.len() as u32).collect();
        w.ropes.push(&idx);
        for _ in 0..60 {
            w.step(1.0 / 60.0).unwrap();
        }
        assert!(!w.contacts().rope.pairs().is_empty(), "{}: the rope lies on the wheel", solver.name());
        let n = allocations_in(|| {
            for _ in 0..30 {
                w.step(1.0 / 60.0).unwrap();
            }
        });
        assert_eq!(n, 0, "{}: {n} allocations in 30 steps", solver.name());
        assert!(w.particles.pos.iter().all(|p| p.is_finite()));
    }
}
