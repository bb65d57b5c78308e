//! `caissa tournament`'s contract, checked by running the built binary.
//!
//! * `pair --system dutch FILE`: the next round in the JaVaFo / bbpPairings output
//!   format (the number of lines that follow, then `WHITE BLACK` per board, the bye as
//!   `N 0`), byte for byte what the FIDE-endorsed bbpPairings printed for the same file
//!   (`crates/tournament/tests/data/dutch`); `XXR` is required. `--system round-robin`
//!   pairs by the Berger tables.
//! * `standings FILE [--tiebreaks ...] [--json]`, `check FILE --system dutch`,
//!   `trf FILE` (TRF16 to JSON and back).
//! * Bad input: exit 2, nothing on stdout, one line on stderr, `LINE:COLUMN: reason`
//!   for a file that cannot be read and the file's name for one that says too little.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

/// What a run printed and how it ended.
struct Run {
    status: Option<i32>,
    stdout: String,
    stderr: String,
}

fn caissa(args: &[&str]) -> Run {
    let Output {
        status,
        stdout,
        stderr,
    } = Command::new(env!("CARGO_BIN_EXE_caissa"))
        .arg("tournament")
        .args(args)
        .output()
        .expect("the caissa binary runs");
    Run {
        status: status.code(),
        stdout: String::from_utf8(stdout).expect("UTF-8 stdout"),
        stderr: String::from_utf8(stderr).expect("UTF-8 stderr"),
    }
}

/// Runs `caissa tournament ARGS` on `file`; it must succeed. Returns stdout.
fn ok(args: &[&str], file: &Path) -> String {
    let run = caissa(&[args, &[file.to_str().unwrap()]].concat());
    assert_eq!(
        run.status,
        Some(0),
        "caissa tournament {args:?} {} failed: {}",
        file.display(),
        run.stderr
    );
    run.stdout
}

/// Runs a command that must reject its input: exit 2, nothing on stdout, one line on
/// stderr, which is returned.
fn bad_input(args: &[&str], file: &Path) -> String {
    let run = caissa(&[args, &[file.to_str().unwrap()]].concat());
    assert_eq!(
        run.status,
        Some(2),
        "caissa tournament {args:?} {}: want exit 2; stdout {:?}, stderr {:?}",
        file.display(),
        run.stdout,
        run.stderr
    );
    assert_eq!(run.stdout, "", "{args:?}: stdout on failure");
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{args:?}: want one stderr line: {lines:?}");
    lines[0].to_string()
}

/// The `LINE:COLUMN` an error line starts with (`^\d+:\d+: `).
fn position(error: &str) -> (usize, usize) {
    let mut parts = error.splitn(3, ':');
    let (line, column, rest) = (parts.next(), parts.next(), parts.next());
    let number = |s: Option<&str>| {
        s.filter(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|s| s.parse().ok())
    };
    match (number(line), number(column), rest) {
        (Some(l), Some(c), Some(rest)) if rest.starts_with(' ') => (l, c),
        _ => panic!("{error:?} does not start with LINE:COLUMN: "),
    }
}

/// Writes `text` to a fresh file in the test's own directory.
fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("tournament_cli");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tournament/tests/data/dutch")
}

/// A generated file's lines (bbp ends them in a lone CR).
fn data_lines(name: &str) -> Vec<String> {
    let text = std::fs::read_to_string(data_dir().join(format!("{name}.trf"))).unwrap();
    text.split(['\r', '\n']).map(str::to_string).collect()
}

/// `rounds` and `init` of a tournament's row in INDEX.md.
fn index_row(name: &str) -> (usize, String) {
    let index = std::fs::read_to_string(data_dir().join("INDEX.md")).unwrap();
    let row = index
        .lines()
        .find(|l| l.starts_with(&format!("| {name} |")))
        .unwrap_or_else(|| panic!("{name} is not in INDEX.md"));
    let cells: Vec<&str> = row.split('|').map(str::trim).collect();
    (cells[5].parse().unwrap(), cells[6].to_string())
}

/// The peer's output for each round, from `NAME.pairings` (`round N`, then the output).
fn peer_rounds(name: &str) -> Vec<(usize, String)> {
    let text = std::fs::read_to_string(data_dir().join(format!("{name}.pairings"))).unwrap();
    let mut rounds: Vec<(usize, String)> = Vec::new();
    for line in text.lines() {
        match line.strip_prefix("round ") {
            Some(n) => rounds.push((n.parse().unwrap(), String::new())),
            None => rounds.last_mut().unwrap().1.push_str(&format!("{line}\n")),
        }
    }
    rounds
}

/// 1-based column where round `round`'s cell starts in a `001` line.
fn cell_column(round: usize) -> usize {
    92 + 10 * (round - 1)
}

/// `line` with the text at 1-based `column` replaced (padded with blanks if short).
fn replace_at(line: &str, column: usize, text: &str) -> String {
    let mut chars: Vec<char> = line.chars().collect();
    let end = column - 1 + text.chars().count();
    if chars.len() < end {
        chars.resize(end, ' ');
    }
    chars.splice(column - 1..end, text.chars());
    chars.into_iter().collect()
}

/// A player's cell of `round` (8 characters), blank if the line has none.
fn cell(line: &str, round: usize) -> String {
    let chars: Vec<char> = line.chars().collect();
    let start = cell_column(round) - 1;
    let text: String = chars.iter().skip(start).take(8).collect();
    format!("{text:<8}")
}

/// The starting rank of a `001` line.
fn start_rank(line: &str) -> Option<u32> {
    line.starts_with("001")
        .then(|| line.get(4..8)?.trim().parse().ok())
        .flatten()
}

/// The file a user hands to `pair` before round `round` of a generated tournament:
/// each `001` line cut after round `round - 1`, the points column left as it was,
/// and of round `round` only the announced byes and absences (a blank cell in a
/// round that was played becomes `0000 - Z`); `XXR` and `XXC` added where the file
/// states neither them nor their TRF-2026 equivalents (`142`, `152`).
fn input_before(name: &str, round: usize) -> String {
    let (rounds, init) = index_row(name);
    let mut out = Vec::new();
    for line in data_lines(name) {
        if !line.starts_with("001") {
            out.push(line);
            continue;
        }
        let announced = match cell(&line, round) {
            c if c.trim().is_empty() => Some("0000 - Z".to_string()),
            c if c.starts_with("0000") && !c.ends_with('U') && !c.ends_with('+') => Some(c),
            _ => None,
        };
        let kept: String = line.chars().take(cell_column(round) - 3).collect();
        out.push(match announced {
            Some(c) => replace_at(&kept, cell_column(round), &c),
            None => kept,
        });
    }
    let has = |codes: [&str; 2]| out.iter().any(|l| codes.iter().any(|c| l.starts_with(c)));
    let (has_rounds, has_colour) = (has(["XXR", "142"]), has(["XXC", "152"]));
    if !has_rounds {
        out.push(format!("XXR {rounds}"));
    }
    if !has_colour {
        out.push(format!("XXC {init}"));
    }
    out.join("\n") + "\n"
}

#[test]
fn dutch_pairs_every_round_as_the_fide_endorsed_peer() {
    let tournaments = [
        "g005-n9-r4",
        "g010-n14-r7",
        "g022-n26-r7",
        "g040-n20-r7",
        "a001-n12-r5-xxa",
        "a002-n20-r7-baku",
        "a004-n31-r9-250",
        "d002-n14-r6-zero",
        "d003-n19-r7-dash",
        "d004-n22-r7-blank",
    ];
    let mut differ = Vec::new();
    let mut compared = 0;
    for name in tournaments {
        for (round, want) in peer_rounds(name) {
            let file = temp_file(&format!("{name}-r{round}.trf"), &input_before(name, round));
            let run = caissa(&["pair", "--system", "dutch", file.to_str().unwrap()]);
            compared += 1;
            if run.status != Some(0) || run.stdout != want {
                differ.push(format!(
                    "{name} round {round} (exit {:?}, {}):\n want:\n{want} got:\n{}{}",
                    run.status,
                    file.display(),
                    run.stdout,
                    run.stderr
                ));
            }
        }
    }
    assert!(
        differ.is_empty(),
        "{} of {compared} rounds differ from the peer:\n{}",
        differ.len(),
        differ.join("\n")
    );
}

#[test]
fn dutch_accepts_lf_cr_and_crlf_line_endings() {
    let text = input_before("g005-n9-r4", 3);
    let want = &peer_rounds("g005-n9-r4")[2].1;
    for (label, ending) in [("lf", "\n"), ("cr", "\r"), ("crlf", "\r\n")] {
        let file = temp_file(&format!("g005-r3-{label}.trf"), &text.replace('\n', ending));
        assert_eq!(&ok(&["pair", "--system", "dutch"], &file), want, "{label}");
    }
}

#[test]
fn dutch_without_xxr_is_refused_naming_the_file() {
    let text: String = input_before("g005-n9-r4", 2)
        .lines()
        .filter(|l| !l.starts_with("XXR"))
        .map(|l| format!("{l}\n"))
        .collect();
    let file = temp_file("no-xxr.trf", &text);
    let error = bad_input(&["pair", "--system", "dutch"], &file);
    assert!(
        error.contains(file.to_str().unwrap()),
        "{error:?} does not name the file"
    );
    assert!(
        error.contains("XXR"),
        "{error:?} does not say what is missing"
    );
}

/// A `001` line in the standard layout with rank and points blank, then `cells`.
fn player_line(id: u32, cells: &[&str]) -> String {
    let name = format!("Player{id:02}, Test");
    let rating = 2500 - 10 * id;
    let fide = 1_000_000 + id;
    let mut line = format!("001 {id:>4} m    {name:<33} {rating:>4} FID {fide:>11} 2000/01/01");
    for (round, c) in cells.iter().enumerate() {
        line = replace_at(&line, cell_column(round + 1), c);
    }
    line
}

/// Four players, two rounds: 1-3 2-4 (1-0, ½-½), then 4-1 3-2 (½-½, 1-0).
/// Points: 1 has 1.5, 3 and 4 have 1, 2 has ½. Line 1 is `012`, player N on line N + 1.
fn four_players() -> Vec<String> {
    vec![
        "012 Caissa CLI test".to_string(),
        player_line(1, &["   3 w 1", "   4 b ="]),
        player_line(2, &["   4 w =", "   3 b 0"]),
        player_line(3, &["   1 b 0", "   2 w 1"]),
        player_line(4, &["   2 b =", "   1 w ="]),
        "XXR 3".to_string(),
        "XXC white1".to_string(),
    ]
}

/// `four_players` with line `line` (1-based) changed at `column` to `text`, paired:
/// the error's position.
fn error_position(name: &str, line: usize, column: usize, text: &str) -> (usize, usize) {
    let mut lines = four_players();
    lines[line - 1] = replace_at(&lines[line - 1], column, text);
    let file = temp_file(name, &(lines.join("\n") + "\n"));
    position(&bad_input(&["pair", "--system", "dutch"], &file))
}

#[test]
fn well_formed_four_player_file_pairs() {
    let file = temp_file("four.trf", &(four_players().join("\n") + "\n"));
    let out = ok(&["pair", "--system", "dutch"], &file);
    assert_eq!(out.lines().next(), Some("2"), "{out}");
}

#[test]
fn non_numeric_starting_rank_is_reported_at_its_line_and_column() {
    // Player 2's rank `   2` becomes `  x2`: the bad character is column 7.
    assert_eq!(error_position("bad-rank.trf", 3, 5, "  x2"), (3, 7));
}

#[test]
fn unknown_result_code_is_reported_at_its_line_and_column() {
    // Player 3, round 2: `   2 w 1` -> result `X` in column 109.
    assert_eq!(error_position("bad-result.trf", 4, 109, "X"), (4, 109));
}

#[test]
fn colour_other_than_w_b_or_dash_is_reported_at_its_line_and_column() {
    // Player 4, round 1: `   2 b =` -> colour `x` in column 97.
    assert_eq!(error_position("bad-colour.trf", 5, 97, "x"), (5, 97));
}

#[test]
fn opponent_not_naming_the_player_back_is_reported_at_the_entry() {
    // Round 2: player 4 stays away, but player 1 still names 4 as his opponent.
    assert_eq!(
        error_position("not-mutual.trf", 5, cell_column(2), "0000 - Z"),
        (2, cell_column(2))
    );
}

/// The FIDE Berger table for six players (C.05 Annex 1), White first.
const BERGER_6: [[(u32, u32); 3]; 5] = [
    [(1, 6), (2, 5), (3, 4)],
    [(6, 4), (5, 3), (1, 2)],
    [(2, 6), (3, 1), (4, 5)],
    [(6, 5), (1, 4), (2, 3)],
    [(3, 6), (4, 2), (5, 1)],
];

/// Six players with the first `played` rounds of the Berger table, White winning.
fn round_robin_file(played: usize) -> PathBuf {
    let lines: Vec<String> = (1..=6)
        .map(|id| {
            let cells: Vec<String> = BERGER_6[..played]
                .iter()
                .map(|round| {
                    let (white, black) = *round.iter().find(|b| b.0 == id || b.1 == id).unwrap();
                    if white == id {
                        format!("{black:>4} w 1")
                    } else {
                        format!("{white:>4} b 0")
                    }
                })
                .collect();
            player_line(id, &cells.iter().map(String::as_str).collect::<Vec<_>>())
        })
        .collect();
    temp_file(&format!("rr6-{played}.trf"), &(lines.join("\n") + "\n"))
}

#[test]
fn round_robin_pairs_the_next_round_of_the_berger_table() {
    for (played, round) in BERGER_6.iter().enumerate() {
        let want: String = std::iter::once("3\n".to_string())
            .chain(round.iter().map(|(w, b)| format!("{w} {b}\n")))
            .collect();
        let file = round_robin_file(played);
        let got = ok(&["pair", "--system", "round-robin"], &file);
        assert_eq!(got, want, "six players, {played} rounds played");
    }
}

#[test]
fn round_robin_with_every_round_played_is_refused() {
    let error = bad_input(&["pair", "--system", "round-robin"], &round_robin_file(5));
    assert!(
        error.contains("rr6-5.trf"),
        "{error:?} does not name the file"
    );
}

fn four_player_file(name: &str) -> PathBuf {
    temp_file(name, &(four_players().join("\n") + "\n"))
}

fn json_standings(file: &Path, tiebreaks: Option<&str>) -> Vec<Value> {
    let mut args = vec!["standings", "--json"];
    if let Some(t) = tiebreaks {
        args.extend(["--tiebreaks", t]);
    }
    let out = ok(&args, file);
    match serde_json::from_str(&out) {
        Ok(Value::Array(rows)) => rows,
        other => panic!("standings --json is not an array: {other:?}\n{out}"),
    }
}

#[test]
fn standings_text_has_a_header_and_one_line_per_player() {
    let file = four_player_file("standings-text.trf");
    let out = ok(&["standings", "--tiebreaks", "bh-c1,SB"], &file);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    assert!(
        lines[0].contains("BH-C1") && lines[0].contains("SB"),
        "{out}"
    );
    for id in 1..=4 {
        let name = format!("Player{id:02}, Test");
        let with = lines[1..].iter().filter(|l| l.contains(&name)).count();
        assert_eq!(with, 1, "{name} in\n{out}");
    }
}

#[test]
fn standings_json_shares_the_rank_of_equal_points() {
    let rows = json_standings(&four_player_file("standings-json.trf"), None);
    let got: Vec<(u64, u64, f64)> = rows
        .iter()
        .map(|r| {
            assert!(r["name"].is_string(), "{r}");
            assert_eq!(r["tiebreaks"], serde_json::json!({}), "{r}");
            (
                r["rank"].as_u64().unwrap(),
                r["startRank"].as_u64().unwrap(),
                r["points"].as_f64().unwrap(),
            )
        })
        .collect();
    assert_eq!(got, [(1, 1, 1.5), (2, 3, 1.0), (2, 4, 1.0), (4, 2, 0.5)]);
}

#[test]
fn standings_json_tiebreak_keys_are_canonical_upper_case() {
    let rows = json_standings(&four_player_file("standings-keys.trf"), Some("bh-c1,sb,de"));
    assert_eq!(rows.len(), 4);
    for row in &rows {
        let keys: Vec<&String> = row["tiebreaks"].as_object().unwrap().keys().collect();
        let mut keys: Vec<&str> = keys.iter().map(|k| k.as_str()).collect();
        keys.sort_unstable();
        assert_eq!(keys, ["BH-C1", "DE", "SB"], "{row}");
        assert!(row["tiebreaks"]["SB"].is_number(), "{row}");
    }
}

#[test]
fn standings_points_come_from_the_results() {
    // bbp wrote each player's points in columns 81-84.
    let file = data_dir().join("g022-n26-r7.trf");
    let rows = json_standings(&file, Some("BH-C1,SB"));
    for line in data_lines("g022-n26-r7") {
        let Some(id) = start_rank(&line) else {
            continue;
        };
        let points: f64 = line[80..84].trim().parse().unwrap();
        let row = rows.iter().find(|r| r["startRank"] == id).unwrap();
        assert_eq!(row["points"].as_f64(), Some(points), "player {id}");
    }
    let ranks: Vec<u64> = rows.iter().map(|r| r["rank"].as_u64().unwrap()).collect();
    assert_eq!(ranks[0], 1);
    assert!(ranks.windows(2).all(|w| w[0] <= w[1]), "{ranks:?}");
}

#[test]
fn standings_unknown_tiebreak_is_refused_naming_it() {
    let file = four_player_file("standings-unknown.trf");
    let error = bad_input(&["standings", "--tiebreaks", "BH,XYZ"], &file);
    assert!(error.contains("XYZ"), "{error:?} does not name XYZ");
}

/// A generated tournament's lines, with `XXR` added.
fn played_tournament(name: &str) -> Vec<String> {
    let (rounds, _) = index_row(name);
    let mut lines = data_lines(name);
    lines.push(format!("XXR {rounds}"));
    lines
}

/// The round numbers `check` mentions (`round N`), stdout and stderr together.
fn rounds_named(run: &Run) -> Vec<usize> {
    let text = format!("{}\n{}", run.stdout, run.stderr);
    text.split("round ")
        .skip(1)
        .filter_map(|rest| {
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            digits.parse().ok()
        })
        .collect()
}

/// Runs `check --system dutch` on `lines`.
fn check(name: &str, lines: &[String]) -> Run {
    let file = temp_file(name, &(lines.join("\n") + "\n"));
    caissa(&["check", "--system", "dutch", file.to_str().unwrap()])
}

/// `check` found a consistent file that the system would not have paired so in
/// `round`, and names that round and no other.
fn assert_names_round(run: &Run, round: usize) {
    let output = format!("{}{}", run.stdout, run.stderr);
    assert_eq!(
        run.status,
        Some(1),
        "want exit 1 (2 is bad input): {output}"
    );
    let named = rounds_named(run);
    assert!(
        !named.is_empty() && named.iter().all(|&r| r == round),
        "{output}"
    );
}

/// The boards of round `round` as the peer paired them.
fn peer_boards(name: &str, round: usize) -> Vec<(u32, u32)> {
    let (_, out) = peer_rounds(name).swap_remove(round - 1);
    out.lines()
        .skip(1)
        .map(|l| {
            let (w, b) = l.split_once(' ').unwrap();
            (w.parse().unwrap(), b.parse().unwrap())
        })
        .filter(|&(_, b)| b != 0)
        .collect()
}

/// Sets player `id`'s cell of `round`.
fn set_cell(lines: &mut [String], id: u32, round: usize, text: &str) {
    let line = lines
        .iter_mut()
        .find(|l| start_rank(l) == Some(id))
        .unwrap();
    *line = replace_at(line, cell_column(round), text);
}

#[test]
fn check_finds_a_generated_tournament_paired_by_the_system() {
    for name in ["g022-n26-r7", "d004-n22-r7-blank"] {
        let run = check(&format!("check-{name}.trf"), &played_tournament(name));
        assert_eq!(run.status, Some(0), "{name}: {}{}", run.stdout, run.stderr);
        assert!(
            run.stdout.contains("all 7 rounds"),
            "{name}: {}",
            run.stdout
        );
    }
}

#[test]
fn check_names_the_round_whose_black_players_were_swapped() {
    let name = "g022-n26-r7";
    let round = 3;
    let mut lines = played_tournament(name);
    let boards = peer_boards(name, round);
    let ((w1, b1), (w2, b2)) = (boards[0], boards[1]);
    // White keeps his result; Black gets the reverse, so the file stays consistent.
    for (white, black) in [(w1, b2), (w2, b1)] {
        let line = lines.iter().find(|l| start_rank(l) == Some(white)).unwrap();
        let result = cell(line, round).chars().last().unwrap();
        let reverse = match result {
            '1' => '0',
            '0' => '1',
            '+' => '-',
            '-' => '+',
            other => other,
        };
        set_cell(&mut lines, white, round, &format!("{black:>4} w {result}"));
        set_cell(&mut lines, black, round, &format!("{white:>4} b {reverse}"));
    }
    assert_names_round(&check("check-swapped.trf", &lines), round);
}

#[test]
fn check_names_the_round_with_one_board_s_colours_reversed() {
    let name = "g022-n26-r7";
    let round = 5;
    let mut lines = played_tournament(name);
    let (white, black) = peer_boards(name, round)[2];
    for (id, from, to) in [(white, 'w', 'b'), (black, 'b', 'w')] {
        let line = lines.iter().find(|l| start_rank(l) == Some(id)).unwrap();
        let old = cell(line, round);
        assert_eq!(old.chars().nth(5), Some(from), "{old:?}");
        set_cell(&mut lines, id, round, &replace_at(&old, 6, &to.to_string()));
    }
    assert_names_round(&check("check-colours.trf", &lines), round);
}

fn parse_json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

#[test]
fn trf_to_json_and_back_gives_the_same_json() {
    let mut files = vec![four_player_file("roundtrip-four.trf")];
    files.extend(
        [
            "g022-n26-r7",
            "g072-n12-r5-pts",
            "g075-n17-r6-pts",
            "a001-n12-r5-xxa",
            "a002-n20-r7-baku",
            "a004-n31-r9-250",
            "d002-n14-r6-zero",
            "d003-n19-r7-dash",
            "d004-n22-r7-blank",
        ]
        .map(|name| data_dir().join(format!("{name}.trf"))),
    );
    for file in files {
        let stem = file.file_stem().unwrap().to_string_lossy().to_string();
        let json = ok(&["trf"], &file);
        let trf = ok(&["trf"], &temp_file(&format!("{stem}.json"), &json));
        let again = ok(&["trf"], &temp_file(&format!("{stem}-again.trf"), &trf));
        assert_eq!(
            parse_json(&json),
            parse_json(&again),
            "{stem}: TRF -> JSON -> TRF -> JSON changed"
        );
    }
}

#[test]
fn trf_bad_json_is_refused_with_its_position() {
    let file = temp_file(
        "bad.json",
        "{\n  \"players\": [\n    {\"id\": \"one\"}\n  ]\n}\n",
    );
    let error = bad_input(&["trf"], &file);
    assert_eq!(position(&error).0, 3, "{error:?}");
}

#[test]
fn ratings_give_fide_elo_changes_of_rated_games() {
    // Player 1 (2490) beat 2180, 1899, 2402 and 1976. FIDE's table with the
    // 400-point rule expects 0.86 + 0.92 + 0.62 + 0.92 = 3.32, so with K = 20 the
    // change is 20 × (4 − 3.32) = +13.6.
    let file = data_dir().join("g001-n5-r4.trf");
    let json: Value = serde_json::from_str(&ok(&["ratings", "--json"], &file)).unwrap();
    let first = &json[0];
    assert_eq!(first["startRank"], 1);
    assert_eq!(first["games"], 4);
    assert_eq!(first["expected"].as_f64(), Some(3.32));
    assert_eq!(first["change"].as_f64(), Some(13.6));
    let line = bad_input(&["ratings", "--k", "0"], &file);
    assert!(line.contains("--k"), "{line}");
}
