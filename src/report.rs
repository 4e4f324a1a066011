//! JSON views of the world for the page (built on request, once per frame at most; they
//! allocate, the step does not): events, ropes, the leash, tangles, the braid, and the
//! top-view crossings a knot-diagram renderer needs. `wasm/` hands them to JS as strings
//! (`JSON.parse` on the page); the schemas are documented on each function and in the
//! `Sim` methods that expose them.
//!
//! Conventions: points are world `[x, y, z]` (m, y up); `top` points are the top view's 2D
//! `[x, z]` (what `View::Top` maps to the view plane; draw +z *downward* on screen so that
//! counter-clockwise seen from above is counter-clockwise on screen); rope, point, link and
//! segment indices are 0-based; angles in radians, forces in newtons.

use crate::json_macro::json;
use crate::json_macro::Value;
use glam::{Vec2, Vec3};

use crate::tangle::braid::{self, Gen};
use crate::tangle::capstan;
use crate::tangle::crossings::CrossingKind;
use crate::tangle::lifecycle::TangleState;
use crate::world::{Event, World};

fn v3(p: Vec3) -> Value {
    json!([p.x, p.y, p.z])
}

fn state_name(s: TangleState) -> &'static str {
    match s {
        TangleState::Tight => "tight",
        TangleState::Locked => "locked",
    }
}

fn letters(w: &[Gen]) -> Vec<i8> {
    w.iter().map(|g| g.signed()).collect()
}

/// One event as JSON:
///
/// ```text
/// {"type": "tangleFormed", "id": 3, "over": 1, "under": 0, "point": [x, y, z]}
/// {"type": "tangleStateChanged", "id": 3, "state": "locked" | "tight"}
/// {"type": "tangleBroken", "id": 3, "over": 1, "under": 0}
/// {"type": "dogsSwapped", "gen": -1, "dogs": [0, 1]}   (gen: +i = σᵢ, -i = σᵢ⁻¹)
/// {"type": "braidResync"}
/// {"type": "linkTorn", "a": 4, "b": 5, "stretch": 0.31}
/// {"type": "jointBroken", "id": 2, "force": 1520.0}
/// ```
pub fn event_json(e: &Event) -> Value {
    match *e {
        Event::LinkTorn { a, b, stretch } => json!({"type": "linkTorn", "a": a, "b": b, "stretch": stretch}),
        Event::TangleFormed { id, over, under, point } => {
            json!({"type": "tangleFormed", "id": id, "over": over, "under": under, "point": v3(point)})
        }
        Event::TangleStateChanged { id, state } => {
            json!({"type": "tangleStateChanged", "id": id, "state": state_name(state)})
        }
        Event::TangleBroken { id, over, under } => {
            json!({"type": "tangleBroken", "id": id, "over": over, "under": under})
        }
        Event::DogsSwapped { gen, dogs } => json!({"type": "dogsSwapped", "gen": gen, "dogs": dogs}),
        Event::BraidResync => json!({"type": "braidResync"}),
        Event::JointBroken { id, force } => json!({"type": "jointBroken", "id": id, "force": force}),
    }
}

/// Takes the queued events: a JSON array of [`event_json`] objects, oldest first.
pub fn drain_events(world: &mut World) -> String {
    let ev = world.drain_events();
    Value::Array(ev.iter().map(event_json).collect()).to_string()
}

/// The leash scene's structure, or `null`:
///
/// ```text
/// {"hand": 0, "valid": true, "front": [fx, fz], "handRadius": 0.05,
///  "wander": true, "seed": 42,
///  "dogs": [{"point": 19, "rope": 0, "height": 0.4, "bodyRadius": 0.12}, …]}
/// ```
/// Dog k is strand k of the braid and leash k (rope `dogs[k].rope`, from the hand to the dog).
pub fn leash_json(world: &World) -> String {
    let Some(l) = &world.leash else { return "null".into() };
    let f = l.tracker.frame.front;
    json!({
        "hand": l.hand,
        "valid": l.valid,
        "front": [f.x, f.z],
        "handRadius": l.tracker.frame.hand_radius,
        "wander": world.wander.spec.enabled,
        "seed": world.wander.spec.seed,
        "dogs": l.dogs.iter().map(|d| json!({
            "point": d.particle, "rope": if d.rope == u32::MAX { -1 } else { d.rope as i64 },
            "height": d.height, "bodyRadius": d.body_radius,
        })).collect::<Vec<_>>(),
    })
    .to_string()
}

/// The live tangles, oldest first:
///
/// ```text
/// [{"id": 3, "over": 1, "under": 0,            rope on top / underneath (rope indices)
///   "point": [x, y, z], "top": [x, z],          where they cross
///   "along": [sOver, sUnder],                   arc length (m) along each rope from its start
///   "tension": [overIn, overOut, underIn, underOut],   N, each rope before/after the crossing
///   "wrap": 1.2, "wraps": [over, under],        rad: Θ used for the lock test, per rope
///   "holdingRatio": 1.82,                       e^{μΘ} (with the optional cap)
///   "slipRatio": 0.4,                           max over ropes of (T_high/T_low)/e^{μΘ}; < 1 holds
///   "normalForce": 3.1,                         N pressing the ropes together
///   "state": "tight" | "locked", "age": 120}]   age in steps
/// ```
pub fn tangles_json(world: &World) -> String {
    let s = &world.settings;
    let out: Vec<Value> = world
        .tangles
        .tangles()
        .iter()
        .map(|t| {
            let e = world.tangles.extra(t.id);
            json!({
                "id": t.id, "over": t.over, "under": t.under,
                "point": v3(t.point), "top": [t.point.x, t.point.z],
                "along": t.along, "tension": t.tension,
                "wrap": t.wrap, "wraps": e.wraps,
                "holdingRatio": capstan::holding_ratio_clamped(s.rope_friction, t.wrap, s.tangle_cap),
                "slipRatio": if t.slip_ratio.is_finite() { json!(t.slip_ratio) } else { Value::Null },
                "normalForce": e.normal_force,
                "state": state_name(t.state), "age": t.age,
            })
        })
        .collect();
    Value::Array(out).to_string()
}

/// The leash braid, or `null` when the world has no (valid) leash:
///
/// ```text
/// {"strands": 3,
///  "word": "σ1⁻¹ σ1⁻¹", "letters": [-1, -1],       the braid (freely reduced), hand → dogs
///  "reduced": "σ1⁻²"-like text, "reducedLetters": […], a shortest equivalent word
///  "normalForm": "Δ⁻¹ · σ1σ2 · …",                  left Garside normal form
///  "crossings": 2,                                    top-view crossings in the current geometry
///  "trivial": false,                                  exactly the identity braid
///  "fullTwists": null | k,                            only k full twists (a swivel sheds them)
///  "handOrder": [0, 1, 2], "dogOrder": [1, 0, 2],     leashes by position at the hand / the dogs
///  "hint": {"moves": [1, 1], "twistsLeft": 0, "optimal": true,
///           "steps": [{"dogs": [0, 1], "halfTurns": 2, "text": "dog 1 walks once …"}]}}
/// ```
/// `swivel`: the hint may leave full twists (a swivel coupler at the hand sheds them).
/// Letters: +i = σᵢ (the left strand, nearer the handler's right, passes over), -i = σᵢ⁻¹.
pub fn braid_json(world: &World, swivel: bool) -> String {
    let Some(l) = world.leash.as_ref().filter(|l| l.valid) else { return "null".into() };
    let t = &l.tracker;
    let w = t.word();
    let n = l.dogs.len().max(2);
    // Bounded searches: the page calls this every frame (under 1 ms at any step count).
    let reduced = braid::reduced_form_within(n, w, braid::SearchLimits::INTERACTIVE);
    let hint = braid::untangle_hint(n, w, swivel, braid::SearchLimits::INTERACTIVE);
    let steps = braid::describe_moves(&hint.moves, t.dog_order());
    let rd = t.reading();
    json!({
        "strands": l.dogs.len(),
        "word": braid::format_word(w),
        "letters": letters(w),
        "reduced": braid::format_word(&reduced),
        "reducedLetters": letters(&reduced),
        "normalForm": braid::Garside::of_word(n, w).to_string(),
        "crossings": rd.crossings.len(),
        "trivial": braid::is_trivial(n, w),
        "fullTwists": braid::full_twists(n, w),
        "handOrder": rd.start_order.as_slice(),
        "dogOrder": rd.end_order.as_slice(),
        "hint": json!({
            "moves": letters(&hint.moves),
            "twistsLeft": hint.twists_left,
            "optimal": hint.optimal,
            "steps": steps.iter().map(|m| json!({"dogs": m.dogs, "halfTurns": m.half_turns, "text": m.text.as_str()}))
                .collect::<Vec<_>>(),
        }),
    })
    .to_string()
}

/// The braid reading's crossings (leash scene), hand outwards, or `[]`:
/// `[{"kind": "leash" | "dogRay" | "seam", "point": [x, y, z], "top": [x, z], "radius": r,
///    "over": strand, "under": strand | -1, "letters": [-1]}]` — `letters` are the generators
/// this crossing contributes to the geometric part of the word.
pub fn braid_crossings_json(world: &World) -> String {
    let Some(l) = world.leash.as_ref().filter(|l| l.valid) else { return "[]".into() };
    let rd = l.tracker.reading();
    let out: Vec<Value> = rd
        .crossings
        .iter()
        .map(|c| {
            let kind = match c.kind {
                CrossingKind::Leash => "leash",
                CrossingKind::DogRay => "dogRay",
                CrossingKind::Seam => "seam",
            };
            let gens = &rd.word[c.first as usize..(c.first + c.count) as usize];
            json!({
                "kind": kind, "point": v3(c.point), "top": [c.point.x, c.point.z], "radius": c.radius,
                "over": c.over, "under": if c.under == u32::MAX { -1 } else { c.under as i64 },
                "letters": letters(gens),
            })
        })
        .collect();
    Value::Array(out).to_string()
}

/// Every top-view crossing of two rope segments (any ropes, also within one rope), for a
/// knot-diagram renderer: draw the `under` segment broken around `top`.
///
/// ```text
/// [{"top": [x, z], "over":  {"rope": 1, "segment": 23, "link": 40, "t": 0.31, "y": 0.62},
///                  "under": {"rope": 0, "segment": 5,  "link": 4,  "t": 0.77, "y": 0.55}}]
/// ```
/// `segment` indexes the rope segments rope by rope (`ropePoints`), `link` the world's
/// links (`links()`), `t` ∈ [0, 1) is the position along the segment from its first point
/// (in rope order), `y` the height there. Segments sharing a point never count.
pub fn top_crossings_json(world: &World) -> String {
    let r = &world.ropes;
    let pos = &world.particles.pos;
    let segs = r.segs();
    if segs.is_empty() || segs.iter().any(|s| s.iter().any(|&p| p as usize >= pos.len())) {
        return "[]".into();
    }
    let flat = |p: Vec3| Vec2::new(p.x, p.z);
    // Sweep along x.
    let x_of = |s: &[u32; 2]| (pos[s[0] as usize].x, pos[s[1] as usize].x);
    let his: Vec<f32> = segs.iter().map(|s| x_of(s).0.max(x_of(s).1)).collect();
    // (low x, segment), by low x then segment, x as the broad phase's integer key: its sort
    // (one instantiation for both).
    let key = crate::collide::broad::key;
    let mut order: Vec<(u32, u32)> =
        segs.iter().enumerate().map(|(j, s)| (key(x_of(s).0.min(x_of(s).1)), j as u32)).collect();
    order.sort_unstable();
    let mut out = Vec::new();
    for (k, &(_, i)) in order.iter().enumerate() {
        let (i, hi) = (i as usize, key(his[i as usize]));
        for &(lo2, j) in &order[k + 1..] {
            let j = j as usize;
            if lo2 > hi {
                break;
            }
            let (a, b) = (segs[i], segs[j]);
            if a[0] == b[0] || a[0] == b[1] || a[1] == b[0] || a[1] == b[1] {
                continue;
            }
            let (p0, p1, q0, q1) = (pos[a[0] as usize], pos[a[1] as usize], pos[b[0] as usize], pos[b[1] as usize]);
            let (d, e) = (flat(p1) - flat(p0), flat(q1) - flat(q0));
            let den = d.perp_dot(e);
            if den.abs() <= 1e-12 {
                continue;
            }
            let w = flat(q0) - flat(p0);
            let (s, t) = (w.perp_dot(e) / den, w.perp_dot(d) / den);
            if !((0.0..1.0).contains(&s) && (0.0..1.0).contains(&t)) {
                continue;
            }
            let (ya, yb) = (p0.y + (p1.y - p0.y) * s, q0.y + (q1.y - q0.y) * t);
            let x = flat(p0) + d * s;
            let side = |seg: usize, u: f32, y: f32| {
                let rope = r.seg_rope()[seg] as usize;
                json!({"rope": rope, "segment": seg - r.segments(rope).start, "link": r.seg_link()[seg], "t": u, "y": y})
            };
            let (over, under) =
                if ya >= yb { (side(i, s, ya), side(j, t, yb)) } else { (side(j, t, yb), side(i, s, ya)) };
            out.push(json!({"top": [x.x, x.y], "over": over, "under": under}));
        }
    }
    Value::Array(out).to_string()
}

/// The rope–rope contacts of the last substep that pressed (λ_n > 0):
/// `[{"ropes": [0, 1], "segments": [4, 9], "point": [x, y, z], "force": N}]` (segment indices
/// within each rope).
pub fn contacts_json(world: &World) -> String {
    let r = &world.ropes;
    let rc = world.rope_contacts();
    let h = world.last_h.max(1e-9);
    let pos = &world.particles.pos;
    let segs = r.segs();
    let mut out = Vec::new();
    for (pair, st) in rc.pairs().iter().zip(rc.states()) {
        if st.lambda_n <= 0.0 {
            continue;
        }
        let (i, j) = (pair[0] as usize, pair[1] as usize);
        if i >= segs.len() || j >= segs.len() {
            continue;
        }
        let (a, b) = (segs[i], segs[j]);
        let c = crate::collide::segments::closest_points(
            pos[a[0] as usize],
            pos[a[1] as usize],
            pos[b[0] as usize],
            pos[b[1] as usize],
        );
        let (ra, rb) = (r.seg_rope()[i] as usize, r.seg_rope()[j] as usize);
        out.push(json!({
            "ropes": [ra, rb],
            "segments": [i - r.segments(ra).start, j - r.segments(rb).start],
            "point": v3(0.5 * (c.pa + c.pb)),
            "force": st.lambda_n / (h * h),
        }));
    }
    Value::Array(out).to_string()
}

/// The wrap report ([`crate::obstacle_wrap::WrapReport`]) as the page reads it, or `null`. An
/// infinite ratio (slack hold side) is written as `null`.
pub fn wrap_json(r: Option<&crate::obstacle_wrap::WrapReport>) -> Value {
    let Some(r) = r else { return Value::Null };
    let v3 = |v: Vec3| json!([v.x, v.y, v.z]);
    json!({
        "obstacle": r.obstacle,
        "mu": r.mu,
        "wrap": r.wrap,
        "limit": r.limit,
        "tensionLoad": r.tension_load,
        "tensionHold": r.tension_hold,
        "fromSolver": r.from_solver,
        "ratio": if r.ratio.is_finite() { json!(r.ratio) } else { Value::Null },
        "slipSpeed": r.slip_speed,
        "holds": r.holds,
        "load": json!({"point": r.load.point, "mass": r.load.mass}),
        "hold": json!({"point": r.hold.point, "mass": r.hold.mass}),
        "contactFrom": v3(r.contact_from),
        "contactTo": v3(r.contact_to),
    })
}
