//! What the server holds for one of DeepGym's sessions (in its state's table).

use rewardbox_envs::{Episode, SessionSlot};

/// A DeepGym session: its episode, the actions it allows, and its place among the sessions.
pub struct DeepGymSession {
    /// The episode (its workspace, steps and verifiers).
    pub episode: Episode,
    /// The action types the environment allows.
    pub allowed: Vec<String>,
    _slot: SessionSlot,
}

impl DeepGymSession {
    /// A session of `episode`, allowing `allowed`, holding `slot` for its life.
    pub fn new(episode: Episode, allowed: Vec<String>, slot: SessionSlot) -> DeepGymSession {
        DeepGymSession {
            episode,
            allowed,
            _slot: slot,
        }
    }
}
