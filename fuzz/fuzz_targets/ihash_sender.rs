//! JIMU's i-hash (`brickyard_ihash`), the sender as victim: setup (the
//! w-out-of-n OT and its Shamir shares), a random and a chosen batch with
//! the consistency check, against a recorded honest receiver transcript
//! mutated by the input, or raw bytes (`fuzz/common/replay.rs`). The
//! label parameter set (k = 88, s = 40). `Ok` or a typed error, never a
//! panic or an unbounded allocation.
#![no_main]

#[path = "../common/replay.rs"]
mod replay;

use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Result};
use brickyard_ihash::{Params, Receiver, Rows, Sender};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

const COUNT: usize = 6;

fn params() -> Params {
    Params::for_labels(88, 40).expect("label parameters")
}

fn chosen(p: &Params) -> Rows {
    let flat: Vec<u8> = (0..COUNT * p.ell).map(|i| (i * 7 % 251) as u8).collect();
    Rows::from_flat(&flat, p.ell)
}

fn sender(ch: &mut Channel) -> Result<()> {
    let p = params();
    let mut s = Sender::setup(ch, &mut Prg::from_seed(Block(0x5e)), p)?;
    s.hash_random(ch, COUNT)?;
    s.hash_chosen(ch, &chosen(&p))
}

fn receiver(ch: &mut Channel) -> Result<()> {
    let p = params();
    let prg = &mut Prg::from_seed(Block(0x7e));
    let mut r = Receiver::setup(ch, prg, p)?;
    r.hash_random(ch, prg, COUNT)?;
    r.hash_chosen(ch, prg, COUNT).map(drop)
}

fuzz_target!(|data: &[u8]| {
    static T: OnceLock<Vec<u8>> = OnceLock::new();
    let t = T.get_or_init(|| replay::record(sender, receiver));
    let mut ch = brickyard_core::channel::scripted(&replay::script(t, data));
    let _ = sender(&mut ch);
});
