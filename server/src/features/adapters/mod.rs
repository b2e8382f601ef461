//! Routes that speak a trainer's own protocol. Each is held until there is room rather than
//! shed, since trainers retry blindly or drop the reward (see [`crate::http`]'s trainer routes).

pub mod openrlhf;
