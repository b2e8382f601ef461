//! Handles that features attach to the application state, looked up by their type: the HTTP
//! layer carries them without knowing any feature, and a feature's handlers find their own.

use std::sync::{Arc, PoisonError, RwLock};

use axum::http::Extensions;

/// A map from type to one handle of that type, shared by every clone of the state, so a handle
/// attached once the database is open is seen by requests already routed.
#[derive(Debug, Clone, Default)]
pub struct Attached(Arc<RwLock<Extensions>>);

impl Attached {
    /// Attaches `handle`, replacing one of the same type.
    pub fn attach<T: Clone + Send + Sync + 'static>(&self, handle: T) {
        self.0.write().unwrap_or_else(PoisonError::into_inner).insert(handle);
    }

    /// The handle of type `T`, once attached.
    pub fn get<T: Clone + Send + Sync + 'static>(&self) -> Option<T> {
        self.0.read().unwrap_or_else(PoisonError::into_inner).get::<T>().cloned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_are_found_by_type_in_every_clone() {
        let attached = Attached::default();
        let clone = attached.clone();
        assert_eq!(clone.get::<Arc<String>>(), None);
        attached.attach(Arc::new("jobs".to_owned()));
        attached.attach(7_u32);
        assert_eq!(clone.get::<Arc<String>>().as_deref().map(String::as_str), Some("jobs"));
        assert_eq!(clone.get::<u32>(), Some(7));
        assert_eq!(clone.get::<u64>(), None);
    }
}
