//! Tiebreaks and standings by FIDE C.07 (2023): worked examples computed by hand from
//! the regulation text, each test named after the article it checks, and properties
//! of complete round robins.

use caissa_tournament::standings::{self, Standing};
use caissa_tournament::tiebreak::{self, Modifier, Tiebreak, Value};
use caissa_tournament::{trf, Colour, Entry, GameResult, Player, Points, Tournament};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

// ---------------------------------------------------------------------------------
// Fixtures: TRF16 text, one `001` line per player.

/// A `001` line, column-exact. `rounds` holds one token per round: the opponent's
/// starting rank, the colour and the result code (`2w1`, `4b=`, `5w+`), or `0-` and
/// a bye code (`0-H`, `0-U`, `0-Z`).
fn player(id: u32, name: &str, rating: u16, rounds: &str) -> String {
    let rating = if rating == 0 {
        String::new()
    } else {
        rating.to_string()
    };
    let mut line = format!("001 {id:>4}      {name:<33} {rating:>4}{:37}", "");
    for token in rounds.split_whitespace() {
        let chars: Vec<char> = token.chars().collect();
        let (result, colour) = (chars[chars.len() - 1], chars[chars.len() - 2]);
        let opponent: u32 = token[..token.len() - 2].parse().unwrap();
        line.push_str(&format!("  {opponent:>4} {colour} {result}"));
    }
    line
}

fn tournament(lines: &[String]) -> Tournament {
    trf::parse(&lines.join("\n")).unwrap_or_else(|e| panic!("fixture does not parse: {e}"))
}

fn tb(code: &str) -> Tiebreak {
    code.parse().unwrap()
}

fn points(values: &[f64]) -> Vec<Value> {
    values
        .iter()
        .map(|v| Value::Points((v * 100.0).round() as i64))
        .collect()
}

fn numbers(values: &[i64]) -> Vec<Value> {
    values.iter().map(|&n| Value::Number(n)).collect()
}

fn ranks(table: &[Standing]) -> Vec<(u32, u32)> {
    table.iter().map(|s| (s.rank, s.start_rank)).collect()
}

/// Five players, three rounds, every kind of unplayed round:
///
/// ```text
///            R1          R2              R3          score  adjusted (16.3)
/// 1 Alpha    2w 1        4b ½            5w 1        2.5    2.5
/// 2 Beta     1b 0        5w + (forfeit)  3w 0        1.0    1.0
/// 3 Gamma    4w 0        H (½ bye)       2b 1        1.5    1.5  (H then a game: 16.2.3)
/// 4 Delta    3b 1        1w ½            Z (0 bye)   1.5    2.0  (Z in the last round: 16.2.5, a draw)
/// 5 Epsilon  U (PAB)     2b - (forfeit)  1b 0        1.0    1.0  (PAB 16.2.1, forfeit loss 16.2.4)
/// ```
fn unplayed() -> Tournament {
    tournament(&[
        player(1, "Alpha", 2200, "2w1 4b= 5w1"),
        player(2, "Beta", 2001, "1b0 5w+ 3w0"),
        player(3, "Gamma", 1900, "4w0 0-H 2b1"),
        player(4, "Delta", 2100, "3b1 1w= 0-Z"),
        player(5, "Epsilon", 1800, "0-U 2b- 1b0"),
    ])
}

/// A six-player round robin by the Berger tables, Alpha to Delta tied on 2.5:
///
/// ```text
///           A    B    C    D    E    F    total  (games among A-D)
/// A Alpha   .    ½    ½    1    ½    0    2.5    2.0
/// B Bravo   ½    .    1    0    ½    ½    2.5    1.5
/// C Charlie ½    0    .    1    1    0    2.5    1.5
/// D Delta   0    1    0    .    1    ½    2.5    1.0
/// E Echo    ½    ½    0    0    .    ½    1.5
/// F Foxtrot 1    ½    1    ½    ½    .    3.5
/// ```
fn round_robin_lines() -> Vec<String> {
    vec![
        player(1, "Alpha", 0, "6w0 2w= 3b= 4w1 5b="),
        player(2, "Bravo", 0, "5w= 1b= 6w= 3w1 4b0"),
        player(3, "Charlie", 0, "4w1 5b1 1w= 2b0 6w0"),
        player(4, "Delta", 0, "3b0 6b= 5w1 1b0 2w1"),
        player(5, "Echo", 0, "2b= 3w0 4b0 6b= 1w="),
        player(6, "Foxtrot", 0, "1b1 4w= 2b= 5w= 3b1"),
    ]
}

fn round_robin() -> Tournament {
    tournament(&round_robin_lines())
}

/// A three-round Swiss where Alpha, Bravo and Charlie tie on 2: Alpha beat both,
/// Bravo and Charlie never met.
fn swiss_three_tied() -> Tournament {
    tournament(&[
        player(1, "Alpha", 0, "2w1 3b1 4b0"),
        player(2, "Bravo", 0, "1b0 5w1 6w1"),
        player(3, "Charlie", 0, "4w1 1w0 5b1"),
        player(4, "Delta", 0, "3b0 6w= 1w1"),
        player(5, "Echo", 0, "6w= 2b0 3w0"),
        player(6, "Foxtrot", 0, "5b= 4b= 2b0"),
    ])
}

// ---------------------------------------------------------------------------------
// Buchholz and the unplayed rounds of article 16.

#[test]
fn c07_8_1_buchholz_counts_adjusted_opponents_and_a_dummy_for_own_unplayed_rounds() {
    // Opponents count their adjusted score (16.3); an own unplayed round counts a dummy
    // with the player's own score (16.4):
    // 1: 2 (1.0) + 4 (2.0, Z in the last round as a draw) + 5 (1.0)      = 4.0
    // 2: 1 (2.5) + forfeit win: own 1.0 + 3 (1.5)                         = 5.0
    // 3: 4 (2.0) + half-point bye: own 1.5 + 2 (1.0)                      = 4.5
    // 4: 3 (1.5) + 1 (2.5) + zero-point bye: own 1.5                      = 5.5
    // 5: PAB: own 1.0 + forfeit loss: own 1.0 + 1 (2.5)                   = 4.5
    let t = unplayed();
    assert_eq!(
        tiebreak::compute(&t, 3, &tb("BH")),
        points(&[4.0, 5.0, 4.5, 5.5, 4.5])
    );
}

#[test]
fn c07_16_3_a_requested_bye_followed_by_a_game_counts_what_it_was_worth() {
    // 1: 2w1, Z, 3b½ = 1.5; the Z is followed by a game (16.2.3), so it stays 0.
    // 4: 3w0, Z, then a forfeit loss to 2 = 0; the Z is followed only by a voluntary
    //    unplayed round (16.2.5): a draw, so 4 counts 0.5 for their opponents.
    // 3 met 4 (0.5), 2 (2.0) and 1 (1.5): 4.0, where raw scores would give 3.5.
    // 1 met 2 (2.0), had a Z (own 1.5) and met 3 (1.5): 5.0.
    // 2 met 1 (1.5), 3 (1.5) and won by forfeit (own 2.0): 5.0.
    // 4 met 3 (1.5) and had two unplayed rounds (own 0 each): 1.5.
    let t = tournament(&[
        player(1, "Alpha", 0, "2w1 0-Z 3b="),
        player(2, "Bravo", 0, "1b0 3w1 4w+"),
        player(3, "Charlie", 0, "4b1 2b0 1w="),
        player(4, "Delta", 0, "3w0 0-Z 2b-"),
    ]);
    assert_eq!(
        tiebreak::compute(&t, 3, &tb("BH")),
        points(&[5.0, 5.0, 4.0, 1.5])
    );
}

#[test]
fn c07_14_buchholz_cut1_drops_the_lowest_opponent() {
    // 1: 1.0, 2.0, 1.0 → cut a 1.0 → 3.0.  2: 2.5, 1.0 (forfeit win, not voluntary),
    // 1.5 → cut the 1.0 → 4.0.
    let t = unplayed();
    let bh_c1 = tiebreak::compute(&t, 3, &tb("BH-C1"));
    assert_eq!(bh_c1[..2], points(&[3.0, 4.0]));
}

#[test]
fn c07_16_5_buchholz_cut1_takes_a_voluntary_unplayed_round_first() {
    // 3: 2.0, half-point bye (own 1.5, voluntary), 1.0: the bye is cut, not the 1.0
    //    → 3.0 (3.5 without the exception).
    // 4: 1.5, 2.5, zero-point bye (own 1.5) → the bye is cut → 4.0.
    // 5: PAB (own 1.0), forfeit loss (own 1.0, voluntary), 2.5 → the forfeit is cut → 3.5.
    let t = unplayed();
    assert_eq!(
        tiebreak::compute(&t, 3, &tb("BH-C1")),
        points(&[3.0, 4.0, 3.0, 4.0, 3.5])
    );
}

#[test]
fn c07_14_buchholz_median1_cuts_both_ends_voluntary_rounds_first_at_the_bottom() {
    // 1: 1.0, 2.0, 1.0 → 1.0.  2: 2.5, 1.0, 1.5 → 1.5.
    // 3: bye (1.5) cut low, then the highest of 2.0 and 1.0 → 1.0 (1.5 without 16.5).
    // 4: bye (1.5) cut low, then 2.5 → 1.5.  5: forfeit loss cut low, then 2.5 → 1.0.
    let t = unplayed();
    assert_eq!(
        tiebreak::compute(&t, 3, &tb("BH-M1")),
        points(&[1.0, 1.5, 1.0, 1.5, 1.0])
    );
}

#[test]
fn c07_14_buchholz_cut2_and_median2_leave_what_remains() {
    // 1: 1.0, 2.0, 1.0 → Cut-2 leaves 2.0; Median-2 cuts two low, then nothing is left.
    let t = unplayed();
    assert_eq!(
        tiebreak::compute(&t, 3, &tb("BH-C2"))[0],
        Value::Points(200)
    );
    assert_eq!(tiebreak::compute(&t, 3, &tb("BH-M2"))[0], Value::Points(0));
}

#[test]
fn c07_tiebreaks_after_an_earlier_round_ignore_the_later_rounds() {
    // After round 2: 1 = 1.5, 3 = 0.5 (the H is now the last round, a draw: still 0.5).
    // 4: 3 (0.5) + 1 (1.5) = 2.0.
    let t = unplayed();
    assert_eq!(tiebreak::compute(&t, 2, &tb("BH"))[3], Value::Points(200));
}

// ---------------------------------------------------------------------------------
// Sonneborn-Berger.

#[test]
fn c07_9_1_sonneborn_berger_with_unplayed_rounds() {
    // Opponent's adjusted score × points scored; an unplayed round: own score × points.
    // 1: 1×1.0 + ½×2.0 + 1×1.0                         = 3.0
    // 2: 0 + forfeit win 1×own 1.0 + 0                   = 1.0
    // 3: 0 + half-point bye ½×own 1.5 + 1×1.0            = 1.75
    // 4: 1×1.5 + ½×2.5 + zero bye 0×1.5                  = 2.75
    // 5: PAB 1×own 1.0 + forfeit loss 0 + 0              = 1.0
    let t = unplayed();
    assert_eq!(
        tiebreak::compute(&t, 3, &tb("SB")),
        points(&[3.0, 1.0, 1.75, 2.75, 1.0])
    );
}

#[test]
fn c07_16_5_sonneborn_berger_cut1_cuts_the_higher_of_the_voluntary_round_and_the_least_significant()
{
    // The least significant value is the contribution of the lowest-scored opponent
    // (the lowest contribution among equals); a voluntary unplayed round's is cut
    // instead unless it is worth less.
    // 1: (1.0→1.0), (2.0→1.0), (1.0→1.0): cut a 1.0 → 2.0.
    // 2: (2.5→0), (forfeit win 1.0→1.0), (1.5→0): least is the 1.0 → 0.
    // 3: (2.0→0), (bye 1.5→0.75), (1.0→1.0): least is the 1.0, the bye is worth less
    //    → the 1.0 is cut → 0.75.
    // 4: (1.5→1.5), (2.5→1.25), (bye 1.5→0): least is the bye itself → 2.75.
    // 5: (PAB 1.0→1.0), (forfeit loss 1.0→0), (2.5→0): the forfeit is cut → 1.0.
    let t = unplayed();
    assert_eq!(
        tiebreak::compute(&t, 3, &tb("SB-C1")),
        points(&[2.0, 0.0, 0.75, 2.75, 1.0])
    );
}

#[test]
fn c07_9_1_sonneborn_berger_in_a_round_robin() {
    // A: ½×2.5 (B) + ½×2.5 (C) + 1×2.5 (D) + ½×1.5 (E) + 0×3.5 (F) = 5.75.
    let t = round_robin();
    assert_eq!(tiebreak::compute(&t, 5, &tb("SB"))[0], Value::Points(575));
}

// ---------------------------------------------------------------------------------
// Direct encounter.

#[test]
fn c07_6_direct_encounter_between_two_tied_players() {
    // 3 and 4 tie on 1.5; 4 won their game. 2 and 5 tie on 1.0 but their game was a
    // forfeit: not an encounter, and each could still have won it, so neither is
    // ahead.
    let t = unplayed();
    assert_eq!(
        tiebreak::compute(&t, 3, &tb("DE")),
        points(&[0.0, 0.0, 0.0, 1.0, 0.0])
    );
    let table = standings::standings(&t, &[tb("DE")]);
    assert_eq!(ranks(&table), vec![(1, 1), (2, 4), (3, 3), (4, 2), (4, 5)]);
}

#[test]
fn c07_6_direct_encounter_among_four_ranks_those_still_tied_by_their_own_game() {
    // A-D tie on 2.5 and all met: A 2.0, B 1.5, C 1.5, D 1.0. B and C are ranked again
    // by the games between them alone: B beat C.
    let t = round_robin();
    assert_eq!(
        tiebreak::compute(&t, 5, &tb("DE")),
        points(&[2.0, 1.5, 1.5, 1.0, 0.0, 0.0])
    );
    let table = standings::standings(&t, &[tb("DE")]);
    assert_eq!(
        ranks(&table),
        vec![(1, 6), (2, 1), (3, 2), (4, 3), (5, 4), (6, 5)]
    );
    let de: Vec<Value> = table.iter().map(|s| s.tiebreaks[0].1).collect();
    assert_eq!(de, points(&[0.0, 2.0, 1.5, 1.5, 1.0, 0.0]));
}

#[test]
fn c07_6_direct_encounter_when_not_all_tied_players_met() {
    // Alpha, Bravo, Charlie on 2: Alpha beat both (2.0); Bravo and Charlie (0 each)
    // never met, so at best one of them reaches 1.0: Alpha is alone on top whatever
    // that game would have been. Bravo and Charlie stay tied.
    let t = swiss_three_tied();
    let table = standings::standings(&t, &[tb("DE")]);
    assert_eq!(
        ranks(&table),
        vec![(1, 1), (2, 2), (2, 3), (4, 4), (5, 6), (6, 5)]
    );
    // Buchholz then separates them: Bravo 2 + 0.5 + 1 = 3.5, Charlie 1.5 + 2 + 0.5 = 4.0.
    let table = standings::standings(&t, &[tb("DE"), tb("BH")]);
    assert_eq!(
        ranks(&table),
        vec![(1, 1), (2, 3), (3, 2), (4, 4), (5, 6), (6, 5)]
    );
}

// ---------------------------------------------------------------------------------
// The participant's own results.

#[test]
fn c07_7_wins_count_unplayed_wins_won_counts_games() {
    // WIN (7.1): 1 two games; 2 a forfeit; 3, 4 a game each; 5 the PAB (worth a win).
    // WON (7.2): games over the board only. BPG (7.3): one black game each (forfeits
    // are not games). BWG (7.4): 3 and 4 won with Black.
    let t = unplayed();
    assert_eq!(
        tiebreak::compute(&t, 3, &tb("WIN")),
        numbers(&[2, 1, 1, 1, 1])
    );
    assert_eq!(
        tiebreak::compute(&t, 3, &tb("WON")),
        numbers(&[2, 0, 1, 1, 0])
    );
    assert_eq!(
        tiebreak::compute(&t, 3, &tb("BPG")),
        numbers(&[1, 1, 1, 1, 1])
    );
    assert_eq!(
        tiebreak::compute(&t, 3, &tb("BWG")),
        numbers(&[0, 0, 1, 1, 0])
    );
}

#[test]
fn c07_7_5_progressive_score_sums_the_running_scores() {
    // 1: 1 + 1.5 + 2.5 = 5.0   2: 0 + 1 + 1 = 2.0   3: 0 + 0.5 + 1.5 = 2.0
    // 4: 1 + 1.5 + 1.5 = 4.0   5: 1 + 1 + 1 = 3.0 (the PAB and the forfeit count)
    // Cut-1 leaves out round 1's running score.
    let t = unplayed();
    assert_eq!(
        tiebreak::compute(&t, 3, &tb("PS")),
        points(&[5.0, 2.0, 2.0, 4.0, 3.0])
    );
    assert_eq!(
        tiebreak::compute(&t, 3, &tb("PS-C1")),
        points(&[4.0, 2.0, 2.0, 3.0, 2.0])
    );
}

#[test]
fn c07_9_2_koya_counts_points_against_opponents_on_half_the_maximum() {
    // Maximum 5, so opponents on 2.5 or more count: everyone but Echo (1.5).
    // A: ½ + ½ + 1 + 0 = 2.0   B: ½ + 1 + 0 + ½ = 2.0   C: ½ + 0 + 1 + 0 = 1.5
    // D: 0 + 1 + 0 + ½ = 1.5   E: ½ + ½ + 0 + 0 + ½ = 1.5   F: 1 + ½ + 1 + ½ = 3.0
    let t = round_robin();
    assert_eq!(
        tiebreak::compute(&t, 5, &tb("KS")),
        points(&[2.0, 2.0, 1.5, 1.5, 1.5, 3.0])
    );
}

// ---------------------------------------------------------------------------------
// Ratings.

#[test]
fn c07_10_1_aro_averages_the_opponents_of_games_played_rounded_half_up() {
    // 1: 2001, 2100, 1800 → 1967. 2: 2200, 1900 (the forfeit is no game) → 2050.
    // 3: 2100, 2001 → 2050.5 → 2051. 4: 1900, 2200 → 2050. 5: 2200.
    let t = unplayed();
    assert_eq!(
        tiebreak::compute(&t, 3, &tb("ARO")),
        numbers(&[1967, 2050, 2051, 2050, 2200])
    );
    // Cut-1 drops the lowest: 1: 2001, 2100 → 2051 (2050.5 up); 5 has nothing left.
    let cut = tiebreak::compute(&t, 3, &tb("ARO-C1"));
    assert_eq!((cut[0], cut[4]), (Value::Number(2051), Value::None));
    // Median-1: 1 keeps 2001 alone.
    assert_eq!(
        tiebreak::compute(&t, 3, &tb("ARO-M1"))[0],
        Value::Number(2001)
    );
}

#[test]
fn c07_10_2_tpr_is_rounded_aro_plus_dp_of_the_fraction_rounded_to_the_hundredth() {
    // 1: ARO 1967, 2.5/3 = 0.833 → 0.83 → dp 273 → 2240.
    // 2: ARO 2050, 0/2 → dp −800 → 1250.   3: ARO 2051, 1/2 → 2051.
    // 4: ARO 2050, 1.5/2 = 0.75 → dp 193 → 2243.   5: ARO 2200, 0/1 → 1400.
    let t = unplayed();
    assert_eq!(
        tiebreak::compute(&t, 3, &tb("TPR")),
        numbers(&[2240, 1250, 2051, 2243, 1400])
    );
    // 2/3 = 0.667 rounds up to 0.67 (dp 125, not 0.66's 117), and ARO 2000.33 to 2000:
    // 2000 + 125 = 2125.
    let t = tournament(&[
        player(1, "Alpha", 1900, "4w1 2w1 3b0"),
        player(2, "Bravo", 2000, "3w= 1b0 4w="),
        player(3, "Charlie", 2001, "2b= 4b= 1w1"),
        player(4, "Delta", 2000, "1b0 3w= 2b="),
    ]);
    assert_eq!(tiebreak::compute(&t, 3, &tb("TPR"))[0], Value::Number(2125));
    // Without rated games there is no TPR.
    assert!(tiebreak::compute(&round_robin(), 5, &tb("TPR"))
        .iter()
        .all(|v| *v == Value::None));
}

#[test]
fn c07_10_4_apro_averages_the_opponents_tpr_rounded_half_up() {
    // 1: 1250, 2243, 1400 → 1631.  2: 2240, 2051 → 2145.5 → 2146.
    // 3: 2243, 1250 → 1746.5 → 1747.  4: 2051, 2240 → 2146.  5: 2240.
    let t = unplayed();
    assert_eq!(
        tiebreak::compute(&t, 3, &tb("APRO")),
        numbers(&[1631, 2146, 1747, 2146, 2240])
    );
}

// ---------------------------------------------------------------------------------
// Standings.

#[test]
fn c07_4_players_equal_on_everything_share_a_rank() {
    // On points alone: F 3.5 first, A-D share second, E is sixth.
    let table = standings::standings(&round_robin(), &[]);
    assert_eq!(
        ranks(&table),
        vec![(1, 6), (2, 1), (2, 2), (2, 3), (2, 4), (6, 5)]
    );
}

#[test]
fn c07_non_standard_points_3_1_0_come_from_the_point_system() {
    // Win 3, draw 1: A 6, B 6, C 7, D 7, E 3, F 9.
    // BH of A: 6 + 7 + 7 + 3 + 9 = 32. SB of A: 1×6 + 1×7 + 3×7 + 1×3 + 0×9 = 37.
    // KS: half the maximum is 7.5, so only F (9) counts: A and C lost to F; B, D and E
    // drew with F (1 each).
    // DE: C beat D; A and B drew, so they share fourth.
    let mut lines = round_robin_lines();
    lines.push("BBW  3.0".to_string());
    lines.push("BBD  1.0".to_string());
    let t = tournament(&lines);
    let table = standings::standings(&t, &[tb("DE")]);
    assert_eq!(
        ranks(&table),
        vec![(1, 6), (2, 3), (3, 4), (4, 1), (4, 2), (6, 5)]
    );
    let pts: Vec<Points> = table.iter().map(|s| s.points).collect();
    assert_eq!(pts, [90, 70, 70, 60, 60, 30].map(Points));
    assert_eq!(tiebreak::compute(&t, 5, &tb("BH"))[0], Value::Points(3200));
    assert_eq!(tiebreak::compute(&t, 5, &tb("SB"))[0], Value::Points(3700));
    assert_eq!(
        tiebreak::compute(&t, 5, &tb("KS")),
        points(&[0.0, 1.0, 0.0, 1.0, 1.0, 0.0])
    );
}

#[test]
fn standings_serialise_to_the_cli_json_shape() {
    // Points: 1 2.5; 3 and 4 1.5; 2 and 5 1.0. BH-C1 puts 4 (4.0) over 3 (3.0) and 2
    // (4.0) over 5 (3.5).
    let t = unplayed();
    let table = standings::standings(&t, &[tb("BH-C1"), tb("SB")]);
    let json = serde_json::to_string(&table).unwrap();
    assert_eq!(
        json,
        concat!(
            r#"[{"rank":1,"startRank":1,"name":"Alpha","points":2.5,"tiebreaks":{"BH-C1":3.0,"SB":3.0}},"#,
            r#"{"rank":2,"startRank":4,"name":"Delta","points":1.5,"tiebreaks":{"BH-C1":4.0,"SB":2.75}},"#,
            r#"{"rank":3,"startRank":3,"name":"Gamma","points":1.5,"tiebreaks":{"BH-C1":3.0,"SB":1.75}},"#,
            r#"{"rank":4,"startRank":2,"name":"Beta","points":1.0,"tiebreaks":{"BH-C1":4.0,"SB":1.0}},"#,
            r#"{"rank":5,"startRank":5,"name":"Epsilon","points":1.0,"tiebreaks":{"BH-C1":3.5,"SB":1.0}}]"#,
        )
    );
    // Ratings print as whole numbers, a missing TPR as null.
    let table = standings::standings(&t, &[tb("ARO-C1")]);
    let json = serde_json::to_string(&table[4].tiebreaks_json()).unwrap();
    assert_eq!(json, r#"{"ARO-C1":null}"#);
}

/// The tiebreaks of one standing as its JSON object.
trait TiebreaksJson {
    fn tiebreaks_json(&self) -> serde_json::Value;
}

impl TiebreaksJson for Standing {
    fn tiebreaks_json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap()["tiebreaks"].clone()
    }
}

#[test]
fn standings_render_as_a_text_table() {
    let t = unplayed();
    let tiebreaks = [tb("BH-C1"), tb("SB"), tb("ARO")];
    let text = standings::render_text(&standings::standings(&t, &tiebreaks), &tiebreaks);
    let expected = "\
Rank  SNo  Name     Pts  BH-C1    SB   ARO
   1    1  Alpha    2.5    3.0   3.0  1967
   2    4  Delta    1.5    4.0  2.75  2050
   3    3  Gamma    1.5    3.0  1.75  2051
   4    2  Beta     1.0    4.0   1.0  2050
   5    5  Epsilon  1.0    3.5   1.0  2200
";
    assert_eq!(text, expected);
}

// ---------------------------------------------------------------------------------
// Codes.

#[test]
fn tiebreak_codes_parse_case_insensitively_and_print_canonically() {
    assert_eq!(tb("bh-c1"), Tiebreak::Buchholz(Some(Modifier::Cut1)));
    assert_eq!(tb("Sb/C1"), Tiebreak::SonnebornBerger(Some(Modifier::Cut1)));
    assert_eq!(tb(" ks "), Tiebreak::Koya);
    assert_eq!(tb("bH-m2").to_string(), "BH-M2");
    for code in Tiebreak::known_codes() {
        assert_eq!(tb(&code.to_lowercase()).to_string(), code);
    }
    let json = serde_json::to_string(&[tb("aro-c1")]).unwrap();
    assert_eq!(json, r#"["ARO-C1"]"#);
    let back: Vec<Tiebreak> = serde_json::from_str(&json).unwrap();
    assert_eq!(
        back,
        [Tiebreak::AverageRatingOfOpponents(Some(Modifier::Cut1))]
    );
}

#[test]
fn an_unknown_tiebreak_code_is_named_in_the_error() {
    let e = "XYZ".parse::<Tiebreak>().unwrap_err();
    assert!(
        e.to_string()
            .starts_with(r#"unknown tiebreak "XYZ" (known: BH, BH-C1, BH-C2, BH-M1, BH-M2, SB, "#),
        "{e}"
    );
    assert!(e.to_string().ends_with("TPR, APRO)"), "{e}");
    // A modifier the tiebreak does not take, or one C.07 does not define.
    assert_eq!("de-c1".parse::<Tiebreak>().unwrap_err().0, "de-c1");
    assert!("BH-C3".parse::<Tiebreak>().is_err());
}

#[test]
fn tiebreak_values_print_exactly() {
    assert_eq!(Value::Points(1725).to_string(), "17.25");
    assert_eq!(Value::Points(2150).to_string(), "21.5");
    assert_eq!(Value::Points(300).to_string(), "3.0");
    assert_eq!(Value::Number(2150).to_string(), "2150");
    assert_eq!(Value::None.to_string(), "-");
    assert!(Value::None < Value::Number(0) && Value::Points(150) > Value::Number(1));
}

// ---------------------------------------------------------------------------------
// Rating changes.

#[test]
fn b02_rating_change_counts_rated_games_over_the_board_only() {
    // 1 (2200): 2001 (won, expected 0.76), 2100 (drew, 0.64), 1800 (won, 0.92):
    //   20 × (2.5 − 2.32) = 3.6.
    // 2 (2001): 2200 (lost, 0.24), 1900 (lost, 0.64); the forfeit win is no game:
    //   20 × (0 − 0.88) = −17.6.
    // 5 (1800): the PAB and the forfeit are not rated; 2200 (lost, 0.08): −1.6 at K 20.
    let t = unplayed();
    let changes = standings::rating_changes(&t, |_| standings::DEFAULT_K_FACTOR);
    let games: Vec<u32> = changes.iter().map(|c| c.games).collect();
    assert_eq!(games, [3, 2, 2, 2, 1]);
    let close = |a: Option<f64>, b: f64| a.is_some_and(|a| (a - b).abs() < 1e-9);
    assert!(close(changes[0].change, 3.6), "{:?}", changes[0]);
    assert!(close(changes[1].change, -17.6), "{:?}", changes[1]);
    assert!(close(changes[4].change, -1.6), "{:?}", changes[4]);
    // K per player.
    let changes = standings::rating_changes(&t, |p| if p.id == 5 { 40.0 } else { 20.0 });
    assert!(close(changes[4].change, -3.2), "{:?}", changes[4]);
    // Unrated players get no change, and their games rate no one.
    let changes = standings::rating_changes(&round_robin(), |_| 20.0);
    assert!(changes.iter().all(|c| c.change.is_none() && c.games == 0));
}

// ---------------------------------------------------------------------------------
// Properties of complete round robins (no byes, no forfeits).

/// A round robin of `n` (even) players by the circle method, `results[g]` (0 loss,
/// 1 draw, 2 win for the first player) and `white[g]` for game g.
fn random_round_robin(n: usize, results: &[u8], white: &[bool]) -> Tournament {
    let mut players: Vec<Player> = (1..=n as u32)
        .map(|id| Player {
            id,
            sex: String::new(),
            title: String::new(),
            name: format!("Player {id}"),
            rating: 0,
            federation: String::new(),
            fide_id: None,
            birth: String::new(),
            points: Points::ZERO,
            rank: None,
            rounds: vec![None; n - 1],
        })
        .collect();
    let mut game = 0;
    for round in 0..n - 1 {
        let mut pairs = vec![(n - 1, round)];
        for i in 1..n / 2 {
            pairs.push(((round + i) % (n - 1), (round + n - 1 - i) % (n - 1)));
        }
        for (a, b) in pairs {
            let (result_a, result_b) = match results[game] {
                0 => (GameResult::Loss, GameResult::Win),
                1 => (GameResult::Draw, GameResult::Draw),
                _ => (GameResult::Win, GameResult::Loss),
            };
            let colour_a = if white[game] {
                Colour::White
            } else {
                Colour::Black
            };
            players[a].rounds[round] = Some(Entry::Game {
                opponent: b as u32 + 1,
                colour: colour_a,
                result: result_a,
            });
            players[b].rounds[round] = Some(Entry::Game {
                opponent: a as u32 + 1,
                colour: colour_a.opposite(),
                result: result_b,
            });
            game += 1;
        }
    }
    Tournament {
        players,
        ..Tournament::default()
    }
}

fn round_robins() -> impl Strategy<Value = Tournament> {
    (1usize..=4).prop_flat_map(|half| {
        let n = 2 * half;
        let games = n * (n - 1) / 2;
        (
            proptest::collection::vec(0u8..3, games),
            proptest::collection::vec(any::<bool>(), games),
        )
            .prop_map(move |(results, white)| random_round_robin(n, &results, &white))
    })
}

fn hundredths(values: &[Value]) -> Vec<i64> {
    values
        .iter()
        .map(|v| match *v {
            Value::Points(h) => h,
            Value::Number(n) => n * 100,
            Value::None => panic!("no value"),
        })
        .collect()
}

proptest! {
    #![proptest_config(Config {
        cases: 200,
        rng_seed: RngSeed::Fixed(0x07_2023),
        failure_persistence: None,
        ..Config::default()
    })]

    #[test]
    fn round_robin_tiebreaks_satisfy_their_identities(t in round_robins()) {
        let n = t.players.len() as i64;
        let rounds = (n - 1) as usize;
        let context_scores: Vec<i64> =
            t.players.iter().map(|p| i64::from(t.score_after(p, rounds).0) * 10).collect();
        let total = n * (n - 1) / 2 * 100;
        // Every opponent played everyone: BH = all points but one's own.
        let bh = hundredths(&tiebreak::compute(&t, rounds, &tb("BH")));
        for (b, s) in bh.iter().zip(&context_scores) {
            prop_assert_eq!(b + s, total);
        }
        // Σ SB = Σ_j S_j × (points the others took from j) = Σ_j S_j (n − 1 − S_j).
        let sb: i64 = hundredths(&tiebreak::compute(&t, rounds, &tb("SB"))).iter().sum();
        let expected: i64 = context_scores.iter().map(|s| s / 10 * ((n - 1) * 10 - s / 10)).sum();
        prop_assert_eq!(sb, expected);
        // No unplayed rounds: WIN = WON, and BPG + games with White = n − 1.
        prop_assert_eq!(tiebreak::compute(&t, rounds, &tb("WIN")), tiebreak::compute(&t, rounds, &tb("WON")));
        for (p, bpg) in t.players.iter().zip(tiebreak::compute(&t, rounds, &tb("BPG"))) {
            let white = p.rounds.iter().flatten().filter(|e| matches!(e, Entry::Game { colour: Colour::White, .. })).count();
            prop_assert_eq!(bpg, Value::Number(n - 1 - white as i64));
        }
        // Koya never exceeds the score.
        for (k, s) in hundredths(&tiebreak::compute(&t, rounds, &tb("KS"))).iter().zip(&context_scores) {
            prop_assert!(k <= s);
        }
        // Players tied on points all met once: their DE values share out C(g, 2) points.
        let de = hundredths(&tiebreak::compute(&t, rounds, &tb("DE")));
        let mut groups: std::collections::BTreeMap<i64, (i64, i64)> = Default::default();
        for (d, s) in de.iter().zip(&context_scores) {
            let g = groups.entry(*s).or_default();
            g.0 += 1;
            g.1 += d;
        }
        for (size, sum) in groups.values() {
            prop_assert_eq!(*sum, size * (size - 1) / 2 * 100);
        }
    }

    #[test]
    fn standings_are_a_permutation_ranked_in_order(t in round_robins()) {
        let tiebreaks = [tb("SB"), tb("DE"), tb("WON"), tb("KS")];
        let table = standings::standings(&t, &tiebreaks);
        let mut ids: Vec<u32> = table.iter().map(|s| s.start_rank).collect();
        ids.sort_unstable();
        prop_assert_eq!(ids, (1..=t.players.len() as u32).collect::<Vec<_>>());
        for (k, s) in table.iter().enumerate() {
            if k == 0 {
                prop_assert_eq!(s.rank, 1);
                continue;
            }
            let before = &table[k - 1];
            prop_assert!(before.points >= s.points);
            if s.rank == before.rank {
                prop_assert_eq!(s.points, before.points);
                prop_assert!(before.start_rank < s.start_rank);
            } else {
                prop_assert_eq!(s.rank, k as u32 + 1);
            }
        }
    }
}
