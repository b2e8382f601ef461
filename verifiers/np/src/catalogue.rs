//! The registry of tasks (`tasks::ALL`) and the public environment API over it: listing,
//! generation, and the lookup by task id that scoring goes through.

use std::sync::OnceLock;

use crate::api::{GeneratedInstance, InstancesRequest, InstancesResponse, MAX_COUNT, NpError, TaskInfo};
use crate::environment::Environment;
use crate::tasks;

/// The one explicit list of environments, in catalogue order.
pub(crate) fn environments() -> &'static [&'static dyn Environment] {
    tasks::ALL
}

pub(crate) fn find(task: &str) -> Result<&'static dyn Environment, NpError> {
    environments().iter().copied().find(|e| e.name() == task).ok_or_else(|| NpError::UnknownTask(task.to_owned()))
}

/// Every task with its levels and answer format: the body of `GET /v1/environments`.
pub fn catalogue() -> &'static [TaskInfo] {
    static INFOS: OnceLock<Vec<TaskInfo>> = OnceLock::new();
    INFOS.get_or_init(|| environments().iter().map(|e| e.info()).collect())
}

/// Generates one instance of `task` at `level` from `seed`, with prompt and reference.
///
/// The result depends on (task, level, seed) and the task's generator version only.
pub fn generate(task: &str, level: u8, seed: u64) -> Result<GeneratedInstance, NpError> {
    find(task)?.generate(level, seed)
}

/// Generates `count` instances with seeds `seed, seed + 1, ...`: the body of
/// `POST /v1/environments/{task}/instances`.
pub fn generate_instances(task: &str, request: &InstancesRequest) -> Result<InstancesResponse, NpError> {
    if request.count == 0 || request.count > MAX_COUNT {
        return Err(NpError::BadCount { count: request.count, max: MAX_COUNT });
    }
    let env = find(task)?;
    let instances = (0..u64::from(request.count))
        .map(|i| env.generate(request.level, request.seed.wrapping_add(i)))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(InstancesResponse { task: task.to_owned(), instances })
}
