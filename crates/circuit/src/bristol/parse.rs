//! The Bristol parser: header, format detection, gates, normalisation.
//!
//! File wires are renumbered on the fly: IR wire ids are handed out in the
//! order wires are written (inputs first, then gate outputs in file order),
//! so the IR is dense even when the file leaves gaps, and `EQW` costs
//! nothing because its output simply becomes another name for its input.

use super::lines::{parse_u32, Lines};
use super::{ParseError, ParseErrorKind as K};
use crate::ir::{Circuit, Gate, Group, WireId};

/// The largest wire count a header may declare. Per-wire tables are
/// allocated up front, so this bounds the memory a hostile header can ask
/// for (about 1 GiB at the limit); real circuits are far below it.
pub const MAX_WIRES: u32 = 1 << 28;

/// Parses Bristol Fashion or old Bristol format text (detected automatically).
pub fn parse_bristol(text: &str) -> Result<Circuit, ParseError> {
    parse_bristol_bytes(text.as_bytes())
}

/// [`parse_bristol`] over raw bytes (the file need not be UTF-8).
pub fn parse_bristol_bytes(data: &[u8]) -> Result<Circuit, ParseError> {
    Parser::new(data).run()
}

fn err(line: usize, kind: K) -> ParseError {
    ParseError { line, kind }
}

fn show(tok: &[u8]) -> String {
    String::from_utf8_lossy(tok).chars().take(40).collect()
}

struct Parser<'a> {
    lines: Lines<'a>,
    toks: Vec<&'a [u8]>,
    num_wires: u32,
    /// File wire -> IR wire + 1 (0 = not yet written). Zero-initialised so
    /// that a large header costs only untouched pages.
    map: Vec<u32>,
    next: u32,
    gates: Vec<Gate>,
    /// IR wires holding the constants 0 and 1, created on first use.
    consts: [Option<WireId>; 2],
    num_inputs: u32,
    data_len: usize,
}

impl<'a> Parser<'a> {
    fn new(data: &'a [u8]) -> Self {
        Parser {
            lines: Lines::new(data),
            toks: Vec::with_capacity(16),
            num_wires: 0,
            map: Vec::new(),
            next: 0,
            gates: Vec::new(),
            consts: [None, None],
            num_inputs: 0,
            data_len: data.len(),
        }
    }

    fn line(&self) -> usize {
        self.lines.line()
    }

    fn num(&self, tok: &[u8]) -> Result<u32, ParseError> {
        parse_u32(tok).ok_or_else(|| err(self.line(), K::NotANumber(show(tok))))
    }

    fn nums(&self) -> Result<Vec<u32>, ParseError> {
        self.toks.iter().map(|t| self.num(t)).collect()
    }

    /// Reads the next non-blank header line as integers.
    fn header_line(&mut self, what: &str) -> Result<Vec<u32>, ParseError> {
        if !self.lines.next_into(&mut self.toks) {
            return Err(err(
                self.line() + 1,
                K::Header(format!("missing {what} line")),
            ));
        }
        self.nums()
    }

    fn run(mut self) -> Result<Circuit, ParseError> {
        let first = self.header_line("gate/wire count")?;
        let &[num_gates, num_wires] = first.as_slice() else {
            return Err(err(
                self.line(),
                K::Header(format!("line 1 must hold 2 numbers, found {}", first.len())),
            ));
        };
        if num_wires > MAX_WIRES {
            return Err(err(self.line(), K::TooLarge(num_wires.into())));
        }
        self.num_wires = num_wires;

        // Old format: the third non-blank line is already a gate, ending in
        // an operation name. No third line at all is only possible there.
        let mut peek = self.lines;
        let mut t = Vec::new();
        let old = !(peek.next_into(&mut t) && peek.next_into(&mut t))
            || t.last()
                .is_some_and(|tok| tok.first().is_some_and(|b| b.is_ascii_alphabetic()));

        let (in_sizes, out_sizes, out_line) = if old {
            let v = self.header_line("input/output size")?;
            let &[n1, n2, nout] = v.as_slice() else {
                return Err(err(
                    self.line(),
                    K::Header(format!(
                        "old format line 2 must hold 3 numbers, found {}",
                        v.len()
                    )),
                ));
            };
            // A zero-width second input (sha-256.txt: `512 0 256`) is not a group.
            let ins = [n1, n2]
                .into_iter()
                .enumerate()
                .filter(|&(i, n)| i == 0 || n > 0)
                .map(|(_, n)| n)
                .collect();
            (ins, vec![nout], self.line())
        } else {
            let ins = self.sized_list("input")?;
            let outs = self.sized_list("output")?;
            (ins, outs, self.line())
        };

        let total = |v: &[u32]| v.iter().map(|&n| u64::from(n)).sum::<u64>();
        let (n_in, n_out) = (total(&in_sizes), total(&out_sizes));
        if n_in > u64::from(num_wires) || n_out > u64::from(num_wires) {
            return Err(err(
                out_line,
                K::Header(format!(
                    "{n_in} input and {n_out} output wires do not fit in {num_wires} wires"
                )),
            ));
        }
        // Both fit in u32 now.
        self.map = vec![0; num_wires as usize];
        for (i, slot) in self.map.iter_mut().take(n_in as usize).enumerate() {
            *slot = i as u32 + 1;
        }
        self.next = n_in as u32;
        self.num_inputs = n_in as u32;
        // Gate lines take at least 6 bytes: never reserve more than the text allows.
        self.gates
            .reserve((num_gates as usize).min(self.data_len / 6));

        for found in 0..u64::from(num_gates) {
            if !self.lines.next_into(&mut self.toks) {
                return Err(err(
                    self.line(),
                    K::Truncated {
                        expected: num_gates.into(),
                        found,
                    },
                ));
            }
            self.gate()?;
        }
        if self.lines.next_into(&mut self.toks) {
            return Err(err(self.line(), K::TrailingContent(num_gates.into())));
        }

        let mut start = 0u32;
        let inputs = in_sizes
            .iter()
            .enumerate()
            .map(|(i, &n)| {
                let g = Group {
                    name: format!("input{i}"),
                    wires: (start..start + n).collect(),
                };
                start += n;
                g
            })
            .collect();
        let mut file_wire = num_wires - n_out as u32;
        let mut outputs = Vec::with_capacity(out_sizes.len());
        for (i, &n) in out_sizes.iter().enumerate() {
            let mut wires = Vec::with_capacity(n as usize);
            for _ in 0..n {
                match self.map.get(file_wire as usize) {
                    Some(&m) if m > 0 => wires.push(m - 1),
                    _ => return Err(err(out_line, K::OutputNotWritten(file_wire))),
                }
                file_wire += 1;
            }
            outputs.push(Group {
                name: format!("output{i}"),
                wires,
            });
        }
        Ok(Circuit {
            num_wires: self.next,
            inputs,
            outputs,
            gates: self.gates,
        })
    }

    /// `n w1 .. wn` (Bristol Fashion input or output line).
    fn sized_list(&mut self, what: &str) -> Result<Vec<u32>, ParseError> {
        let v = self.header_line(what)?;
        match v.split_first() {
            Some((&n, rest)) if n as usize == rest.len() => Ok(rest.to_vec()),
            Some((&n, rest)) => Err(err(
                self.line(),
                K::Header(format!(
                    "{what} line declares {n} values but lists {} widths",
                    rest.len()
                )),
            )),
            None => Err(err(self.line(), K::Header(format!("empty {what} line")))),
        }
    }

    fn read(&self, tok: &[u8]) -> Result<WireId, ParseError> {
        let w = self.num(tok)?;
        match self.map.get(w as usize) {
            Some(&m) if m > 0 => Ok(m - 1),
            Some(_) => Err(err(self.line(), K::ReadBeforeWrite(w))),
            None => Err(err(
                self.line(),
                K::WireOutOfRange {
                    wire: w.into(),
                    num_wires: self.num_wires,
                },
            )),
        }
    }

    /// Binds file wire `tok` to IR wire `target`.
    fn bind(&mut self, tok: &[u8], target: WireId) -> Result<(), ParseError> {
        let w = self.num(tok)?;
        let line = self.line();
        let num_wires = self.num_wires;
        match self.map.get_mut(w as usize) {
            Some(m) if *m == 0 => {
                *m = target + 1;
                Ok(())
            }
            Some(_) => Err(err(line, K::WrittenTwice(w))),
            None => Err(err(
                line,
                K::WireOutOfRange {
                    wire: w.into(),
                    num_wires,
                },
            )),
        }
    }

    /// Allocates a fresh IR wire for file wire `tok` and returns it.
    fn write(&mut self, tok: &[u8]) -> Result<WireId, ParseError> {
        let id = self.next;
        self.bind(tok, id)?;
        self.next += 1;
        Ok(id)
    }

    fn constant(&mut self, v: bool) -> Result<WireId, ParseError> {
        if let Some(w) = self.consts[usize::from(v)] {
            return Ok(w);
        }
        if self.num_inputs == 0 {
            return Err(err(self.line(), K::ConstantWithoutInputs));
        }
        let zero = match self.consts[0] {
            Some(z) => z,
            None => {
                let z = self.next;
                self.next += 1;
                self.gates.push(Gate::Xor { a: 0, b: 0, out: z });
                self.consts[0] = Some(z);
                z
            }
        };
        if !v {
            return Ok(zero);
        }
        let one = self.next;
        self.next += 1;
        self.gates.push(Gate::Inv { a: zero, out: one });
        self.consts[1] = Some(one);
        Ok(one)
    }

    fn gate(&mut self) -> Result<(), ParseError> {
        let toks = std::mem::take(&mut self.toks);
        let r = self.gate_tokens(&toks);
        self.toks = toks;
        r
    }

    fn gate_tokens(&mut self, toks: &[&'a [u8]]) -> Result<(), ParseError> {
        let line = self.line();
        let arity = |m: String| err(line, K::Arity(m));
        let (Some(op), Some(n_in), Some(n_out)) = (toks.last(), toks.first(), toks.get(1)) else {
            return Err(arity(format!(
                "a gate line needs at least 3 tokens, found {}",
                toks.len()
            )));
        };
        if toks.len() < 3 {
            return Err(arity(format!(
                "a gate line needs at least 3 tokens, found {}",
                toks.len()
            )));
        }
        let (n_in, n_out) = (self.num(n_in)? as usize, self.num(n_out)? as usize);
        let wires = toks.get(2..toks.len() - 1).unwrap_or(&[]);
        let want = |i: usize, o: usize, name: &str| -> Result<(), ParseError> {
            if (n_in, n_out) != (i, o) {
                return Err(arity(format!(
                    "{name} takes {i} inputs and {o} output, the line says {n_in} and {n_out}"
                )));
            }
            Ok(())
        };
        let op_kind = match *op {
            b"XOR" | b"AND" => {
                want(2, 1, &show(op))?;
                0
            }
            b"INV" | b"NOT" => {
                want(1, 1, &show(op))?;
                1
            }
            b"EQW" => {
                want(1, 1, "EQW")?;
                2
            }
            b"EQ" => {
                want(1, 1, "EQ")?;
                3
            }
            b"MAND" => {
                if n_out == 0 || n_in != 2 * n_out {
                    return Err(arity(format!(
                        "MAND takes 2k inputs and k outputs, the line says {n_in} and {n_out}"
                    )));
                }
                4
            }
            _ => {
                if op.iter().all(u8::is_ascii_digit) {
                    return Err(arity(
                        "the gate line does not end in an operation name".into(),
                    ));
                }
                return Err(err(line, K::UnknownOp(show(op))));
            }
        };
        if wires.len() != n_in + n_out {
            return Err(arity(format!(
                "the gate declares {n_in} inputs and {n_out} outputs but lists {} wires",
                wires.len()
            )));
        }
        match (op_kind, wires) {
            (0, &[a, b, c]) => {
                let (a, b) = (self.read(a)?, self.read(b)?);
                let out = self.write(c)?;
                self.gates.push(if op.first() == Some(&b'X') {
                    Gate::Xor { a, b, out }
                } else {
                    Gate::And { a, b, out }
                });
            }
            (1, &[a, c]) => {
                let a = self.read(a)?;
                let out = self.write(c)?;
                self.gates.push(Gate::Inv { a, out });
            }
            (2, &[a, c]) => {
                let a = self.read(a)?;
                self.bind(c, a)?;
            }
            (3, &[v, c]) => {
                let v = match v {
                    b"0" => false,
                    b"1" => true,
                    _ => {
                        return Err(arity(format!(
                            "EQ needs the constant 0 or 1, found {:?}",
                            show(v)
                        )))
                    }
                };
                // Check the output before creating constant gates for it.
                let w = self.num(c)?;
                if self.map.get(w as usize).is_some_and(|&m| m > 0) {
                    return Err(err(line, K::WrittenTwice(w)));
                }
                let k = self.constant(v)?;
                self.bind(c, k)?;
            }
            (4, _) => {
                let k = n_out;
                let (ins, outs) = wires.split_at(2 * k);
                let (xs, ys) = ins.split_at(k);
                let mut pairs = Vec::with_capacity(k);
                for (x, y) in xs.iter().zip(ys) {
                    pairs.push((self.read(x)?, self.read(y)?));
                }
                for ((a, b), c) in pairs.into_iter().zip(outs) {
                    let out = self.write(c)?;
                    self.gates.push(Gate::And { a, b, out });
                }
            }
            _ => return Err(arity("malformed gate".into())),
        }
        Ok(())
    }
}
