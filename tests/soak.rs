//! Short versions of `make soak` (issue 13 §3) for `cargo test`: the event queues stay
//! bounded when nobody drains them, an undriven scene does not gain energy, and a held
//! point does not drift. (`tests/alloc.rs` shows the steps allocate nothing after warm-up;
//! `ropelab soak` runs the long versions and prints the figures.)
use ropelab::contacts::{ContactEvent, ContactLog};
use ropelab::determinism::preset;
use ropelab::ids::Id;
use ropelab::soak::{held_drag, soak, ENERGY_RISE_TOL};
use ropelab::world::EVENT_QUEUE_CAP;
use ropelab::Event;

const DT: f32 = 1.0 / 60.0;

#[test]
fn the_event_queue_keeps_the_newest_events_up_to_its_cap() {
    let mut w = preset("leash");
    for k in 0..3 * EVENT_QUEUE_CAP as u32 {
        w.push_event(Event::LinkTorn { a: k, b: k + 1, stretch: 0.0 });
    }
    assert_eq!(w.events.len(), EVENT_QUEUE_CAP);
    assert_eq!(w.events.capacity(), EVENT_QUEUE_CAP, "the queue reserved its cap once and never grew");
    let first = 2 * EVENT_QUEUE_CAP as u32;
    assert_eq!(w.events[0], Event::LinkTorn { a: first, b: first + 1, stretch: 0.0 }, "oldest dropped first");
    assert_eq!(w.drain_events().len(), EVENT_QUEUE_CAP);
    assert!(w.events.is_empty());
}

#[test]
fn the_contact_log_keeps_the_newest_events_up_to_its_cap() {
    let mut log = ContactLog::default();
    let ev = |k: u32| ContactEvent { a: Id(k), b: Id(k + 1), impulse: k as f32 };
    for k in 0..3 * ContactLog::CAP as u32 {
        log.record(&[ev(k)], &[]);
    }
    assert_eq!(log.len(), ContactLog::CAP);
    assert_eq!(log.dropped as usize, 2 * ContactLog::CAP);
    assert_eq!((log.impulses.capacity(), log.ids.capacity()), (ContactLog::CAP, 3 * ContactLog::CAP));
    let first = 2 * ContactLog::CAP as u32;
    assert_eq!(log.get(0), (true, Id(first), Id(first + 1), first as f32));
}

/// Steps of many events at once (more than the cap in one step too): the log holds the
/// newest `CAP` of every event recorded, in order, begins before ends within a step, and
/// counts the rest as dropped.
#[test]
fn the_contact_log_drops_the_oldest_of_large_steps() {
    let mut log = ContactLog::default();
    let mut all = Vec::new();
    let mut k = 0u32;
    for (begins, ends) in [(700, 200), (10, 0), (0, 500), (1500, 900), (3, 4), (1023, 1), (0, 0)] {
        let mut ev = |n: usize| -> Vec<ContactEvent> {
            (0..n)
                .map(|_| {
                    k += 1;
                    ContactEvent { a: Id(k), b: Id(k + 7), impulse: k as f32 * 0.5 }
                })
                .collect()
        };
        let (b, e) = (ev(begins), ev(ends));
        log.record(&b, &e);
        all.extend(b.iter().map(|x| (true, x.a, x.b, x.impulse)));
        all.extend(e.iter().map(|x| (false, x.a, x.b, x.impulse)));
        let kept = &all[all.len().saturating_sub(ContactLog::CAP)..];
        assert_eq!(log.len(), kept.len());
        assert_eq!(log.dropped as usize, all.len() - kept.len());
        assert_eq!(log.ids.len(), 3 * log.len());
        for (j, want) in kept.iter().enumerate() {
            assert_eq!(log.get(j), *want, "event {j} after {begins} begins and {ends} ends");
        }
    }
    assert_eq!((log.impulses.capacity(), log.ids.capacity()), (ContactLog::CAP, 3 * ContactLog::CAP));
}

/// The leash (dogs walking, tangles forming and breaking, braid events) with nobody
/// draining: finite, queue within its cap, storage not grown.
#[test]
fn an_undrained_leash_stays_bounded() {
    let mut w = preset("leash");
    let caps = (w.particles.pos.capacity(), w.links.ends.capacity());
    let r = soak(&mut w, 1200, 0, DT, |_, _| {});
    assert_eq!(r.nan_at, None);
    assert!(r.max_events > 0, "the leash queues events: {r:?}");
    assert!(r.max_events <= EVENT_QUEUE_CAP && r.events_capacity <= EVENT_QUEUE_CAP, "{r:?}");
    assert_eq!((r.particle_capacity, r.link_capacity), caps);
}

/// The capstan (a load held by friction on a bollard) is undriven: after it settles its
/// energy never rises above its running minimum by more than the soak's tolerance.
#[test]
fn the_settled_capstan_gains_no_energy() {
    let mut w = preset("capstan");
    let r = soak(&mut w, 900, 300, DT, |_, _| {});
    assert_eq!(r.nan_at, None);
    assert!(r.rise_rel() <= ENERGY_RISE_TOL, "energy rose {:.3e} of m g h: {r:?}", r.rise_rel());
}

/// A rope's end held still for a minute: it stays exactly where it is held, and the rope
/// hanging from it settles (no energy pumped in by the hold).
#[test]
fn a_held_point_does_not_drift() {
    let mut w = preset("rope");
    let last = w.particles.len() - 1;
    for _ in 0..600 {
        w.step(DT).unwrap();
    }
    let r = held_drag(&mut w, last, [0.5, 0.3], 120, 3600, DT);
    assert_eq!(r.max_offset, 0.0, "the held point moved off its target");
    assert_eq!(r.soak.nan_at, None);
    // The first seconds after the drag the rope still swings (its energy falls); once
    // settled it must not climb back: measured over the whole hold.
    assert!(r.soak.rise_rel() <= ENERGY_RISE_TOL, "energy rose {:.3e} of m g h: {:?}", r.soak.rise_rel(), r.soak);
}

/// The net preset under the exact solver (its tree of links solved directly, the loop links
/// by Gauss–Seidel between the passes) comes to rest: after 20 s its kinetic energy is
/// below 1e-6 J (its 38.4 kg would then move at most ~0.2 mm/s) and it gains no energy.
/// The preset used to hang from its two top corners, exactly as far apart as its top row
/// is long: an inextensible row under a load with no equilibrium, where the passes kept
/// the net 0.1–0.7 J from rest for ever (docs/solvers.md, `exact`, "Ill-posed scenes").
#[test]
fn the_net_under_exact_comes_to_rest() {
    let mut w = preset("net");
    assert_eq!(w.settings.solver, ropelab::settings::SolverKind::Exact);
    let r = soak(&mut w, 2400, 1200, DT, |_, _| {});
    assert_eq!(r.nan_at, None);
    assert!(r.rise_rel() <= ENERGY_RISE_TOL, "energy rose {:.3e} of m g h: {r:?}", r.rise_rel());
    let p = &w.particles;
    let ke: f64 = (0..p.len()).map(|i| 0.5 * p.mass[i] as f64 * p.vel[i].length_squared() as f64).sum();
    assert!(ke < 1e-6, "kinetic energy {ke:.3e} J after 40 s");
}
