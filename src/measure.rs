//! A preset's number, measured while it runs: the quantity a scene demonstrates (Atwood's
//! acceleration, a pendulum's period, the cradle's transferred speed, a bridge's sag, the
//! capstan's tension ratio, a motor's speed, a door's opening angle), the value the closed
//! form predicts and its tolerance, as the scene file states them (`measure`), and the
//! value read off the running world over a window of its time.
//!
//! The meter only reads the world: it changes no state and no hash. It is sampled after
//! every step (the page's `Sim` does this; a native caller calls [`Meter::sample`]), so the
//! reading is the same whatever the frame rate. A reading is only meaningful for the scene
//! as loaded: a grab, an edit or a settings change during the window marks it disturbed
//! (the page says "reset to measure again").
//!
//! How each quantity is read (y up; `t` world time since the scene was loaded):
//! - `fall`: the subject's downward acceleration at the start, from the least-squares fit
//!   of its height at every step in the window by the drop from rest under ẍ = a₀ + k x
//!   (k = `growth`, 0 for a constant acceleration: the parabola).
//! - `period`: the time between the subject's turning points in x (each refined by the
//!   parabola through the three samples around it), two half periods per period, averaged
//!   over every turning point in the window.
//! - `peak_speed`: the subject's greatest speed in the window.
//! - `speed`: its mean speed over the window.
//! - `sag`: a rope's ends' mean height less its lowest point's, averaged over the window.
//! - `turn`: the angle (degrees) a body has turned about `axis` from its pose at load,
//!   averaged over the window.
//! - `capstan_ratio`: the rope over an obstacle's tension ratio T_load / T_hold
//!   ([`crate::obstacle_wrap::wrap_report`]), averaged over samples every tenth of a second
//!   (the report allocates; it is a read-out, not the step).

use glam::{Quat, Vec3};
use serde::Deserialize;

use crate::error::{Result, SimError};
use crate::ids::Id;
use crate::num::Num32;
use crate::world::World;

/// What a scene demonstrates and how to read it (the scene file's `measure`): the closed
/// form's value, the window, and the quantity: `kind` and the fields that kind reads. Read,
/// never written (an export continues a run, which has no load to count its window from).
/// One flat struct: with serde_json every struct's reader inlines its own copy of the
/// parser, and this one is in the playground's wasm.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeasureSpec {
    /// What is shown, e.g. "acceleration of the weights".
    pub label: String,
    /// The closed form's value, in `unit`.
    pub predicted: f32,
    pub unit: String,
    /// The relative tolerance the measured value is held to (0.03 = 3 %).
    pub tolerance: f32,
    /// The closed form, shown beside the prediction (plain text).
    #[serde(default)]
    pub formula: String,
    /// The window of world time (s since load) the value is read over.
    pub from: f32,
    pub to: f32,
    pub kind: Kind,
    /// Whose motion (`fall`, `period`, `peak_speed`, `speed`): a point by index or a body
    /// by its scene name; `turn` reads a body.
    #[serde(default)]
    pub point: Option<u32>,
    #[serde(default)]
    pub body: Option<String>,
    /// `fall`: k (1/s²) of a fall that speeds up as it goes, ẍ = a₀ + k x (x the drop since
    /// load; a rope's weight shifting to the heavy side): `a₀` is read.
    #[serde(default)]
    pub growth: Option<f32>,
    /// `sag`: the rope, by index.
    #[serde(default)]
    pub rope: Option<u32>,
    /// `turn`: the axis the body turns about.
    #[serde(default)]
    pub axis: Option<Vec3>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    #[default]
    Fall,
    Period,
    PeakSpeed,
    Speed,
    Sag,
    Turn,
    CapstanRatio,
}

/// Where a reading stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Before the window.
    Waiting,
    /// In the window; the value so far, if any.
    Measuring,
    /// The window is over: the value is final.
    Done,
    /// Someone touched the scene during the window: no value.
    Disturbed,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Waiting => "waiting",
            Status::Measuring => "measuring",
            Status::Done => "done",
            Status::Disturbed => "disturbed",
        }
    }
}

/// The subject resolved against the world at load.
#[derive(Clone, Copy, Debug)]
enum Target {
    Point(usize),
    Body(Id),
    Rope(usize),
    None,
}

/// Where Σ fᵢ fⱼ (i ≤ j) of `fall`'s fit is kept in `Meter::moments`.
const NORMAL: [[usize; 3]; 3] = [[0, 1, 2], [1, 3, 4], [2, 4, 5]];

/// Turning points kept for a period (the window holds a few periods).
const MAX_TURNS: usize = 64;

/// A running reading of a [`MeasureSpec`]. Fixed size: sampling never allocates (but for
/// `capstan_ratio`, whose report does).
#[derive(Clone, Debug)]
pub struct Meter {
    pub spec: MeasureSpec,
    target: Target,
    /// World time at load.
    t0: f64,
    status: Status,
    /// The body's rotation at load (`turn`).
    rot0: Quat,
    /// `period`'s last three (t, x).
    pts: [(f64, f64); 3],
    /// `fall`'s sums Σ fᵢ fⱼ (i ≤ j, at `NORMAL[i][j]`) and Σ fᵢ y (at 6 + i).
    moments: [f64; 9],
    filled: usize,
    turns: [f64; MAX_TURNS],
    n_turns: usize,
    /// Sum and count (means), or the maximum in `sum` (`peak_speed`).
    sum: f64,
    count: u32,
    steps: u32,
}

impl Meter {
    /// Resolves `spec` against `world` as the scene built it: `bodies` are the scene's body
    /// names in order (body k of the scene is body k of the world at load). Errors name the
    /// scene path (`measure.…`).
    pub fn new(spec: &MeasureSpec, world: &World, bodies: &[&str]) -> Result<Meter> {
        let bad = |path: &str, reason: String| SimError::Scene { path: format!("measure.{path}"), reason };
        if !(spec.from.is_finite() && spec.to.is_finite() && spec.from >= 0.0 && spec.to > spec.from) {
            return Err(bad(
                "from",
                format!("the window must have 0 ≤ from < to (got {} .. {})", Num32(spec.from), Num32(spec.to)),
            ));
        }
        if !(spec.predicted.is_finite() && spec.tolerance.is_finite() && spec.tolerance > 0.0) {
            return Err(bad("tolerance", "predicted must be finite and tolerance > 0".into()));
        }
        let body = |name: &str| -> Result<Id> {
            let k = bodies
                .iter()
                .position(|b| *b == name)
                .ok_or_else(|| bad("body", format!("no body named \"{name}\"")))?;
            Ok(world.bodies.id[k])
        };
        let q = spec;
        // Each kind reads its own fields; a field another kind reads is a mistake.
        let fields = [
            ("point", q.point.is_some()),
            ("body", q.body.is_some()),
            ("growth", q.growth.is_some()),
            ("rope", q.rope.is_some()),
            ("axis", q.axis.is_some()),
        ];
        let reads: &[&str] = match q.kind {
            Kind::Fall => &["point", "body", "growth"],
            Kind::Period | Kind::PeakSpeed | Kind::Speed => &["point", "body"],
            Kind::Sag => &["rope"],
            Kind::Turn => &["body", "axis"],
            Kind::CapstanRatio => &[],
        };
        for (name, set) in fields {
            if set && !reads.contains(&name) {
                return Err(bad(name, "not read by this kind".into()));
            }
        }
        let mut rot0 = Quat::IDENTITY;
        let target = match q.kind {
            Kind::Fall | Kind::Period | Kind::PeakSpeed | Kind::Speed => match (q.point, &q.body) {
                (Some(i), None) if (i as usize) < world.particles.len() => Target::Point(i as usize),
                (Some(i), None) => {
                    return Err(bad("point", format!("no point {i} ({} points)", world.particles.len())))
                }
                (None, Some(name)) => Target::Body(body(name)?),
                _ => return Err(bad("kind", "this kind reads the motion of one `point` or one `body`".into())),
            },
            Kind::Sag => match q.rope {
                Some(r) if (r as usize) < world.ropes.len() => Target::Rope(r as usize),
                Some(r) => return Err(bad("rope", format!("no rope {r} ({} ropes)", world.ropes.len()))),
                None => return Err(bad("kind", "`sag` reads a `rope`, by index".into())),
            },
            Kind::Turn => {
                let axis = q.axis.unwrap_or(Vec3::ZERO);
                if !(axis.is_finite() && axis.length() > 1e-6) {
                    return Err(bad("axis", "must be a finite non-zero vector".into()));
                }
                let name = q.body.as_deref().ok_or_else(|| bad("kind", "`turn` reads a `body`, by name".into()))?;
                let id = body(name)?;
                rot0 = world.bodies.rot[world.bodies.index(id)?];
                Target::Body(id)
            }
            Kind::CapstanRatio => Target::None,
        };
        Ok(Meter {
            spec: spec.clone(),
            target,
            t0: world.time,
            status: Status::Waiting,
            rot0,
            pts: [(0.0, 0.0); 3],
            moments: [0.0; 9],
            filled: 0,
            turns: [0.0; MAX_TURNS],
            n_turns: 0,
            sum: 0.0,
            count: 0,
            steps: 0,
        })
    }

    /// The reading is void: someone touched the scene during (or before) the window.
    pub fn disturb(&mut self) {
        if self.status != Status::Done {
            self.status = Status::Disturbed;
        }
    }

    pub fn status(&self) -> Status {
        self.status
    }

    fn position(&self, w: &World) -> Option<Vec3> {
        match self.target {
            Target::Point(i) => w.particles.pos.get(i).copied(),
            Target::Body(id) => w.bodies.index(id).ok().map(|k| w.bodies.pos[k]),
            _ => None,
        }
    }

    fn velocity(&self, w: &World) -> Option<Vec3> {
        match self.target {
            Target::Point(i) => w.particles.vel.get(i).copied(),
            Target::Body(id) => w.bodies.index(id).ok().map(|k| w.bodies.vel[k]),
            _ => None,
        }
    }

    /// Reads the world after a step.
    pub fn sample(&mut self, w: &World) {
        if matches!(self.status, Status::Done | Status::Disturbed) {
            return;
        }
        let t = w.time - self.t0;
        let (from, to) = (self.spec.from as f64, self.spec.to as f64);
        if t < from {
            return;
        }
        self.status = Status::Measuring;
        self.steps += 1;
        let last = t >= to;
        let q = &self.spec;
        match q.kind {
            Kind::Fall => {
                let Some(p) = self.position(w) else { return self.disturb() };
                // Sums for the least-squares fit of y = c₀ + c₁ t + c₂ g(t) (t since load),
                // g(t) = (cosh(√k t) − 1)/k (→ t²/2 as k → 0): the drop under ẍ = a₀ + k x
                // from rest, so c₂ = −a₀.
                let k = q.growth.unwrap_or(0.0).max(0.0) as f64;
                let g = if k > 1e-9 { (libm::cosh(libm::sqrt(k) * t) - 1.0) / k } else { 0.5 * t * t };
                let (f, y) = ([1.0, t, g], p.y as f64);
                for i in 0..3 {
                    for j in i..3 {
                        self.moments[NORMAL[i][j]] += f[i] * f[j];
                    }
                    self.moments[6 + i] += f[i] * y;
                }
                self.count += 1;
            }
            Kind::Period => {
                let Some(p) = self.position(w) else { return self.disturb() };
                self.pts = [self.pts[1], self.pts[2], (t, p.x as f64)];
                self.filled = (self.filled + 1).min(3);
                if self.filled == 3 {
                    let [(ta, a), (tb, b), (tc, c)] = self.pts;
                    if (b - a) * (c - b) < 0.0 && self.n_turns < MAX_TURNS {
                        // The vertex of the parabola through the three samples.
                        let (d1, d2) = ((b - a) / (tb - ta), (c - b) / (tc - tb));
                        let curv = (d2 - d1) / (0.5 * (tc - ta));
                        let tm = 0.5 * (ta + tb);
                        let turn = if curv != 0.0 { tm - d1 / curv } else { tb };
                        self.turns[self.n_turns] = turn.clamp(ta, tc);
                        self.n_turns += 1;
                    }
                }
            }
            Kind::PeakSpeed => {
                let Some(v) = self.velocity(w) else { return self.disturb() };
                self.sum = self.sum.max(v.length() as f64);
                self.count += 1;
            }
            Kind::Speed => {
                let Some(v) = self.velocity(w) else { return self.disturb() };
                self.sum += v.length() as f64;
                self.count += 1;
            }
            Kind::Sag => {
                let Target::Rope(r) = self.target else { return };
                if r >= w.ropes.len() {
                    return self.disturb();
                }
                let pts = w.ropes.points(r);
                let (Some(&a), Some(&b)) = (pts.first(), pts.last()) else { return self.disturb() };
                let y = |i: u32| w.particles.pos[i as usize].y as f64;
                let low = pts.iter().map(|&i| y(i)).fold(f64::INFINITY, f64::min);
                self.sum += 0.5 * (y(a) + y(b)) - low;
                self.count += 1;
            }
            Kind::Turn => {
                let Target::Body(id) = self.target else { return };
                let Ok(k) = w.bodies.index(id) else { return self.disturb() };
                let q = w.bodies.rot[k] * self.rot0.inverse();
                let q = if q.w < 0.0 { -q } else { q };
                let along = Vec3::new(q.x, q.y, q.z).dot(self.spec.axis.unwrap_or(Vec3::Y).normalize());
                self.sum += (2.0 * libm::atan2f(along, q.w)).to_degrees() as f64;
                self.count += 1;
            }
            Kind::CapstanRatio => {
                if self.steps % 6 == 1 || last {
                    if let Some(r) = crate::obstacle_wrap::wrap_report(w) {
                        if r.ratio.is_finite() {
                            self.sum += r.ratio as f64;
                            self.count += 1;
                        }
                    }
                }
            }
        }
        if last {
            self.status = Status::Done;
        }
    }

    /// The value read so far (final once [`Status::Done`]), if there is one.
    pub fn value(&self) -> Option<f32> {
        if self.status == Status::Disturbed {
            return None;
        }
        let v = match self.spec.kind {
            Kind::Fall => {
                if self.count < 3 {
                    return None;
                }
                // The normal equations of the fit (Σ fᵢ fⱼ) c = Σ fᵢ y, by Cramer's rule:
                // a₀ = −c₂, the downward acceleration at the start.
                let m = &self.moments;
                let at = |i: usize, j: usize| m[NORMAL[i.min(j)][i.max(j)]];
                let det3 = |a: [[f64; 3]; 3]| {
                    a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1])
                        - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
                        + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0])
                };
                let n =
                    [[at(0, 0), at(0, 1), at(0, 2)], [at(1, 0), at(1, 1), at(1, 2)], [at(2, 0), at(2, 1), at(2, 2)]];
                let d = det3(n);
                if d.abs() < 1e-300 {
                    return None;
                }
                let mut c2 = n;
                for (row, rhs) in c2.iter_mut().zip([m[6], m[7], m[8]]) {
                    row[2] = rhs;
                }
                -det3(c2) / d
            }
            Kind::Period => {
                if self.n_turns < 2 {
                    return None;
                }
                2.0 * (self.turns[self.n_turns - 1] - self.turns[0]) / (self.n_turns - 1) as f64
            }
            Kind::PeakSpeed if self.count > 0 => self.sum,
            _ if self.count > 0 => self.sum / self.count as f64,
            _ => return None,
        };
        Some(v as f32)
    }

    /// The measured value lies within the stated tolerance of the prediction.
    pub fn within_tolerance(&self) -> Option<bool> {
        let v = self.value()?;
        let p = self.spec.predicted;
        Some((v - p).abs() <= self.spec.tolerance * p.abs())
    }

    /// The reading as the page shows it: JSON `{label, unit, predicted, tolerance, formula,
    /// from, to, status, value (or null), within (or null)}`.
    pub fn json(&self) -> String {
        let s = &self.spec;
        crate::json_macro::json!({
            "label": s.label.as_str(),
            "unit": s.unit.as_str(),
            "predicted": s.predicted,
            "tolerance": s.tolerance,
            "formula": s.formula.as_str(),
            "from": s.from,
            "to": s.to,
            "status": self.status.name(),
            "value": self.value(),
            "within": self.within_tolerance(),
        })
        .to_string()
    }
}
