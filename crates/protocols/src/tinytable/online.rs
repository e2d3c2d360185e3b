//! π_mal, the online phase (Fig. 5 with free XOR, Sec. 2.1, and NOT
//! removal, Sec. 2.2), for a batch of executions run in lockstep (a batch of
//! one is a single execution; larger batches are the paper's "parallel"
//! columns: one flight per layer carries every execution's bits).
//!
//! | step | paper | here |
//! |---|---|---|
//! | 3 | send `e_u = x_u ⊕ r_u` for own input wires | [`send_inputs`] |
//! | 4(a)–(d) | per table gate: send `A_i[e_u,e_v]`, accumulate `m_A`/`t_B`, `e_o = e_A ⊕ e_B` | [`open_layer`], one flight per layer |
//! | 4, end | exchange `m_A`, `m_B`; abort unless `t_A = m_B`, `t_B = m_A` | [`check_tables`] (check `table-mac`) |
//! | 5–7 | open output gates with MACs, output `e_o ⊕ r_o` | [`open_outputs`] (check `output-mac`) |

use super::mac::{clmul_small, read_le, Acc, MacScheme};
use super::material::{get_bit, get_share, set_bit, Layout, Material};
use super::program::{eval_linear_masked, Program};
use crate::{OutputMode, Role};
use brickyard_core::{Channel, Error, Result};
use zeroize::Zeroizing;

/// Where a cheating party may deviate (see `cheat.rs`); the honest build
/// never deviates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Point {
    /// The mask of own input bit `i` of execution 0.
    InputMask(usize),
    /// The share sent for global table `g` of execution 0, in layer `layer`.
    TableShare {
        /// Global table index.
        g: usize,
        /// Layer index among table layers (0-based).
        layer: usize,
        /// Number of table layers.
        layers: usize,
    },
    /// The accumulated table MAC sent at the check.
    TableMac,
    /// The share of output-mask bit `i` of execution 0.
    OutputShare(usize),
    /// The output-opening MAC.
    OutputMac,
}

/// Everything fixed across executions of one party.
pub struct Ctx<'a> {
    /// The program.
    pub program: &'a Program,
    /// This party's record layout.
    pub layout: Layout,
    /// This party's role (A = Alice, B = Bob).
    pub role: Role,
    /// Who learns the output.
    pub output: OutputMode,
    /// This party's input wires, in its input order.
    pub my_inputs: &'a [u32],
    /// The peer's input wires.
    pub peer_inputs: &'a [u32],
    /// The deviation this party is told to make (adversary builds only).
    #[cfg(feature = "adversary")]
    pub cheat: Option<super::cheat::Cheat>,
}

impl<'a> Ctx<'a> {
    /// An honest party's context.
    pub fn new(
        program: &'a Program,
        layout: Layout,
        role: Role,
        output: OutputMode,
        my_inputs: &'a [u32],
        peer_inputs: &'a [u32],
    ) -> Ctx<'a> {
        Ctx {
            program,
            layout,
            role,
            output,
            my_inputs,
            peer_inputs,
            #[cfg(feature = "adversary")]
            cheat: None,
        }
    }

    /// XOR mask to apply at `p` (always 0 in honest builds).
    #[inline]
    fn deviate(&self, p: Point) -> u64 {
        #[cfg(feature = "adversary")]
        if let Some(c) = &self.cheat {
            return c.deviation(p);
        }
        let _ = p;
        0
    }
}

fn recv_packed(ch: &mut Channel, nbits: usize) -> Result<Vec<u8>> {
    let mut b = vec![0u8; nbits.div_ceil(8)];
    ch.recv_bytes(&mut b)?;
    if !nbits.is_multiple_of(8) && b.last().is_some_and(|l| l >> (nbits % 8) != 0) {
        return Err(Error::malformed("tinytable: non-zero padding bits"));
    }
    Ok(b)
}

fn send_check(ch: &mut Channel, scheme: MacScheme, v: u64) -> Result<()> {
    ch.send_bytes(&v.to_le_bytes()[..scheme.key_bytes()])
}

fn recv_check(ch: &mut Channel, scheme: MacScheme) -> Result<u64> {
    let mut b = [0u8; 8];
    ch.recv_bytes(&mut b[..scheme.key_bytes()])?;
    Ok(u64::from_le_bytes(b))
}

/// Step 3: masked inputs both ways (one flight). `e` holds every
/// execution's masked wire values, `num_wires` per execution.
pub fn send_inputs(
    ch: &mut Channel,
    ctx: &Ctx<'_>,
    mats: &[Material],
    inputs: &[Vec<bool>],
    e: &mut [u8],
) -> Result<()> {
    let nw = ctx.program.num_wires as usize;
    let (ni, np) = (ctx.my_inputs.len(), ctx.peer_inputs.len());
    let mut msg = vec![0u8; (mats.len() * ni).div_ceil(8)];
    for (x, (mat, inp)) in mats.iter().zip(inputs).enumerate() {
        if inp.len() != ni {
            return Err(Error::config("tinytable: wrong number of input bits"));
        }
        for (i, (&w, &bit)) in ctx.my_inputs.iter().zip(inp).enumerate() {
            let mut r = get_bit(&mat.exec, i);
            if x == 0 {
                r ^= ctx.deviate(Point::InputMask(i)) & 1 == 1;
            }
            let v = bit ^ r;
            e[x * nw + w as usize] = v as u8;
            set_bit(&mut msg, x * ni + i, v);
        }
    }
    ch.send_bytes(&msg)?;
    let got = recv_packed(ch, mats.len() * np)?;
    for x in 0..mats.len() {
        for (i, &w) in ctx.peer_inputs.iter().enumerate() {
            e[x * nw + w as usize] = get_bit(&got, x * np + i) as u8;
        }
    }
    Ok(())
}

/// Step 4(a)–(d) for one layer: look up own shares at the masked inputs,
/// send them (one flight for the whole layer and batch), add own tags to
/// `prove` and the keys of what the peer sent to `verify`, and set the
/// output wires' masked values.
#[allow(clippy::too_many_arguments)]
pub fn open_layer(
    ch: &mut Channel,
    ctx: &Ctx<'_>,
    mats: &[Material],
    layer_index: usize,
    table_layer: usize,
    e: &mut [u8],
    prove: &mut Acc,
    verify: &mut Acc,
) -> Result<()> {
    let p = ctx.program;
    let l = &ctx.layout;
    let layer = &p.layers[layer_index];
    let nw = p.num_wires as usize;
    let (n, m) = (l.n as usize, l.m);
    let t = layer.tables(&p.table);
    let layers = p.table_layers();
    let gb = l.gate_bytes;
    let (tags_at, ver_at, tb, vb) = (l.tags_at(), l.verify_at(), l.tag, l.verify);
    let scheme = l.scheme;
    let kb = scheme.key_bytes();
    let total = mats.len() * t;
    let mut idx = Zeroizing::new(vec![0u16; total]);
    let mut mine = Zeroizing::new(vec![0u8; total]);
    let mut msg = vec![0u8; (total * m as usize).div_ceil(8)];
    for (x, mat) in mats.iter().enumerate() {
        let ex = &e[x * nw..(x + 1) * nw];
        for g in 0..t {
            let ins = &layer.table_ins[g * n..(g + 1) * n];
            let c = ins
                .iter()
                .enumerate()
                .fold(0usize, |a, (j, &w)| a | (ex[w as usize] as usize) << j);
            let gi = layer.first_table + g;
            let rec = &mat.gates[gi * gb..(gi + 1) * gb];
            let mut s = get_share(rec, c, m);
            match scheme {
                MacScheme::Passive => {}
                MacScheme::Lookup { .. } => {
                    prove.add_lookup(read_le(&rec[tags_at + c * tb..tags_at + (c + 1) * tb]) as u64)
                }
                MacScheme::Linear { .. } => {
                    prove.add_linear(read_le(&rec[tags_at + c * tb..tags_at + (c + 1) * tb]))
                }
            }
            if x == 0 {
                s ^= ctx.deviate(Point::TableShare {
                    g: gi,
                    layer: table_layer,
                    layers,
                }) as u8;
            }
            let k = x * t + g;
            idx[k] = c as u16;
            mine[k] = s;
            put_bits(&mut msg, k, m, s);
        }
    }
    ch.send_bytes(&msg)?;
    let got = recv_packed(ch, total * m as usize)?;
    for (x, mat) in mats.iter().enumerate() {
        let alpha = mat.alpha(l);
        let ex = &mut e[x * nw..(x + 1) * nw];
        for g in 0..t {
            let k = x * t + g;
            let c = idx[k] as usize;
            let theirs = get_share(&got, k, m);
            let gi = layer.first_table + g;
            let rec = &mat.gates[gi * gb..(gi + 1) * gb];
            match scheme {
                MacScheme::Passive => {}
                MacScheme::Lookup { .. } => {
                    let at = ver_at + ((c << m) | theirs as usize) * kb;
                    verify.add_lookup(read_le(&rec[at..at + kb]) as u64)
                }
                MacScheme::Linear { .. } => {
                    let beta = read_le(&rec[ver_at + c * vb..ver_at + (c + 1) * vb]);
                    verify.add_linear(clmul_small(alpha, theirs, m) ^ beta)
                }
            }
            let v = mine[k] ^ theirs;
            for (j, &w) in layer.table_outs[g * m as usize..(g + 1) * m as usize]
                .iter()
                .enumerate()
            {
                ex[w as usize] = (v >> j) & 1;
            }
        }
    }
    Ok(())
}

#[inline]
fn put_bits(msg: &mut [u8], k: usize, m: u32, v: u8) {
    if m == 8 {
        msg[k] = v;
    } else {
        for j in 0..m as usize {
            let bit = k * m as usize + j;
            msg[bit / 8] |= ((v >> j) & 1) << (bit % 8);
        }
    }
}

/// End of step 4: both parties send their accumulated MAC (k bits) and
/// abort unless the peer's equals what their keys predict. Nothing about
/// the output has been revealed yet, so a cheater learns nothing from it.
pub fn check_tables(ch: &mut Channel, ctx: &Ctx<'_>, prove: Acc, verify: Acc) -> Result<()> {
    let scheme = ctx.layout.scheme;
    if !scheme.is_malicious() {
        return Ok(());
    }
    let mine = prove.finish() ^ ctx.deviate(Point::TableMac);
    send_check(ch, scheme, mine)?;
    let theirs = recv_check(ch, scheme)?;
    if theirs != verify.finish() {
        return Err(Error::Cheating { check: "table-mac" });
    }
    Ok(())
}

/// Steps 5–7, "verified output opening": the output-wire masks are
/// additively shared and MACed; the parties who must learn the output
/// receive the peer's shares with one batched MAC, check it, and output
/// `e_o ⊕ r_o`.
pub fn open_outputs(
    ch: &mut Channel,
    ctx: &Ctx<'_>,
    mats: &[Material],
    e: &[u8],
) -> Result<Vec<Option<Vec<bool>>>> {
    let l = &ctx.layout;
    let scheme = l.scheme;
    let nw = ctx.program.num_wires as usize;
    let outs: Vec<u32> = ctx.program.outputs.iter().flatten().copied().collect();
    let no = outs.len();
    let [_, sh_at, tag_at, ver_at, _] = l.exec_parts();
    let (t1, v1, kb) = (
        scheme.tag_bytes(1),
        scheme.verify_bytes(1),
        scheme.key_bytes(),
    );
    let i_send = ctx.role == Role::Alice || ctx.output == OutputMode::Both;
    let i_learn = ctx.role == Role::Bob || ctx.output == OutputMode::Both;
    if i_send {
        let mut msg = vec![0u8; (mats.len() * no).div_ceil(8)];
        let mut prove = Acc::new(scheme);
        for (x, mat) in mats.iter().enumerate() {
            for i in 0..no {
                let mut s = get_bit(&mat.exec[sh_at..], i);
                let tag = read_le(&mat.exec[tag_at + i * t1..tag_at + (i + 1) * t1]);
                match scheme {
                    MacScheme::Passive => {}
                    MacScheme::Lookup { .. } => prove.add_lookup(tag as u64),
                    MacScheme::Linear { .. } => prove.add_linear(tag),
                }
                if x == 0 {
                    s ^= ctx.deviate(Point::OutputShare(i)) & 1 == 1;
                }
                set_bit(&mut msg, x * no + i, s);
            }
        }
        ch.send_bytes(&msg)?;
        if scheme.is_malicious() {
            send_check(ch, scheme, prove.finish() ^ ctx.deviate(Point::OutputMac))?;
        }
    }
    if !i_learn {
        ch.flush()?;
        return Ok(vec![None; mats.len()]);
    }
    let got = recv_packed(ch, mats.len() * no)?;
    let mut verify = Acc::new(scheme);
    let mut result = Vec::with_capacity(mats.len());
    for (x, mat) in mats.iter().enumerate() {
        let alpha = mat.alpha(l);
        let mut bits = Vec::with_capacity(no);
        for (i, &w) in outs.iter().enumerate() {
            let theirs = get_bit(&got, x * no + i);
            match scheme {
                MacScheme::Passive => {}
                MacScheme::Lookup { .. } => {
                    let at = ver_at + i * v1 + theirs as usize * kb;
                    verify.add_lookup(read_le(&mat.exec[at..at + kb]) as u64)
                }
                MacScheme::Linear { .. } => {
                    let beta = read_le(&mat.exec[ver_at + i * v1..ver_at + (i + 1) * v1]);
                    verify.add_linear(clmul_small(alpha, theirs as u8, 1) ^ beta)
                }
            }
            let mine = get_bit(&mat.exec[sh_at..], i);
            let masked = e[x * nw + w as usize] == 1;
            bits.push(masked ^ mine ^ theirs);
        }
        result.push(Some(bits));
    }
    if scheme.is_malicious() {
        let theirs = recv_check(ch, scheme)?;
        if theirs != verify.finish() {
            return Err(Error::Cheating {
                check: "output-mac",
            });
        }
    }
    Ok(result)
}

/// Runs π_mal on a batch of executions (each with its own material and
/// inputs). Returns each execution's output bits (all output groups
/// concatenated) if this party learns them. Any failed check aborts the
/// whole batch before an output exists.
pub fn run_batch(
    ch: &mut Channel,
    ctx: &Ctx<'_>,
    mats: &[Material],
    inputs: &[Vec<bool>],
) -> Result<Vec<Option<Vec<bool>>>> {
    let p = ctx.program;
    if inputs.len() != mats.len() {
        return Err(Error::config("tinytable: one input vector per execution"));
    }
    for mat in mats {
        if mat.exec.len() != ctx.layout.exec_bytes
            || mat.gates.len() != p.table_count() * ctx.layout.gate_bytes
        {
            return Err(Error::Storage(
                "tinytable: preprocessed material has the wrong size".into(),
            ));
        }
    }
    let nw = p.num_wires as usize;
    let mut e = Zeroizing::new(vec![0u8; mats.len() * nw]);
    send_inputs(ch, ctx, mats, inputs, &mut e)?;
    let mut prove = Acc::new(ctx.layout.scheme);
    let mut verify = Acc::new(ctx.layout.scheme);
    let mut table_layer = 0;
    for (li, layer) in p.layers.iter().enumerate() {
        for x in 0..mats.len() {
            eval_linear_masked(&layer.linear, &mut e[x * nw..(x + 1) * nw]);
        }
        if !layer.table_outs.is_empty() {
            open_layer(
                ch,
                ctx,
                mats,
                li,
                table_layer,
                &mut e,
                &mut prove,
                &mut verify,
            )?;
            table_layer += 1;
        }
    }
    check_tables(ch, ctx, prove, verify)?;
    open_outputs(ch, ctx, mats, &e)
}
