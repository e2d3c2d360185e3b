//! JIMU's i-hash sessions of the `ihash_*` replay targets: setup (the
//! w-out-of-n OT and its Shamir shares), a random and a chosen batch with
//! the consistency check, label parameter set (k = 88, s = 40), fixed
//! seeds on both sides.

use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Result};
use brickyard_ihash::{Params, Receiver, Rows, Sender};

const COUNT: usize = 6;

fn params() -> Params {
    Params::for_labels(88, 40).expect("label parameters")
}

fn chosen(p: &Params) -> Rows {
    let flat: Vec<u8> = (0..COUNT * p.ell).map(|i| (i * 7 % 251) as u8).collect();
    Rows::from_flat(&flat, p.ell)
}

pub fn sender(ch: &mut Channel) -> Result<()> {
    let p = params();
    let mut s = Sender::setup(ch, &mut Prg::from_seed(Block(0x5e)), p)?;
    s.hash_random(ch, COUNT)?;
    s.hash_chosen(ch, &chosen(&p))
}

pub fn receiver(ch: &mut Channel) -> Result<()> {
    let p = params();
    let prg = &mut Prg::from_seed(Block(0x7e));
    let mut r = Receiver::setup(ch, prg, p)?;
    r.hash_random(ch, prg, COUNT)?;
    r.hash_chosen(ch, prg, COUNT).map(drop)
}
