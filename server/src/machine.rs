//! What the machine gives this process: cores, memory and open files, read once, so that the
//! default limits match the machine the server runs on (a container's limits included).

use std::num::NonZeroUsize;

/// Memory assumed when neither the cgroup nor `/proc/meminfo` says.
const FALLBACK_MEMORY_BYTES: u64 = 4 << 30;

/// Cores and memory available to this process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Machine {
    /// `std::thread::available_parallelism`: CPU affinity and cgroup CPU quotas included.
    pub cores: usize,
    /// The smaller of the cgroup memory limit (v2 `memory.max`, or v1) and physical memory.
    pub memory_bytes: u64,
}

impl Machine {
    /// Reads the machine once per process.
    pub fn detect() -> Machine {
        static MACHINE: std::sync::OnceLock<Machine> = std::sync::OnceLock::new();
        *MACHINE.get_or_init(|| Machine {
            cores: std::thread::available_parallelism().map_or(1, NonZeroUsize::get),
            memory_bytes: [cgroup_memory_limit(), physical_memory()]
                .into_iter()
                .flatten()
                .min()
                .unwrap_or(FALLBACK_MEMORY_BYTES),
        })
    }

    /// The default budget of request bodies held at once: 1/32 of memory, at least 64 MiB and
    /// at most 128 MiB per core (and 1 GiB). Bodies wait for a request slot while they are
    /// held, and a parsed batch takes a few times its body's size, so the budget follows both
    /// the memory and how fast the cores can work through what is held.
    pub fn default_body_budget(&self, floor: usize) -> usize {
        let ceiling = (128u64 << 20).saturating_mul(self.cores as u64).min(1 << 30);
        let share = (self.memory_bytes / 32).clamp(64 << 20, ceiling.max(64 << 20));
        usize::try_from(share).unwrap_or(1 << 30).max(floor)
    }
}

fn cgroup_memory_limit() -> Option<u64> {
    // cgroup v2 says `max` for no limit; v1 says a number near u64::MAX, which physical memory
    // then undercuts.
    ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"]
        .iter()
        .find_map(|path| std::fs::read_to_string(path).ok()?.trim().parse().ok())
}

fn physical_memory() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = meminfo.lines().find(|line| line.starts_with("MemTotal:"))?;
    let kib: u64 = line.trim_start_matches("MemTotal:").trim().trim_end_matches("kB").trim().parse().ok()?;
    kib.checked_mul(1024)
}

/// Raises the soft open-files limit to the hard one and returns how many connections fit under
/// it, keeping room for the database pool, runtimes and logs; `wanted` when the limit allows.
pub fn connections_allowed(wanted: usize) -> usize {
    /// Descriptors kept for everything but client connections.
    const RESERVED: u64 = 256;
    #[cfg(target_os = "linux")]
    {
        use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};
        let limit = getrlimit(Resource::Nofile);
        let mut soft = limit.current;
        if limit.current < limit.maximum {
            let raised = Rlimit { current: limit.maximum, maximum: limit.maximum };
            if setrlimit(Resource::Nofile, raised).is_ok() {
                soft = limit.maximum;
            }
        }
        match soft {
            Some(soft) => {
                let room = usize::try_from(soft.saturating_sub(RESERVED)).unwrap_or(usize::MAX).max(1);
                if room < wanted {
                    tracing::warn!(
                        open_files_limit = soft,
                        wanted,
                        using = room,
                        "the open-files limit allows fewer connections than server.max_connections"
                    );
                }
                wanted.min(room)
            }
            None => wanted,
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        wanted
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_machine_has_cores_and_memory() {
        let machine = Machine::detect();
        assert!(machine.cores >= 1);
        assert!(machine.memory_bytes >= 64 << 20, "{machine:?}");
    }

    #[test]
    fn the_body_budget_follows_memory_within_bounds() {
        let with = |cores: usize, gib: u64| Machine { cores, memory_bytes: gib << 30 }.default_body_budget(64 << 20);
        assert_eq!(with(2, 1), 64 << 20);
        assert_eq!(with(2, 4), 128 << 20);
        assert_eq!(with(2, 24), 256 << 20);
        assert_eq!(with(16, 24), 768 << 20);
        assert_eq!(with(64, 256), 1 << 30);
        assert_eq!(Machine { cores: 2, memory_bytes: 1 << 30 }.default_body_budget(100 << 20), 100 << 20);
    }
}
