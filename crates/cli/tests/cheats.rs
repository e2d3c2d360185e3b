//! The adversary flags as a user runs them (built with `--features adversary`,
//! as CI does): every listed LEGO strategy ends in a named abort or the
//! correct output, never a wrong one.
#![cfg(feature = "adversary")]

use std::process::Command;

fn brickyard(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_brickyard"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn lego_strategies_are_listed_and_never_give_a_wrong_output() {
    let list = brickyard(&["demo", "--protocol", "lego", "--list-cheats"]);
    assert!(list.status.success());
    let text = String::from_utf8_lossy(&list.stdout).to_string();
    let names: Vec<&str> = text.lines().filter_map(|l| l.split(' ').next()).collect();
    assert!(
        names.len() >= 9 && names.contains(&"alice:nand-gate"),
        "{text}"
    );
    let mut caught = 0;
    for name in names {
        let out = brickyard(&[
            "demo",
            "--protocol",
            "lego",
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
        ]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        if out.status.success() {
            assert!(stdout.lines().any(|l| l.trim() == "12"), "{name}: {stdout}");
            assert!(!stdout
                .lines()
                .any(|l| l.trim().parse::<u32>().is_ok_and(|v| v != 12)));
        } else {
            assert!(stderr.contains("cheating detected"), "{name}: {stderr}");
            assert!(
                stdout.is_empty() || !stdout.contains("output"),
                "{name}: partial output"
            );
            caught += 1;
        }
    }
    assert!(caught >= 1, "no strategy was caught in one run each");
}

#[test]
fn cheats_on_a_semi_honest_protocol_are_refused() {
    let out = brickyard(&["demo", "--protocol", "yao", "--cheat", "alice:anything"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no cheating strategies"));
}
