//! Online-phase measurement for `brickyard bench tinytable-tables` (and the
//! ignored `online_rate` test): both parties as two threads of this process
//! over loopback TCP, tables from the TRUSTED DEALER (the online phase does
//! not depend on where its tables came from; reports say so), dealt before
//! the clock starts, every execution on fresh tables.

use super::dealer::{deal_memory, DealPlan};
use super::floor::read_floor;
use super::material::{Layout, Material};
use super::online::{run_batch_refs, Ctx, OnlinePlan, Scratch};
use super::program::Program;
use super::{MacScheme, Variant};
use brickyard_core::channel::{self, NetOptions, ReadSpin};
use brickyard_core::prg::Prg;
use brickyard_core::{Channel, Error, Result};
use brickyard_driver::{OutputMode, Role};
use std::time::Instant;

/// One online measurement.
#[derive(Clone, Debug, serde::Serialize)]
pub struct OnlineRate {
    /// `binary` or `sbox`.
    pub variant: &'static str,
    /// MAC scheme name.
    pub mac: String,
    /// Table gates per AES.
    pub tables: usize,
    /// Median wall time of one execution run alone (the slower party), ms.
    pub latency_ms: f64,
    /// Sequential executions measured.
    pub runs: usize,
    /// Median wall time of one batch divided by its size, µs.
    pub amortised_us: f64,
    /// Executions per batch (in lockstep: one flight per layer for all).
    pub batch: usize,
    /// Batches measured.
    pub batches: usize,
    /// CPU time of the busier party's thread per sequential execution, ms
    /// (mean over all runs, Linux schedstat; 0 elsewhere): unlike wall time,
    /// barely affected by other processes on the machine.
    pub latency_cpu_ms: f64,
    /// CPU time of the busier party's thread per execution in the batches,
    /// µs (mean over all batches).
    pub amortised_cpu_us: f64,
    /// The paper's method (Sec. 5: "reuse the same instance"): like
    /// `amortised_us`, but every execution reads the same dealt tables, so
    /// they stay in cache. INSECURE (reused tables leak inputs); shown only
    /// to compare with the paper's Tables 2–3. 0 if not measured.
    pub reused_us: f64,
    /// CPU per execution of the reused-instance batches, µs.
    pub reused_cpu_us: f64,
    /// Like `amortised_us` with two threads per party (two half batches
    /// on two connections at once; the two calls are not synchronised, so
    /// this is the median over halves of the slower half). 0 if not
    /// measured.
    pub two_threads_us: f64,
    /// The memory floor ([`super::floor`]): the fastest of `batches`
    /// batches of `batch` fresh executions divided by the batch size, µs,
    /// both parties at once (one thread each, the slower one counts),
    /// doing nothing but the reads of fresh records the online phase
    /// cannot avoid, in the best order for the layout: a lower bound of
    /// `amortised_us` on this machine (the fastest batch, not the median:
    /// a preempted batch says nothing about the bound). 0 if not measured.
    /// No CPU time: the scheduler's accounting lags by up to a tick, longer
    /// than a floor batch.
    pub floor_us: f64,
    /// Bytes one party sends per execution (sequential runs).
    pub online_bytes_per_party: u64,
    /// Flights one party sends per execution.
    pub flights_per_party: u64,
    /// Dealer speed while preparing the material (tables/s; not a
    /// preprocessing figure).
    pub dealer_tables_per_second: f64,
}

struct Setup {
    program: Program,
    plan: OnlinePlan,
    layouts: [Layout; 2],
    inputs: [Vec<u32>; 2],
}

/// CPU time consumed by the calling thread, from the scheduler's own
/// accounting (`/proc/thread-self/schedstat`, first field, in ns).
fn thread_cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// Per-call wall times (the slower side), CPU seconds over all calls (the
/// busier side; the scheduler's accounting is too coarse for one call),
/// Alice's bytes and flights.
type Timed = (Vec<f64>, f64, u64, u64);

/// Runs both parties over loopback on `mats`, `per_call` executions per
/// call; with `reuse = Some(calls)`, `mats` holds one instance per party
/// and every execution of `calls` calls uses it (the paper's method;
/// insecure, for comparison only).
fn online(
    s: &Setup,
    mats: [Vec<Material>; 2],
    per_call: usize,
    reuse: Option<usize>,
    link: Link,
) -> Result<Timed> {
    let [ma, mb] = mats;
    let go = |role: Role, mut ch: Channel, mats: Vec<Material>| -> Result<Timed> {
        let refs: Vec<&Material> = match reuse {
            Some(calls) => vec![&mats[0]; per_call * calls],
            None => mats.iter().collect(),
        };
        let me = (role == Role::Bob) as usize;
        let ctx = Ctx::new(
            &s.program,
            &s.plan,
            s.layouts[me],
            role,
            OutputMode::Both,
            &s.inputs[me],
            &s.inputs[1 - me],
        );
        let mut prg = Prg::new();
        let mut scratch = Scratch::default();
        let mut times = Vec::new();
        let mut cpu = 0u64;
        let (mut bytes, mut flights) = (0, 0);
        for chunk in refs.chunks(per_call) {
            let inputs: Vec<Vec<bool>> = chunk
                .iter()
                .map(|_| prg.random_bits(s.inputs[me].len()))
                .collect();
            // Untimed one-byte barrier so both sides start together.
            ch.send_bytes(&[1])?;
            let mut b = [0u8];
            ch.recv_bytes(&mut b)?;
            let before = ch.stats();
            let c0 = thread_cpu_ns();
            let t = Instant::now();
            let out = run_batch_refs(&mut ch, &ctx, chunk, &inputs, &mut scratch)?;
            ch.end_flight()?;
            times.push(t.elapsed().as_secs_f64());
            cpu += thread_cpu_ns() - c0;
            std::hint::black_box(out);
            let d = ch.stats().since(&before);
            bytes += d.bytes_sent;
            flights += d.rounds;
        }
        Ok((times, cpu as f64 * 1e-9, bytes, flights))
    };
    let (cha, chb) = connect_pair(link)?;
    // Named threads, so a profiler can tell the parties from the dealer.
    let (ra, rb) = std::thread::scope(|sc| {
        let bob = std::thread::Builder::new()
            .name("tt-bob".into())
            .spawn_scoped(sc, || go(Role::Bob, chb, mb));
        let alice = std::thread::Builder::new()
            .name("tt-alice".into())
            .spawn_scoped(sc, || go(Role::Alice, cha, ma));
        let join = |h: std::io::Result<std::thread::ScopedJoinHandle<'_, Result<Timed>>>| {
            h.map_err(Error::Io)?
                .join()
                .map_err(|_| Error::config("party thread panicked"))?
        };
        (join(alice), join(bob))
    });
    let (ta, ca, bytes, flights) = ra?;
    let (tb, cb, _, _) = rb?;
    let max = ta.iter().zip(&tb).map(|(a, b)| a.max(*b)).collect();
    Ok((max, ca.max(cb), bytes, flights))
}

/// Both parties' memory floor ([`read_floor`]) on `mats`, `per_call`
/// executions per call, one thread per party as in [`online`], the two
/// started together by a barrier: per call the slower side's wall time.
fn read_floor_both(s: &Setup, mats: [Vec<Material>; 2], per_call: usize) -> Result<Vec<f64>> {
    let start = std::sync::Barrier::new(2);
    let go = |me: usize, mats: Vec<Material>| -> Vec<f64> {
        let l = &s.layouts[me];
        let tables = s.program.table_count();
        let mut prg = Prg::new();
        let mut times = Vec::new();
        for chunk in mats.chunks(per_call) {
            let refs: Vec<&Material> = chunk.iter().collect();
            let seed = prg.random_u64();
            start.wait();
            let t = Instant::now();
            std::hint::black_box(read_floor(&refs, l, tables, seed));
            times.push(t.elapsed().as_secs_f64());
        }
        times
    };
    let [ma, mb] = mats;
    let (ra, rb) = std::thread::scope(|sc| {
        let bob = sc.spawn(|| go(1, mb));
        (go(0, ma), bob.join())
    });
    let tb = rb.map_err(|_| Error::config("floor thread panicked"))?;
    Ok(ra.iter().zip(&tb).map(|(a, b)| a.max(*b)).collect())
}

/// How the two benchmark parties are connected: `brickyard_core::channel`
/// TCP on loopback, as every real run, with the read policy `spin`
/// ([`NetOptions::spin`]: adaptive polling, fixed polling or plain
/// blocking reads). TinyTable's online phase is 12 (S-box) or 62 (binary) flights,
/// so on an idle machine the kernel's wake-up per flight is a visible part
/// of the latency; spinning only pays with a core per party.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Link {
    /// What a read that finds no bytes does.
    pub spin: ReadSpin,
}

impl Link {
    /// Plain blocking reads.
    pub const TCP: Link = Link {
        spin: ReadSpin::Block,
    };
}

/// Two connected channels over `link`: (Alice's, Bob's).
fn connect_pair(link: Link) -> Result<(Channel, Channel)> {
    let listener = channel::listen("127.0.0.1:0")?;
    let addr = listener.local_addr()?.to_string();
    let opts = NetOptions {
        spin: link.spin,
        ..NetOptions::default()
    };
    let opts_b = opts.clone();
    let b = std::thread::spawn(move || channel::connect(&addr, &opts_b));
    let a = channel::accept(&listener, &opts)?;
    let b = b
        .join()
        .map_err(|_| Error::config("connect thread panicked"))??;
    Ok((a, b))
}

fn median(v: &[f64]) -> f64 {
    brickyard_driver::report::median(v)
}

/// What [`measure_online`] runs.
#[derive(Clone, Copy, Debug)]
pub struct Runs {
    /// Sequential executions (latency); 0 to skip.
    pub runs: usize,
    /// Executions per lockstep batch (amortised time); 0 to skip.
    pub batch: usize,
    /// Batches (fresh tables each).
    pub batches: usize,
    /// Also run the paper's reused-instance batches (insecure; comparison).
    pub reuse: bool,
    /// Also run two threads per party (two half batches at once).
    pub threads: bool,
    /// Also measure the memory floor (batches of `batch`, fresh records).
    pub floor: bool,
    /// The connection.
    pub link: Link,
}

/// Measures the online phase of AES-128 for one variant and MAC scheme:
/// `runs` sequential executions (latency) and `batches` batches of `batch`
/// executions in lockstep (amortised time), each on fresh dealer tables.
pub fn measure_online(variant: Variant, mac: MacScheme, p: Runs) -> Result<OnlineRate> {
    let Runs {
        runs,
        batch,
        batches,
        reuse,
        threads,
        floor,
        link,
    } = p;
    let aes = brickyard_circuit::builtin("aes128").map_err(Error::config)?;
    let program = variant.compile(&aes)?;
    let inputs = [program.inputs[0].clone(), program.inputs[1].clone()];
    let layouts = [
        Layout::new(&program, mac, inputs[0].len()),
        Layout::new(&program, mac, inputs[1].len()),
    ];
    let s = Setup {
        plan: OnlinePlan::new(&program),
        program,
        layouts,
        inputs,
    };
    let plan = DealPlan {
        program: &s.program,
        alice_inputs: s.inputs[0].clone(),
        bob_inputs: s.inputs[1].clone(),
        layouts: s.layouts,
    };
    let mut prg = Prg::new();
    let (mut lat, mut lat_cpu, mut bytes, mut flights, mut dealer_rate) = (0.0, 0.0, 0, 0, 0.0);
    if runs > 0 {
        let t = Instant::now();
        let mats = deal_memory(&mut prg, &plan, runs)?;
        dealer_rate = (runs * s.program.table_count()) as f64 / t.elapsed().as_secs_f64();
        let (times, cpu, b, f) = online(&s, mats, 1, None, link)?;
        lat = median(&times) * 1e3;
        lat_cpu = cpu / runs as f64 * 1e3;
        bytes = b / runs as u64;
        flights = f / runs as u64;
    }
    let (mut amort, mut amort_cpu) = (0.0, 0.0);
    if batch > 0 && batches > 0 {
        let mats = deal_memory(&mut prg, &plan, batch * batches)?;
        let (times, cpu, _, _) = online(&s, mats, batch, None, link)?;
        amort = median(&times) * 1e6 / batch as f64;
        amort_cpu = cpu * 1e6 / (batch * batches) as f64;
    }
    // A second thread per party: the batch split in two halves, each run by
    // its own pair of party threads over its own connection.
    let mut two_threads = 0.0;
    if threads && batch > 1 && batches > 0 {
        let half = batch / 2;
        let [ma, mb] = deal_memory(&mut prg, &plan, 2 * half * batches)?;
        let (mut ma, mut mb) = (ma, mb);
        let (ma2, mb2) = (ma.split_off(half * batches), mb.split_off(half * batches));
        let (r1, r2) = std::thread::scope(|sc| {
            let h = sc.spawn(|| online(&s, [ma2, mb2], half, None, link));
            (online(&s, [ma, mb], half, None, link), h.join())
        });
        let (t1, _, _, _) = r1?;
        let (t2, _, _, _) = r2.map_err(|_| Error::config("second thread panicked"))??;
        let per: Vec<f64> = t1.iter().zip(&t2).map(|(a, b)| a.max(*b)).collect();
        two_threads = median(&per) * 1e6 / (2 * half) as f64;
    }
    let mut floor_us = 0.0;
    if floor && batch > 0 && batches > 0 {
        let mats = deal_memory(&mut prg, &plan, batch * batches)?;
        let times = read_floor_both(&s, mats, batch)?;
        floor_us = times.iter().copied().fold(f64::INFINITY, f64::min) * 1e6 / batch as f64;
    }
    let (mut reused, mut reused_cpu) = (0.0, 0.0);
    if reuse && batch > 0 && batches > 0 {
        let mats = deal_memory(&mut prg, &plan, 1)?;
        let (times, cpu, _, _) = online(&s, mats, batch, Some(batches), link)?;
        reused = median(&times) * 1e6 / batch as f64;
        reused_cpu = cpu * 1e6 / (batch * batches) as f64;
    }
    Ok(OnlineRate {
        variant: variant.name(),
        mac: mac.name(),
        tables: s.program.table_count(),
        latency_ms: lat,
        runs,
        amortised_us: amort,
        batch,
        latency_cpu_ms: lat_cpu,
        amortised_cpu_us: amort_cpu,
        reused_us: reused,
        two_threads_us: two_threads,
        reused_cpu_us: reused_cpu,
        floor_us,
        batches,
        online_bytes_per_party: bytes,
        flights_per_party: flights,
        dealer_tables_per_second: dealer_rate,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `TT_ROWS=sbox:linear-64,binary:lookup-64 TT_RUNS=20 TT_BATCH=64
    /// TT_BATCHES=3 cargo test -p brickyard-protocols --release --lib --
    /// --ignored --nocapture online_rate`
    #[test]
    #[ignore = "a measurement"]
    fn online_rate() {
        let env = |k: &str, d: &str| std::env::var(k).unwrap_or_else(|_| d.to_string());
        let rows = env(
            "TT_ROWS",
            "sbox:linear-64,sbox:passive,binary:linear-64,binary:lookup-64,binary:passive",
        );
        let runs: usize = env("TT_RUNS", "20").parse().unwrap();
        let batch: usize = env("TT_BATCH", "64").parse().unwrap();
        let batches: usize = env("TT_BATCHES", "3").parse().unwrap();
        // Huge pages the kernel gave (or failed to give) this process's
        // faults, system-wide counters (`PageBuf::cut` regions).
        let thp = || {
            let vm = std::fs::read_to_string("/proc/vmstat").unwrap_or_default();
            let get = |k: &str| -> u64 {
                vm.lines()
                    .find_map(|l| l.strip_prefix(k))
                    .and_then(|v| v.trim().parse().ok())
                    .unwrap_or(0)
            };
            (get("thp_fault_alloc "), get("thp_fault_fallback "))
        };
        for r in rows.split(',') {
            let thp0 = thp();
            let (v, m) = r.split_once(':').unwrap();
            let v = if v == "sbox" {
                Variant::Sbox
            } else {
                Variant::Binary
            };
            let link = Link {
                spin: ReadSpin::from_env("TT_SPIN_US").unwrap(),
            };
            let o = measure_online(
                v,
                MacScheme::parse(m).unwrap(),
                Runs {
                    runs,
                    batch,
                    batches,
                    reuse: true,
                    threads: env("TT_THREADS", "0") == "1",
                    floor: true,
                    link,
                },
            )
            .unwrap();
            println!(
                "{:<7} {:<10} lat {:>7.3} ms (cpu {:.3})  amort {:>8.2} us (cpu {:.2})  reused {:.2} us (cpu {:.2}) floor {:.2} us 2thr {:.2} us (batch {}) bytes {} flights {}",
                o.variant,
                o.mac,
                o.latency_ms,
                o.latency_cpu_ms,
                o.amortised_us,
                o.amortised_cpu_us,
                o.reused_us,
                o.reused_cpu_us,
                o.floor_us,
                o.two_threads_us,
                o.batch,
                o.online_bytes_per_party,
                o.flights_per_party
            );
            let thp1 = thp();
            println!(
                "  huge pages faulted in: {} (fallbacks to small pages: {})",
                thp1.0 - thp0.0,
                thp1.1 - thp0.1
            );
        }
    }
}
#[cfg(test)]
mod stats {
    #[test]
    #[ignore = "prints sizes"]
    fn plan_sizes() {
        let aes = brickyard_circuit::builtin("aes128").unwrap();
        for v in [super::Variant::Sbox, super::Variant::Binary] {
            let p = v.compile(&aes).unwrap();
            let lin: usize = p.layers.iter().map(|l| l.linear.len()).sum();
            let nots: usize = p
                .layers
                .iter()
                .map(|l| {
                    l.linear
                        .iter()
                        .filter(|g| matches!(g, super::super::program::Lin::Not(..)))
                        .count()
                })
                .sum();
            println!(
                "{:?}: wires {} linear {} nots {} layers {} tables {}",
                v,
                p.num_wires,
                lin,
                nots,
                p.layers.len(),
                p.table_count()
            );
        }
    }
}
