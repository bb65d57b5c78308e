//! A client for engines speaking the Chess Engine Communication Protocol (xboard,
//! protocol version 2), such as Fairy-Max, Phalanx or GNU Chess.
//!
//! Handshake: `xboard`, `protover 2`, then `feature` lines (each acknowledged with
//! `accepted`) until `done=1` (or two seconds without features: a version 1 engine).
//! Per game: `new`, `easy` (no pondering), `post` (thinking output), `force`, the start
//! position with `setboard`, the moves so far, `level`, `time`/`otim`, `go`; afterwards
//! only `time`/`otim` and the opponent's move, to which the engine answers `move ...`.
//! Thinking lines (`depth score time nodes pv`) give the score and depth.

use std::time::{Duration, Instant};

use caissa_rules::fen::STARTING_FEN;

use crate::engine::{EngineConfig, EngineError, Player, Score, ThinkRequest, Thought, RESIGN};
use crate::process::{EngineProcess, RecvError};
use crate::uci::{recv_line, HANDSHAKE_TIMEOUT, READY_TIMEOUT};

/// How long a version 2 engine gets to send its first `feature` line.
const FEATURE_WAIT: Duration = Duration::from_secs(2);
/// How long an engine that overstepped its time gets to answer `?` (move now).
const STOP_TIMEOUT: Duration = Duration::from_secs(1);

/// What the engine declared with `feature`.
#[derive(Clone, Debug, Default)]
struct Features {
    setboard: bool,
    usermove: bool,
    san: bool,
    ping: bool,
    myname: Option<String>,
    options: Vec<String>,
}

/// An xboard engine process.
pub struct XboardEngine {
    config: EngineConfig,
    label: String,
    process: Option<EngineProcess>,
    name: String,
    features: Features,
    warnings: Vec<String>,
    broken: bool,
    /// Moves of the current game the engine has been told (`None`: no game set up).
    known_moves: Option<usize>,
    ping: u32,
}

/// Splits a `feature` line into key and value pairs (quotes removed).
fn parse_features(line: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let rest = line.trim_start_matches("feature").trim();
    let mut chars = rest.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        let mut key = String::new();
        while let Some(&c) = chars.peek() {
            if c == '=' || c.is_whitespace() {
                break;
            }
            key.push(c);
            chars.next();
        }
        if key.is_empty() {
            return out;
        }
        let mut value = String::new();
        if chars.peek() == Some(&'=') {
            chars.next();
            if chars.peek() == Some(&'"') {
                chars.next();
                for c in chars.by_ref() {
                    if c == '"' {
                        break;
                    }
                    value.push(c);
                }
            } else {
                while let Some(&c) = chars.peek() {
                    if c.is_whitespace() {
                        break;
                    }
                    value.push(c);
                    chars.next();
                }
            }
        }
        out.push((key, value));
    }
}

/// Reads a thinking line `depth score time nodes pv...` (`None` if it is not one).
pub fn parse_thinking(line: &str) -> Option<(u32, Score)> {
    let mut words = line.split_whitespace();
    let depth: u32 = words.next()?.trim_end_matches(['.', '&']).parse().ok()?;
    let score: i32 = words.next()?.parse().ok()?;
    // Many engines write mate scores as 100000 + distance or close to 32767.
    let score = if score.abs() >= 100_000 {
        let distance = (score.abs() - 100_000).max(1);
        Score::Mate(distance * score.signum())
    } else {
        Score::Cp(score)
    };
    Some((depth, score))
}

/// `M:SS` (or `M`) for the `level` command.
fn level_base(d: Duration) -> String {
    let secs = d.as_secs().max(1);
    if secs.is_multiple_of(60) {
        format!("{}", secs / 60)
    } else {
        format!("{}:{:02}", secs / 60, secs % 60)
    }
}

fn seconds_text(d: Duration) -> String {
    let millis = d.as_millis();
    if millis.is_multiple_of(1000) {
        format!("{}", millis / 1000)
    } else {
        format!("{:.3}", d.as_secs_f64())
            .trim_end_matches('0')
            .to_string()
    }
}

impl XboardEngine {
    /// Starts the engine and completes the handshake.
    pub fn start(config: EngineConfig, label: &str) -> Result<XboardEngine, EngineError> {
        let fallback = config
            .command
            .first()
            .map(|p| {
                std::path::Path::new(p)
                    .file_name()
                    .map(|f| f.to_string_lossy().into_owned())
                    .unwrap_or_else(|| p.clone())
            })
            .unwrap_or_else(|| "engine".to_string());
        let mut engine = XboardEngine {
            name: config.name.clone().unwrap_or(fallback),
            config,
            label: label.to_string(),
            process: None,
            features: Features::default(),
            warnings: Vec::new(),
            broken: false,
            known_moves: None,
            ping: 0,
        };
        engine.launch()?;
        Ok(engine)
    }

    fn launch(&mut self) -> Result<(), EngineError> {
        if let Some(mut old) = self.process.take() {
            old.kill();
        }
        let mut process = EngineProcess::spawn(&self.config, &self.label)?;
        process.send("xboard")?;
        process.send("protover 2")?;
        let mut features = Features::default();
        let mut deadline = Instant::now() + FEATURE_WAIT;
        loop {
            let line = match process.recv(deadline) {
                Ok(line) => line,
                // A version 1 engine sends no features; a version 2 one that said
                // done=0 has had the full handshake time.
                Err(RecvError::Timeout) => break,
                Err(RecvError::Closed) => {
                    return Err(EngineError::Crashed(
                        process.describe_exit("exited during the handshake"),
                    ))
                }
            };
            if !line.text.starts_with("feature ") {
                continue;
            }
            let mut done = false;
            for (key, value) in parse_features(&line.text) {
                let on = value == "1";
                match key.as_str() {
                    "setboard" => features.setboard = on,
                    "usermove" => features.usermove = on,
                    "san" => features.san = on,
                    "ping" => features.ping = on,
                    "myname" => features.myname = Some(value.clone()),
                    "option" => {
                        let name = value.split(" -").next().unwrap_or("").trim();
                        features.options.push(name.to_string());
                    }
                    "done" if on => done = true,
                    "done" => deadline = Instant::now() + HANDSHAKE_TIMEOUT,
                    _ => {}
                }
                process.send(&format!("accepted {key}"))?;
            }
            if done {
                break;
            }
        }
        if self.config.name.is_none() {
            if let Some(name) = &features.myname {
                self.name.clone_from(name);
            }
        }
        self.warnings.clear();
        for (name, value) in &self.config.options {
            match name.to_ascii_lowercase().as_str() {
                "memory" | "cores" | "egtpath" => {
                    process.send(&format!("{} {value}", name.to_ascii_lowercase()))?;
                }
                _ => {
                    if !features
                        .options
                        .iter()
                        .any(|o| o.eq_ignore_ascii_case(name))
                    {
                        self.warnings.push(format!(
                            "{} does not declare an option {name:?} (sent anyway)",
                            self.name
                        ));
                    }
                    process.send(&format!("option {name}={value}"))?;
                }
            }
        }
        self.features = features;
        self.process = Some(process);
        self.broken = false;
        self.known_moves = None;
        self.sync()
    }

    /// `ping` until the matching `pong` (nothing to wait for without the feature).
    fn sync(&mut self) -> Result<(), EngineError> {
        if !self.features.ping {
            return Ok(());
        }
        self.ping += 1;
        let ping = self.ping;
        let process = self.process.as_mut().ok_or_else(not_running)?;
        process.send(&format!("ping {ping}"))?;
        let deadline = Instant::now() + READY_TIMEOUT;
        let want = format!("pong {ping}");
        loop {
            let line = recv_line(process, deadline, &want, READY_TIMEOUT).inspect_err(|_| {
                self.broken = true;
            })?;
            if line.text.trim() == want {
                return Ok(());
            }
        }
    }

    /// A move as the engine wants to read it.
    fn write_move(&self, request: &ThinkRequest<'_>, index: usize) -> String {
        let uci = &request.moves[index];
        let text = if self.features.san {
            let mut pos = *request.start;
            for m in &request.moves[..index] {
                if let Ok(mv) = pos.parse_uci(m) {
                    pos.play_unchecked(mv);
                }
            }
            pos.parse_uci(uci)
                .map(|mv| pos.san(mv))
                .unwrap_or_else(|_| uci.clone())
        } else {
            uci.clone()
        };
        if self.features.usermove {
            format!("usermove {text}")
        } else {
            text
        }
    }

    fn search(&mut self, request: &ThinkRequest<'_>) -> Result<Thought, EngineError> {
        let mover = request.position.turn();
        let own = request.clocks[mover.index()];
        let other = request.clocks[(!mover).index()];
        let centis = |d: Duration| d.as_millis() / 10;
        let mut lines: Vec<String> = Vec::new();
        let fresh = match self.known_moves {
            Some(known) => known + 1 != request.moves.len(),
            None => true,
        };
        if fresh {
            // Set the game up from scratch, then let the engine play the side to move.
            lines.push("force".to_string());
            if request.start_fen != STARTING_FEN {
                if !self.features.setboard {
                    return Err(EngineError::Protocol(
                        "the engine does not support setboard (needed for the opening)".to_string(),
                    ));
                }
                lines.push(format!("setboard {}", request.start_fen));
            }
            for i in 0..request.moves.len() {
                lines.push(self.write_move(request, i));
            }
            let base = request.clocks[0].max(request.clocks[1]);
            lines.push(format!(
                "level {} {} {}",
                request.moves_to_go.unwrap_or(0),
                level_base(base),
                seconds_text(request.increments[mover.index()])
            ));
            lines.push(format!("time {}", centis(own)));
            lines.push(format!("otim {}", centis(other)));
            lines.push("go".to_string());
        } else {
            lines.push(format!("time {}", centis(own)));
            lines.push(format!("otim {}", centis(other)));
            lines.push(self.write_move(request, request.moves.len() - 1));
        }
        let process = self.process.as_mut().ok_or_else(not_running)?;
        for line in &lines {
            process.send(line)?;
        }
        let sent = Instant::now();
        let deadline = sent + request.deadline;
        let (mut score, mut depth) = (None, None);
        loop {
            match process.recv(deadline) {
                Ok(line) => {
                    let text = line.text.trim();
                    if let Some(m) = text.strip_prefix("move ") {
                        let m = m.trim();
                        let best = request
                            .position
                            .parse_uci(m)
                            .or_else(|_| request.position.parse_san(m).map_err(|_| ()))
                            .map(|mv| request.position.to_uci(mv))
                            .unwrap_or_else(|_| m.to_string());
                        self.known_moves = Some(request.moves.len() + 1);
                        return Ok(Thought {
                            best,
                            score,
                            depth,
                            elapsed: line.at.saturating_duration_since(sent),
                        });
                    }
                    if text == "resign" || text.starts_with("tellics resign") {
                        self.known_moves = None;
                        return Ok(Thought {
                            best: RESIGN.to_string(),
                            score,
                            depth,
                            elapsed: line.at.saturating_duration_since(sent),
                        });
                    }
                    if text.starts_with("Illegal move") || text.starts_with("Error") {
                        self.broken = true;
                        return Err(EngineError::Protocol(format!("the engine says {text:?}")));
                    }
                    if let Some((d, s)) = parse_thinking(text) {
                        depth = Some(d);
                        score = Some(s);
                    }
                }
                Err(RecvError::Timeout) => {
                    self.known_moves = None;
                    // `?` asks for a move now; the answer, if any, is dropped.
                    if process.send("?").is_err() {
                        self.broken = true;
                    } else {
                        let stop = Instant::now() + STOP_TIMEOUT;
                        loop {
                            match process.recv(stop) {
                                Ok(line) if line.text.starts_with("move ") => break,
                                Ok(_) => {}
                                Err(_) => {
                                    self.broken = true;
                                    break;
                                }
                            }
                        }
                    }
                    return Err(EngineError::Timeout(format!(
                        "no move within {:.3} s",
                        request.deadline.as_secs_f64()
                    )));
                }
                Err(RecvError::Closed) => {
                    self.broken = true;
                    return Err(EngineError::Crashed(
                        process.describe_exit("exited while thinking"),
                    ));
                }
            }
        }
    }
}

fn not_running() -> EngineError {
    EngineError::Crashed("the engine is not running".to_string())
}

impl Player for XboardEngine {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self) -> Result<(), EngineError> {
        let dead = match self.process.as_mut() {
            Some(p) => p.has_exited(),
            None => true,
        };
        if self.broken || dead {
            self.launch()?;
        }
        self.known_moves = None;
        let process = self.process.as_mut().ok_or_else(not_running)?;
        for line in ["new", "easy", "post", "force"] {
            if let Err(e) = process.send(line) {
                self.broken = true;
                return Err(e);
            }
        }
        self.sync()
    }

    fn think(&mut self, request: &ThinkRequest<'_>) -> Result<Thought, EngineError> {
        let result = self.search(request);
        if matches!(result, Err(EngineError::Crashed(_))) {
            self.broken = true;
        }
        result
    }

    fn game_over(&mut self, result: &str, reason: &str) {
        self.known_moves = None;
        if let Some(process) = self.process.as_mut() {
            let reason = reason.replace(['{', '}'], "");
            if process
                .send(&format!("result {result} {{{reason}}}"))
                .is_err()
                || process.send("force").is_err()
            {
                self.broken = true;
            }
        }
    }

    fn warnings(&self) -> Vec<String> {
        self.warnings.clone()
    }
}

impl Drop for XboardEngine {
    fn drop(&mut self) {
        if let Some(mut process) = self.process.take() {
            let _ = process.send("quit");
            process.shutdown(Duration::from_millis(300));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_features_and_thinking() {
        let f = parse_features(
            "feature ping=1 setboard=1 myname=\"Fairy-Max 5.0b\" option=\"Resign -check 0\" done=1",
        );
        assert_eq!(f[0], ("ping".to_string(), "1".to_string()));
        assert_eq!(f[2], ("myname".to_string(), "Fairy-Max 5.0b".to_string()));
        assert_eq!(f[3].1, "Resign -check 0");
        assert_eq!(f[4], ("done".to_string(), "1".to_string()));
        assert_eq!(
            parse_thinking("9 -35 120 48213 e2e4 e7e5"),
            Some((9, Score::Cp(-35)))
        );
        assert_eq!(
            parse_thinking("12. 100003 5 10 a1a8"),
            Some((12, Score::Mate(3)))
        );
        assert_eq!(parse_thinking("move e2e4"), None);
        assert_eq!(level_base(Duration::from_secs(120)), "2");
        assert_eq!(level_base(Duration::from_secs(10)), "0:10");
        assert_eq!(seconds_text(Duration::from_millis(100)), "0.1");
    }
}
