//! `caissa uci` driven by a standard UCI client: python-chess's `chess.engine`
//! (installed by `scripts/test.sh`).

use std::path::Path;
use std::process::Command;

#[test]
fn python_chess_plays_and_analyses_with_caissa_uci() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/clients/python_chess_uci.py");
    let out = Command::new("python3")
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_caissa"))
        .output()
        .expect("python3 with the chess package is needed (scripts/test.sh installs it)");
    assert!(
        out.status.success(),
        "python-chess failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
