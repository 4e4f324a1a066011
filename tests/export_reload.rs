//! Export → reload continues the same trajectory (issue 29 §2).
use ropelab::determinism::{self, Script};
use ropelab::Sim;

fn reload(w: &ropelab::World) -> ropelab::World {
    let mut sim = Sim::new();
    *sim.world_mut() = w.clone();
    let text = sim.export_scene_json();
    let mut back = Sim::new();
    back.load_scene_json(&text).unwrap_or_else(|e| panic!("{e}"));
    back.world().clone()
}

#[test]
fn probe() {
    let mut bad = Vec::new();
    let cases: Vec<_> = determinism::cases().into_iter().filter(|c| c.script == Script::Plain).collect();
    for c in &cases {
        let mut a = c.world();
        for _ in 0..300 {
            a.step(determinism::DT).unwrap();
        }
        let mut b = reload(&a);
        for _ in 0..300 {
            a.step(determinism::DT).unwrap();
            b.step(determinism::DT).unwrap();
        }
        if determinism::hash(&a) != determinism::hash(&b) {
            let d = a.particles.pos.iter().zip(&b.particles.pos).map(|(x, y)| x.distance(*y)).fold(0.0f32, f32::max);
            let e = a.bodies.pos.iter().zip(&b.bodies.pos).map(|(x, y)| x.distance(*y)).fold(0.0f32, f32::max);
            bad.push(format!("{} (particles {d:e} m, bodies {e:e} m)", c.name()));
        }
    }
    println!("{} of {} differ:\n{}", bad.len(), cases.len(), bad.join("\n"));
}
