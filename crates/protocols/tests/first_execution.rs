//! Every registered protocol reports its first online execution beside
//! the median, in the report, its JSON and its table (issue #30: a fresh
//! process pays first-touch costs that steady state does not, so the
//! bench and `brickyard run` show both). Not a timing assertion: the test
//! checks that the figure is there and is one execution's time.

use brickyard_testkit as common;

use brickyard_protocols::registry::PROTOCOLS;
use brickyard_protocols::{Role, RunConfig};
use common::*;

fn config(protocol: &str, rng: &mut Rng) -> RunConfig {
    // TinyTable's S-box variant computes AES-128 only.
    let c = if protocol == "tinytable-sbox" {
        brickyard_circuit::resolve("builtin:aes128").unwrap()
    } else {
        random_circuit(rng, 2, 30, 2)
    };
    let mut cfg = cfg_for(c);
    cfg.executions = 3;
    cfg
}

#[test]
fn every_protocol_reports_its_first_execution() {
    let mut rng = Rng(0xf1257);
    for p in PROTOCOLS {
        let cfg = config(p.name, &mut rng);
        let ai = random_inputs(&mut rng, &cfg, Role::Alice, 3);
        let bi = random_inputs(&mut rng, &cfg, Role::Bob, 3);
        let run = run_memory(p.name, &cfg, ai.clone(), bi.clone())
            .unwrap_or_else(|e| panic!("{}: {e}", p.name));
        for x in 0..3 {
            let want = cfg.circuit.eval(&assemble(&cfg, &ai[x], &bi[x])).unwrap();
            assert_eq!(run.bob_outputs[x], want, "{}: execution {x}", p.name);
        }
        let r = &run.report;
        let online = &r.phases[3];
        assert!(
            r.online.first_ms > 0.0 && r.online.latency_ms > 0.0,
            "{}: {:?}",
            p.name,
            r.online
        );
        // One execution of the online phase, not the phase itself.
        assert!(
            r.online.first_ms < online.wall_ms,
            "{}: first {} ms, online phase {} ms",
            p.name,
            r.online.first_ms,
            online.wall_ms
        );
        let json = serde_json::to_value(r).unwrap();
        assert_eq!(
            json["online"]["first_ms"].as_f64(),
            Some(r.online.first_ms),
            "{}: {json}",
            p.name
        );
        let table = r.table();
        assert!(
            table.contains("first execution"),
            "{}: no first execution in\n{table}",
            p.name
        );
    }
}
