//! In-crate protocol tests: they run the parties over in-memory channels
//! with the base OTs replaced by their ideal functionality (seeds drawn
//! from a test PRG), which is what the security argument assumes and keeps
//! the many cheating trials fast. `tests/` runs the real base OTs.

mod cheating;
mod honest;
mod malformed;
mod program;

use crate::code::row_from_bits;
use crate::params::CommitParams;
use crate::{Committer, CommitterState, Receiver, ReceiverState};
use brickyard_core::channel::memory_pair;
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel};

/// A session as if the N base OTs had run (F_OT-hybrid). Even seeds use
/// s = 40 (N = 299, the scheme alone), odd seeds s = 43 (N = 317, LEGO's
/// default), so every test family runs on both codes.
pub(crate) fn ideal_setup(seed: u128) -> (Committer, Receiver) {
    let s = if seed.is_multiple_of(2) { 40 } else { 43 };
    ideal_setup_with(seed, CommitParams::new(s).unwrap())
}

/// [`ideal_setup`] for the code and repetitions of `params`.
pub(crate) fn ideal_setup_with(seed: u128, params: CommitParams) -> (Committer, Receiver) {
    let n = params.n();
    let mut prg = Prg::from_seed(Block(seed));
    let seeds0 = prg.random_blocks(n);
    let seeds1 = prg.random_blocks(n);
    let bits = prg.random_bits(n);
    let seeds = (0..n)
        .map(|j| if bits[j] { seeds1[j] } else { seeds0[j] })
        .collect();
    let c = Committer::from_state(
        CommitterState {
            seeds0,
            seeds1,
            next_block: 0,
            msgs: Vec::new(),
            t: Vec::new(),
        },
        params,
    )
    .unwrap();
    let r = Receiver::from_state(
        ReceiverState {
            watch: row_from_bits(&bits),
            seeds,
            next_block: 0,
            w: Vec::new(),
        },
        params,
    )
    .unwrap();
    (c, r)
}

/// Runs the committer's side on a scoped thread and the receiver's here.
pub(crate) fn run<A: Send, B>(
    c: &mut Committer,
    r: &mut Receiver,
    fc: impl FnOnce(&mut Committer, &mut Channel) -> A + Send,
    fr: impl FnOnce(&mut Receiver, &mut Channel) -> B,
) -> (A, B) {
    let (mut ca, mut cb) = memory_pair();
    std::thread::scope(|s| {
        let h = s.spawn(move || fc(c, &mut ca));
        let b = fr(r, &mut cb);
        drop(cb);
        (h.join().unwrap(), b)
    })
}
