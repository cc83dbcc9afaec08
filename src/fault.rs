//! A disk that fills, for tests: what a full disk does to the files shinpan writes its results
//! to (an arena's logs, `trace --cases-out`'s case files and manifest) reproduced without one.
//!
//! With `SHINPAN_TEST_DISK_FULL_AFTER=N` in its environment, the process may write N bytes in
//! all through [`Disk`] writers; past them every write fails with `ENOSPC` ("No space left on
//! device"), and a write that crosses the mark writes the bytes that fit first, as a disk does.
//! Without it (always, outside tests) a [`Disk`] writes what it is given.

use std::io::{self, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// The variable that sets the bytes the process may write.
pub const DISK_FULL_AFTER: &str = "SHINPAN_TEST_DISK_FULL_AFTER";

/// The bytes left to write, when the variable is set.
fn room() -> Option<&'static AtomicU64> {
    static ROOM: OnceLock<Option<AtomicU64>> = OnceLock::new();
    ROOM.get_or_init(|| {
        std::env::var(DISK_FULL_AFTER)
            .ok()
            .and_then(|n| n.trim().parse().ok())
            .map(AtomicU64::new)
    })
    .as_ref()
}

/// Takes room for up to `wanted` bytes: how many may be written.
fn take(wanted: usize) -> usize {
    let Some(room) = room() else {
        return wanted;
    };
    let mut taken = 0;
    let _ = room.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |left| {
        taken = left.min(wanted as u64);
        Some(left - taken)
    });
    taken as usize
}

/// Gives back room taken and not written.
fn give_back(bytes: usize) {
    if let Some(room) = room() {
        room.fetch_add(bytes as u64, Ordering::SeqCst);
    }
}

/// A writer on a disk that may fill ([`DISK_FULL_AFTER`]).
#[derive(Debug)]
pub struct Disk<W> {
    inner: W,
}

impl<W> Disk<W> {
    pub fn new(inner: W) -> Disk<W> {
        Disk { inner }
    }

    pub fn get_ref(&self) -> &W {
        &self.inner
    }

    pub fn get_mut(&mut self) -> &mut W {
        &mut self.inner
    }

    pub fn into_inner(self) -> W {
        self.inner
    }
}

impl<W: Write> Write for Disk<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if bytes.is_empty() {
            return self.inner.write(bytes);
        }
        let room = take(bytes.len());
        if room == 0 {
            return Err(io::Error::from_raw_os_error(nix::libc::ENOSPC));
        }
        match self.inner.write(&bytes[..room]) {
            Ok(written) => {
                give_back(room - written);
                Ok(written)
            }
            Err(e) => {
                give_back(room);
                Err(e)
            }
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}
