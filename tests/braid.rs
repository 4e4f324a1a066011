//! Braid words: the exact B₃ test (SL(2, ℤ) × exponent sum) against two independent exact
//! methods (the left Garside normal form, and the Burau representation over ℤ[t, t⁻¹], which
//! is faithful for n ≤ 3), known identities, full twists, and the untangle hint.

use ropelab::tangle::braid::*;

/// xorshift64* — fixed seeds, no dependency.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn gen(&mut self, n: usize) -> Gen {
        Gen::new(1 + self.below(n - 1) as u8, self.below(2) == 0)
    }
    fn word(&mut self, n: usize, len: usize) -> Vec<Gen> {
        (0..len).map(|_| self.gen(n)).collect()
    }
}

// ----- the Burau representation, exact (Laurent polynomials with i128 coefficients) -----

#[derive(Clone, Debug, PartialEq)]
struct Laurent {
    lo: i32,      // exponent of c[0]
    c: Vec<i128>, // no trailing/leading zeros; empty = 0
}

impl Laurent {
    fn zero() -> Self {
        Laurent { lo: 0, c: vec![] }
    }
    fn mono(coef: i128, exp: i32) -> Self {
        Laurent { lo: exp, c: vec![coef] }.norm()
    }
    fn norm(mut self) -> Self {
        while self.c.last() == Some(&0) {
            self.c.pop();
        }
        let lead = self.c.iter().take_while(|&&x| x == 0).count();
        self.c.drain(..lead);
        self.lo += lead as i32;
        if self.c.is_empty() {
            self.lo = 0;
        }
        self
    }
    fn add(&self, o: &Self) -> Self {
        if self.c.is_empty() {
            return o.clone();
        }
        if o.c.is_empty() {
            return self.clone();
        }
        let lo = self.lo.min(o.lo);
        let hi = (self.lo + self.c.len() as i32).max(o.lo + o.c.len() as i32);
        let mut c = vec![0i128; (hi - lo) as usize];
        for (k, &x) in self.c.iter().enumerate() {
            c[(self.lo - lo) as usize + k] += x;
        }
        for (k, &x) in o.c.iter().enumerate() {
            c[(o.lo - lo) as usize + k] += x;
        }
        Laurent { lo, c }.norm()
    }
    fn mul(&self, o: &Self) -> Self {
        if self.c.is_empty() || o.c.is_empty() {
            return Self::zero();
        }
        let mut c = vec![0i128; self.c.len() + o.c.len() - 1];
        for (i, &x) in self.c.iter().enumerate() {
            for (j, &y) in o.c.iter().enumerate() {
                c[i + j] = c[i + j].checked_add(x.checked_mul(y).unwrap()).unwrap();
            }
        }
        Laurent { lo: self.lo + o.lo, c }.norm()
    }
}

type Mat = Vec<Vec<Laurent>>;

fn identity(n: usize) -> Mat {
    (0..n).map(|i| (0..n).map(|j| if i == j { Laurent::mono(1, 0) } else { Laurent::zero() }).collect()).collect()
}

/// Unreduced Burau: σᵢ ↦ I ⊕ [[1-t, t], [1, 0]] ⊕ I; σᵢ⁻¹ ↦ I ⊕ [[0, 1], [t⁻¹, 1-t⁻¹]] ⊕ I.
fn burau_gen(n: usize, g: Gen) -> Mat {
    let mut m = identity(n);
    let i = g.index() as usize - 1;
    let one = Laurent::mono(1, 0);
    if g.is_positive() {
        m[i][i] = one.add(&Laurent::mono(-1, 1));
        m[i][i + 1] = Laurent::mono(1, 1);
        m[i + 1][i] = one;
        m[i + 1][i + 1] = Laurent::zero();
    } else {
        m[i][i] = Laurent::zero();
        m[i][i + 1] = one.clone();
        m[i + 1][i] = Laurent::mono(1, -1);
        m[i + 1][i + 1] = one.add(&Laurent::mono(-1, -1));
    }
    m
}

fn matmul(a: &Mat, b: &Mat) -> Mat {
    let n = a.len();
    (0..n)
        .map(|i| (0..n).map(|j| (0..n).fold(Laurent::zero(), |acc, k| acc.add(&a[i][k].mul(&b[k][j])))).collect())
        .collect()
}

fn burau(n: usize, w: &[Gen]) -> Mat {
    w.iter().fold(identity(n), |m, &g| matmul(&m, &burau_gen(n, g)))
}

// ----- random words that are trivial but not freely trivial -----

/// A random word equal to `w` in Bₙ: inserted cancelling pairs, braid relations applied in
/// both directions, far commutations.
fn scramble(rng: &mut Rng, n: usize, w: &[Gen], rounds: usize) -> Vec<Gen> {
    let mut v = w.to_vec();
    for _ in 0..rounds {
        match rng.below(3) {
            0 => {
                let g = rng.gen(n);
                let at = rng.below(v.len() + 1);
                v.insert(at, g.inverse());
                v.insert(at, g);
            }
            1 if v.len() >= 3 => {
                // σiσjσi → σjσiσj (same signs), |i-j| = 1
                let at = rng.below(v.len() - 2);
                let (a, b, c) = (v[at], v[at + 1], v[at + 2]);
                if a == c && a.sign() == b.sign() && (a.index() as i32 - b.index() as i32).abs() == 1 {
                    v[at] = b;
                    v[at + 1] = a;
                    v[at + 2] = b;
                }
            }
            _ if v.len() >= 2 => {
                let at = rng.below(v.len() - 1);
                let (a, b) = (v[at], v[at + 1]);
                if (a.index() as i32 - b.index() as i32).abs() >= 2 {
                    v.swap(at, at + 1);
                }
            }
            _ => {}
        }
    }
    v
}

fn cat(a: &[Gen], b: &[Gen]) -> Vec<Gen> {
    let mut v = a.to_vec();
    v.extend_from_slice(b);
    v
}

fn delta2() -> Vec<Gen> {
    word(&[1, 2, 1, 2, 1, 2])
}

// ----- tests -----

#[test]
fn braid_relation_in_every_function() {
    let a = word(&[1, 2, 1]);
    let b = word(&[2, 1, 2]);
    assert_eq!(b3_key(&a).unwrap(), b3_key(&b).unwrap());
    assert_eq!(b3_key(&a).unwrap(), B3Key::DELTA);
    assert!(equal(3, &a, &b));
    assert_eq!(Garside::of_word(3, &a), Garside::of_word(3, &b));
    assert_eq!(burau(3, &a), burau(3, &b));
    assert!(is_trivial(3, &cat(&a, &inverse(&b))));
    assert!(!is_trivial(3, &a));
    assert_eq!(full_twists(3, &a), None);
    assert_eq!(reduced_form(3, &a).len(), 3);
    assert!(equal(3, &reduced_form(3, &a), &b));
    let h = untangle_hint(3, &a, false, SearchLimits::default());
    assert_eq!(h.moves.len(), 3);
    assert!(h.optimal);
    assert!(is_trivial(3, &cat(&a, &h.moves)));
    // The same relation inside B₄ and between σ2, σ3.
    assert!(equal(4, &word(&[2, 3, 2]), &word(&[3, 2, 3])));
    assert!(equal(4, &word(&[1, 3]), &word(&[3, 1])));
    assert!(!equal(4, &word(&[1, 2]), &word(&[2, 1])));
}

#[test]
fn a_generator_and_its_inverse_cancel() {
    let w = word(&[1, -1]);
    assert!(free_reduce(&w).is_empty());
    assert!(is_trivial(3, &w));
    assert!(b3_key(&w).unwrap().is_identity());
    assert!(Garside::of_word(3, &w).is_identity());
    assert_eq!(full_twists(3, &w), Some(0));
    assert!(untangle_hint(3, &w, false, SearchLimits::default()).moves.is_empty());
    assert!(reduced_form(3, &w).is_empty());
    assert_eq!(format_word(&reduced_form(3, &w)), "e");
}

#[test]
fn generators_differ() {
    assert!(!equal(3, &word(&[1]), &word(&[2])));
    assert!(!equal(3, &word(&[1]), &word(&[-1])));
    assert_ne!(Garside::of_word(3, &word(&[1])), Garside::of_word(3, &word(&[2])));
    assert_ne!(burau(3, &word(&[1])), burau(3, &word(&[2])));
}

#[test]
fn full_twist_is_central_and_detected() {
    let d2 = delta2();
    assert_eq!(d2, full_twist_word(3));
    // Δ² = (σ1σ2σ1)² = (σ1σ2)³
    assert!(equal(3, &d2, &word(&[1, 2, 1, 1, 2, 1])));
    for g in [1, -1, 2, -2] {
        let g = word(&[g]);
        assert!(equal(3, &cat(&d2, &g), &cat(&g, &d2)), "Δ² commutes with {g:?}");
    }
    assert_eq!(full_twists(3, &d2), Some(1));
    assert_eq!(full_twists(3, &inverse(&d2)), Some(-1));
    assert_eq!(full_twists(3, &cat(&d2, &d2)), Some(2));
    assert_eq!(Garside::of_word(3, &d2).full_twists(), Some(1));
    // Δ⁴ is in the kernel of the SL(2, Z) map: only the exponent sum (12) tells it apart.
    let d4 = cat(&d2, &d2);
    let k = b3_key(&d4).unwrap();
    assert_eq!(k.m, [1, 0, 0, 1]);
    assert_eq!(k.exp_sum, 12);
    assert!(!is_trivial(3, &d4));
    // Full twists hidden in a scrambled word, and near misses.
    let mut rng = Rng(7);
    let u = rng.word(3, 8);
    let conj = cat(&cat(&u, &d2), &inverse(&u));
    assert_eq!(full_twists(3, &scramble(&mut rng, 3, &conj, 30)), Some(1));
    assert_eq!(full_twists(3, &word(&[1, 1])), None);
    assert_eq!(full_twists(3, &word(&[1, 2, 1])), None); // Δ: half twist, not central
    assert_eq!(full_twists(3, &cat(&d2, &word(&[1]))), None);
    // Four strands: Δ² = (σ1σ2σ3)⁴.
    let d2_4 = full_twist_word(4);
    assert_eq!(full_twists(4, &d2_4), Some(1));
    assert!(equal(4, &cat(&d2_4, &word(&[3])), &cat(&word(&[3]), &d2_4)));
    // A swivel sheds full twists: nothing left to do.
    let h = untangle_hint(3, &d2, true, SearchLimits::default());
    assert!(h.moves.is_empty());
    assert_eq!(h.twists_left, 1);
    let h = untangle_hint(3, &cat(&d2, &word(&[1])), true, SearchLimits::default());
    assert_eq!(h.moves, word(&[-1]));
    assert_eq!(h.twists_left, 1);
    // Without a swivel, Δ² needs six moves (its exponent sum is 6).
    let h = untangle_hint(3, &d2, false, SearchLimits::default());
    assert_eq!(h.moves.len(), 6);
    assert!(is_trivial(3, &cat(&d2, &h.moves)));
}

#[test]
fn a_word_and_its_reverse_inverse_compose_to_the_identity() {
    let mut rng = Rng(11);
    for n in [3usize, 4, 5] {
        for len in [0usize, 1, 5, 20, 60] {
            let w = rng.word(n, len);
            assert!(is_trivial(n, &cat(&w, &inverse(&w))));
            assert!(is_trivial(n, &cat(&inverse(&w), &w)));
            assert!(Garside::of_word(n, &cat(&w, &inverse(&w))).is_identity());
        }
    }
}

#[test]
fn triviality_agrees_with_burau_and_garside_on_random_words() {
    let mut rng = Rng(0x5eed);
    let (mut trivial, mut nontrivial) = (0, 0);
    for case in 0..300 {
        let n = if case % 3 == 0 { 4 } else { 3 };
        let u = {
            let l = 1 + rng.below(7);
            rng.word(n, l)
        };
        let v = scramble(&mut rng, n, &inverse(&u), 12);
        let mut w = cat(&u, &v); // trivial by construction, rarely freely trivial
        if case % 2 == 1 {
            // Perturb one letter: usually no longer trivial.
            let at = rng.below(w.len());
            w[at] = if rng.below(2) == 0 { w[at].inverse() } else { rng.gen(n) };
        }
        let by_burau = burau(n, &w) == identity(n);
        let by_garside = Garside::of_word(n, &w).is_identity();
        let by_key = is_trivial(n, &w);
        assert_eq!(by_burau, by_garside, "case {case}: {}", format_word(&w));
        assert_eq!(by_key, by_garside, "case {case}: {}", format_word(&w));
        if n == 3 {
            assert_eq!(b3_key(&w).unwrap().is_identity(), by_burau);
        }
        if case % 2 == 0 {
            assert!(by_key, "constructed trivial word {} judged nontrivial", format_word(&w));
        }
        if by_key {
            trivial += 1
        } else {
            nontrivial += 1
        }
    }
    assert!(trivial >= 150 && nontrivial >= 100, "{trivial} trivial, {nontrivial} not");
}

#[test]
fn equality_agrees_with_garside_on_random_pairs() {
    let mut rng = Rng(99);
    for _ in 0..200 {
        let a = {
            let l = 1 + rng.below(10);
            rng.word(3, l)
        };
        let b = if rng.below(2) == 0 {
            scramble(&mut rng, 3, &a, 15)
        } else {
            {
                let l = 1 + rng.below(10);
                rng.word(3, l)
            }
        };
        let same = Garside::of_word(3, &a) == Garside::of_word(3, &b);
        assert_eq!(equal(3, &a, &b), same);
        assert_eq!(burau(3, &a) == burau(3, &b), same);
    }
}

#[test]
fn key_overflow_is_never_silent() {
    // (σ1σ2⁻¹)ⁿ has entries growing like 2.618ⁿ: past i64 at n ≈ 46.
    let mut w = Vec::new();
    for _ in 0..60 {
        w.extend(word(&[1, -2]));
    }
    assert_eq!(b3_key(&w), Err(KeyOverflow));
    assert!(!is_trivial(3, &w)); // answered by the Garside normal form
    assert_eq!(full_twists(3, &w), None);
    // The running product overflows halfway, the element is the identity: the fallback
    // recomputes the key exactly.
    let ww = cat(&w, &inverse(&w));
    assert_eq!(b3_key(&ww), Ok(B3Key::IDENTITY));
    assert!(is_trivial(3, &ww));
    // ... also when the second half is spelled differently.
    let mut rng = Rng(3);
    let ww2 = cat(&w, &scramble(&mut rng, 3, &inverse(&w), 40));
    assert!(is_trivial(3, &ww2));
    let almost = cat(&ww2, &word(&[1]));
    assert_eq!(b3_key(&almost), Ok(b3_key(&word(&[1])).unwrap()));
}

#[test]
fn untangle_hint_is_short_and_undoes_the_braid() {
    let mut rng = Rng(42);
    for case in 0..120 {
        let len = rng.below(13);
        let w = rng.word(3, len);
        let h = untangle_hint(3, &w, false, SearchLimits::default());
        assert!(h.moves.len() <= w.len(), "case {case}");
        assert!(h.moves.len() <= free_reduce(&w).len());
        assert!(is_trivial(3, &cat(&w, &h.moves)), "case {case}: hint does not undo {}", format_word(&w));
        assert!(h.optimal);
        assert_eq!(h.twists_left, 0);
        // Shortest: no shorter word is in the same class (its inverse is a geodesic for w).
        let g = shortest_word(3, &w, SearchLimits::default()).unwrap();
        assert_eq!(g.len(), h.moves.len());
        assert!(equal(3, &g, &w));
        // With a swivel: at most as long, leaves only full twists.
        let hs = untangle_hint(3, &w, true, SearchLimits::default());
        assert!(hs.moves.len() <= h.moves.len());
        assert_eq!(full_twists(3, &cat(&w, &hs.moves)), Some(hs.twists_left));
    }
    // Scrambled long words of short braids get short hints.
    let base = word(&[1, 1, -2]);
    let long = scramble(&mut rng, 3, &base, 40);
    assert!(long.len() > 10);
    let h = untangle_hint(3, &long, false, SearchLimits::default());
    assert_eq!(h.moves.len(), 3);
    assert!(is_trivial(3, &cat(&long, &h.moves)));
    // Four strands (Garside-keyed search).
    let w4 = word(&[1, 3, -2, 3]);
    let h4 = untangle_hint(4, &w4, false, SearchLimits::default());
    assert_eq!(h4.moves.len(), 4);
    assert!(is_trivial(4, &cat(&w4, &h4.moves)));
    let w4s = scramble(&mut rng, 4, &w4, 20);
    let h4s = untangle_hint(4, &w4s, false, SearchLimits::default());
    assert!(h4s.moves.len() <= 4 && is_trivial(4, &cat(&w4s, &h4s.moves)));
}

#[test]
fn hint_falls_back_to_the_inverse_past_its_budget() {
    let w = word(&[1, -2, 1, -2, 1, -2, 1, -2]);
    let tiny = SearchLimits { max_len: 2, max_nodes: 10 };
    let h = untangle_hint(3, &w, false, tiny);
    assert_eq!(h.moves, inverse(&w));
    assert!(!h.optimal);
    assert!(is_trivial(3, &cat(&w, &h.moves)));
}

#[test]
fn garside_normal_form_is_canonical() {
    let mut rng = Rng(5);
    for _ in 0..100 {
        let n = 3 + rng.below(3);
        let w = {
            let l = rng.below(15);
            rng.word(n, l)
        };
        let g = Garside::of_word(n, &w);
        // Spelling out the normal form gives the same braid and the same normal form.
        let spelled = g.to_word();
        assert_eq!(Garside::of_word(n, &spelled), g);
        assert!(equal(n, &spelled, &w));
        assert!(g.factors.iter().all(|f| !f.is_identity() && !f.is_delta()));
        assert_eq!(Garside::of_word(n, &scramble(&mut rng, n, &w, 20)), g);
    }
    assert_eq!(Garside::of_word(3, &delta2()).to_string(), "Δ²");
    assert_eq!(Garside::of_word(3, &word(&[1, 1, 2])).to_string(), "σ1 · σ1σ2");
}

#[test]
fn permutation_and_exponent_sum() {
    assert_eq!(permutation(3, &word(&[1])), vec![1, 0, 2]);
    assert_eq!(permutation(3, &word(&[1, 2])), vec![2, 0, 1]); // strand at 0 ends at 2
    assert_eq!(permutation(3, &delta2()), vec![0, 1, 2]);
    assert_eq!(exponent_sum(&word(&[1, -2, 2, 2])), 2);
    assert_eq!(strands_needed(&word(&[1, -3])), 4);
}

#[test]
fn moves_read_as_sentences() {
    let t = describe_moves(&word(&[-1, -1]), &[0, 1, 2]);
    assert_eq!(t.len(), 1);
    assert_eq!(t[0].text, "dog 1 walks once all the way around dog 2, clockwise");
    assert_eq!(t[0].half_turns, -2);
    let t = describe_moves(&word(&[1, 2]), &[2, 0, 1]);
    assert_eq!(t[0].text, "dog 3 and dog 1 swap places, going half a turn counter-clockwise around each other");
    // After the first swap dog 3 is in the middle.
    assert_eq!(t[1].dogs, [2, 1]);
}

#[test]
fn hint_length_matches_exhaustive_enumeration() {
    // Independent check of optimality: enumerate every word up to length 6.
    let gens = word(&[1, -1, 2, -2]);
    let mut by_len: Vec<Vec<B3Key>> = vec![vec![B3Key::IDENTITY]];
    for len in 1..=6 {
        let prev = by_len[len - 1].clone();
        let next: Vec<B3Key> = prev.iter().flat_map(|k| gens.iter().map(move |&g| k.mul_gen(g).unwrap())).collect();
        by_len.push(next);
    }
    let shortest = |k: B3Key| by_len.iter().position(|layer| layer.contains(&k));
    let mut rng = Rng(1234);
    for _ in 0..60 {
        let l = 1 + rng.below(8);
        let w = rng.word(3, l);
        let target = b3_key(&w).unwrap().inverse();
        let h = untangle_hint(3, &w, false, SearchLimits::default());
        match shortest(target) {
            Some(len) => assert_eq!(h.moves.len(), len, "{}", format_word(&w)),
            None => assert!(h.moves.len() > 6),
        }
    }
}

/// `equal` cancels a common prefix and suffix before the word problem (the leash tracker
/// compares a long remembered braid with itself plus one step's change): the answers on long
/// words stay those of the braid relations. A 3,000-letter pseudo-random prefix, then the
/// braid relation σ₁σ₂σ₁ = σ₂σ₁σ₂ (equal), σ₁ against σ₂ (not), and σ₁σ₁⁻¹ against the empty
/// word (equal; a difference of lengths), each followed by a common 500-letter suffix.
#[test]
fn equal_on_long_words_with_a_common_prefix_and_suffix() {
    let mut x = 12345u32;
    let mut letters = |n: usize| -> Vec<i8> {
        (0..n)
            .map(|_| {
                x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                [1i8, -1, 2, -2][(x >> 30) as usize]
            })
            .collect()
    };
    let (head, tail) = (letters(3000), letters(500));
    let with = |mid: &[i8]| word(&[head.as_slice(), mid, tail.as_slice()].concat());
    assert!(equal(3, &with(&[1, 2, 1]), &with(&[2, 1, 2])));
    assert!(!equal(3, &with(&[1]), &with(&[2])));
    assert!(equal(3, &with(&[1, -1]), &with(&[])));
    assert!(!equal(3, &with(&[1, 1]), &with(&[])));
}

/// The short form (issue 29 §4: the leash's remembered word grew to 496 letters for a braid
/// of 24, and `braid()` took 100+ ms searching it): the same braid as the word, canonical
/// (every word of a braid gives the same normal-form word), idempotent, and within a small
/// factor of the shortest word however long the word it was read from.
#[test]
fn short_form_is_the_same_braid_canonical_and_near_the_shortest() {
    let mut rng = Rng(0x29_0004);
    for n in [3usize, 4, 5] {
        for len in [0usize, 1, 5, 20, 80, 200] {
            let w = rng.word(n, len);
            let s = short_form(n, &w);
            assert!(equal(n, &w, &s), "n={n}: {} is not {}", format_word(&s), format_word(&w));
            assert!(s.len() <= free_reduce(&w).len());
            assert_eq!(short_form(n, &s), s, "idempotent");
            let nf = Garside::of_word(n, &w).to_short_word();
            assert!(equal(n, &w, &nf));
            let other = scramble(&mut rng, n, &w, 60);
            assert_eq!(Garside::of_word(n, &other).to_short_word(), nf, "canonical");
        }
    }
    // A short braid hidden in a long word (noise that cancels in the group, as the leash's
    // flickering order at the hand adds): the short form's length depends on the braid, not
    // on the word; against the exhaustive search's shortest word, at most 2x + 3.
    for k in 0..40 {
        let core = rng.word(3, 2 + k % 9);
        let mut w = core.clone();
        for _ in 0..20 {
            let x = rng.word(3, 6);
            w = cat(&w, &scramble(&mut rng, 3, &cat(&x, &inverse(&x)), 10));
        }
        let w = scramble(&mut rng, 3, &w, 200);
        let s = short_form(3, &w);
        let best = shortest_word(3, &w, SearchLimits::default()).expect("found");
        assert!(equal(3, &s, &core) && equal(3, &best, &core));
        assert!(s.len() <= 2 * best.len() + 3, "{} letters for a braid of {}", s.len(), best.len());
        assert!(reduced_form_within(3, &w, SearchLimits::INTERACTIVE).len() <= s.len());
    }
}

/// Δ⁻ᵏ with more or fewer factors than k: every branch of `to_short_word`.
#[test]
fn short_word_of_negative_delta_powers() {
    let d = word(&[1, 2, 1]);
    let dinv = inverse(&d);
    for k in 1..5 {
        for extra in [vec![], word(&[1]), word(&[1, 2]), word(&[2, 2, 1, 1, 2]), word(&[1, 1, 1, 1, 2, 2, 2, 1, 1, 1])]
        {
            let mut w = Vec::new();
            for _ in 0..k {
                w.extend_from_slice(&dinv);
            }
            w.extend_from_slice(&extra);
            let g = Garside::of_word(3, &w);
            let s = g.to_short_word();
            assert!(equal(3, &s, &w), "k={k} extra={}: {}", format_word(&extra), format_word(&s));
            assert!(s.len() <= w.len());
        }
    }
}
