//! What the load test reads from `/proc`: a process's memory, the CPU time of
//! each of its threads (grouped by thread name), and the whole machine's.

use std::collections::HashMap;
use std::path::Path;
use std::time::Duration;

/// Clock ticks per second in `/proc/*/stat` (`USER_HZ`, 100 on Linux).
const TICKS_PER_SEC: f64 = 100.0;

/// A `kB` field (`VmRSS`, `VmHWM`, ...) of the `status` file of a `/proc/<pid>`
/// directory.
pub(super) fn proc_status_kib(proc_dir: &Path, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(proc_dir.join("status")).ok()?;
    status.lines().find_map(|line| {
        let value = line.strip_prefix(field)?.strip_prefix(':')?;
        value.trim().strip_suffix("kB")?.trim().parse().ok()
    })
}

/// CPU time (user + system, clock ticks) of each thread of a process, by thread id,
/// with the thread's name.
fn thread_cpu_ticks(proc_dir: &Path) -> HashMap<u64, (String, u64)> {
    let mut out = HashMap::new();
    let Ok(tasks) = std::fs::read_dir(proc_dir.join("task")) else {
        return out;
    };
    for task in tasks.flatten() {
        let Some(tid) = task.file_name().to_str().and_then(|s| s.parse().ok()) else {
            continue;
        };
        let path = task.path();
        let name = std::fs::read_to_string(path.join("comm")).unwrap_or_default();
        let Ok(stat) = std::fs::read_to_string(path.join("stat")) else {
            continue;
        };
        // Fields after the parenthesised name: state is field 3, utime 14, stime 15.
        let Some((_, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<u64>().ok());
        if let (Some(user), Some(system)) = (ticks(11), ticks(12)) {
            out.insert(tid, (name.trim().to_string(), user + system));
        }
    }
    out
}

/// Busy CPU time of the whole machine (all cores, all processes), clock ticks,
/// from the first line of `/proc/stat` (everything but idle and iowait).
fn machine_busy_ticks() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let line = stat.lines().next()?.strip_prefix("cpu ")?;
    let ticks: Vec<u64> = line
        .split_whitespace()
        .filter_map(|f| f.parse().ok())
        .collect();
    // user nice system idle iowait irq softirq steal (guest time is already in user).
    let total: u64 = ticks.iter().take(8).sum();
    Some(total - ticks.get(3)? - ticks.get(4)?)
}

/// The CPU counters of this process's threads, of the server's if it is another
/// process, and of the whole machine.
pub(super) struct ProcessCpu {
    own: HashMap<u64, (String, u64)>,
    server: Option<HashMap<u64, (String, u64)>>,
    machine: Option<u64>,
}

impl ProcessCpu {
    pub(super) fn now(server_proc: Option<&Path>) -> ProcessCpu {
        ProcessCpu {
            own: thread_cpu_ticks(Path::new("/proc/self")),
            server: server_proc
                .filter(|dir| *dir != Path::new("/proc/self"))
                .map(thread_cpu_ticks),
            machine: machine_busy_ticks(),
        }
    }
}

/// CPU seconds used during the play by each group of threads.
pub(super) struct CpuUse {
    /// The server's threads other than SQLite's (in-process: named `lt-server`).
    pub server: f64,
    /// sqlx's SQLite worker threads (one per pooled connection).
    pub sqlite: f64,
    /// The load generator's threads (`lt-client`).
    pub client: f64,
    /// Threads of neither group.
    pub other: f64,
    /// Busy time of the whole machine, if known: more than the groups above means
    /// that other processes competed for the cores (and the figures are noisy).
    pub machine: Option<f64>,
    /// Whether the server's threads were seen at all (in-process or `--server-pid`).
    pub server_known: bool,
    /// Cores × wall time: what was available.
    pub available: f64,
}

impl CpuUse {
    pub(super) fn between(
        before: &ProcessCpu,
        after: &ProcessCpu,
        wall: Duration,
    ) -> Option<CpuUse> {
        let mut cpu = CpuUse {
            server: 0.0,
            sqlite: 0.0,
            client: 0.0,
            other: 0.0,
            machine: match (before.machine, after.machine) {
                (Some(b), Some(a)) => Some(a.saturating_sub(b) as f64 / TICKS_PER_SEC),
                _ => None,
            },
            server_known: false,
            available: wall.as_secs_f64()
                * std::thread::available_parallelism().map_or(1, |n| n.get()) as f64,
        };
        let used = |before: &HashMap<u64, (String, u64)>, tid: &u64, ticks: u64| {
            ticks.saturating_sub(before.get(tid).map_or(0, |(_, t)| *t)) as f64 / TICKS_PER_SEC
        };
        for (tid, (name, ticks)) in &after.own {
            let group = if name.starts_with("lt-server") {
                cpu.server_known = true;
                &mut cpu.server
            } else if name.starts_with("sqlx-sqlite") {
                &mut cpu.sqlite
            } else if name.starts_with("lt-client") {
                &mut cpu.client
            } else {
                &mut cpu.other
            };
            *group += used(&before.own, tid, *ticks);
        }
        if let (Some(before), Some(after)) = (&before.server, &after.server) {
            cpu.server_known = true;
            for (tid, (name, ticks)) in after {
                let group = if name.starts_with("sqlx-sqlite") {
                    &mut cpu.sqlite
                } else {
                    &mut cpu.server
                };
                *group += used(before, tid, *ticks);
            }
        }
        Some(cpu)
    }
}
