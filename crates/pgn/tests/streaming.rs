//! Streaming: any way the input arrives (one byte at a time, chunks of any size)
//! gives the same games, line counts and errors, and a large input is read in
//! constant memory.

use std::io::{self, Read};

use crate::corpus;
use crate::grammar::nested;
use crate::support::{replay, replay_from, trees, trees_from, Chunked, Summary};
use caissa_pgn::{Flow, Location, PgnError, RawComment, Reader, Replayer, SanToken, Visitor};

/// A text with every feature, and errors, for comparing ways of reading it.
fn kitchen_sink() -> String {
    let mut text = String::from("\u{feff}% escape\r\n");
    text.push_str("[Event \"sink \\\"quoted\\\" \\\\\"]\r\n[Site \"?\"]\r\n\r\n");
    text.push_str(
        "1. e4 {multi\r\nline\rcomment} e5 $1 (1... c5!? 2. Nf3 (2. Nc3) d6) 2. Nf3 ; eol\n",
    );
    text.push_str("2... Nc6 3. Bb5 a6 {[%clk 0:01:00]} 1-0\n\n");
    text.push_str("[Event \"bad\"]\n\n1. e4 e5 2. Ke3 1/2-1/2\n\n");
    text.push_str("[Event unquoted]\n\n1. d4 *\n\n");
    text.push_str(
        "[FEN \"rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1\"]\n[Variant \"Chess960\"]\n\n1. O-O O-O-O *\n",
    );
    text.push_str("1. e4 Nf9 *\n1. e4 $300 e5 *\n");
    text.push_str(&nested(30));
    text.push_str("1. d4 {unterminated\n");
    text
}

#[test]
fn one_byte_reads_give_the_same_games_as_a_slice() {
    let sink = kitchen_sink();
    let big = corpus::pgn(3, 60); // larger than the reader's buffer
    assert!(big.len() > 1 << 17);
    for text in [sink.as_str(), big.as_str()] {
        let expected: Vec<Summary> = replay(text);
        let expected_trees = trees(text);
        assert!(expected.len() >= 8);
        let chunk_sizes: &[usize] = if text.len() < 10_000 {
            &[1, 2, 3, 7, 64, 1000]
        } else {
            &[1, 4093, 65_535, 65_537]
        };
        for &chunk in chunk_sizes {
            let bytes = text.as_bytes();
            assert_eq!(
                replay_from(Chunked::new(bytes, chunk)),
                expected,
                "chunks of {chunk}"
            );
            assert_eq!(
                trees_from(Chunked::new(bytes, chunk)),
                expected_trees,
                "chunks of {chunk}"
            );
        }
    }
}

#[test]
fn line_counts_survive_buffer_refills() {
    // A long file with a bad game at its end: the error's line and column do not
    // depend on the line-end style or on how the input arrives.
    let mut lf = corpus::pgn(4, 70);
    lf.push_str("[Event \"last\"]\n\n1. e4 {two\nlines} e5 2. Ke3 *\n");
    let lines_before = lf.matches('\n').count() as u64;
    let expected = Location {
        line: lines_before,
        column: 14,
    };
    assert!(lf.len() > 3 << 16);
    for eol in ["\n", "\r\n", "\r"] {
        let text = lf.replace('\n', eol);
        for chunk in [1, 2, 4093, 65_535, 65_536, 65_537, usize::MAX] {
            let games = replay_from(Chunked::new(text.as_bytes(), chunk));
            assert_eq!(games.len(), 71);
            assert!(games[..70].iter().all(|g| g.error.is_none()));
            let error = games[70].error.clone().expect("Ke3 is illegal");
            assert_eq!(error.at, expected, "{eol:?}, chunks of {chunk}");
        }
    }
}

#[test]
fn long_names_and_tokens_read_the_same_in_any_chunks() {
    // How the input arrives (a pipe delivers it in chunks of any size) must not
    // change what is read, even for names and tokens longer than usual.
    let long_tag = format!("[{} \"v\"]\n\n1. e4 *\n", "N".repeat(300));
    let long_token = format!("1. e4 {}1-0 e5 *\n", "a".repeat(256));
    for text in [long_tag, long_token] {
        let whole = replay(&text);
        for chunk in [1, 7, 300] {
            assert_eq!(
                replay_from(Chunked::new(text.as_bytes(), chunk)),
                whole,
                "chunks of {chunk}"
            );
        }
    }
}

/// Counts games and mainline plies and errors, replaying every move.
struct Counter {
    replayer: Replayer,
    games: u64,
    plies: u64,
    errors: u64,
}

impl Visitor for Counter {
    type Output = ();
    fn begin_game(&mut self, game: u64) {
        self.replayer.begin_game(game);
    }
    fn tag(&mut self, name: &str, value: &str, at: Location) {
        self.replayer.tag(name, value, at);
    }
    fn end_tags(&mut self) -> Flow {
        self.replayer.end_tags()
    }
    fn san(&mut self, token: SanToken<'_>) -> Flow {
        self.replayer.san(token)
    }
    fn comment(&mut self, comment: RawComment<'_>) {
        self.replayer.comment(comment);
    }
    fn begin_variation(&mut self) -> Flow {
        self.replayer.begin_variation()
    }
    fn end_variation(&mut self) {
        self.replayer.end_variation();
    }
    fn result(&mut self, result: &str) {
        self.replayer.result(result);
    }
    fn error(&mut self, error: PgnError) {
        self.replayer.error(error);
    }
    fn end_game(&mut self) {
        let game = self.replayer.end_game();
        self.games += 1;
        self.plies += u64::from(game.plies);
        self.errors += u64::from(game.error.is_some());
    }
}

/// Serves `copies` copies of a text, one after the other, without ever holding
/// more than the one copy.
struct Repeat {
    text: Vec<u8>,
    offset: usize,
    copies_left: u64,
}

impl Read for Repeat {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.copies_left == 0 {
            return Ok(0);
        }
        let n = buf.len().min(self.text.len() - self.offset);
        buf[..n].copy_from_slice(&self.text[self.offset..self.offset + n]);
        self.offset += n;
        if self.offset == self.text.len() {
            self.offset = 0;
            self.copies_left -= 1;
        }
        Ok(n)
    }
}

/// A field of /proc/self/status, in kB.
fn status_kb(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line[field.len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()
}

const STREAM_BYTES: u64 = 200 << 20;
const CHILD_ENV: &str = "CAISSA_PGN_STREAMING_CHILD";

/// The measured part of the streaming test, run alone in a child process so that
/// its peak memory is not mixed with other tests'.
#[test]
#[ignore = "run in its own process by streaming_reads_a_large_input_with_constant_memory"]
fn streaming_child_process() {
    let text = corpus::pgn(11, 64).into_bytes();
    let per_copy = replay(std::str::from_utf8(&text).unwrap());
    assert_eq!(per_copy.len(), 64);
    let plies_per_copy: u64 = per_copy.iter().map(|g| u64::from(g.plies)).sum();
    let copies = STREAM_BYTES.div_ceil(text.len() as u64);

    let before = status_kb("VmRSS:");
    let input = Repeat {
        text,
        offset: 0,
        copies_left: copies,
    };
    let mut reader = Reader::new(input);
    let mut counter = Counter {
        replayer: Replayer::new(),
        games: 0,
        plies: 0,
        errors: 0,
    };
    while reader.read_game(&mut counter).unwrap().is_some() {}
    let peak = status_kb("VmHWM:");

    assert!(reader.bytes_read() >= STREAM_BYTES);
    assert_eq!(counter.games, copies * 64);
    assert_eq!(counter.plies, copies * plies_per_copy);
    assert_eq!(counter.errors, 0);
    if let (Some(before), Some(peak)) = (before, peak) {
        // 200 MB went through; the peak grew by far less than that.
        assert!(
            peak <= before + 16 * 1024,
            "peak resident memory {peak} kB, {before} kB before reading"
        );
    }
    println!(
        "STREAMED games={} bytes={} peak_kb={peak:?} before_kb={before:?}",
        counter.games,
        reader.bytes_read()
    );
}

#[test]
fn streaming_reads_a_large_input_with_constant_memory() {
    if std::env::var_os(CHILD_ENV).is_some() {
        return;
    }
    let exe = std::env::current_exe().expect("the test binary's path");
    let out = std::process::Command::new(exe)
        .args([
            "streaming::streaming_child_process",
            "--exact",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD_ENV, "1")
        .output()
        .expect("the test binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "the streaming child failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line = stdout
        .lines()
        .find_map(|l| l.find("STREAMED ").map(|i| &l[i..]))
        .unwrap_or_else(|| panic!("no report from the child:\n{stdout}"));
    let games: u64 = line
        .split_whitespace()
        .find_map(|w| w.strip_prefix("games="))
        .and_then(|n| n.parse().ok())
        .expect("a game count");
    assert!(games > 50_000, "{line}");
}
