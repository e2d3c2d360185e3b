//! Brickyard's preprocessing store: persisted, versioned, integrity-checked,
//! single-use material.
//!
//! The offline/online setting only pays off if material made in one process
//! can be used days later in another, and it is only secure if no piece of it
//! is ever used twice — not even across crashes. This crate therefore
//! treats three things as its job:
//!
//! * **integrity** — every chunk of every data file carries a BLAKE3 keyed MAC
//!   binding it to its session, kind and position, with a key kept outside
//!   the store directory;
//! * **single use** — [`Store::reserve`] durably advances a per-kind next
//!   index before handing anything out, and [`Store::sync_groups`] makes
//!   both parties agree on one next index per group of kinds used together,
//!   checked against both stores (a peer's lie is refused, never adopted);
//! * **crash safety** — metadata is replaced atomically, data is appended in
//!   large chunks, and a torn tail is detected and truncated on open.
//!
//! The store knows nothing about protocols beyond typed records: a kind is a
//! name and a record size (fixed, or variable-size blobs). See
//! `docs/store.md` for the byte-level formats and the safety argument.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod bench;
mod chunk;
mod fsutil;
#[cfg(feature = "fuzzing")]
pub mod fuzzing;
mod info;
mod key;
mod kind_file;
mod lock;
mod mac;
mod manifest;
mod read_ahead;
mod reserve;
mod secret;
mod state;
mod store;
mod sync;
mod transfer;
mod types;
mod verify;

pub use bench::{bench_throughput, bench_throughput_report, BenchReport};
pub use info::{info, info_with_key, KindInfo, StoreInfo, UnitInfo};
pub use key::{brickyard_home, default_key_path};
pub use kind_file::Recovery;
pub use manifest::UnitSpec;
pub use read_ahead::{NextUnit, ReadAhead};
pub use reserve::Reservation;
pub use secret::MAX_SECRET_LEN;
pub use state::Closed;
pub use store::{Expected, OpenReport, Store, StoreConfig};
#[cfg(feature = "adversary")]
pub use sync::SyncLie;
pub use sync::{agree_session_id, GroupSync, KindSync, SyncGroup, SyncReport, SYNC_CHECK};
pub use transfer::{import, TransferReport};
pub use types::{KindSpec, RecordSize, Role, SessionId};
pub use verify::VerifyReport;

/// Version of the on-disk format; stores of other versions are refused.
pub const FORMAT_VERSION: u32 = 1;

/// Default target payload of a chunk: large enough for sequential I/O at
/// disk speed, small enough that reading one record costs little.
pub const DEFAULT_CHUNK_SIZE: usize = 4 << 20;

/// Largest variable-size record. Bounds what a hostile header can make a
/// reader allocate.
pub const MAX_BLOB_LEN: usize = 256 << 20;

/// Largest chunk payload that may be configured.
pub const MAX_CHUNK_PAYLOAD: usize = MAX_BLOB_LEN;
