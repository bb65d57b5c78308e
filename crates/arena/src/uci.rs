//! A client for engines speaking the Universal Chess Interface.
//!
//! The conversation: `uci` until `uciok` (collecting `id name` and the declared
//! options), `setoption` for each configured option, `isready` until `readyok`; then per
//! game `ucinewgame` and `isready`, and per move `position fen ... moves ...` and
//! `go wtime .. btime .. winc .. binc ..`, reading `info` lines (the last score and
//! depth of the first principal variation are kept) until `bestmove`.
//!
//! Every wait has a deadline. An engine that does not answer `go` in time is told to
//! `stop`; if it still does not answer, or if it exits, it is restarted before the next
//! game.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::engine::{EngineConfig, EngineError, Player, Score, ThinkRequest, Thought};
use crate::process::{EngineProcess, Line, RecvError};

/// How long an engine may take to answer `uci` (engines loading large networks or
/// tablebases can be slow).
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(30);
/// How long an engine may take to answer `isready`.
pub const READY_TIMEOUT: Duration = Duration::from_secs(15);
/// How long an engine that overstepped its time gets to answer `stop`.
const STOP_TIMEOUT: Duration = Duration::from_secs(1);

/// A UCI engine process and what the handshake told about it.
pub struct UciEngine {
    config: EngineConfig,
    label: String,
    process: Option<EngineProcess>,
    name: String,
    engine_name: Option<String>,
    declared_options: Vec<String>,
    warnings: Vec<String>,
    /// Out of step with the protocol (or dead): restart before the next game.
    broken: bool,
    handshake_timeout: Duration,
    ready_timeout: Duration,
}

/// What one `info` line said about the search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    /// `depth`.
    pub depth: Option<u32>,
    /// `multipv` (1 when absent).
    pub multipv: Option<u32>,
    /// `score cp` or `score mate`.
    pub score: Option<Score>,
}

/// Reads an `info` line (`None` if it is not one).
pub fn parse_info(line: &str) -> Option<Info> {
    let mut tokens = line.split_whitespace();
    if tokens.next() != Some("info") {
        return None;
    }
    let mut info = Info::default();
    while let Some(token) = tokens.next() {
        match token {
            "depth" => info.depth = tokens.next().and_then(|t| t.parse().ok()),
            "multipv" => info.multipv = tokens.next().and_then(|t| t.parse().ok()),
            "score" => {
                let kind = tokens.next();
                let value = tokens.next().and_then(|t| t.parse::<i32>().ok());
                info.score = match (kind, value) {
                    (Some("cp"), Some(v)) => Some(Score::Cp(v)),
                    (Some("mate"), Some(v)) => Some(Score::Mate(v)),
                    _ => None,
                };
            }
            // The rest of the line is moves or free text.
            "pv" | "string" | "refutation" | "currline" => break,
            _ => {}
        }
    }
    Some(info)
}

fn fallback_name(config: &EngineConfig) -> String {
    config
        .command
        .first()
        .map(|p| {
            Path::new(p)
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_else(|| p.clone())
        })
        .unwrap_or_else(|| "engine".to_string())
}

impl UciEngine {
    /// Starts the engine and completes the handshake. `label` names it in debug output.
    pub fn start(config: EngineConfig, label: &str) -> Result<UciEngine, EngineError> {
        UciEngine::start_with_timeouts(config, label, HANDSHAKE_TIMEOUT, READY_TIMEOUT)
    }

    /// [`UciEngine::start`] with other handshake and `isready` timeouts.
    pub fn start_with_timeouts(
        config: EngineConfig,
        label: &str,
        handshake_timeout: Duration,
        ready_timeout: Duration,
    ) -> Result<UciEngine, EngineError> {
        let mut engine = UciEngine {
            name: config
                .name
                .clone()
                .unwrap_or_else(|| fallback_name(&config)),
            config,
            label: label.to_string(),
            process: None,
            engine_name: None,
            declared_options: Vec::new(),
            warnings: Vec::new(),
            broken: false,
            handshake_timeout,
            ready_timeout,
        };
        engine.launch()?;
        Ok(engine)
    }

    /// The name the engine gave (`id name`), if any.
    pub fn engine_name(&self) -> Option<&str> {
        self.engine_name.as_deref()
    }

    /// The options the engine declared.
    pub fn declared_options(&self) -> &[String] {
        &self.declared_options
    }

    /// Problems found during the handshake (e.g. an option the engine does not have).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// Sets the display name.
    pub fn set_name(&mut self, name: String) {
        self.name = name;
    }

    fn launch(&mut self) -> Result<(), EngineError> {
        if let Some(mut old) = self.process.take() {
            old.kill();
        }
        let mut process = EngineProcess::spawn(&self.config, &self.label)?;
        process.send("uci")?;
        let deadline = Instant::now() + self.handshake_timeout;
        self.declared_options.clear();
        loop {
            let line = recv_line(&mut process, deadline, "uciok", self.handshake_timeout)?;
            let text = line.text.trim();
            if text == "uciok" {
                break;
            }
            if let Some(name) = text.strip_prefix("id name ") {
                self.engine_name = Some(name.trim().to_string());
            } else if let Some(rest) = text.strip_prefix("option name ") {
                let name = match rest.find(" type ") {
                    Some(end) => &rest[..end],
                    None => rest,
                };
                self.declared_options.push(name.trim().to_string());
            }
        }
        if self.config.name.is_none() {
            if let Some(name) = &self.engine_name {
                self.name.clone_from(name);
            }
        }
        self.warnings.clear();
        for (name, value) in &self.config.options {
            if !self
                .declared_options
                .iter()
                .any(|o| o.eq_ignore_ascii_case(name))
            {
                self.warnings.push(format!(
                    "{} does not declare an option {name:?} (sent anyway)",
                    self.name
                ));
            }
            process.send(&format!("setoption name {name} value {value}"))?;
        }
        sync(&mut process, self.ready_timeout)?;
        self.process = Some(process);
        self.broken = false;
        Ok(())
    }

    /// Waits for `readyok`; a failure leaves the engine marked for a restart.
    fn sync(&mut self) -> Result<(), EngineError> {
        let process = self.process.as_mut().ok_or_else(not_running)?;
        let result = sync(process, self.ready_timeout);
        if result.is_err() {
            self.broken = true;
        }
        result
    }

    /// After a `go` that was not answered in time: `stop`, and a short wait for the
    /// `bestmove` so that the engine is in step for the next game.
    fn recover_after_timeout(&mut self) {
        let Some(process) = self.process.as_mut() else {
            return;
        };
        if process.send("stop").is_err() {
            self.broken = true;
            return;
        }
        let deadline = Instant::now() + STOP_TIMEOUT;
        loop {
            match process.recv(deadline) {
                Ok(line) if line.text.starts_with("bestmove") => return,
                Ok(_) => {}
                Err(_) => {
                    self.broken = true;
                    return;
                }
            }
        }
    }

    fn search(&mut self, request: &ThinkRequest<'_>) -> Result<Thought, EngineError> {
        let process = self.process.as_mut().ok_or_else(not_running)?;
        let mut position = format!("position fen {}", request.start_fen);
        if !request.moves.is_empty() {
            position.push_str(" moves");
            for m in request.moves {
                position.push(' ');
                position.push_str(m);
            }
        }
        process.send(&position)?;
        let millis = |d: Duration| d.as_millis().max(1);
        let [wtime, btime] = request.clocks;
        let [winc, binc] = request.increments;
        let mut go = format!(
            "go wtime {} btime {} winc {} binc {}",
            millis(wtime),
            millis(btime),
            winc.as_millis(),
            binc.as_millis()
        );
        if let Some(n) = request.moves_to_go {
            go.push_str(&format!(" movestogo {n}"));
        }
        process.send(&go)?;
        let sent = Instant::now();
        let deadline = sent + request.deadline;
        let mut score = None;
        let mut depth = None;
        loop {
            match process.recv(deadline) {
                Ok(line) => {
                    if let Some(info) = parse_info(&line.text) {
                        if info.multipv.unwrap_or(1) == 1 && info.score.is_some() {
                            score = info.score;
                            depth = info.depth.or(depth);
                        }
                        continue;
                    }
                    let mut tokens = line.text.split_whitespace();
                    if tokens.next() == Some("bestmove") {
                        return Ok(Thought {
                            best: tokens.next().unwrap_or("(none)").to_string(),
                            score,
                            depth,
                            elapsed: line.at.saturating_duration_since(sent),
                        });
                    }
                }
                Err(RecvError::Timeout) => {
                    self.recover_after_timeout();
                    return Err(EngineError::Timeout(format!(
                        "no bestmove within {:.3} s",
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

/// The next line before `deadline`, as an engine error when none comes.
pub(crate) fn recv_line(
    process: &mut EngineProcess,
    deadline: Instant,
    awaited: &str,
    timeout: Duration,
) -> Result<Line, EngineError> {
    match process.recv(deadline) {
        Ok(line) => Ok(line),
        Err(RecvError::Timeout) => Err(EngineError::Timeout(format!(
            "no {awaited} within {:.1} s",
            timeout.as_secs_f64()
        ))),
        Err(RecvError::Closed) => Err(EngineError::Crashed(
            process.describe_exit(&format!("exited while waiting for {awaited}")),
        )),
    }
}

/// `isready` until `readyok`, discarding anything else (such as a late `bestmove`).
fn sync(process: &mut EngineProcess, timeout: Duration) -> Result<(), EngineError> {
    process.send("isready")?;
    let deadline = Instant::now() + timeout;
    loop {
        let line = recv_line(process, deadline, "readyok", timeout)?;
        if line.text.trim() == "readyok" {
            return Ok(());
        }
    }
}

impl Player for UciEngine {
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
        let process = self.process.as_mut().ok_or_else(not_running)?;
        if let Err(e) = process.send("ucinewgame") {
            self.broken = true;
            return Err(e);
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

    fn warnings(&self) -> Vec<String> {
        self.warnings.clone()
    }
}

impl Drop for UciEngine {
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
    fn reads_info_lines() {
        let info = parse_info(
            "info depth 12 seldepth 18 multipv 1 score cp -35 nodes 1000 nps 5 pv e2e4 e7e5",
        )
        .unwrap();
        assert_eq!(info.depth, Some(12));
        assert_eq!(info.multipv, Some(1));
        assert_eq!(info.score, Some(Score::Cp(-35)));
        let info = parse_info("info depth 20 score mate -3 lowerbound").unwrap();
        assert_eq!(info.score, Some(Score::Mate(-3)));
        let info = parse_info("info string score cp 100 is not a score").unwrap();
        assert_eq!(info.score, None);
        assert!(parse_info("bestmove e2e4").is_none());
        let info = parse_info("info depth 5 currmove e2e4 currmovenumber 1").unwrap();
        assert_eq!((info.depth, info.score), (Some(5), None));
    }
}
