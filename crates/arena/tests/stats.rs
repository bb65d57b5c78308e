//! Match statistics against values worked out by hand.

use caissa_arena::stats::{los, score_from_elo, Pentanomial, Sprt, SprtStatus, Trinomial};

fn close(got: f64, want: f64, tolerance: f64) {
    assert!(
        (got - want).abs() <= tolerance,
        "got {got}, want {want} (± {tolerance})"
    );
}

/// `-400 log10(1/p - 1)`, written out again so the library is not checked against
/// itself.
fn elo(p: f64) -> f64 {
    -400.0 * (1.0 / p - 1.0).log10()
}

#[test]
fn even_score_is_zero_elo() {
    // 5 wins, 5 losses: p = 0.5, per-game variance 0.25, σ of the mean sqrt(0.25/10).
    let e = Trinomial::new(5, 0, 5).elo();
    close(e.elo, 0.0, 1e-9);
    let sigma = (0.25f64 / 10.0).sqrt(); // 0.158114
    let half = 1.959_964 * sigma; // 0.309903
    close(e.margin, (elo(0.5 + half) - elo(0.5 - half)) / 2.0, 1e-3);
    close(e.margin, 251.78, 0.01);
    close(e.los, 0.5, 1e-12);

    // 30 - 40 - 30: draws shrink the variance to (30·0.25 + 30·0.25)/100 = 0.15.
    let e = Trinomial::new(30, 40, 30).elo();
    close(e.elo, 0.0, 1e-9);
    let half = 1.959_964 * (0.15f64 / 100.0).sqrt(); // 0.075909
    close(e.margin, elo(0.5 + half), 1e-2);
    close(e.margin, 53.16, 0.01);
}

#[test]
fn three_quarters_is_about_191_elo() {
    // 15 - 0 - 5: p = 0.75, elo = 400 log10(3) = 190.85.
    let t = Trinomial::new(15, 0, 5);
    let e = t.elo();
    close(t.score(), 0.75, 1e-12);
    close(e.elo, 400.0 * 3f64.log10(), 1e-9);
    close(e.elo, 190.85, 0.01);
    // variance = (15·0.25² + 5·0.75²)/20 = 0.1875; σ = sqrt(0.1875/20) = 0.0968246;
    // the interval 0.75 ± 0.189773 is [0.560227, 0.939773].
    let half = 1.959_964 * (0.1875f64 / 20.0).sqrt();
    close(half, 0.189_773, 1e-6);
    close(e.margin, (elo(0.939_773) - elo(0.560_227)) / 2.0, 0.01);
    close(e.margin, 217.62, 0.01);
    // LOS = (1 + erf(10 / sqrt(40)))/2 = (1 + erf(1.581139))/2 = 0.987326.
    close(e.los, 0.987_326, 1e-5);
}

#[test]
fn the_example_from_the_brief() {
    // 12 - 3 - 5 (W-D-L): p = 13.5/20 = 0.675; elo = -400 log10(0.325/0.675) = 126.97.
    let e = Trinomial::new(12, 3, 5).elo();
    close(e.elo, 126.97, 0.01);
    // variance = (12·0.325² + 3·0.175² + 5·0.675²)/20 = 3.6375/20 = 0.181875.
    let half = 1.959_964 * (0.181_875f64 / 20.0).sqrt();
    close(
        e.margin,
        (elo(0.675 + half) - elo(0.675 - half)) / 2.0,
        1e-3,
    );
    close(e.margin, 163.19, 0.01);
    // LOS = (1 + erf(7 / sqrt(34)))/2.
    close(e.los, 0.955_222, 1e-5);
    close(Trinomial::new(12, 3, 5).draw_ratio(), 0.15, 1e-12);
}

#[test]
fn lopsided_and_empty_results() {
    let e = Trinomial::new(10, 0, 0).elo();
    assert_eq!(e.elo, f64::INFINITY);
    assert!(!e.margin.is_finite());
    close(los(10, 0), 0.999_214, 1e-5);
    let e = Trinomial::default().elo();
    assert_eq!(e.elo, 0.0);
    close(los(0, 0), 0.5, 0.0);
    // Symmetry: the opponent's view is the negative.
    let a = Trinomial::new(7, 4, 3).elo();
    let b = Trinomial::new(7, 4, 3).flipped().elo();
    close(a.elo, -b.elo, 1e-9);
    close(a.margin, b.margin, 1e-9);
    close(a.los + b.los, 1.0, 1e-12);
}

#[test]
fn pentanomial_margin() {
    // Pairs scoring 0, 1/2, 1, 3/2, 2: counts [1, 3, 8, 5, 3] (20 pairs).
    // Pair score fractions 0, .25, .5, .75, 1: mean (0.75 + 4 + 3.75 + 3)/20 = 0.575.
    let p = Pentanomial([1, 3, 8, 5, 3]);
    let e = p.elo();
    close(e.elo, elo(0.575), 1e-9);
    close(e.elo, 52.51, 0.01);
    // variance = Σ c (x - 0.575)² / 20
    let xs = [0.0, 0.25, 0.5, 0.75, 1.0];
    let counts = [1.0, 3.0, 8.0, 5.0, 3.0];
    let var: f64 = xs
        .iter()
        .zip(counts)
        .map(|(x, c)| c * (x - 0.575f64).powi(2))
        .sum::<f64>()
        / 20.0;
    let half = 1.959_964 * (var / 20.0).sqrt();
    close(
        e.margin,
        (elo(0.575 + half) - elo(0.575 - half)) / 2.0,
        1e-3,
    );
    close(e.margin, 83.75, 0.01);
}

#[test]
fn sprt_bounds_and_llr_sign() {
    let sprt = Sprt::parse("elo0=0,elo1=10,alpha=0.05,beta=0.05").unwrap();
    let (lower, upper) = sprt.bounds();
    close(lower, (0.05f64 / 0.95).ln(), 1e-12); // -2.944
    close(upper, (0.95f64 / 0.05).ln(), 1e-12); // +2.944
    close(upper, 2.944_439, 1e-6);

    // s0 = 0.5, s1 = 1/(1 + 10^(-10/400)) = 0.514387.
    let s1 = 1.0 / (1.0 + 10f64.powf(-10.0 / 400.0));
    close(score_from_elo(10.0), s1, 1e-12);

    // 60 - 30 - 40: p = 0.575, variance = (60·0.425² + 30·0.075² + 40·0.575²)/130.
    let t = Trinomial::new(60, 30, 40);
    let p = 75.0 / 130.0;
    let var = (60.0 * (1.0 - p) * (1.0 - p) + 30.0 * (0.5 - p) * (0.5 - p) + 40.0 * p * p) / 130.0;
    let want = 130.0 * (s1 - 0.5) * (2.0 * p - 0.5 - s1) / (2.0 * var);
    close(sprt.llr(&t), want, 1e-9);
    close(sprt.llr(&t), 0.6997, 1e-4);
    assert_eq!(sprt.status(sprt.llr(&t)), SprtStatus::Continue);

    // A clearly better engine crosses the upper bound...
    let strong = Trinomial::new(400, 300, 300);
    close(sprt.llr(&strong), 3.5702, 1e-4);
    assert_eq!(sprt.status(sprt.llr(&strong)), SprtStatus::AcceptH1);
    // ... an equal one drifts down (a 50 % score is below the midpoint of s0 and s1) ...
    let equal = Trinomial::new(300, 400, 300);
    assert!(sprt.llr(&equal) < 0.0);
    close(sprt.llr(&equal), -0.6900, 1e-4);
    let equal_long = Trinomial::new(1500, 2000, 1500);
    assert_eq!(sprt.status(sprt.llr(&equal_long)), SprtStatus::AcceptH0);
    // ... and a worse one goes down faster.
    assert!(sprt.llr(&Trinomial::new(300, 300, 400)) < sprt.llr(&equal));
    // More of the same evidence moves the LLR further in the same direction.
    assert!(sprt.llr(&Trinomial::new(120, 60, 80)) > sprt.llr(&t));

    // No spread yet: no decision.
    assert_eq!(sprt.llr(&Trinomial::new(5, 0, 0)), 0.0);
    assert_eq!(sprt.llr(&Trinomial::new(0, 9, 0)), 0.0);
    assert_eq!(sprt.llr(&Trinomial::default()), 0.0);
}

#[test]
fn sprt_parameters() {
    let s = Sprt::parse("elo1=5, elo0=-5").unwrap();
    assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (-5.0, 5.0, 0.05, 0.05));
    assert!(Sprt::parse("elo0=10,elo1=0").is_err());
    assert!(Sprt::parse("alpha=0.7").is_err());
    assert!(Sprt::parse("gamma=1").is_err());
    assert!(Sprt::parse("elo0").is_err());
    assert!(Sprt::parse("elo1=inf").is_err());
}
