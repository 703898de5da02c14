//! Named pipes for a trusted program that talks to several jobs at once: a CMS communication
//! task's manager, or the grader of a task whose contestant implements functions, opens the
//! files `/fifo/u0_to_m` and `/fifo/m_to_u0` as CMS's manager opens its FIFOs, and reads what
//! job 0 writes to its stdout, and writes what job 0 reads on its stdin.
//!
//! WASI has no FIFOs (a file is read at an offset), so each channel is an empty placeholder file
//! in a directory made for the job, and the two filesystem functions that turn an open file into
//! a stream (`read-via-stream`, `write-via-stream`, with `append-via-stream`) are defined again in
//! front of wasmtime-wasi's: a descriptor whose file is one of the job's placeholders (the same
//! device and inode) becomes that channel's pipe; every other descriptor goes on to wasmtime-wasi
//! unchanged. A job with no channels (every candidate) has no placeholder, so nothing changes for
//! it. The functions are linked by [`crate::job::link_channels`].

use crate::pipe::PipeEnd;
use std::os::unix::fs::MetadataExt;

/// Where a job's channel files are ([`Channel`]).
pub const CHANNEL_DIR: &str = "/fifo";

/// One pipe to another job, seen by this job as two files under [`CHANNEL_DIR`]: one it reads
/// (what the peer writes to its stdout) and one it writes (what the peer reads on its stdin).
#[derive(Clone, Copy)]
pub struct Channel<'a> {
    /// The file name this job reads from, e.g. `u0_to_m`.
    pub reads: &'a str,
    /// The file name this job writes to, e.g. `m_to_u0`.
    pub writes: &'a str,
    /// This job's end of the pipe; the peer job has the other as its `JobIo::pipe`.
    pub end: &'a PipeEnd,
}

/// A placeholder file of a channel, known by its device and inode.
pub(crate) struct ChannelFile {
    dev: u64,
    ino: u64,
    pub(crate) end: PipeEnd,
    pub(crate) reads: bool,
}

/// The directory of a job's channel files, kept for the job's length.
pub(crate) struct ChannelDir {
    pub(crate) dir: tempfile::TempDir,
    pub(crate) files: Vec<ChannelFile>,
}

/// Makes the placeholder files of `channels` in a directory of their own.
pub(crate) fn make(channels: &[Channel<'_>]) -> Result<ChannelDir, String> {
    let dir = tempfile::Builder::new()
        .prefix("rewardbox-fifo-")
        .tempdir()
        .map_err(|e| format!("making a job's channel directory: {e}"))?;
    let mut files = Vec::new();
    for channel in channels {
        for (name, reads) in [(channel.reads, true), (channel.writes, false)] {
            if name.is_empty() || name.contains('/') || name.starts_with('.') {
                return Err(format!("a channel file name {name:?} is not a plain name"));
            }
            let path = dir.path().join(name);
            std::fs::write(&path, b"")
                .map_err(|e| format!("making the channel file {name}: {e}"))?;
            let meta = std::fs::metadata(&path)
                .map_err(|e| format!("reading the channel file {name}: {e}"))?;
            files.push(ChannelFile {
                dev: meta.dev(),
                ino: meta.ino(),
                end: channel.end.clone(),
                reads,
            });
        }
    }
    Ok(ChannelDir { dir, files })
}

impl ChannelDir {
    /// The pipe of the placeholder with device `dev` and inode `ino`, read (`reads`) or
    /// written, if it is one of this directory's.
    pub(crate) fn pipe(&self, dev: u64, ino: u64, reads: bool) -> Option<PipeEnd> {
        self.files
            .iter()
            .find(|c| c.dev == dev && c.ino == ino && c.reads == reads)
            .map(|c| c.end.clone())
    }
}
