//! Lindell–Riva's F_ExCom∆ZK sessions of the `lr_*` replay targets:
//! commitments, the committed selection, per-bucket differences,
//! challenges and openings, fixed seeds on both sides.

use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Result};
use brickyard_lindell_riva::excom::{AwaitingCommit, ExComParams, VerifierAwaiting};

fn params() -> ExComParams {
    ExComParams::new(40, 8, 12, 3, 3).expect("parameters")
}

pub fn prover(ch: &mut Channel) -> Result<()> {
    let p = params();
    let mut prg = Prg::from_seed(Block(0x11));
    let msgs: Vec<Vec<u8>> = (0..p.total)
        .map(|_| {
            let mut m = vec![0u8; p.msg_bytes];
            prg.fill_bytes(&mut m);
            m
        })
        .collect();
    let c = AwaitingCommit::receive(ch, p)?.commit(ch, msgs, &mut prg)?;
    let (mut sess, tokens) = c.receive_selection(ch)?;
    for t in tokens {
        let a = sess.prove(ch, t)?;
        sess.respond(ch, a)?;
    }
    Ok(())
}

pub fn verifier(ch: &mut Channel) -> Result<()> {
    let p = params();
    let (v, challenges) = VerifierAwaiting::start(ch, p, &mut Prg::from_seed(Block(0x22)))?;
    let (sess, _opened) = v.receive_commitments(ch)?;
    for c in challenges {
        let claim = sess.receive_differences(ch, c)?;
        let o = sess.open_challenge(ch, claim)?;
        sess.verify(ch, o)?;
    }
    Ok(())
}
