//! `wuzi-tournament`: round-robin runner for pbrain engines.
fn main() {}
