//! Unit tests of the SPRT: the statistics, the design effect and the tracker's decisions.

use super::*;

fn spec(elo0: f64, elo1: f64, model: Model) -> Spec {
    Spec {
        elo0,
        elo1,
        alpha: 0.05,
        beta: 0.05,
        model,
        max_games: 1000,
        correct_repeats: true,
    }
}

fn close(a: f64, b: f64, eps: f64) -> bool {
    (a - b).abs() < eps
}

#[test]
fn design_effect_of_repeated_openings() {
    // Each opening always gives the same pair score: fully correlated, and two pairs an
    // opening carry the evidence of one.
    let same: [&[f64]; 4] = [&[2.0, 2.0], &[0.0, 0.0], &[2.0, 2.0], &[0.0, 0.0]];
    let (rho, deff) = design_effect(&same).expect("enough pairs");
    assert!(
        close(rho, 1.0, 1e-12) && close(deff, 2.0, 1e-12),
        "{rho} {deff}"
    );
    // The openings' means are equal: no correlation, no correction.
    let spread: [&[f64]; 4] = [&[0.0, 2.0], &[2.0, 0.0], &[1.0, 1.0], &[0.0, 2.0]];
    let (rho, deff) = design_effect(&spread).expect("enough pairs");
    assert!(
        close(rho, 0.0, 1e-12) && close(deff, 1.0, 1e-12),
        "{rho} {deff}"
    );
    // By hand: groups {2, 2, 1}, {0, 1}, {1, 1, 1, 0}: grand mean 1, between-groups mean
    // square (3·(2/3)² + 2·(1/2)² + 4·(1/4)²)/2 = 1.0417, within (2/3 + 1/2 + 3/4)/6 =
    // 0.3194, m0 = (9 − 29/9)/2 = 2.8889, ρ = 0.7222/1.6451 = 0.4390; m̃ = 29/9, so the
    // design effect is 1 + (29/9 − 1)·ρ = 1.9756.
    let mixed: [&[f64]; 3] = [&[2.0, 2.0, 1.0], &[0.0, 1.0], &[1.0, 1.0, 1.0, 0.0]];
    let (rho, deff) = design_effect(&mixed).expect("enough pairs");
    assert!(
        close(rho, 0.4390, 1e-4) && close(deff, 1.9756, 1e-4),
        "{rho} {deff}"
    );
    // One opening, or one pair an opening: nothing to estimate.
    assert_eq!(design_effect(&[&[1.0, 2.0, 0.0]]), None);
    assert_eq!(design_effect(&[&[1.0], &[2.0]]), None);
}

/// A tracker over `openings` openings fed `pairs` (opening, A's points) in order.
fn tracker(spec: Spec, openings: usize, pairs: &[(usize, f64)]) -> Tracker {
    let mut t = Tracker {
        spec,
        a: "A".into(),
        b: "B".into(),
        open: Default::default(),
        penta: [0; 5],
        games: 0,
        decision: None,
        openings,
        by_opening: Default::default(),
    };
    for &(opening, points) in pairs {
        if t.decision.is_none() {
            t.add_pair(opening, points);
        }
    }
    t
}

#[test]
fn repeated_openings_ask_for_more_evidence() {
    // Ten openings, each replayed pair after pair to the same result: seven always won
    // 2-0 by A, three always split. Uncorrected, a few dozen pairs decide H1; but every
    // opening's pairs are the same game, so the evidence is that of ten pairs.
    let stream: Vec<(usize, f64)> = (0..400)
        .map(|k| (k % 10, if k % 10 < 7 { 2.0 } else { 1.0 }))
        .collect();
    let normalized = Spec {
        max_games: 800,
        ..spec(0.0, 20.0, Model::Normalized)
    };
    let raw = tracker(
        Spec {
            correct_repeats: false,
            ..normalized
        },
        10,
        &stream,
    );
    let (decision, at) = raw.decision.unwrap_or_else(|| panic!("{}", raw.line()));
    assert_eq!(decision, Decision::H1, "{}", raw.line());
    assert!(
        (at - raw.llr()).abs() < 1e-12 && at >= 2.944,
        "{}",
        raw.line()
    );
    let raw_pairs: u32 = raw.penta.iter().sum();
    assert!(raw.line().contains("H1 accepted") && !raw.line().contains("design effect"));

    // Corrected: ρ = 1, so the design effect is the pairs per opening, and LLR / (pairs
    // / 10) stays near ten pairs' worth (about 1.2 here) however many pairs are played:
    // the test runs to max_games without a decision.
    let corrected = tracker(normalized, 10, &stream);
    let (rho, deff) = corrected.repeats().unwrap_or_else(|| panic!("no repeats"));
    assert!((rho - 1.0).abs() < 1e-9, "{rho}");
    assert!((deff - 40.0).abs() < 1e-9, "{deff}");
    assert_eq!(corrected.decision.map(|d| d.0), Some(Decision::MaxGames));
    assert!((corrected.decision_llr() - corrected.llr() / 40.0).abs() < 1e-12);
    assert!(corrected.llr() > 2.944 * 10.0, "{}", corrected.llr());
    assert!(
        corrected.line().contains("design effect 40.00"),
        "{}",
        corrected.line()
    );
    assert!(raw_pairs < 400);
    let note = corrected.repeat_note().join("\n");
    assert!(note.contains("decides on the corrected LLR"), "{note}");

    // Pairs that do not repeat their opening are left as they are: one opening each.
    let fresh: Vec<(usize, f64)> = stream
        .iter()
        .enumerate()
        .map(|(k, &(_, p))| (k, p))
        .collect();
    let independent = tracker(normalized, 400, &fresh);
    assert_eq!(independent.repeats(), None);
    assert_eq!(independent.decision, raw.decision);
}

#[test]
fn bounds_are_the_wald_thresholds() {
    let (lo, hi) = spec(0.0, 5.0, Model::Normalized).bounds();
    // ln(0.05/0.95) and ln(0.95/0.05).
    assert!(close(lo, -2.944_438_979, 1e-9), "{lo}");
    assert!(close(hi, 2.944_438_979, 1e-9), "{hi}");
    let asym = Spec {
        alpha: 0.1,
        beta: 0.2,
        ..spec(0.0, 5.0, Model::Logistic)
    };
    let (lo, hi) = asym.bounds();
    assert!(close(lo, (0.2f64 / 0.9).ln(), 1e-12));
    assert!(close(hi, 8f64.ln(), 1e-12));
}

#[test]
fn moments_of_a_hand_counted_sample() {
    // 100 pairs: 5 lost 0-2, 10 at ½, 30 at 1, 35 at 1½, 20 won 2-0.
    // mean = (10·.25 + 30·.5 + 35·.75 + 20·1) / 100 = 0.6375
    // var = (5·0.6375² + 10·0.3875² + 30·0.1375² + 35·0.1125² + 20·0.3625²) / 100
    //     = (2.0320313 + 1.5015625 + 0.5671875 + 0.4429688 + 2.628125) / 100 = 0.07171875
    let (n, mean, var) = moments(&[5, 10, 30, 35, 20]).unwrap_or_default();
    assert!(close(n, 100.0, 1e-12));
    assert!(close(mean, 0.6375, 1e-12), "{mean}");
    assert!(close(var, 0.071_718_75, 1e-12), "{var}");
    assert_eq!(moments(&[0; 5]), None);
}

#[test]
fn llr_against_hand_computed_values() {
    let penta = [5, 10, 30, 35, 20];
    // With the prior: 5.5/10/31/35/20.5, 102 pairs, mean = 64.75/102 = 0.6348039...,
    // var = 0.0731269... (as in `moments_of_a_hand_counted_sample`).
    // Logistic [0, 5]: μ0 = 0.5, μ1 = 1/(1+10^(-5/400)) = 0.507195...
    // LLR = 102·(μ1−μ0)·(2·0.6348039 − μ0 − μ1)/(2·0.0731269) = 1.31678...
    let l = llr(&penta, &spec(0.0, 5.0, Model::Logistic));
    assert!(close(l, 1.316_781, 1e-5), "{l}");
    // Normalized [0, 5]: s = √(2·0.0731269) = 0.382431..., μ1 = 0.5 + 5·s·ln10/800
    // = 0.505503...; LLR = 1.01372...
    let l = llr(&penta, &spec(0.0, 5.0, Model::Normalized));
    assert!(close(l, 1.013_719, 1e-5), "{l}");
    // A symmetric sample (mean ½) favours H0 = 0 over H1 = 5.
    // 10.5/20/41/20/10.5: var = 0.0759804; normalized μ1 − μ0 = 5·√(2·var)·ln10/800;
    // LLR = −102·(μ1 − μ0)²/(2·var) = −0.02112...
    let l = llr(&[10, 20, 40, 20, 10], &spec(0.0, 5.0, Model::Normalized));
    assert!(close(l, -0.021_125, 1e-5), "{l}");
    assert_eq!(llr(&[0; 5], &spec(0.0, 5.0, Model::Normalized)), 0.0);
}

#[test]
fn identical_pairs_give_a_sane_ratio() {
    let normalized = spec(0.0, 20.0, Model::Normalized);
    // Three lost pairs: the exact binomial ratio of six losses for H1 = +20 against
    // H0 = 0 is 6·ln(0.4712/0.5) = −0.355; the prior gives −0.385 (without it the
    // sample variance is about 0 and the ratio was −4.9, an H0 after six games).
    let three_lost = llr(&[3, 0, 0, 0, 0], &normalized);
    assert!(close(three_lost, -0.384_753, 1e-5), "{three_lost}");
    // A long run of identical pairs still decides, and every ratio is finite.
    let all_won = llr(&[0, 0, 0, 0, 20], &normalized);
    assert!(all_won.is_finite() && all_won > 2.95, "{all_won}");
    let all_lost = llr(&[10, 0, 0, 0, 0], &spec(0.0, 5.0, Model::Logistic));
    assert!(all_lost.is_finite() && all_lost < -0.5, "{all_lost}");
    let all_lost = llr(&[40, 0, 0, 0, 0], &normalized);
    assert!(all_lost.is_finite() && all_lost < -2.95, "{all_lost}");
}

#[test]
fn estimate_matches_the_logistic_curve() {
    // Mean 0.6375 → Elo = −400·log10(1/0.6375 − 1) = 98.069...;
    // nElo = 0.1375/√0.1434375·347.44 = 126.1...
    let (e, em, ne, nem) = estimate(&[5, 10, 30, 35, 20]).unwrap_or_default();
    assert!(close(e, 98.069, 1e-2), "{e}");
    assert!(close(ne, 0.1375 / 0.143_437_5f64.sqrt() * NELO_SCALE, 1e-9));
    assert!(em > 0.0 && em < 50.0, "{em}");
    // ±1.96·347.44/√200 = 48.15...
    assert!(close(nem, 48.152, 1e-2), "{nem}");
}

#[test]
fn schedule_pairs_share_an_opening_and_swap_colours() {
    let s = schedule(3, 8);
    assert_eq!(s.len(), 8);
    for (k, pair) in s.chunks(2).enumerate() {
        assert_eq!(pair[0].opening, k % 3);
        assert_eq!(pair[1].opening, k % 3);
        assert_eq!((pair[0].black, pair[0].white), (0, 1));
        assert_eq!((pair[1].black, pair[1].white), (1, 0));
        assert_eq!(pair[0].game, 2 * k + 1);
    }
}

#[test]
fn bad_sections_are_refused() {
    let raw = |elo0: f64, elo1: f64, alpha: f64| RawSprt {
        elo0,
        elo1,
        alpha,
        beta: 0.05,
        model: Model::Normalized,
        max_games: 100,
        correct_repeats: true,
    };
    assert!(Spec::from_raw(&raw(0.0, 5.0, 0.05), 2).is_ok());
    assert!(Spec::from_raw(&raw(0.0, 5.0, 0.05), 3).is_err());
    assert!(Spec::from_raw(&raw(5.0, 5.0, 0.05), 2).is_err());
    assert!(Spec::from_raw(&raw(0.0, 5.0, 0.0), 2).is_err());
    assert!(Spec::from_raw(&raw(0.0, f64::NAN, 0.05), 2).is_err());
    let odd = RawSprt {
        max_games: 7,
        ..raw(0.0, 5.0, 0.05)
    };
    assert_eq!(Spec::from_raw(&odd, 2).map(|s| s.max_games), Ok(8));
}
