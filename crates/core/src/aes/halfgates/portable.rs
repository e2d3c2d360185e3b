//! The portable twin of the VAES kernels: the same records and equations
//! over [`fixed_key`] batches, for CPUs without VAES-512 and as the
//! reference the tests hold the VAES kernels to.

use super::*;

/// Gates hashed per portable batch (4 AES blocks each for the garbler):
/// enough blocks per `encrypt_blocks` call for its 8-way pipeline, and
/// small stack buffers, since they are zeroed on every call and the
/// evaluator calls once per 8-gate stage.
pub(super) const PORTABLE_CHUNK: usize = 16;

/// Input `half` (0: `a`, 1: `b`) of gate `i`: its slot, XORed with its
/// folded slot (a byte offset) if the program folds (`folds` is then as
/// long as the gates).
#[inline]
pub(super) fn input(
    w: &[Block],
    gates: &[AndBytes],
    folds: &[[u32; 2]],
    i: usize,
    half: usize,
) -> Block {
    let x = w[gates[i].slot(half)];
    match folds.get(i) {
        Some(f) => x ^ w[f[half] as usize / 16],
        None => x,
    }
}

pub(super) fn garble_portable(
    w: &mut [Block],
    gates: &[AndBytes],
    folds: &[[u32; 2]],
    delta: Block,
    tweak_offset: u64,
    first_and: u64,
    tables: &mut [Block],
) {
    let pi = fixed_key();
    let mut u = [Block::ZERO; 4 * PORTABLE_CHUNK];
    let mut v = [Block::ZERO; 4 * PORTABLE_CHUNK];
    let mut ab = [(Block::ZERO, Block::ZERO); PORTABLE_CHUNK];
    for (c, (gs, ts)) in gates
        .chunks(PORTABLE_CHUNK)
        .zip(tables.chunks_mut(TABLE_BLOCKS * PORTABLE_CHUNK))
        .enumerate()
    {
        let n = gs.len();
        let first = first_and + (c * PORTABLE_CHUNK) as u64;
        let at = c * PORTABLE_CHUNK;
        for (i, g) in gs.iter().enumerate() {
            let a = input(w, gates, folds, at + i, 0) ^ delta.and_bit(g.flip & 1 == 1);
            let b = input(w, gates, folds, at + i, 1) ^ delta.and_bit(g.flip & 2 == 2);
            ab[i] = (a, b);
            u[4 * i..4 * i + 4].copy_from_slice(&[a, a ^ delta, b, b ^ delta]);
        }
        let (u, v) = (&mut u[..4 * n], &mut v[..4 * n]);
        pi.encrypt_blocks(u);
        for (i, (uc, vc)) in u.chunks_exact(4).zip(v.chunks_exact_mut(4)).enumerate() {
            let t = and_tweak(tweak_offset, first + i as u64);
            let t1 = t ^ Block(1);
            vc.copy_from_slice(&[uc[0] ^ t, uc[1] ^ t, uc[2] ^ t1, uc[3] ^ t1]);
        }
        pi.encrypt_blocks(v);
        for (i, g) in gs.iter().enumerate() {
            let h: [Block; 4] = std::array::from_fn(|k| u[4 * i + k] ^ v[4 * i + k]);
            let (a, b) = ab[i];
            let (pa, pb) = (a.lsb(), b.lsb());
            let tg = h[0] ^ h[1] ^ delta.and_bit(pb);
            let wg = h[0] ^ tg.and_bit(pa);
            let hb = h[2] ^ h[3];
            let we = h[2] ^ hb.and_bit(pb);
            ts[2 * i] = tg;
            ts[2 * i + 1] = hb ^ a;
            w[g.out_slot()] = wg ^ we;
        }
    }
}

pub(super) fn eval_portable(
    w: &mut [Block],
    gates: &[AndBytes],
    folds: &[[u32; 2]],
    tables: &[Block],
    tweak_offset: u64,
    first_and: u64,
) {
    let pi = fixed_key();
    let mut u = [Block::ZERO; 2 * PORTABLE_CHUNK];
    let mut v = [Block::ZERO; 2 * PORTABLE_CHUNK];
    let mut outs = [Block::ZERO; PORTABLE_CHUNK];
    for (c, (gs, ts)) in gates
        .chunks(PORTABLE_CHUNK)
        .zip(tables.chunks(TABLE_BLOCKS * PORTABLE_CHUNK))
        .enumerate()
    {
        let n = gs.len();
        let first = first_and + (c * PORTABLE_CHUNK) as u64;
        let at = c * PORTABLE_CHUNK;
        for i in 0..n {
            u[2 * i] = input(w, gates, folds, at + i, 0);
            u[2 * i + 1] = input(w, gates, folds, at + i, 1);
        }
        let (u, v) = (&mut u[..2 * n], &mut v[..2 * n]);
        let mut held = [Block::ZERO; 2 * PORTABLE_CHUNK];
        held[..2 * n].copy_from_slice(u);
        pi.encrypt_blocks(u);
        for (i, (uc, vc)) in u.chunks_exact(2).zip(v.chunks_exact_mut(2)).enumerate() {
            let t = and_tweak(tweak_offset, first + i as u64);
            vc.copy_from_slice(&[uc[0] ^ t, uc[1] ^ t ^ Block(1)]);
        }
        pi.encrypt_blocks(v);
        for (i, ab) in held[..2 * n].chunks_exact(2).enumerate() {
            let (a, b) = (ab[0], ab[1]);
            let (tg, te) = (ts[2 * i], ts[2 * i + 1]);
            let wg = u[2 * i] ^ v[2 * i] ^ tg.and_bit(a.lsb());
            let we = u[2 * i + 1] ^ v[2 * i + 1] ^ (te ^ a).and_bit(b.lsb());
            outs[i] = wg ^ we;
        }
        // Outputs after all inputs of the chunk were read (see `garble_ands`).
        for (g, &o) in gs.iter().zip(&outs[..n]) {
            w[g.out_slot()] = o;
        }
    }
}

pub(super) fn pis_portable(w: &[Block], p: &mut [Block], jobs: &[[u32; 2]], delta: Option<Block>) {
    let pi = fixed_key();
    let mut u = [Block::ZERO; 2 * PORTABLE_CHUNK];
    for js in jobs.chunks(PORTABLE_CHUNK) {
        let n = js.len();
        match delta {
            Some(d) => {
                for (i, &[l, _]) in js.iter().enumerate() {
                    u[2 * i] = w[l as usize];
                    u[2 * i + 1] = w[l as usize] ^ d;
                }
                pi.encrypt_blocks(&mut u[..2 * n]);
                for (i, &[_, s]) in js.iter().enumerate() {
                    p[2 * s as usize] = u[2 * i];
                    p[2 * s as usize + 1] = u[2 * i + 1];
                }
            }
            None => {
                for (i, &[l, _]) in js.iter().enumerate() {
                    u[i] = w[l as usize];
                }
                pi.encrypt_blocks(&mut u[..n]);
                for (i, &[_, s]) in js.iter().enumerate() {
                    p[s as usize] = u[i];
                }
            }
        }
    }
    zeroize::Zeroize::zeroize(&mut u[..]);
}

#[allow(clippy::too_many_arguments)]
pub(super) fn garble_cached_portable(
    w: &mut [Block],
    p: &[Block],
    gates: &[AndBytes],
    pis: &[[u32; 4]],
    delta: Block,
    tweak_offset: u64,
    first_and: u64,
    tables: &mut [Block],
) {
    let pi = fixed_key();
    let mut u = [Block::ZERO; 4 * PORTABLE_CHUNK];
    let mut v = [Block::ZERO; 4 * PORTABLE_CHUNK];
    let mut ab = [(Block::ZERO, Block::ZERO); PORTABLE_CHUNK];
    let mut outs = [Block::ZERO; PORTABLE_CHUNK];
    for (c, ((gs, ps), ts)) in gates
        .chunks(PORTABLE_CHUNK)
        .zip(pis.chunks(PORTABLE_CHUNK))
        .zip(tables.chunks_mut(TABLE_BLOCKS * PORTABLE_CHUNK))
        .enumerate()
    {
        let n = gs.len();
        let first = first_and + (c * PORTABLE_CHUNK) as u64;
        for (i, (g, q)) in gs.iter().zip(ps).enumerate() {
            ab[i] = (
                w[g.slot(0)] ^ delta.and_bit(g.flip & 1 == 1),
                w[g.slot(1)] ^ delta.and_bit(g.flip & 2 == 2),
            );
            for k in 0..4 {
                u[4 * i + k] = p[q[k] as usize];
            }
        }
        let (u, v) = (&u[..4 * n], &mut v[..4 * n]);
        for (i, (uc, vc)) in u.chunks_exact(4).zip(v.chunks_exact_mut(4)).enumerate() {
            let t = and_tweak(tweak_offset, first + i as u64);
            let t1 = t ^ Block(1);
            vc.copy_from_slice(&[uc[0] ^ t, uc[1] ^ t, uc[2] ^ t1, uc[3] ^ t1]);
        }
        pi.encrypt_blocks(v);
        for i in 0..n {
            let h: [Block; 4] = std::array::from_fn(|k| u[4 * i + k] ^ v[4 * i + k]);
            let (a, b) = ab[i];
            let (pa, pb) = (a.lsb(), b.lsb());
            let tg = h[0] ^ h[1] ^ delta.and_bit(pb);
            let wg = h[0] ^ tg.and_bit(pa);
            let hb = h[2] ^ h[3];
            let we = h[2] ^ hb.and_bit(pb);
            ts[2 * i] = tg;
            ts[2 * i + 1] = hb ^ a;
            outs[i] = wg ^ we;
        }
        for (g, &o) in gs.iter().zip(&outs[..n]) {
            w[g.out_slot()] = o;
        }
    }
    zeroize::Zeroize::zeroize(&mut u[..]);
    zeroize::Zeroize::zeroize(&mut outs[..]);
}

pub(super) fn eval_cached_portable(
    w: &mut [Block],
    p: &[Block],
    gates: &[AndBytes],
    pis: &[[u32; 2]],
    tables: &[Block],
    tweak_offset: u64,
    first_and: u64,
) {
    let pi = fixed_key();
    let mut u = [Block::ZERO; 2 * PORTABLE_CHUNK];
    let mut v = [Block::ZERO; 2 * PORTABLE_CHUNK];
    let mut outs = [Block::ZERO; PORTABLE_CHUNK];
    for (c, ((gs, ps), ts)) in gates
        .chunks(PORTABLE_CHUNK)
        .zip(pis.chunks(PORTABLE_CHUNK))
        .zip(tables.chunks(TABLE_BLOCKS * PORTABLE_CHUNK))
        .enumerate()
    {
        let n = gs.len();
        let first = first_and + (c * PORTABLE_CHUNK) as u64;
        for (i, &[pa, pb]) in ps.iter().enumerate() {
            let t = and_tweak(tweak_offset, first + i as u64);
            u[2 * i] = p[pa as usize];
            u[2 * i + 1] = p[pb as usize];
            v[2 * i] = u[2 * i] ^ t;
            v[2 * i + 1] = u[2 * i + 1] ^ t ^ Block(1);
        }
        pi.encrypt_blocks(&mut v[..2 * n]);
        for (i, g) in gs.iter().enumerate() {
            let (a, b) = (w[g.slot(0)], w[g.slot(1)]);
            let (tg, te) = (ts[2 * i], ts[2 * i + 1]);
            let wg = u[2 * i] ^ v[2 * i] ^ tg.and_bit(a.lsb());
            let we = u[2 * i + 1] ^ v[2 * i + 1] ^ (te ^ a).and_bit(b.lsb());
            outs[i] = wg ^ we;
        }
        for (g, &o) in gs.iter().zip(&outs[..n]) {
            w[g.out_slot()] = o;
        }
    }
}
