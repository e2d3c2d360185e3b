//! The component library: garbled instances made offline, kept in memory
//! or in the party's store, handed out once each.
//!
//! Store kinds: one fixed-size kind per component type
//! ([`super::components::kind_name`]). Record `i` of a kind in Alice's store
//! and record `i` in Bob's are the two halves of one instance:
//!
//! * Alice: `tweak u64 ‖ input 0-labels ‖ output 0-labels` (16 bytes each);
//! * Bob: `tweak u64 ‖ garbled tables` (`[T_G, T_E]` per AND, 16 bytes each).
//!
//! Δ is not in any record: it is one secret per store ([`DELTA_SECRET`]).

use super::components::{kind_name, ComponentType};
use brickyard_core::{Block, Channel, Error, Result};
use brickyard_garble::{garble_to_channel, Delta, Keep};
use brickyard_store::{KindSpec, Store};
use std::collections::{HashMap, VecDeque};
use zeroize::Zeroizing;

/// Name of Alice's Δ in her store.
pub const DELTA_SECRET: &str = "compgc-delta";

/// Alice's half of an instance.
pub struct AliceInstance {
    /// Tweak offset it was garbled under.
    pub tweak: u64,
    /// 0-labels of its input wires.
    pub in0: Zeroizing<Vec<Block>>,
    /// 0-labels of its output wires.
    pub out0: Zeroizing<Vec<Block>>,
}

/// Bob's half of an instance.
pub struct BobInstance {
    /// Tweak offset.
    pub tweak: u64,
    /// Garbled tables.
    pub tables: Vec<Block>,
}

/// Record size of a type's kind for each role.
pub fn record_bytes(t: &ComponentType, alice: bool) -> u32 {
    let blocks = if alice {
        t.inputs() + t.outputs()
    } else {
        t.table_blocks()
    };
    (8 + 16 * blocks) as u32
}

/// Declares the kind of `t` in `store` (no-op if present).
pub fn add_kind(store: &mut Store, t: &ComponentType, alice: bool) -> Result<()> {
    store.add_kind(KindSpec::fixed(&kind_name(&t.name), record_bytes(t, alice)))
}

fn blocks(bytes: &[u8]) -> impl Iterator<Item = Block> + '_ {
    bytes.chunks_exact(16).map(|c| {
        let mut b = [0u8; 16];
        b.copy_from_slice(c);
        Block::from_bytes(b)
    })
}

fn encode(tweak: u64, parts: &[&[Block]]) -> Zeroizing<Vec<u8>> {
    let n: usize = parts.iter().map(|p| p.len()).sum();
    let mut v = Zeroizing::new(Vec::with_capacity(8 + 16 * n));
    v.extend_from_slice(&tweak.to_le_bytes());
    for p in parts {
        for b in p.iter() {
            v.extend_from_slice(&b.to_bytes());
        }
    }
    v
}

fn split_records<'a>(
    raw: &'a [u8],
    size: usize,
    n: usize,
    kind: &str,
) -> Result<Vec<(u64, &'a [u8])>> {
    if raw.len() != size * n {
        return Err(Error::Storage(format!(
            "compgc: kind `{kind}` returned {} bytes for {n} records of {size}",
            raw.len()
        )));
    }
    Ok(raw
        .chunks_exact(size)
        .map(|r| {
            let mut t = [0u8; 8];
            t.copy_from_slice(&r[..8]);
            (u64::from_le_bytes(t), &r[8..])
        })
        .collect())
}

/// Instances in memory, per type name, handed out in order.
pub struct MemoryLibrary<T> {
    by_type: HashMap<String, VecDeque<T>>,
}

impl<T> Default for MemoryLibrary<T> {
    fn default() -> Self {
        MemoryLibrary {
            by_type: HashMap::new(),
        }
    }
}

impl<T> MemoryLibrary<T> {
    /// Adds an instance of `ty`.
    pub fn push(&mut self, ty: &str, inst: T) {
        self.by_type
            .entry(ty.to_string())
            .or_default()
            .push_back(inst);
    }

    /// Takes `n` instances of `ty`, or none if fewer remain.
    pub fn take(&mut self, ty: &str, n: usize) -> Result<Vec<T>> {
        let q = self.by_type.entry(ty.to_string()).or_default();
        if q.len() < n {
            return Err(Error::Exhausted(format!(
                "compgc: {n} instance(s) of component `{ty}` needed, {} left",
                q.len()
            )));
        }
        Ok(q.drain(..n).collect())
    }
}

/// Takes `n` instances of `t` from `store`, reserving them durably first.
fn reserve_raw(store: &mut Store, t: &ComponentType, n: usize) -> Result<(Vec<u8>, String)> {
    let kind = kind_name(&t.name);
    if store.produced(&kind).is_err() {
        return Err(Error::Exhausted(format!(
            "compgc: the store holds no instances of component `{}`",
            t.name
        )));
    }
    let r = store.reserve(&kind, n as u64)?;
    let raw = store.read(&r)?;
    // Handed out = consumed; a crash before this leaves them burned.
    store.finish(r)?;
    Ok((raw, kind))
}

/// Alice: `n` instances of `t` from the store.
pub fn take_alice(store: &mut Store, t: &ComponentType, n: usize) -> Result<Vec<AliceInstance>> {
    let (raw, kind) = reserve_raw(store, t, n)?;
    let raw = Zeroizing::new(raw);
    let (ni, no) = (t.inputs(), t.outputs());
    split_records(&raw, record_bytes(t, true) as usize, n, &kind)?
        .into_iter()
        .map(|(tweak, body)| {
            let all: Vec<Block> = blocks(body).collect();
            Ok(AliceInstance {
                tweak,
                in0: Zeroizing::new(all[..ni].to_vec()),
                out0: Zeroizing::new(all[ni..ni + no].to_vec()),
            })
        })
        .collect()
}

/// Bob: `n` instances of `t` from the store.
pub fn take_bob(store: &mut Store, t: &ComponentType, n: usize) -> Result<Vec<BobInstance>> {
    let (raw, kind) = reserve_raw(store, t, n)?;
    Ok(
        split_records(&raw, record_bytes(t, false) as usize, n, &kind)?
            .into_iter()
            .map(|(tweak, body)| BobInstance {
                tweak,
                tables: blocks(body).collect(),
            })
            .collect(),
    )
}

/// What Alice announces before garbling: type names and counts.
pub type Manifest = Vec<(String, u64)>;

/// Alice: garbles `count` instances of each type under `delta`, streaming
/// the tables to Bob; `keep` receives her half of each instance.
/// `next_tweak` numbers instances across the session: no two circuits
/// garbled under one Δ share a tweak.
pub fn garble_library(
    ch: &mut Channel,
    delta: &Delta,
    prg: &mut brickyard_core::prg::Prg,
    list: &[(ComponentType, usize)],
    next_tweak: &mut u64,
    progress: &brickyard_driver::progress::Progress,
    mut keep: impl FnMut(&ComponentType, AliceInstance) -> Result<()>,
) -> Result<()> {
    let manifest: Manifest = list
        .iter()
        .map(|(t, n)| (t.name.clone(), *n as u64))
        .collect();
    ch.send_msg(&manifest)?;
    for (t, n) in list {
        for _ in 0..*n {
            let mut in0 = Zeroizing::new(vec![Block::ZERO; t.inputs()]);
            prg.fill_blocks(&mut in0);
            let tweak = *next_tweak;
            *next_tweak += 1;
            let out = garble_to_channel(&t.plan, delta, &in0, tweak, Keep::Outputs, ch)?;
            keep(
                t,
                AliceInstance {
                    tweak,
                    in0,
                    out0: out.output_zero_labels,
                },
            )?;
            progress.advance(1);
        }
    }
    ch.flush()
}

/// Bob: receives what [`garble_library`] sends. `resolve` maps a type name
/// to its type (Bob refuses names he does not know).
pub fn receive_library(
    ch: &mut Channel,
    resolve: impl Fn(&str) -> Result<ComponentType>,
    max_instances: u64,
    next_tweak: &mut u64,
    mut keep: impl FnMut(&ComponentType, BobInstance) -> Result<()>,
) -> Result<()> {
    let manifest: Manifest = ch.recv_msg()?;
    let total: u64 = manifest
        .iter()
        .map(|(_, n)| *n)
        .fold(0, u64::saturating_add);
    if total > max_instances {
        return Err(Error::malformed(format!(
            "compgc: peer announces {total} component instances, expected at most {max_instances}"
        )));
    }
    for (name, n) in manifest {
        let t = resolve(&name)?;
        for _ in 0..n {
            let tables = ch.recv_block_vec(t.table_blocks())?;
            let tweak = *next_tweak;
            *next_tweak += 1;
            keep(&t, BobInstance { tweak, tables })?;
        }
    }
    Ok(())
}

/// Appends Alice's half of an instance to her store.
pub fn store_alice(store: &mut Store, t: &ComponentType, i: &AliceInstance) -> Result<()> {
    store.append(&kind_name(&t.name), &encode(i.tweak, &[&i.in0, &i.out0]))
}

/// Appends Bob's half of an instance to his store.
pub fn store_bob(store: &mut Store, t: &ComponentType, i: &BobInstance) -> Result<()> {
    store.append(&kind_name(&t.name), &encode(i.tweak, &[&i.tables]))
}
