//! Fixed-step clock: turns variable frame times into a whole number of fixed steps.
//!
//! The page adds each frame's real elapsed time; the clock answers how many fixed steps of
//! `h` to run. Catch-up is capped at `max_steps` per frame, and the surplus is dropped, so
//! a tab that was in the background (or a slow frame) does not trigger a spiral of ever
//! longer frames. The remainder below one step is carried to the next frame.

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FixedClock {
    /// The fixed step (s).
    pub h: f32,
    /// Most steps run for one frame.
    pub max_steps: u32,
    /// Time not yet simulated (s), below one step after `advance`.
    pub accumulator: f64,
    /// Time dropped because of the catch-up cap, in total (s).
    pub dropped: f64,
}

impl FixedClock {
    pub fn new(h: f32, max_steps: u32) -> Self {
        Self { h, max_steps: max_steps.max(1), accumulator: 0.0, dropped: 0.0 }
    }

    /// Adds `elapsed` seconds of real time; returns how many fixed steps to run now.
    /// Negative or non-finite `elapsed` counts as 0.
    pub fn advance(&mut self, elapsed: f64) -> u32 {
        if elapsed.is_finite() && elapsed > 0.0 {
            self.accumulator += elapsed;
        }
        let h = self.h as f64;
        // A tolerance of 0.1 % of a step so that e.g. 3 × (1/60) s of frame time gives 3 steps
        // even though `h` is the f32 nearest 1/60 (slightly longer than 1/60).
        let due = (self.accumulator / h + 1e-3).floor();
        let steps = due.min(self.max_steps as f64) as u32;
        self.accumulator -= steps as f64 * h;
        if due > self.max_steps as f64 {
            // Drop the whole backlog beyond the cap: the next frame starts afresh.
            self.dropped += self.accumulator;
            self.accumulator = 0.0;
        }
        self.accumulator = self.accumulator.max(0.0);
        steps
    }

    /// Fraction of a step already accumulated, in [0, 1) (for render interpolation).
    pub fn alpha(&self) -> f32 {
        (self.accumulator / self.h as f64) as f32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_steps_and_remainder_carry_over() {
        let mut c = FixedClock::new(1.0 / 60.0, 5);
        assert_eq!(c.advance(1.0 / 120.0), 0);
        assert_eq!(c.advance(1.0 / 120.0), 1);
        assert!(c.accumulator.abs() < 1e-9);
        assert_eq!(c.advance(3.0 / 60.0), 3);
        // 144 Hz display: about 60 steps per 144 frames.
        let mut c = FixedClock::new(1.0 / 60.0, 5);
        let steps: u32 = (0..144).map(|_| c.advance(1.0 / 144.0)).sum();
        assert!((59..=60).contains(&steps), "{steps}");
    }

    #[test]
    fn catch_up_is_capped_and_backlog_dropped() {
        let mut c = FixedClock::new(1.0 / 60.0, 5);
        // A background tab comes back after 10 s.
        assert_eq!(c.advance(10.0), 5);
        assert_eq!(c.accumulator, 0.0);
        assert!((c.dropped - (10.0 - 5.0 / 60.0)).abs() < 1e-6);
        // Next normal frame runs normally: no spiral.
        assert_eq!(c.advance(1.0 / 60.0), 1);
    }

    #[test]
    fn bad_elapsed_is_ignored() {
        let mut c = FixedClock::new(1.0 / 60.0, 5);
        assert_eq!(c.advance(f64::NAN), 0);
        assert_eq!(c.advance(-1.0), 0);
        assert_eq!(c.advance(f64::INFINITY), 0);
        assert_eq!(c.accumulator, 0.0);
    }
}
