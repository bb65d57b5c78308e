//! An engine process spoken to line by line: its output is read by a thread into a
//! channel, so that every wait has a deadline; the last lines of its stderr are kept
//! to explain a crash.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crate::engine::{EngineConfig, EngineError};

/// Lines of stderr kept for error reports.
const STDERR_TAIL: usize = 6;

/// A line the engine wrote and when it arrived.
#[derive(Clone, Debug)]
pub struct Line {
    /// The text, without the line ending.
    pub text: String,
    /// Arrival time.
    pub at: Instant,
}

/// Why no line came.
#[derive(Clone, Debug)]
pub enum RecvError {
    /// The deadline passed.
    Timeout,
    /// The engine closed its output (it exited or crashed).
    Closed,
}

/// A running engine process.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Line>,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
    label: String,
    debug: bool,
}

impl EngineProcess {
    /// Starts the engine's command.
    pub fn spawn(config: &EngineConfig, label: &str) -> Result<EngineProcess, EngineError> {
        let (program, args) = config
            .command
            .split_first()
            .ok_or_else(|| EngineError::Start("empty command".to_string()))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| EngineError::Start(format!("{program}: {e}")))?;
        let stdin = child.stdin.take();
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| EngineError::Start("no stdout".to_string()))?;
        let stderr = child.stderr.take();

        let (sender, lines) = mpsc::channel();
        let debug = config.debug;
        let name = label.to_string();
        thread::Builder::new()
            .name(format!("{label} stdout"))
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buffer = Vec::new();
                loop {
                    buffer.clear();
                    match reader.read_until(b'\n', &mut buffer) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let at = Instant::now();
                            let text = String::from_utf8_lossy(&buffer)
                                .trim_end_matches(['\n', '\r'])
                                .to_string();
                            if debug {
                                eprintln!("{name} > {text}");
                            }
                            if sender.send(Line { text, at }).is_err() {
                                break;
                            }
                        }
                    }
                }
            })
            .map_err(|e| EngineError::Start(format!("reader thread: {e}")))?;

        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        if let Some(stderr) = stderr {
            let tail = Arc::clone(&stderr_tail);
            let name = label.to_string();
            let _ = thread::Builder::new()
                .name(format!("{label} stderr"))
                .spawn(move || keep_tail(stderr, &tail, debug, &name));
        }

        Ok(EngineProcess {
            child,
            stdin,
            lines,
            stderr_tail,
            label: label.to_string(),
            debug,
        })
    }

    /// Sends one line (the newline is added).
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        if self.debug {
            eprintln!("{} < {line}", self.label);
        }
        let result = match self.stdin.as_mut() {
            Some(stdin) => stdin
                .write_all(line.as_bytes())
                .and_then(|()| stdin.write_all(b"\n"))
                .and_then(|()| stdin.flush()),
            None => Err(std::io::Error::other("stdin closed")),
        };
        result.map_err(|e| EngineError::Crashed(self.describe_exit(&format!("write failed: {e}"))))
    }

    /// The next line, waiting until `deadline` at most.
    pub fn recv(&mut self, deadline: Instant) -> Result<Line, RecvError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(RecvError::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(RecvError::Closed),
        }
    }

    /// Whether the process has exited.
    pub fn has_exited(&mut self) -> bool {
        !matches!(self.child.try_wait(), Ok(None))
    }

    /// A description of how the engine went away: its exit status (waiting briefly
    /// for it) and the last lines of its stderr. `context` says what was seen.
    pub fn describe_exit(&mut self, context: &str) -> String {
        let deadline = Instant::now() + Duration::from_millis(500);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(10)),
                _ => break None,
            }
        };
        // Let the stderr thread catch the last words.
        thread::sleep(Duration::from_millis(20));
        let mut text = match status {
            Some(status) => format!("{context}, {status}"),
            None => context.to_string(),
        };
        let tail = self
            .stderr_tail
            .lock()
            .map(|t| t.iter().cloned().collect::<Vec<_>>())
            .unwrap_or_default();
        if !tail.is_empty() {
            text.push_str("; stderr: ");
            text.push_str(&tail.join(" | "));
        }
        text
    }

    /// Closes stdin, gives the process `grace` to exit, then kills it.
    pub fn shutdown(&mut self, grace: Duration) {
        self.stdin = None;
        let deadline = Instant::now() + grace;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }

    /// Kills the process now.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            self.kill();
        }
    }
}

fn keep_tail(stderr: impl Read, tail: &Mutex<VecDeque<String>>, debug: bool, name: &str) {
    let mut reader = BufReader::new(stderr);
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        match reader.read_until(b'\n', &mut buffer) {
            Ok(0) | Err(_) => return,
            Ok(_) => {
                let text = String::from_utf8_lossy(&buffer).trim_end().to_string();
                if debug {
                    eprintln!("{name} ! {text}");
                }
                if text.is_empty() {
                    continue;
                }
                if let Ok(mut tail) = tail.lock() {
                    if tail.len() == STDERR_TAIL {
                        tail.pop_front();
                    }
                    tail.push_back(text);
                }
            }
        }
    }
}
