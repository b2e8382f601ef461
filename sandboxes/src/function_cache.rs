//! Cranelift's incremental compilation cache, kept in memory for one engine.
//!
//! Programs of one language share most of their functions: a Go test binary is the Go runtime,
//! `testing` and testify with a few functions of the submission; a C++ program carries the same
//! libc++ templates; a Rust test harness the same standard library. Cranelift keys each function
//! it compiles by the function's body and the compile settings, and with this store it reuses the
//! machine code of a function it compiled before instead of compiling it again. What a module
//! compiles to does not depend on the cache: a reused function is the code compiling it gives.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use wasmtime::CacheStore;

/// Bytes of compiled functions a store keeps (keys and values): a Go test binary's functions take
/// about 18 MiB, a Rust test harness's and a C++ program's a few more, and the Python runtime's
/// (compiled once, when its artefact is made) 34 MiB.
pub(crate) const FUNCTION_CACHE_BYTES: usize = 128 << 20;

/// Compiled functions by their key, in two generations: lookups that hit the older generation
/// move the entry to the newer one, and when the newer one holds half the byte bound it becomes
/// the older one and the older one is dropped. The functions in use stay; the others age out
/// without a per-entry clock.
#[derive(Debug)]
pub(crate) struct FunctionCache {
    generations: Mutex<Generations>,
    max_bytes: usize,
    /// Functions found in the cache.
    hits: AtomicU64,
}

#[derive(Debug, Default)]
struct Generations {
    young: HashMap<Vec<u8>, Arc<[u8]>>,
    young_bytes: usize,
    old: HashMap<Vec<u8>, Arc<[u8]>>,
}

impl FunctionCache {
    pub(crate) fn new(max_bytes: usize) -> FunctionCache {
        FunctionCache { generations: Mutex::default(), max_bytes, hits: AtomicU64::new(0) }
    }

    /// How many functions were found in the cache.
    #[cfg(test)]
    pub(crate) fn hits(&self) -> u64 {
        self.hits.load(Ordering::Relaxed)
    }

    fn keep(generations: &mut Generations, key: Vec<u8>, value: Arc<[u8]>, max_bytes: usize) {
        let bytes = key.len() + value.len();
        if generations.young_bytes + bytes > max_bytes / 2 {
            generations.old = std::mem::take(&mut generations.young);
            generations.young_bytes = 0;
        }
        generations.young_bytes += bytes;
        generations.young.insert(key, value);
    }

    #[cfg(test)]
    fn bytes(&self) -> usize {
        self.generations
            .lock()
            .map_or(0, |g| g.young.iter().chain(&g.old).map(|(key, value)| key.len() + value.len()).sum())
    }
}

impl CacheStore for FunctionCache {
    fn get(&self, key: &[u8]) -> Option<Cow<'_, [u8]>> {
        let mut generations = self.generations.lock().ok()?;
        if let Some(value) = generations.young.get(key) {
            self.hits.fetch_add(1, Ordering::Relaxed);
            return Some(Cow::Owned(value.to_vec()));
        }
        let value = generations.old.remove(key)?;
        self.hits.fetch_add(1, Ordering::Relaxed);
        let found = value.to_vec();
        FunctionCache::keep(&mut generations, key.to_vec(), value, self.max_bytes);
        Some(Cow::Owned(found))
    }

    fn insert(&self, key: &[u8], value: Vec<u8>) -> bool {
        if key.len() + value.len() > self.max_bytes / 2 {
            return false;
        }
        let Ok(mut generations) = self.generations.lock() else { return false };
        FunctionCache::keep(&mut generations, key.to_vec(), value.into(), self.max_bytes);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_in_use_stay_and_the_rest_age_out_within_the_bound() {
        // Keys of 1 byte and values of 9: 10 bytes an entry, 5 entries a generation.
        let cache = FunctionCache::new(100);
        for key in 0..5u8 {
            assert!(cache.insert(&[key], vec![key; 9]));
        }
        // The sixth entry starts a new generation; 0 is used and moves into it.
        assert!(cache.insert(&[5], vec![5; 9]));
        assert_eq!(cache.get(&[0]).as_deref(), Some(&[0; 9][..]));
        for key in 6..9u8 {
            assert!(cache.insert(&[key], vec![key; 9]));
        }
        // The generation of 5, 0, 6, 7 and 8 is full: 9 starts the next, and 1 to 4 are gone.
        assert!(cache.insert(&[9], vec![9; 9]));
        for gone in 1..5u8 {
            assert!(cache.get(&[gone]).is_none(), "{gone}");
        }
        for kept in [0u8, 5, 6, 7, 8, 9] {
            assert_eq!(cache.get(&[kept]).as_deref(), Some(&[kept; 9][..]), "{kept}");
        }
        assert!(cache.bytes() <= 100);
        // An entry larger than a generation is refused.
        assert!(!cache.insert(&[10], vec![0; 60]));
        assert!(cache.get(&[10]).is_none());
    }
}
