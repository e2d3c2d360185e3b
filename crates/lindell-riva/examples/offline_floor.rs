//! The offline stage (Figs. A.1–A.2) alone, to profile it and to set its
//! measured time beside its compute floor on this machine.
//!
//! * with `SETUP` set: Bob's setup (E, E', the circuits, both plans), and
//!   the plan of C alone, five times;
//! * with `FLOOR` set: Alice's generation of all `M + M'` bundles
//!   (garbling and label commitments, `bundle::generate_into`, no
//!   channel) on one thread, then the garbling alone: the least her
//!   offline CPU can be with these kernels, per execution;
//! * then `RUNS` times: setup, independent and dependent phases of both
//!   parties over loopback TCP, Alice on a thread, Bob on this one, wall
//!   ms per phase and each party's thread CPU (for `perf record`, with no
//!   online stage mixed in).
//!
//! `cargo run --release -p brickyard-lindell-riva --example offline_floor --
//! [CIRCUIT] [N] [RUNS]` (default `builtin:aes128 128 3`; the circuit's
//! first input group is Alice's, the others Bob's).

use brickyard_core::channel::{accept, connect, listen, memory_pair, NetOptions};
use brickyard_core::prg::Prg;
use brickyard_core::Block;
use brickyard_garble::{garble_into, Delta, Keep};
use brickyard_lindell_riva::protocol::bundle::{self, BundlePublic, Scratch};
use brickyard_lindell_riva::protocol::{Agreed, Alice, Bob, Cheat, Setup};
use std::sync::Arc;
use std::time::Instant;

fn cpu_ms() -> f64 {
    brickyard_core::cpu_time::thread_cpu_ns().unwrap_or(0) as f64 / 1e6
}

fn floor(st: &Setup, n: usize) {
    let total = st.total();
    let mut prg = Prg::from_seed(Block(9));
    let mut public = BundlePublic::empty();
    let mut scratch = Scratch::new();
    let (t, c) = (Instant::now(), cpu_ms());
    for j in 0..total {
        let (plan, shape) = st.of(j);
        let s = bundle::generate_into(
            plan,
            shape,
            j,
            prg.random_block(),
            &mut public,
            &mut scratch,
        )
        .expect("bundle");
        std::hint::black_box(&s);
    }
    let (wall, cpu) = (t.elapsed().as_secs_f64() * 1e3, cpu_ms() - c);
    println!(
        "floor: generate {total} bundles: wall {wall:.1} ms, cpu {cpu:.1} ms = {:.3} ms per execution",
        cpu / n as f64
    );
    let mut tables = Vec::new();
    let (t, c) = (Instant::now(), cpu_ms());
    for j in 0..total {
        let (plan, shape) = st.of(j);
        let delta = Delta::random(&mut prg);
        let mut zero = vec![Block::ZERO; shape.inputs()];
        prg.fill_blocks(&mut zero);
        let out = garble_into(plan, &delta, &zero, 0, Keep::Outputs, &mut tables).expect("garble");
        std::hint::black_box(&out);
    }
    let (wall, cpu) = (t.elapsed().as_secs_f64() * 1e3, cpu_ms() - c);
    println!(
        "floor: garble only: wall {wall:.1} ms, cpu {cpu:.1} ms = {:.3} ms per execution",
        cpu / n as f64
    );
}

fn main() {
    let mut args = std::env::args().skip(1);
    let spec = args.next().unwrap_or_else(|| "builtin:aes128".into());
    let n: usize = args.next().map_or(128, |s| s.parse().expect("N"));
    let runs: usize = args.next().map_or(3, |s| s.parse().expect("runs"));
    let f = Arc::new(brickyard_circuit::resolve(&spec).expect("circuit"));
    let widths: Vec<usize> = f.inputs.iter().map(|g| g.wires.len()).collect();
    let alice: Vec<usize> = (0..widths[0]).collect();
    let bob: Vec<usize> = (widths[0]..widths.iter().sum()).collect();
    let agreed = Agreed::new(f, alice, bob, n, 40).expect("parameters");
    if std::env::var_os("SETUP").is_some() {
        for _ in 0..5 {
            let (mut ch, _peer) = memory_pair();
            let t = Instant::now();
            let st =
                Setup::bob_choose(&mut ch, &agreed, &mut Prg::from_seed(Block(7)), Cheat::None)
                    .expect("setup");
            let t1 = Instant::now();
            let c = brickyard_lindell_riva::protocol::circuits::main_circuit(
                &agreed.f,
                &agreed.alice,
                &agreed.bob,
                &st.e,
            )
            .expect("c");
            let t2 = Instant::now();
            let p = brickyard_garble::GarblePlan::new(&c).expect("plan");
            let t3 = Instant::now();
            std::hint::black_box(&p);
            println!(
                "setup build {:.1} ms; main_circuit {:.1}; plan of C {:.1} ms; live slots of C {}, of C' {}",
                (t1 - t).as_secs_f64() * 1e3,
                (t2 - t1).as_secs_f64() * 1e3,
                (t3 - t2).as_secs_f64() * 1e3,
                st.plan.live_slots(),
                st.plan2.live_slots()
            );
        }
    }
    if std::env::var_os("FLOOR").is_some() {
        let (mut ch, _peer) = memory_pair();
        let t = Instant::now();
        let st = Setup::bob_choose(&mut ch, &agreed, &mut Prg::from_seed(Block(7)), Cheat::None)
            .expect("setup");
        println!(
            "setup build (E, E', circuits, plans): {:.1} ms",
            t.elapsed().as_secs_f64() * 1e3
        );
        floor(&st, n);
    }
    for _ in 0..runs {
        let l = listen("127.0.0.1:0").expect("listen");
        let addr = l.local_addr().expect("addr").to_string();
        let a = agreed.clone();
        let alice = std::thread::Builder::new()
            .name("alice".into())
            .spawn(move || {
                let mut ch = accept(&l, &NetOptions::default()).expect("accept");
                let mut p = Alice::new(a);
                let c0 = cpu_ms();
                p.setup(&mut ch).expect("setup");
                let c1 = cpu_ms();
                p.independent(&mut ch).expect("independent");
                let c2 = cpu_ms();
                p.dependent(&mut ch).expect("dependent");
                ch.flush().expect("flush");
                println!(
                    "alice cpu: setup {:.1} independent {:.1} dependent {:.1}",
                    c1 - c0,
                    c2 - c1,
                    cpu_ms() - c2
                );
                cpu_ms()
            })
            .expect("thread");
        let mut ch = connect(&addr, &NetOptions::default()).expect("connect");
        let mut p = Bob::new(agreed.clone());
        let (t0, c0) = (Instant::now(), cpu_ms());
        p.setup(&mut ch).expect("setup");
        let (t1, c1) = (Instant::now(), cpu_ms());
        p.independent(&mut ch).expect("independent");
        let (t2, c2) = (Instant::now(), cpu_ms());
        p.dependent(&mut ch).expect("dependent");
        let t3 = Instant::now();
        println!(
            "bob cpu: setup {:.1} independent {:.1} dependent {:.1}",
            c1 - c0,
            c2 - c1,
            cpu_ms() - c2
        );
        let bob_cpu = cpu_ms() - c0;
        let alice_cpu = alice.join().expect("alice");
        let ms = |a: Instant, b: Instant| (b - a).as_secs_f64() * 1e3;
        println!(
            "run: setup {:.1} independent {:.1} dependent {:.1} ms; offline {:.2} ms per execution; cpu alice {alice_cpu:.0} bob (main thread) {bob_cpu:.0} ms",
            ms(t0, t1),
            ms(t1, t2),
            ms(t2, t3),
            ms(t0, t3) / n as f64
        );
        drop(p);
    }
}
