//! `bench`: the signature search is reproducible and ends with `NODES nodes NPS nps`.

use std::io::Cursor;
use std::sync::{Arc, Mutex};

use caissa_engine::bench;
use caissa_engine::nnue::Network;

#[test]
fn bench_node_count_is_the_same_on_every_run() {
    let first = bench::run(5, Network::shared_embedded(), &mut |_, _, _| {});
    let second = bench::run(5, Network::shared_embedded(), &mut |_, _, _| {});
    assert!(first.nodes > 10_000, "{} nodes", first.nodes);
    assert_eq!(first.nodes, second.nodes);
}

#[test]
fn bench_reports_every_position_in_order() {
    let mut seen = Vec::new();
    let result = bench::run(3, Network::shared_embedded(), &mut |i, fen, r| {
        assert_eq!(fen, bench::POSITIONS[i]);
        assert!(r.best_move.is_some(), "{fen}");
        seen.push((i, r.nodes));
    });
    assert_eq!(seen.len(), bench::POSITIONS.len());
    assert!(seen.iter().enumerate().all(|(k, &(i, _))| k == i));
    assert_eq!(result.nodes, seen.iter().map(|&(_, n)| n).sum::<u64>());
}

fn is_summary(line: &str) -> bool {
    let words: Vec<&str> = line.split(' ').collect();
    words.len() == 4
        && words[1] == "nodes"
        && words[3] == "nps"
        && [words[0], words[2]]
            .iter()
            .all(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()))
}

#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn uci_bench_last_line_is_nodes_and_nps_with_the_library_count() {
    let out = Shared::default();
    caissa_engine::run_uci(Cursor::new("bench 4\nquit\n"), out.clone());
    let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let last = *lines.last().unwrap();
    assert!(is_summary(last), "{last:?}");
    let expected = bench::run(4, Network::shared_embedded(), &mut |_, _, _| {}).nodes;
    assert_eq!(last.split(' ').next().unwrap(), expected.to_string());
    assert_eq!(lines.len(), bench::POSITIONS.len() + 1);
}

#[test]
fn uci_bench_refuses_a_bad_depth() {
    let out = Shared::default();
    caissa_engine::run_uci(Cursor::new("bench zero\nisready\n"), out.clone());
    let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
    assert!(text.starts_with("info string bench: the depth"), "{text}");
    assert!(text.ends_with("readyok\n"));
}

#[test]
fn uci_bench_uses_the_eval_file_and_names_a_bad_one() {
    let mut rng = caissa_engine::Rng::new(3);
    let mut draw = |lo: i32, hi: i32| (lo + rng.below((hi - lo + 1) as usize) as i32) as i16;
    let hidden = 32;
    let net = Network::new(
        hidden,
        (0..768 * hidden).map(|_| draw(-90, 90)).collect(),
        (0..hidden).map(|_| draw(0, 150)).collect(),
        (0..2 * hidden).map(|_| draw(-127, 127)).collect(),
        vec![0],
    )
    .unwrap();
    let path = std::env::temp_dir().join(format!("caissa-bench-{}.nnue", std::process::id()));
    std::fs::write(&path, net.to_bytes()).unwrap();
    let run = |input: String| {
        let out = Shared::default();
        caissa_engine::run_uci(Cursor::new(input), out.clone());
        let bytes = out.0.lock().unwrap().clone();
        String::from_utf8(bytes).unwrap()
    };
    let with_file = run(format!(
        "setoption name EvalFile value {}\nbench 3\nquit\n",
        path.display()
    ));
    let expected = bench::run(3, Some(std::sync::Arc::new(net)), &mut |_, _, _| {}).nodes;
    let last = with_file.lines().last().unwrap();
    assert_eq!(
        last.split(' ').next().unwrap(),
        expected.to_string(),
        "{with_file}"
    );
    let hce = run("setoption name Use NNUE value false\nbench 3\nquit\n".to_string());
    let hce_nodes = bench::run(3, None, &mut |_, _, _| {}).nodes;
    assert!(
        hce.lines()
            .last()
            .unwrap()
            .starts_with(&format!("{hce_nodes} nodes")),
        "{hce}"
    );
    assert_ne!(hce_nodes, expected);
    let bad = run("setoption name EvalFile value /no/such/net.nnue\nisready\n".to_string());
    assert!(
        bad.starts_with("info string EvalFile /no/such/net.nnue: "),
        "{bad}"
    );
    let _ = std::fs::remove_file(&path);
}
