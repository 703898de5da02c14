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
//! it.

use crate::job::JobState;
use crate::pipe::PipeEnd;
use std::os::unix::fs::MetadataExt;
use wasmtime::component::{Linker, Resource};
use wasmtime_wasi::filesystem::{Descriptor, WasiFilesystemView};
use wasmtime_wasi::p2::bindings::sync::filesystem::types::{self as fs, HostDescriptor};
use wasmtime_wasi::p2::{DynInputStream, DynOutputStream};

/// Where a job's channel files are ([`Channel`]).
pub const CHANNEL_DIR: &str = "/fifo";

/// The filesystem interface whose stream functions are defined again (the version wasmtime-wasi
/// links; the adapter's imports of older 0.2 versions resolve to it).
const FILESYSTEM_TYPES: &str = "wasi:filesystem/types@0.2.12";

/// One pipe to another job, seen by this job as two files under [`CHANNEL_DIR`]: one it reads
/// (what the peer writes to its stdout) and one it writes (what the peer reads on its stdin).
#[derive(Clone, Copy)]
pub struct Channel<'a> {
    /// The file name this job reads from, e.g. `u0_to_m`.
    pub reads: &'a str,
    /// The file name this job writes to, e.g. `m_to_u0`.
    pub writes: &'a str,
    /// This job's end of the pipe; the peer job has the other as its [`crate::job::JobIo::pipe`].
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

impl<X> JobState<X> {
    /// The channel whose placeholder `fd` is open on, read (`reads`) or written, if any.
    fn channel_of(&mut self, fd: &Resource<Descriptor>, reads: bool) -> Option<PipeEnd> {
        let files = &self.channels.as_ref()?.files;
        let Ok(Descriptor::File(file)) = self.table.get(fd) else {
            return None;
        };
        let meta = file.file.metadata().ok()?;
        files
            .iter()
            .find(|c| c.dev == meta.dev() && c.ino == meta.ino() && c.reads == reads)
            .map(|c| c.end.clone())
    }
}

/// Defines the stream functions of `wasi:filesystem/types` again, in front of wasmtime-wasi's
/// (which must be linked already): a channel's placeholder reads and writes its pipe.
pub fn link_channels<X: Send + 'static>(linker: &mut Linker<JobState<X>>) -> wasmtime::Result<()> {
    linker.allow_shadowing(true);
    let mut types = linker.instance(FILESYSTEM_TYPES)?;
    types.func_wrap(
        "[method]descriptor.read-via-stream",
        |mut store, (fd, offset): (Resource<Descriptor>, u64)| {
            let state: &mut JobState<X> = store.data_mut();
            if let Some(end) = state.channel_of(&fd, true) {
                let stream: DynInputStream = Box::new(end.stdin());
                return Ok((Ok(state.table().push(stream)?),));
            }
            let mut view = state.filesystem();
            Ok((
                match HostDescriptor::read_via_stream(&mut view, fd, offset) {
                    Ok(stream) => Ok(stream),
                    Err(e) => Err(fs::Host::convert_error_code(&mut view, e)?),
                },
            ))
        },
    )?;
    types.func_wrap(
        "[method]descriptor.write-via-stream",
        |mut store, (fd, offset): (Resource<Descriptor>, u64)| {
            let state: &mut JobState<X> = store.data_mut();
            if let Some(stream) = state.channel_writer(&fd) {
                return Ok((Ok(state.table().push(stream)?),));
            }
            let mut view = state.filesystem();
            Ok((
                match HostDescriptor::write_via_stream(&mut view, fd, offset) {
                    Ok(stream) => Ok(stream),
                    Err(e) => Err(fs::Host::convert_error_code(&mut view, e)?),
                },
            ))
        },
    )?;
    types.func_wrap(
        "[method]descriptor.append-via-stream",
        |mut store, (fd,): (Resource<Descriptor>,)| {
            let state: &mut JobState<X> = store.data_mut();
            if let Some(stream) = state.channel_writer(&fd) {
                return Ok((Ok(state.table().push(stream)?),));
            }
            let mut view = state.filesystem();
            Ok((match HostDescriptor::append_via_stream(&mut view, fd) {
                Ok(stream) => Ok(stream),
                Err(e) => Err(fs::Host::convert_error_code(&mut view, e)?),
            },))
        },
    )?;
    linker.allow_shadowing(false);
    Ok(())
}

impl<X> JobState<X> {
    /// The writing stream of the channel whose placeholder `fd` is open on, if any (drawing on
    /// the job's output budget).
    fn channel_writer(&mut self, fd: &Resource<Descriptor>) -> Option<DynOutputStream> {
        let end = self.channel_of(fd, false)?;
        Some(Box::new(end.stdout(&self.budget)))
    }
}
