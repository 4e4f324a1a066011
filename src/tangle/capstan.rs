//! The capstan relation and wrap angles.
//!
//! A rope wrapped by an angle θ around a fixed cylinder (a bollard, or another rope at a
//! tangle) with Coulomb friction μ can hold a load T_load with a smaller holding tension
//! T_hold as long as
//!
//! ```text
//! T_load / T_hold ≤ e^{μθ}        (Euler–Eytelwein, the capstan equation)
//! ```
//!
//! It follows from a rope element at the point of slipping: the normal force per unit angle
//! equals the tension, dN = T dθ, and friction changes the tension by dT = μ dN, so
//! dT/dθ = μT. The ratio depends on the total angle only, not on the radius, and for a
//! polyline rope θ is the sum of the tangent's turning angles where the rope touches.
//! 90° at μ = 0.5 gives e^{π/4} ≈ 2.19; one full turn gives e^{π} ≈ 23.1.
//!
//! The 000 seed caps the factor at 3 "for stability"; here the physics uses the formula as is
//! and the cap is an optional gameplay clamp ([`holding_ratio_clamped`]). The solver should
//! let the capstan effect *emerge* from the Coulomb friction at the rope–rope contacts
//! (`collide::segments::solve_segment_contact`); these helpers give the lock test and the
//! numbers shown on the page.
//!
//! Transcendental functions are the standard library's (`exp`, `atan2`): like the rest of the
//! crate's constraint code, they may differ from wasm in the last bit; none of these values
//! feeds back into positions except through thresholds.

use glam::Vec3;

/// e^{μθ}: the largest ratio T_load / T_hold friction μ sustains over a wrap angle θ (rad).
pub fn holding_ratio(mu: f32, theta: f32) -> f32 {
    libm::expf(mu.max(0.0) * theta.max(0.0))
}

/// [`holding_ratio`], optionally clamped to `max` (the seed's gameplay cap of 3).
pub fn holding_ratio_clamped(mu: f32, theta: f32, max: Option<f32>) -> f32 {
    let r = holding_ratio(mu, theta);
    match max {
        Some(m) => r.min(m.max(1.0)),
        None => r,
    }
}

/// The largest load a holding tension `t_hold` keeps from slipping: t_hold·e^{μθ}.
pub fn max_load(t_hold: f32, mu: f32, theta: f32) -> f32 {
    t_hold.max(0.0) * holding_ratio(mu, theta)
}

/// The smallest holding tension that keeps `t_load` from slipping: t_load·e^{-μθ}.
pub fn min_hold(t_load: f32, mu: f32, theta: f32) -> f32 {
    t_load.max(0.0) / holding_ratio(mu, theta)
}

/// The lock test: a wrap with tensions `t1`, `t2` on its two sides (either order) holds while
/// the larger over the smaller is at most e^{μθ}. Two slack sides hold; one slack side against
/// a taut one slips (unless μθ is infinite).
pub fn holds(t1: f32, t2: f32, mu: f32, theta: f32) -> bool {
    let (hi, lo) = if t1 >= t2 { (t1.max(0.0), t2.max(0.0)) } else { (t2.max(0.0), t1.max(0.0)) };
    if hi == 0.0 {
        return true;
    }
    hi <= lo * holding_ratio(mu, theta)
}

/// How close a wrap is to slipping: (T_high / T_low) / e^{μθ}; below 1 it holds. Infinite
/// when one side is slack and the other taut, 0 when both are slack.
pub fn slip_ratio(t1: f32, t2: f32, mu: f32, theta: f32) -> f32 {
    let (hi, lo) = (t1.max(t2).max(0.0), t1.min(t2).max(0.0));
    if hi == 0.0 {
        return 0.0;
    }
    if lo == 0.0 {
        return f32::INFINITY;
    }
    hi / lo / holding_ratio(mu, theta)
}

/// Turning angle (rad, in [0, π]) of the polyline at `b` between segments a→b and b→c; 0 when
/// either segment has no length.
pub fn turning_angle(a: Vec3, b: Vec3, c: Vec3) -> f32 {
    let (u, v) = (b - a, c - b);
    if u.length_squared() <= 1e-24 || v.length_squared() <= 1e-24 {
        return 0.0;
    }
    libm::atan2f(u.cross(v).length(), u.dot(v))
}

/// Wrap angle of a polyline: the sum of the turning angles at the interior vertices `k` with
/// `contact[k]` (vertices touching the body it wraps around). `contact` has one entry per
/// point; the end points never turn.
pub fn wrap_angle(points: &[Vec3], contact: &[bool]) -> f32 {
    assert_eq!(points.len(), contact.len(), "one contact flag per point");
    let mut sum = 0.0;
    for k in 1..points.len().saturating_sub(1) {
        if contact[k] {
            sum += turning_angle(points[k - 1], points[k], points[k + 1]);
        }
    }
    sum
}

/// Wrap angle of a polyline around a cylinder (or, with `radius` = 0 and a vertical axis,
/// around a point seen from above): the tangent's turning angles at the interior vertices that
/// lie within `contact_dist` of the axis, measured in the plane perpendicular to `axis_dir`
/// (so a helix counts the angle it sweeps around the axis, not its pitch). `axis_point` is
/// any point on the axis.
pub fn wrap_angle_around_axis(points: &[Vec3], axis_point: Vec3, axis_dir: Vec3, contact_dist: f32) -> f32 {
    let n = axis_dir.normalize_or_zero();
    if n == Vec3::ZERO {
        return 0.0;
    }
    let flat = |p: Vec3| {
        let r = p - axis_point;
        r - n * r.dot(n)
    };
    let mut sum = 0.0;
    for k in 1..points.len().saturating_sub(1) {
        let here = flat(points[k]);
        if here.length() > contact_dist {
            continue;
        }
        sum += turning_angle(flat(points[k - 1]), here, flat(points[k + 1]));
    }
    sum
}

/// Signed angle (rad) a polyline sweeps around an axis (positive counter-clockwise looking
/// against `axis_dir`, i.e. right-handed about it): the sum of the angles between consecutive
/// points' projections. Points on the axis are skipped. Whole turns around a post count
/// ±2π each, whether or not the rope touches it.
pub fn swept_angle_around_axis(points: &[Vec3], axis_point: Vec3, axis_dir: Vec3) -> f32 {
    let n = axis_dir.normalize_or_zero();
    if n == Vec3::ZERO {
        return 0.0;
    }
    let mut sum = 0.0;
    let mut last: Option<Vec3> = None;
    for &p in points {
        let r = p - axis_point;
        let r = r - n * r.dot(n);
        if r.length_squared() <= 1e-24 {
            continue;
        }
        if let Some(q) = last {
            sum += libm::atan2f(q.cross(r).dot(n), q.dot(r));
        }
        last = Some(r);
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f32::consts::{FRAC_PI_2, PI, TAU};

    #[test]
    fn seed_examples() {
        assert!((holding_ratio(0.5, FRAC_PI_2) - 2.193).abs() < 1e-3);
        assert!((holding_ratio(0.5, TAU) - 23.14).abs() < 1e-2);
        assert_eq!(holding_ratio(0.0, 10.0), 1.0);
        assert_eq!(holding_ratio_clamped(0.5, TAU, Some(3.0)), 3.0);
        assert!((holding_ratio_clamped(0.5, TAU, None) - 23.14).abs() < 1e-2);
    }

    #[test]
    fn lock_test() {
        let (mu, theta) = (0.5, PI);
        let r = holding_ratio(mu, theta); // ≈ 4.81
        assert!(holds(100.0, 100.0 / r * 1.01, mu, theta));
        assert!(!holds(100.0, 100.0 / r * 0.99, mu, theta));
        assert!(holds(100.0 / r * 1.01, 100.0, mu, theta)); // either order
        assert!(holds(0.0, 0.0, mu, theta));
        assert!(!holds(1.0, 0.0, mu, theta));
        assert!((max_load(10.0, mu, theta) - 10.0 * r).abs() < 1e-3);
        assert!((min_hold(10.0, mu, theta) - 10.0 / r).abs() < 1e-5);
        assert!((slip_ratio(100.0, 100.0 / r, mu, theta) - 1.0).abs() < 1e-5);
    }

    fn arc(center: Vec3, radius: f32, from: f32, to: f32, steps: usize, lead: f32) -> Vec<Vec3> {
        // Straight lead-in tangent to the circle, the arc in the x–z plane, straight lead-out.
        let at = |a: f32| center + Vec3::new(radius * a.cos(), 0.0, radius * a.sin());
        let tangent = |a: f32| Vec3::new(-a.sin(), 0.0, a.cos());
        let mut pts = vec![at(from) - tangent(from) * lead];
        for k in 0..=steps {
            pts.push(at(from + (to - from) * k as f32 / steps as f32));
        }
        pts.push(at(to) + tangent(to) * lead);
        pts
    }

    #[test]
    fn wrap_of_an_arc_is_its_angle() {
        for theta in [FRAC_PI_2, PI, 1.5 * PI, TAU, 2.5 * PI] {
            let pts = arc(Vec3::new(1.0, 0.5, -2.0), 0.3, 0.2, 0.2 + theta, 64, 1.0);
            let w = wrap_angle_around_axis(&pts, Vec3::new(1.0, 0.0, -2.0), Vec3::Y, 0.3 + 1e-4);
            assert!((w - theta).abs() < 1e-3, "θ = {theta}: {w}");
            let contact: Vec<bool> =
                pts.iter().map(|p| glam::Vec2::new(p.x - 1.0, p.z + 2.0).length() < 0.3001).collect();
            assert!((wrap_angle(&pts, &contact) - theta).abs() < 1e-3);
            let swept = swept_angle_around_axis(&pts, Vec3::new(1.0, 0.0, -2.0), Vec3::Y);
            // The straight lead-in and lead-out (1 m at radius 0.3) each sweep atan(1/0.3)
            // more; the arc runs from +x toward +z, which is negative (clockwise) about +y.
            let expect = theta + 2.0 * (1.0f32 / 0.3).atan();
            assert!(swept < 0.0 && (swept.abs() - expect).abs() < 1e-3, "{swept}");
        }
        // Off the cylinder nothing counts; a straight rope never wraps.
        let pts = arc(Vec3::ZERO, 0.3, 0.0, PI, 32, 1.0);
        assert_eq!(wrap_angle_around_axis(&pts, Vec3::new(5.0, 0.0, 0.0), Vec3::Y, 0.3), 0.0);
        let line: Vec<Vec3> = (0..10).map(|k| Vec3::X * k as f32).collect();
        assert_eq!(wrap_angle(&line, &[true; 10]), 0.0);
    }

    #[test]
    fn helix_counts_angle_around_axis() {
        // Two turns of a helix around the y axis with a steep pitch.
        let pts: Vec<Vec3> = (0..=200)
            .map(|k| k as f32 / 200.0 * 2.0 * TAU)
            .map(|a| Vec3::new(0.2 * a.cos(), 0.3 * a, 0.2 * a.sin()))
            .collect();
        let w = wrap_angle_around_axis(&pts, Vec3::ZERO, Vec3::Y, 0.2001);
        // 199 interior vertices each turn by one step, 4π/200 (the end points do not turn).
        assert!((w - 199.0 * 2.0 * TAU / 200.0).abs() < 1e-3, "{w}");
        assert!((swept_angle_around_axis(&pts, Vec3::ZERO, Vec3::Y).abs() - 2.0 * TAU).abs() < 1e-3);
        assert_eq!(wrap_angle_around_axis(&pts, Vec3::ZERO, Vec3::ZERO, 1.0), 0.0);
    }
}
