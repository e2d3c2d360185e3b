//! Where yao's preprocessed random OTs live: in memory (a demo or bench
//! run) or in the party's store (preprocess now, run later).
//!
//! Store records (kind [`ROT_KIND`]): Alice `m0 ‖ m1` (32 bytes), Bob
//! `m_c ‖ c` (17 bytes). The store index of a record is its session OT index,
//! which Beaver derandomisation sends along so drifted stores are detected.
#![deny(missing_docs)]

use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use brickyard_ot::{IknpReceiver, IknpSender, RotReceiverBatch, RotSenderBatch};
use brickyard_store::{KindSpec, Store};
use zeroize::Zeroizing;

/// The store kind holding yao's random OTs.
pub const ROT_KIND: &str = "rot";
/// OTs generated and written per chunk, so preprocessing larger than RAM
/// streams to disk.
pub const CHUNK: usize = 1 << 20;

/// Alice's or Bob's OT pool.
pub enum Pool<B> {
    /// Nothing preprocessed yet.
    Empty,
    /// Generated in this process.
    Memory(B),
    /// In a store.
    Store(Box<Store>),
}

/// Adds the yao kind to a fresh store.
pub fn prepare_store(store: &mut Store, record_bytes: u32) -> Result<()> {
    if store.produced(ROT_KIND).is_err() {
        store.add_kind(KindSpec::fixed(ROT_KIND, record_bytes))?;
    }
    store.declare_unit(
        "random OTs (an execution takes one per input bit of Bob)",
        &[(ROT_KIND, 1)],
    )
}

/// Agrees on the next OT index with the peer (checked against both
/// stores, see `brickyard_store::sync`) and checks that both hold the
/// `want` OTs the run takes before any is reserved.
pub fn sync<B>(pool: &mut Pool<B>, ch: &mut Channel, want: u64) -> Result<()> {
    if let Pool::Store(s) = pool {
        s.sync_groups(
            ch,
            &[brickyard_store::SyncGroup {
                kinds: vec![(ROT_KIND, 1)],
                want,
            }],
        )?;
    }
    Ok(())
}

/// Poisons the pool's store, if it has one (see `Party::poison_store`).
pub fn poison<B>(pool: &mut Pool<B>, check: &str) -> Result<()> {
    match pool {
        Pool::Store(s) => s.poison(check),
        _ => Ok(()),
    }
}

/// Store parameters of yao's random OTs (function-independent).
pub fn store_parameters() -> std::collections::BTreeMap<String, String> {
    let mut m = std::collections::BTreeMap::new();
    m.insert("ot extension".into(), "IKNP random OT, k = 128".into());
    m
}

fn no_ots() -> Error {
    Error::Exhausted("yao: no preprocessed OTs (run the preprocessing first)".into())
}

/// Generates `n` OTs in chunks of [`CHUNK`] with `gen(m)` (which returns
/// the chunk's records) and appends them to the store, so memory stays
/// bounded whatever `n`; commits at the end.
pub fn fill_store(
    s: &mut Store,
    n: usize,
    progress: &brickyard_driver::progress::Progress,
    mut gen: impl FnMut(usize) -> Result<Zeroizing<Vec<u8>>>,
) -> Result<()> {
    progress.add_total(n as u64);
    let mut left = n;
    while left > 0 {
        let m = left.min(CHUNK);
        s.append(ROT_KIND, &gen(m)?)?;
        left -= m;
        progress.advance(m as u64);
    }
    s.commit()
}

/// Alice: preprocesses `n` random OTs into her pool. yao and CompGC share
/// it, so the record layout of [`ROT_KIND`] is written in one place.
pub fn fill_sender(
    pool: &mut Pool<RotSenderBatch>,
    ot: &mut IknpSender,
    ch: &mut Channel,
    n: usize,
    progress: &brickyard_driver::progress::Progress,
) -> Result<()> {
    match pool {
        Pool::Store(s) => fill_store(s, n, progress, |m| {
            let b = ot.random_batch(ch, m)?;
            let pairs: Zeroizing<Vec<Block>> =
                Zeroizing::new(b.pairs().flat_map(|(x, y)| [x, y]).collect());
            Ok(Zeroizing::new(bytemuck::cast_slice(&pairs).to_vec()))
        }),
        pool => {
            *pool = Pool::Memory(ot.random_batch(ch, n)?);
            Ok(())
        }
    }
}

/// Bob: preprocesses `n` random OTs into his pool (see [`fill_sender`]).
pub fn fill_receiver(
    pool: &mut Pool<RotReceiverBatch>,
    ot: &mut IknpReceiver,
    ch: &mut Channel,
    prg: &mut Prg,
    n: usize,
    progress: &brickyard_driver::progress::Progress,
) -> Result<()> {
    match pool {
        Pool::Store(s) => fill_store(s, n, progress, |m| {
            let b = ot.random_batch(ch, prg, m)?;
            let mut recs = Zeroizing::new(Vec::with_capacity(17 * m));
            for (msg, &c) in b.msgs().iter().zip(b.choices()) {
                recs.extend_from_slice(&msg.to_bytes());
                recs.push(c as u8);
            }
            Ok(recs)
        }),
        pool => {
            *pool = Pool::Memory(ot.random_batch(ch, prg, n)?);
            Ok(())
        }
    }
}

/// Reads `n` OTs, then reserves them durably and marks them consumed in
/// one state update before anything of them is used (`Store::take_next`).
/// Returns the first OT index and the raw records.
fn reserve_read(s: &mut Store, n: usize) -> Result<(u64, Zeroizing<Vec<u8>>)> {
    s.take_next(&[(ROT_KIND, n as u64)], |start, mut parts| {
        Ok((start, std::mem::take(&mut parts[0])))
    })
}

/// Alice: takes `n` random OTs, reserving them durably first when stored.
pub fn take_sender(pool: &mut Pool<RotSenderBatch>, n: usize) -> Result<RotSenderBatch> {
    match pool {
        Pool::Empty => Err(no_ots()),
        Pool::Memory(b) => b.take(n),
        Pool::Store(s) => {
            let (start, raw) = reserve_read(s, n)?;
            let blocks: &[Block] = bytemuck::try_cast_slice(&raw).map_err(|_| {
                Error::Storage("yao: stored OT records are not whole blocks".into())
            })?;
            let (m0, m1) = blocks.chunks_exact(2).map(|p| (p[0], p[1])).unzip();
            Ok(RotSenderBatch::new(start, m0, m1))
        }
    }
}

/// Bob: takes `n` random OTs, reserving them durably first when stored.
pub fn take_receiver(pool: &mut Pool<RotReceiverBatch>, n: usize) -> Result<RotReceiverBatch> {
    match pool {
        Pool::Empty => Err(no_ots()),
        Pool::Memory(b) => b.take(n),
        Pool::Store(s) => {
            let (start, raw) = reserve_read(s, n)?;
            let mut choices = Vec::with_capacity(n);
            let mut msgs = Vec::with_capacity(n);
            for rec in raw.chunks_exact(17) {
                let mut b = [0u8; 16];
                b.copy_from_slice(&rec[..16]);
                msgs.push(Block::from_bytes(b));
                choices.push(match rec[16] {
                    0 => false,
                    1 => true,
                    _ => {
                        return Err(Error::Storage(
                            "yao: corrupt choice bit in stored OT".into(),
                        ))
                    }
                });
            }
            Ok(RotReceiverBatch::new(start, choices, msgs))
        }
    }
}
