//! Routes that speak a trainer's own protocol. Each is held until there is room rather than
//! shed, since trainers retry blindly or drop the reward (see [`crate::http`]'s trainer routes).

pub mod openrlhf;
pub mod sandbox_fusion;
pub mod settings;

use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::http::AppState;

/// The trainer-facing routes.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(openrlhf::get_reward)).routes(routes!(sandbox_fusion::run_code))
}
