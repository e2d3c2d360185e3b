//! JIMU's online latency on AES-128 without Step 5b's seconds-long proof,
//! for profiling and quick A/B of the online phase (the figures that the
//! docs quote come from `brickyard bench --protocol jimu`, which runs the
//! proof). Both parties in one process over loopback TCP, as the bench;
//! each run is a whole fresh preprocessing and `E` executions (the bench:
//! one; more give a profiler more online samples per preprocessing).
//!
//! ```sh
//! cargo run --release -p brickyard-jimu --features adversary --example online_latency -- RUNS [K [E]]
//! ```

use brickyard_core::channel::{accept, connect, listen, NetOptions};
use brickyard_jimu::{new_party, Cheats, JimuOptions};
use brickyard_protocols::{driver, LocalNet, Role};
use brickyard_testkit::{assemble, cfg_for, random_inputs, Rng};

fn main() {
    let mut args = std::env::args().skip(1);
    let runs: usize = args.next().map_or(20, |a| a.parse().expect("runs"));
    let k: u32 = args.next().map_or(88, |a| a.parse().expect("k"));
    let c = brickyard_circuit::resolve("builtin:aes128").expect("aes128");
    let e: usize = args.next().map_or(1, |a| a.parse().expect("executions"));
    let mut cfg = cfg_for(c);
    cfg.executions = e;
    let opts = JimuOptions { k, s: 40 };
    let cheats = || Cheats::default().without_step_5b();
    let mut rng = Rng(std::process::id() as u64 | 1);
    let mut online = Vec::with_capacity(runs);
    for _ in 0..runs {
        let ai = random_inputs(&mut rng, &cfg, Role::Alice, e);
        let bi = random_inputs(&mut rng, &cfg, Role::Bob, e);
        let listener = listen("127.0.0.1:0").expect("listen");
        let addr = listener.local_addr().expect("addr").to_string();
        let t = std::thread::spawn(move || connect(&addr, &NetOptions::default()));
        let alice = accept(&listener, &NetOptions::default()).expect("accept");
        let bob = t.join().expect("connect thread").expect("connect");
        let out = driver::run_local(
            "jimu",
            "aes128",
            new_party(Role::Alice, cfg.clone(), opts, cheats()).expect("alice"),
            new_party(Role::Bob, cfg.clone(), opts, cheats()).expect("bob"),
            &cfg,
            ai.clone(),
            bi.clone(),
            LocalNet {
                alice,
                bob,
                name: "loopback".into(),
            },
        )
        .expect("run");
        for (x, got) in out.bob_outputs.iter().enumerate() {
            let want = cfg
                .circuit
                .eval(&assemble(&cfg, &ai[x], &bi[x]))
                .expect("eval");
            assert_eq!(*got, want, "wrong output");
        }
        let r = &out.report;
        let dep = r.phases[2].wall_ms;
        println!(
            "independent {:7.2} ms  dependent {:6.2} ms  online {:5.3} ms",
            r.phases[1].wall_ms, dep, r.online.latency_ms
        );
        online.push(r.online.latency_ms);
    }
    online.sort_by(f64::total_cmp);
    println!(
        "online: median {:.3} ms, min {:.3} ms, max {:.3} ms over {runs} runs (k = {k}, {e} execution(s) a run)",
        online[runs / 2],
        online[0],
        online[runs - 1]
    );
}
