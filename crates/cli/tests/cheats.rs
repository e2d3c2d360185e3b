//! The adversary flags as a user runs them (built with `--features adversary`,
//! as CI does): every listed strategy of `lego`, `tinytable`,
//! `lindell-riva` and `jimu` ends in the
//! outcome its table below names — an abort naming that check, or (for a
//! strategy the protocol tolerates) the correct output — never a wrong one.
//! A strategy missing from the table fails the test, so a new cheat must
//! say what it expects.
#![cfg(feature = "adversary")]

use std::process::Command;

fn brickyard(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_brickyard"))
        .args(args)
        .output()
        .unwrap()
}

/// What the honest party must end with.
#[derive(Debug, Clone, Copy)]
enum Expect {
    /// Always an abort, naming one of these checks.
    Abort(&'static [&'static str]),
    /// An abort naming one of these checks, or the correct output
    /// (a fault the protocol may tolerate: caught only when checked).
    AbortOrCorrect(&'static [&'static str]),
    /// The correct output of the cheater's substituted input (an input
    /// substitution the ideal functionality allows): `want` is printed.
    Output(&'static str),
}

const LEGO: &[(&str, Expect)] = &[
    (
        "alice:nand-gate",
        Expect::AbortOrCorrect(&["cut-and-choose-gate"]),
    ),
    (
        "alice:corrupt-row",
        Expect::AbortOrCorrect(&["cut-and-choose-gate"]),
    ),
    (
        "alice:inconsistent-wire",
        Expect::AbortOrCorrect(&["cut-and-choose-gate"]),
    ),
    ("alice:bad-soldering", Expect::Abort(&["batch-decommit"])),
    (
        "alice:selective-ot",
        Expect::Abort(&["input-authenticator"]),
    ),
    ("alice:flip-bob-input", Expect::Abort(&["input-key-lsb"])),
    ("alice:lie-verleak", Expect::Abort(&["bit-open"])),
    (
        "alice:wrong-input-key",
        Expect::Abort(&["input-authenticator"]),
    ),
    (
        "bob:wrong-rot-proof",
        Expect::Abort(&["delta-rot-proof-of-knowledge"]),
    ),
    (
        "alice:corrupt-authenticator",
        Expect::AbortOrCorrect(&["cut-and-choose-authenticator"]),
    ),
    (
        "alice:false-delta",
        Expect::Abort(&["cut-and-choose-authenticator", "cut-and-choose-gate"]),
    ),
    (
        "alice:false-delta-few",
        Expect::AbortOrCorrect(&["cut-and-choose-authenticator", "cut-and-choose-gate"]),
    ),
    (
        "alice:bad-spare-rot",
        Expect::Abort(&["delta-rot-commitment"]),
    ),
    (
        "alice:delta-lsb-zero",
        Expect::Abort(&["verleak-lsb-delta"]),
    ),
    // Bob's challenges rigged (the demo gives him the strategy too).
    (
        "alice:bad-input-buckets",
        Expect::Abort(&["input-bucket-extraction"]),
    ),
];

/// TinyTable on add8 with real preprocessing, both parties having inputs
/// and Bob alone learning the output (the demo's default).
const TINYTABLE: &[(&str, Expect)] = &[
    ("alice:flip-table-bit", Expect::Abort(&["table-mac"])),
    ("bob:flip-table-bit", Expect::Abort(&["table-mac"])),
    ("alice:flip-last-layer", Expect::Abort(&["table-mac"])),
    ("bob:flip-last-layer", Expect::Abort(&["table-mac"])),
    ("alice:flip-and-guess-mac", Expect::Abort(&["table-mac"])),
    ("bob:flip-and-guess-mac", Expect::Abort(&["table-mac"])),
    ("alice:wrong-mac", Expect::Abort(&["table-mac"])),
    ("bob:wrong-mac", Expect::Abort(&["table-mac"])),
    ("alice:wrong-output-share", Expect::Abort(&["output-mac"])),
    // Bob learns the output alone, so he sends no output shares.
    ("bob:wrong-output-share", Expect::Output("12")),
    // Input bit 0 flipped: 5 → 4, 7 → 6.
    ("alice:wrong-input-mask", Expect::Output("11")),
    ("bob:wrong-input-mask", Expect::Output("11")),
    (
        "alice:prep-flip-beaver-share",
        Expect::Abort(&["mac-check"]),
    ),
    ("bob:prep-flip-beaver-share", Expect::Abort(&["mac-check"])),
    (
        "alice:prep-wrong-input-mask-share",
        Expect::Abort(&["input-mask-mac"]),
    ),
    (
        "bob:prep-wrong-input-mask-share",
        Expect::Abort(&["input-mask-mac"]),
    ),
];

/// Lindell–Riva on add8, one execution (N = 1, s = 40), Bob learning the
/// output.
const LINDELL_RIVA: &[(&str, Expect)] = &[
    (
        "alice:bad-circuit",
        Expect::AbortOrCorrect(&["check-circuit"]),
    ),
    (
        "alice:inconsistent-input",
        Expect::Abort(&["input-decommit"]),
    ),
    (
        "alice:false-difference",
        Expect::Abort(&["mask-difference"]),
    ),
    (
        "alice:two-outputs",
        Expect::AbortOrCorrect(&["check-circuit"]),
    ),
    ("alice:bad-lambda", Expect::Abort(&["lambda-decommit"])),
    (
        "alice:selective-ot",
        Expect::AbortOrCorrect(&["ot-label-decommit"]),
    ),
    ("alice:wrong-D", Expect::Abort(&["recovery-hash"])),
    (
        "alice:bad-recovery-encryption",
        Expect::Abort(&["recovery-encryption"]),
    ),
    ("alice:bad-seed-open", Expect::Abort(&["seed-decommit"])),
    ("alice:bad-mask", Expect::Abort(&["check-mask"])),
    (
        "alice:bad-public-label",
        Expect::Abort(&["public-input-decommit"]),
    ),
    (
        "alice:bad-output-decommit",
        Expect::Abort(&["output-decommit"]),
    ),
    (
        "bob:short-probe-matrix",
        Expect::Abort(&["probe-resistance"]),
    ),
    ("bob:bad-selection-open", Expect::Abort(&["cc-decommit"])),
    // Bob's own guess gains him nothing; his output is still f(x, y).
    ("bob:guess-D", Expect::Output("12")),
    (
        "alice:bad-recovery-circuit",
        Expect::AbortOrCorrect(&["check-circuit"]),
    ),
    ("alice:split-r", Expect::Abort(&["recovery-encryption"])),
    // Bob's selection rigged (the demo gives him the strategy too).
    (
        "alice:invalid-output-labels",
        Expect::Abort(&["no-valid-circuit"]),
    ),
];

/// JIMU on add8, one execution (k = 88, s = 40), Bob learning the output.
const JIMU: &[(&str, Expect)] = &[
    // Bob's J rigged (the demo gives him the strategy too): a NAND bucket
    // gate yields two valid labels, Bob extracts Δ and outputs f(x, y).
    ("alice:two-valid-labels", Expect::Output("12")),
    (
        "alice:nand-gate",
        Expect::AbortOrCorrect(&["check-gate-eval"]),
    ),
    (
        "alice:corrupt-row",
        Expect::AbortOrCorrect(&["check-gate-eval"]),
    ),
    ("alice:bad-solder-label", Expect::Abort(&["solder-label"])),
    ("alice:bad-solder-rho", Expect::Abort(&["solder-rho"])),
    (
        "alice:wrong-input-label",
        Expect::Abort(&["alice-input-label"]),
    ),
    ("alice:wrong-output-rho", Expect::Abort(&["output-rho"])),
    // Caught iff the position is watched (19 of 44).
    (
        "alice:bad-perm-seed",
        Expect::AbortOrCorrect(&["perm-seed"]),
    ),
    (
        "alice:malformed-ihash",
        Expect::Abort(&["ihash-consistency"]),
    ),
    (
        "alice:bad-output-ihash",
        Expect::Abort(&["check-gate-label", "solder-label"]),
    ),
    // A delayed abort on about half the runs, whatever y is.
    (
        "alice:selective-ot",
        Expect::AbortOrCorrect(&["bob-input-label"]),
    ),
    // Bob's J rigged: a whole bucket faulty and unchecked.
    ("alice:faulty-bucket", Expect::Abort(&["bucket-empty"])),
    // The one strategy run with Step 5b (the others skip it): Alice proves
    // with Δ off in one bit, Bob's proof check rejects it in Setup.
    ("alice:bad-delta-proof", Expect::Abort(&["gczk-output"])),
    // Run with Step 5b too: the statement digests differ before any proof.
    (
        "alice:misreport-5b-statement",
        Expect::Abort(&["step-5b-statement"]),
    ),
    // Bob's J rigged: caught with probability 1/2 (Lemma 5.3).
    (
        "alice:checked-row",
        Expect::AbortOrCorrect(&["check-gate-eval"]),
    ),
    ("bob:bad-J-open", Expect::Abort(&["cut-and-choose-open"])),
    ("bob:watch-more", Expect::Abort(&["ihash-setup-key"])),
];

fn listed(protocol: &str) -> Vec<String> {
    let list = brickyard(&["demo", "--protocol", protocol, "--list-cheats"]);
    assert!(list.status.success(), "{protocol}: --list-cheats failed");
    String::from_utf8_lossy(&list.stdout)
        .lines()
        .filter_map(|l| l.split(' ').next().map(str::to_string))
        .collect()
}

/// Runs every listed strategy of `protocol` on 5 + 7 (add8) and checks its
/// expected outcome.
fn every_strategy(protocol: &str, table: &[(&str, Expect)]) {
    let names = listed(protocol);
    assert!(names.len() >= table.len().min(9), "{protocol}: {names:?}");
    for name in &names {
        let expect = table
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, e)| *e)
            .unwrap_or_else(|| panic!("{protocol}: strategy {name} has no expected outcome"));
        let mut args = vec![
            "demo",
            "--protocol",
            protocol,
            "--circuit",
            "builtin:add8",
            "--alice",
            "5",
            "--bob",
            "7",
            "--format",
            "int",
            "--cheat",
            name,
        ];
        // jimu's Step 5b proof costs seconds: only its own strategy runs it
        // (the test-only switch of adversary builds skips it for the rest).
        if protocol == "jimu"
            && *name != "alice:bad-delta-proof"
            && *name != "alice:misreport-5b-statement"
        {
            args.push("--test-skip-step-5b");
        }
        let out = brickyard(&args);
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let ctx = format!("{protocol} {name} ({expect:?}): stdout {stdout} stderr {stderr}");
        let values: Vec<u32> = stdout
            .lines()
            .filter_map(|l| l.trim().parse::<u32>().ok())
            .collect();
        let aborted_with = |checks: &[&str]| {
            !out.status.success()
                && stderr.contains("cheating detected")
                && checks.iter().any(|c| stderr.contains(&format!("`{c}`")))
                && values.is_empty()
        };
        match expect {
            Expect::Abort(checks) => assert!(aborted_with(checks), "{ctx}"),
            Expect::AbortOrCorrect(checks) => {
                if out.status.success() {
                    assert_eq!(values, vec![12], "{ctx}");
                } else {
                    assert!(aborted_with(checks), "{ctx}");
                }
            }
            Expect::Output(want) => {
                assert!(out.status.success(), "{ctx}");
                assert_eq!(values, vec![want.parse::<u32>().unwrap()], "{ctx}");
            }
        }
    }
    for (name, _) in table {
        assert!(
            names.iter().any(|n| n == name),
            "{protocol}: {name} is no longer listed"
        );
    }
}

#[test]
fn lego_strategies_end_as_expected() {
    every_strategy("lego", LEGO);
}

#[test]
fn lindell_riva_strategies_end_as_expected() {
    every_strategy("lindell-riva", LINDELL_RIVA);
}

#[test]
fn jimu_strategies_end_as_expected() {
    every_strategy("jimu", JIMU);
}

#[test]
fn tinytable_strategies_end_as_expected() {
    every_strategy("tinytable", TINYTABLE);
}

#[test]
fn cheats_on_a_semi_honest_protocol_are_refused() {
    let out = brickyard(&["demo", "--protocol", "yao", "--cheat", "alice:anything"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no cheating strategies"));
}
