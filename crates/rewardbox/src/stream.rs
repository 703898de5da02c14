//! Scoring a stream of task lines: JSONL in, JSONL out, in order, in bounded memory
//! ([`score_stream`]), or spread over worker processes that each hold a scorer
//! ([`score_stream_in_workers`], with [`serve_worker`] on the worker's side).

pub use crate::jsonl::{DEFAULT_CHUNK_LINES, Summary, rate_text, score_stream};
pub use crate::workers::{WorkerCommand, score_stream_in_workers, serve_worker};
