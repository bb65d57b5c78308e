//! `caissa bench` and `caissa engine datagen | dump | train` as processes: the
//! whole recipe of a network, from self-play to a net the engine searches with.

use std::path::PathBuf;
use std::process::{Command, Output};

fn caissa(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_caissa"))
        .args(args)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("caissa-engine-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The count of a bench's last line `NODES nodes NPS nps`.
fn bench_nodes(out: &Output) -> u64 {
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let last = stdout.lines().last().unwrap_or_default();
    let words: Vec<&str> = last.split(' ').collect();
    assert_eq!(words.len(), 4, "{last:?}");
    assert_eq!((words[1], words[3]), ("nodes", "nps"), "{last:?}");
    assert!(words[2].parse::<u64>().is_ok(), "{last:?}");
    words[0].parse().unwrap()
}

#[test]
fn self_play_data_trains_a_net_the_engine_searches_with() {
    let dir = scratch_dir("recipe");
    let data = dir.join("data");
    let run = caissa(&[
        "engine",
        "datagen",
        "--out",
        data.to_str().unwrap(),
        "--games",
        "3",
        "--soft-nodes",
        "300",
        "--seed",
        "5",
    ]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let stderr = text(&run.stderr);
    assert!(stderr.contains("3 games"), "{stderr}");
    let file = data.join("t0.bin");
    let bytes = std::fs::metadata(&file).unwrap().len();
    assert!(bytes > 0 && bytes.is_multiple_of(32), "{bytes} bytes");

    let dump = caissa(&["engine", "dump", file.to_str().unwrap(), "--limit", "5"]);
    assert!(dump.status.success(), "{}", text(&dump.stderr));
    let lines: Vec<String> = text(&dump.stdout).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 5);
    for line in &lines {
        let parts: Vec<&str> = line.split(" | ").collect();
        assert_eq!(parts.len(), 3, "{line}");
        assert!(caissa_rules::Position::from_fen(parts[0]).is_ok(), "{line}");
        assert!(parts[1].parse::<i32>().is_ok(), "{line}");
        assert!(["1.0", "0.5", "0.0"].contains(&parts[2]), "{line}");
    }

    let net = dir.join("net.nnue");
    let log = dir.join("loss.csv");
    let train = caissa(&[
        "engine",
        "train",
        "--data",
        data.to_str().unwrap(),
        "--out",
        net.to_str().unwrap(),
        "--hidden",
        "32",
        "--epochs",
        "3",
        "--batch-size",
        "256",
        "--log",
        log.to_str().unwrap(),
    ]);
    assert!(train.status.success(), "{}", text(&train.stderr));
    let curve = std::fs::read_to_string(&log).unwrap();
    assert_eq!(curve.lines().count(), 4, "{curve}");
    assert!(curve.starts_with("epoch,train_loss,validation_loss,lr,positions_per_second"));

    // Fine-tuning goes on from that net, and keeps its shape.
    let tuned = dir.join("tuned.nnue");
    let tune = |extra: &[&str]| {
        let mut args = vec![
            "engine",
            "train",
            "--data",
            data.to_str().unwrap(),
            "--out",
            tuned.to_str().unwrap(),
            "--init",
            net.to_str().unwrap(),
            "--epochs",
            "1",
            "--batch-size",
            "256",
        ];
        args.extend_from_slice(extra);
        caissa(&args)
    };
    let run = tune(&[]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let said = text(&run.stderr);
    assert!(
        said.contains("hidden 32") && said.contains("before training"),
        "{said}"
    );
    assert!(std::fs::metadata(&tuned).unwrap().len() > 0);
    let clash = tune(&["--hidden", "64"]);
    assert!(!clash.status.success());
    assert!(text(&clash.stderr).contains("--init's net has 32 hidden units"));

    let with_net = bench_nodes(&caissa(&[
        "bench",
        "--depth",
        "4",
        "--eval-file",
        net.to_str().unwrap(),
    ]));
    let with_hce = bench_nodes(&caissa(&["bench", "--depth", "4", "--hce"]));
    assert!(with_net > 1000 && with_hce > 1000);
    assert_ne!(with_net, with_hce, "the net changes the search");
    // The next generation of data is played by the net.
    let next = caissa(&[
        "engine",
        "datagen",
        "--out",
        dir.join("gen1").to_str().unwrap(),
        "--games",
        "1",
        "--soft-nodes",
        "300",
        "--eval-file",
        net.to_str().unwrap(),
    ]);
    assert!(next.status.success(), "{}", text(&next.stderr));
    assert!(
        text(&next.stderr).contains("a net of 32 hidden units"),
        "{}",
        text(&next.stderr)
    );
    // The signature is the same on every run.
    assert_eq!(
        with_hce,
        bench_nodes(&caissa(&["bench", "--depth", "4", "--hce"]))
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_engine_arguments_are_named() {
    let dir = scratch_dir("bad");
    let cases: [(&[&str], &str); 6] = [
        (&["bench", "--depth", "0"], "--depth"),
        (
            &["engine", "datagen", "--out", dir.to_str().unwrap()],
            "--games N or --hours H",
        ),
        (
            &[
                "engine",
                "train",
                "--data",
                "/no/such/dir",
                "--out",
                "x.nnue",
            ],
            "/no/such/dir",
        ),
        (
            &[
                "engine",
                "train",
                "--data",
                dir.to_str().unwrap(),
                "--out",
                "x.nnue",
                "--hidden",
                "20",
            ],
            "--hidden",
        ),
        (
            &["bench", "--eval-file", "/no/such/net.nnue"],
            "/no/such/net.nnue",
        ),
        (
            &[
                "engine",
                "datagen",
                "--out",
                dir.to_str().unwrap(),
                "--games",
                "1",
                "--eval-file",
                "/no/such/net.nnue",
            ],
            "/no/such/net.nnue",
        ),
    ];
    for (args, says) in cases {
        let out = caissa(args);
        assert!(!out.status.success(), "{args:?}");
        let stderr = text(&out.stderr);
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
    let garbage = dir.join("garbage.nnue");
    std::fs::write(&garbage, b"not a net at all").unwrap();
    let out = caissa(&["bench", "--eval-file", garbage.to_str().unwrap()]);
    assert!(
        text(&out.stderr).contains("not a Caissa net file"),
        "{}",
        text(&out.stderr)
    );
    let out = caissa(&[
        "engine",
        "train",
        "--data",
        dir.to_str().unwrap(),
        "--out",
        "x.nnue",
        "--init",
        garbage.to_str().unwrap(),
    ]);
    let stderr = text(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("garbage.nnue") && stderr.contains("not a Caissa net file"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
