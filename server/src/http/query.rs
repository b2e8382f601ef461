//! Query strings of the read routes: one error for a query that does not parse, checks of the
//! integers the document declares `int64`, and pages (`limit`, `offset`; `next_offset` in the
//! answer).

use axum::extract::Query;
use axum::extract::rejection::QueryRejection;
use serde::Deserialize;

use super::error::ApiError;

/// Most entries one page holds.
pub const MAX_LIMIT: u64 = 1000;

/// The parsed query, or a 422 `invalid_query` that says what is wrong with it.
pub fn parsed<T>(query: Result<Query<T>, QueryRejection>) -> Result<T, ApiError> {
    query.map(|Query(q)| q).map_err(|rejection| invalid(rejection.body_text()))
}

/// A 422 `invalid_query`.
pub fn invalid(detail: impl std::fmt::Display) -> ApiError {
    ApiError::invalid("invalid_query", format!("invalid query: {detail}"))
}

/// Refuses a query integer the document's `int64` cannot hold.
pub fn int64(name: &str, value: Option<u64>) -> Result<Option<u64>, ApiError> {
    match value {
        Some(n) if i64::try_from(n).is_err() => Err(invalid(format!("`{name}` must be at most {}", i64::MAX))),
        other => Ok(other),
    }
}

/// A page's `limit`: 1 to [`MAX_LIMIT`], 100 when absent.
pub fn limit(limit: Option<u64>) -> Result<i64, ApiError> {
    match limit {
        None => Ok(100),
        Some(n) if (1..=MAX_LIMIT).contains(&n) => Ok(i64::try_from(n).unwrap_or(100)),
        Some(n) => Err(invalid(format!("`limit` must be from 1 to {MAX_LIMIT}, got {n}"))),
    }
}

/// A page of a list.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct Page {
    /// Most entries to return (1 to 1000, default 100).
    #[param(minimum = 1, maximum = 1000)]
    pub limit: Option<u64>,
    /// Entries to skip.
    pub offset: Option<u64>,
}

impl Page {
    /// The rows to read (one more than the page holds, to learn whether another follows) and
    /// the rows to skip.
    pub fn bounds(&self) -> Result<(i64, i64), ApiError> {
        let offset = int64("offset", self.offset)?.unwrap_or(0);
        Ok((limit(self.limit)? + 1, i64::try_from(offset).unwrap_or(i64::MAX)))
    }

    /// The page of `rows` (read with [`Page::bounds`]) and the `offset` of the next page, absent
    /// on the last.
    pub fn cut<T>(&self, mut rows: Vec<T>) -> (Vec<T>, Option<u64>) {
        let size = usize::try_from(limit(self.limit).unwrap_or(100)).unwrap_or(usize::MAX);
        let more = rows.len() > size;
        rows.truncate(size);
        let next = more.then(|| self.offset.unwrap_or(0) + rows.len() as u64);
        (rows, next)
    }
}
