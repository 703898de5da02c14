//! The protocols the server speaks, one module each, named by protocol: rewardbox's own scoring
//! (`/score`), SandboxFusion's `/run_code`, OpenRLHF's remote reward (`/get_reward`), CodeGym's
//! environment server, OpenEnv's environments, NeMo Gym's resources server and DeepGym's HTTP API.

pub mod codegym;
pub mod deepgym;
pub mod nemo_gym;
pub mod openenv;
pub mod openrlhf;
pub mod sandbox_fusion;
pub mod score;
