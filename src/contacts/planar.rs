//! The 2D patches' rows in one compact array, the solver's hot copy of them.
//!
//! A 2D patch (between planar bodies, `Patch::make_planar`) has its normal and tangent in
//! the z = 0 plane and usually at most two points (a face on a face: one point per in-plane
//! end; a 3D manifold against a box tilted out of the plane can leave 3–4, and those patches
//! keep their own 2D rows, `Patch::prepare_planar` / `solve_planar`, the same maths), so
//! its rows act on v_x, v_y and ω_z alone: a row is its two
//! angular parts along ẑ, (I⁻¹)_zz times them, its effective mass and λ — six floats, where
//! the 3D `Patch` keeps 1 KB of levers, quaternions, four normal rows and four friction rows.
//! Once per step the solver copies each such patch of at most two points into a [`Contact2`] (about 230 bytes, the
//! rows, their factors and the 2D levers the separation needs), sweeps those, and copies the
//! impulses back into the patches wherever they are read (the substeps' impulse sums, the
//! events, the next step's warm start).
//!
//! The rows and their updates are the patch's (penetration rows with Box2D v3's soft step,
//! the seed's patch friction, restitution): same maths on fewer bytes. The separation during
//! the step is the patch's too, s = n·(Δx_b − Δx_a + R_b r_b − R_a r_a) + base, with each
//! body's in-plane motion since the manifold was made (Δx, and the in-plane block of its
//! rotation since) computed once per body per substep instead of once per patch.

use glam::{Quat, Vec2, Vec3};

use super::patch::{self, Patch};
use crate::joints::row::{Phase, Soft, SolverBodies, Spring};

/// One 2D row: J = [−t, ja ẑ, t, jb ẑ] with the contact's axis t (in the plane).
#[derive(Clone, Copy, Debug, Default)]
pub struct Row2 {
    pub ja: f32,
    pub jb: f32,
    /// (I⁻¹)_zz times ja, jb.
    pub ia: f32,
    pub ib: f32,
    pub mass: f32,
    pub accum: f32,
}

impl Row2 {
    /// The 2D row along `t` (n.z = t.z = 0) with levers `ra`, `rb` (their z parts left out:
    /// the rounding of a centre off z = 0), inverse masses and (I⁻¹)_zz of A and B:
    /// J = [−t, (t × r_a)_z ẑ, t, (r_b × t)_z ẑ] (see `Patch::prepare_planar`).
    #[inline]
    pub fn new(t: Vec3, ra: Vec3, rb: Vec3, wa: f32, wb: f32, iza: f32, izb: f32) -> Row2 {
        let ja = t.x * ra.y - t.y * ra.x;
        let jb = rb.x * t.y - rb.y * t.x;
        let (ia, ib) = (iza * ja, izb * jb);
        let tt = t.x * t.x + t.y * t.y;
        let k = wa * tt + ja * ia + wb * tt + jb * ib;
        Row2 { ja, jb, ia, ib, mass: if k > 0.0 { 1.0 / k } else { 0.0 }, accum: 0.0 }
    }
}

/// A 2D patch's hot copy.
#[derive(Clone, Copy, Debug)]
pub struct Contact2 {
    /// Solver bodies, dense body indices (for their motion), inverse masses.
    pub a: u32,
    pub b: u32,
    pub ka: u32,
    pub kb: u32,
    pub wa: f32,
    pub wb: f32,
    pub n: Vec2,
    pub t: Vec2,
    pub mu: f32,
    pub e: f32,
    pub count: u32,
    pub rows: [Row2; 2],
    /// Per point, per phase.
    pub soft: [[Soft; 2]; 2],
    pub friction: Row2,
    /// Levers (in the plane, at the manifold's time) and s₀ − n·(r_b − r_a) per point.
    pub ra: [Vec2; 2],
    pub rb: [Vec2; 2],
    pub base: [f32; 2],
    /// Normal velocity before the solve; largest λ taken this step (restitution).
    pub vn0: [f32; 2],
    pub max_lambda: [f32; 2],
    /// The patch it copies.
    pub patch: u32,
}

/// A body's in-plane motion since the manifold was made: Δx, and the in-plane block of its
/// rotation since ([cos, −sin; sin, cos] for a turn about ẑ).
#[derive(Clone, Copy, Debug, Default)]
pub struct Motion2 {
    pub dx: Vec2,
    pub r: [Vec2; 2],
}

impl Motion2 {
    /// From the pose at the manifold's time (`x0`, `q0`) and now.
    #[inline]
    pub fn new(x0: Vec3, q0: Quat, x: Vec3, q: Quat) -> Motion2 {
        let d = q * q0.inverse();
        let (x2, y2, z2) = (d.x * d.x, d.y * d.y, d.z * d.z);
        let (xy, wz) = (d.x * d.y, d.w * d.z);
        Motion2 {
            dx: Vec2::new(x.x - x0.x, x.y - x0.y),
            // Columns of the rotation matrix's xy block.
            r: [Vec2::new(1.0 - 2.0 * (y2 + z2), 2.0 * (xy + wz)), Vec2::new(2.0 * (xy - wz), 1.0 - 2.0 * (x2 + z2))],
        }
    }

    #[inline(always)]
    fn rotate(&self, v: Vec2) -> Vec2 {
        self.r[0] * v.x + self.r[1] * v.y
    }
}

impl Contact2 {
    /// The hot copy of 2D patch `p` (at most two points), index `patch`, dense body indices
    /// `ka`, `kb`: its rows built here from the manifold ([`Row2::new`]), its λ taken from
    /// the patch (warm start by feature id: `Patch::warm_from`). The patch's own rows are
    /// left unbuilt: only their λ is kept there (`store`).
    pub fn from_patch(p: &Patch, sb: &SolverBodies, patch: u32, ka: u32, kb: u32) -> Contact2 {
        let (a, b) = (p.a as usize, p.b as usize);
        let (wa, wb) = (sb.inv_m[a], sb.inv_m[b]);
        let (iza, izb) = (sb.inv_i[a].z_axis.z, sb.inv_i[b].z_axis.z);
        let row = |t: Vec3, ra: Vec3, rb: Vec3, accum: f32| Row2 { accum, ..Row2::new(t, ra, rb, wa, wb, iza, izb) };
        let mix = p.mix.unwrap_or(patch::Mix { friction: 0.0, restitution: 0.0, rolling: 0.0 });
        let count = p.count.min(2);
        let mut c = Contact2 {
            a: p.a,
            b: p.b,
            ka,
            kb,
            wa,
            wb,
            n: p.normal.truncate(),
            t: p.tangents[0].truncate(),
            mu: mix.friction,
            e: mix.restitution,
            count: count as u32,
            rows: [Row2::default(); 2],
            soft: [[Soft::RIGID; 2]; 2],
            friction: row(p.tangents[0], p.c_a, p.c_b, p.friction[0].accum),
            ra: [Vec2::ZERO; 2],
            rb: [Vec2::ZERO; 2],
            base: [0.0; 2],
            vn0: [0.0; 2],
            max_lambda: [0.0; 2],
            patch,
        };
        for k in 0..count {
            c.rows[k] = row(p.normal, p.r_a[k], p.r_b[k], p.rows[k].accum);
            c.ra[k] = p.r_a[k].truncate();
            c.rb[k] = p.r_b[k].truncate();
            c.base[k] = p.base[k];
        }
        c
    }

    /// Separation of point `k` for the bodies' motion `ma`, `mb`.
    #[inline(always)]
    fn separation(&self, k: usize, ma: &Motion2, mb: &Motion2) -> f32 {
        let d = mb.dx - ma.dx + mb.rotate(self.rb[k]) - ma.rotate(self.ra[k]);
        self.n.dot(d) + self.base[k]
    }

    /// Ċ of row `r` along axis `t`.
    #[inline(always)]
    fn cdot(r: &Row2, t: Vec2, u: &Vel2) -> f32 {
        u.cdot(t, r.ja, r.jb)
    }

    #[inline(always)]
    fn apply(&self, r: &Row2, t: Vec2, u: &mut Vel2, d: f32) {
        u.apply(t, self.wa, self.wb, r.ia, r.ib, d);
    }

    /// Per substep: the normal rows' factors from the separations now (`Patch::prepare`'s),
    /// the normal velocities before the solve, and the warm start (or zeroed impulses).
    #[inline]
    pub fn prepare(&mut self, sb: &mut SolverBodies, m: &[Motion2], springs: [Spring; 2], h: f32, warm: bool) {
        let (ma, mb) = (&m[self.ka as usize], &m[self.kb as usize]);
        let immovable = self.wa == 0.0 || self.wb == 0.0;
        let spring = springs[immovable as usize];
        let mut u = Vel2::load(sb, self.a, self.b);
        for k in 0..self.count as usize {
            let s = self.separation(k, ma, mb);
            self.soft[k] = patch::soft(s, h, spring);
            self.vn0[k] = Self::cdot(&self.rows[k], self.n, &u);
        }
        if warm {
            for k in 0..self.count as usize {
                let r = self.rows[k];
                if r.accum != 0.0 {
                    self.apply(&r, self.n, &mut u, r.accum);
                }
            }
            let f = self.friction;
            if f.accum != 0.0 {
                self.apply(&f, self.t, &mut u, f.accum);
            }
            u.store(sb, self.a, self.b);
        } else {
            for r in self.rows.iter_mut() {
                r.accum = 0.0;
            }
            self.friction.accum = 0.0;
        }
        self.max_lambda = [0.0; 2];
    }

    /// Before relax: separations re-measured on the moved bodies (`Patch::refresh_relax`).
    #[inline]
    pub fn refresh_relax(&mut self, m: &[Motion2], h: f32) {
        let (ma, mb) = (&m[self.ka as usize], &m[self.kb as usize]);
        for k in 0..self.count as usize {
            let s = self.separation(k, ma, mb);
            self.soft[k][Phase::Relax as usize] = if s > 0.0 { Soft::target(s / h) } else { Soft::RIGID };
        }
    }

    /// One update of the normal rows, then the tangent row bounded by μ Σλ_n
    /// (`Patch::solve` for a 2D patch).
    #[inline]
    pub fn solve(&mut self, sb: &mut SolverBodies, phase: Phase) {
        let mut u = Vel2::load(sb, self.a, self.b);
        let n = self.n;
        let mut total = 0.0;
        for k in 0..self.count as usize {
            let r = self.rows[k];
            let s = self.soft[k][phase as usize];
            let cdot = Self::cdot(&r, n, &u);
            let raw = -r.mass * s.mass_scale * (cdot + s.bias) - s.impulse_scale * r.accum;
            // (`clamp` on a NaN λ gives NaN, no panic; the bounds are constants.)
            let new = (r.accum + raw).clamp(0.0, f32::INFINITY);
            self.apply(&r, n, &mut u, new - r.accum);
            self.rows[k].accum = new;
            total += new;
            self.max_lambda[k] = self.max_lambda[k].max(new);
        }
        // (`clamp` panics on a NaN bound, a trap in wasm.)
        let cap = self.mu * total;
        let f = self.friction;
        let mut new = f.accum - f.mass * Self::cdot(&f, self.t, &u);
        if cap >= 0.0 {
            new = new.clamp(-cap, cap);
        }
        self.apply(&f, self.t, &mut u, new - f.accum);
        self.friction.accum = new;
        u.store(sb, self.a, self.b);
    }

    /// Box2D's restitution pass (`Patch::restitution`).
    #[inline]
    pub fn restitution(&mut self, sb: &mut SolverBodies, threshold: f32) {
        if self.e == 0.0 {
            return;
        }
        let mut u = Vel2::load(sb, self.a, self.b);
        for k in 0..self.count as usize {
            if self.vn0[k] > -threshold || self.max_lambda[k] == 0.0 {
                continue;
            }
            let r = self.rows[k];
            let vn = Self::cdot(&r, self.n, &u);
            let new = (r.accum - r.mass * (vn + self.e * self.vn0[k])).max(0.0);
            self.apply(&r, self.n, &mut u, new - r.accum);
            self.rows[k].accum = new;
        }
        u.store(sb, self.a, self.b);
    }

    /// The impulses back into the patch.
    #[inline]
    pub fn store(&self, p: &mut Patch) {
        for k in 0..self.count as usize {
            p.rows[k].accum = self.rows[k].accum;
            p.max_lambda[k] = self.max_lambda[k];
        }
        p.friction[0].accum = self.friction.accum;
    }
}

/// The in-plane velocities of a contact's two bodies, held in registers while it is solved
/// (by [`Contact2`] and by `Patch::solve_planar`, the 2D patches without a hot copy).
#[derive(Clone, Copy)]
pub(super) struct Vel2 {
    va: Vec2,
    wa: f32,
    vb: Vec2,
    wb: f32,
}

impl Vel2 {
    /// Ċ of a 2D row along in-plane axis `t` with angular parts `ja`, `jb` (along ẑ).
    #[inline(always)]
    pub(super) fn cdot(&self, t: Vec2, ja: f32, jb: f32) -> f32 {
        t.x * (self.vb.x - self.va.x) + t.y * (self.vb.y - self.va.y) + ja * self.wa + jb * self.wb
    }

    /// Impulse `d` along `t`, for inverse masses `wa`, `wb` and (I⁻¹)_zz times the row's
    /// angular parts `ia`, `ib`.
    #[inline(always)]
    pub(super) fn apply(&mut self, t: Vec2, wa: f32, wb: f32, ia: f32, ib: f32, d: f32) {
        self.va -= t * (wa * d);
        self.wa += ia * d;
        self.vb += t * (wb * d);
        self.wb += ib * d;
    }

    #[inline(always)]
    pub(super) fn load(sb: &SolverBodies, a: u32, b: u32) -> Vel2 {
        let (a, b) = (a as usize, b as usize);
        Vel2 { va: sb.v[a].truncate(), wa: sb.w[a].z, vb: sb.v[b].truncate(), wb: sb.w[b].z }
    }

    #[inline(always)]
    pub(super) fn store(self, sb: &mut SolverBodies, a: u32, b: u32) {
        let (a, b) = (a as usize, b as usize);
        (sb.v[a].x, sb.v[a].y, sb.w[a].z) = (self.va.x, self.va.y, self.wa);
        (sb.v[b].x, sb.v[b].y, sb.w[b].z) = (self.vb.x, self.vb.y, self.wb);
    }
}
