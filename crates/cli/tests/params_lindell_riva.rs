//! `brickyard params lindell-riva` end to end: the paper's choices print,
//! insecure hand-fed choices are refused with one clean error line.

use std::process::{Command, Output};

fn brickyard(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_brickyard"))
        .args(args)
        .output()
        .expect("binary runs")
}

#[test]
fn paper_choice_and_json() {
    let out = brickyard(&[
        "params",
        "lindell-riva",
        "--executions",
        "32",
        "--bucket",
        "7",
        "--recovery-bucket",
        "20",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("B = 7  p = 0.62  M = 362"), "{text}");
    assert!(text.contains("B = 20  p = 0.71  M = 902"), "{text}");

    let out = brickyard(&["params", "lindell-riva", "--executions", "128", "--json"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["params"]["main"]["b"], 6);
    assert_eq!(v["params"]["main"]["m"], 998);
    assert!(v["params"]["main"]["bound_log2"].as_f64().unwrap() <= -40.0);
}

#[test]
fn insecure_choices_are_refused() {
    for args in [
        &["--executions", "32", "--bucket", "7", "--p", "0.63"][..],
        &["--executions", "32", "--s", "30"][..],
        &["--executions", "1024", "--bucket", "2"][..],
        &["--executions", "32", "--bucket", "7", "--p", "0.625"][..],
    ] {
        let mut all = vec!["params", "lindell-riva"];
        all.extend_from_slice(args);
        let out = brickyard(&all);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(err.contains("error"), "{args:?}: {err}");
    }
}
