use std::time::Duration;

use wasmtime::ResourceLimiter;

/// Elements a guest table may grow to. Tables are small; this only stops a guest from growing one
/// without bound. It also sizes a pooled table slot (address space, 8 bytes an element).
pub(crate) const MAX_TABLE_ELEMENTS: usize = 1 << 20;

/// What one run may spend.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Deterministic CPU budget in wasm fuel units (about 10^10 per second of guest CPU).
    pub fuel: u64,
    /// Wall-clock backstop; also stops a guest blocked in a host call.
    pub wall_time: Duration,
    /// Cap on the guest's linear memory, in bytes.
    pub memory_bytes: usize,
    /// Cap on captured standard output, in bytes.
    pub stdout_bytes: usize,
    /// Cap on captured standard error, in bytes.
    pub stderr_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            fuel: 20_000_000_000,
            wall_time: Duration::from_secs(10),
            memory_bytes: 512 << 20,
            stdout_bytes: 32 << 20,
            stderr_bytes: 1 << 20,
        }
    }
}

/// Caps linear memory and table growth; remembers the peak and whether a growth was refused.
#[derive(Debug)]
pub(crate) struct MemoryLimiter {
    cap: usize,
    pub(crate) peak: usize,
    pub(crate) refused: bool,
}

impl MemoryLimiter {
    pub(crate) fn new(cap: usize) -> Self {
        MemoryLimiter { cap, peak: 0, refused: false }
    }
}

impl ResourceLimiter for MemoryLimiter {
    fn memory_growing(&mut self, _current: usize, desired: usize, _maximum: Option<usize>) -> wasmtime::Result<bool> {
        if desired > self.cap {
            self.refused = true;
            return Ok(false);
        }
        self.peak = self.peak.max(desired);
        Ok(true)
    }

    fn table_growing(&mut self, _current: usize, desired: usize, _maximum: Option<usize>) -> wasmtime::Result<bool> {
        if desired > MAX_TABLE_ELEMENTS {
            self.refused = true;
            return Ok(false);
        }
        Ok(true)
    }
}
