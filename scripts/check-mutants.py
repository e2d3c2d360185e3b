#!/usr/bin/env python3
"""Deletes and inverts every malicious-security check in turn, and shows
that the test suite notices each time (issue #24, item 9).

The checks are the `Cheating { check }` sites of lego, tinytable, TinyOT,
KOS/Δ-ROT, the commitments, the store handshake and the i-hash (table
SITES below). Nothing is changed in the checkout: the script exports HEAD
(`git archive`) to a scratch directory, rewrites each site's condition
there into

    match BRICKYARD_MUTANT { "<id>:delete" => <passes>,
                             "<id>:invert" => !<condition>,
                             _             => <condition> }

(the variable is read once per site), builds the test binaries once, runs
them once with no mutant (everything must pass), and then once per
(site, mutation) with `BRICKYARD_MUTANT` set. A mutant is killed when at
least one test fails (or the run hangs past the timeout, which is
reported separately); a survivor is a check no test can tell from deleted
(or inverted) code. Exit status 1 if any mutant survives.

A deletion keeps the condition's side effects (`{ let _ = cond; pass }`),
so a deleted check differs from the original in its verdict only.

usage: scripts/check-mutants.py [--only ID[,ID...]] [--keep DIR]
                                [--timeout SECS] [--all-groups]
env:   CARGO_TARGET_DIR (shared with your normal builds: dependencies are
       reused), CARGO (default: /work/bin/cargo-slot if present, else
       cargo), BRICKYARD_SHARED (default: ../shared beside the checkout).
Prints a Markdown table (check | mutation | tests that failed) at the end.
"""

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

# Test groups: cargo test argument lists, run in order; a mutant's run
# stops at the first command with a failing test (its failures are the
# table entry), so put the most specific suite first.
ADV = ["--features", "adversary"]
GROUPS = {
    "ot": [
        ["-p", "brickyard-ot", "--all-features", "--test", "adversary"],
        ["-p", "brickyard-ot", "--all-features", "--lib"],
    ],
    "commit": [
        ["-p", "brickyard-commit", "--all-features", "--lib"],
        ["-p", "brickyard-commit", "--all-features", "--tests"],
        ["-p", "brickyard-lego"] + ADV + ["--test", "lego_adversary"],
    ],
    "lego": [
        ["-p", "brickyard-lego"] + ADV + ["--test", "lego_adversary"],
        ["-p", "brickyard-lego"] + ADV + ["--lib"],
        ["-p", "brickyard-lego"] + ADV + ["--test", "lego"],
    ],
    "tinytable": [
        ["-p", "brickyard-tinytable"] + ADV + ["--test", "tinytable_adversary"],
        ["-p", "brickyard-tinytable"] + ADV + ["--lib"],
        ["-p", "brickyard-tinytable"] + ADV + ["--test", "tinytable"],
    ],
    "store": [
        ["-p", "brickyard-store", "--test", "sync"],
        ["-p", "brickyard-tinytable"] + ADV + ["--test", "tinytable_store_sync"],
    ],
    "ihash": [
        ["-p", "brickyard-ihash", "--all-features", "--lib"],
        ["-p", "brickyard-ihash", "--all-features", "--tests"],
    ],
}

# One site per check evaluation: (id, check name, file name, anchor, cond,
# group[, delete, invert]). `anchor` is a snippet that occurs exactly once
# in exactly one file of that name under crates/ (so the table survives
# files moving between crates); `cond` occurs once in it and is the
# expression rewritten. By default `cond` true means "abort" (delete:
# false, invert: !cond); "pass" marks a condition that is true when the
# check passes; explicit expressions (with {c} for the original) are given
# where the check is not a boolean.
SITES = [
    # --- lego (NST17 Fig. 1-2) ---
    ("cut-and-choose-selection", "cut-and-choose-selection", "cut_and_choose.rs",
     "(gates.len() >= need_g && auths.len() >= need_a && checked_a >= plan.sec.confirm)",
     "gates.len() >= need_g && auths.len() >= need_a && checked_a >= plan.sec.confirm",
     "lego", "pass"),
    ("delta-rot-proof-of-knowledge", "delta-rot-proof-of-knowledge", "cut_and_choose.rs",
     "if honest_check && hcom.xor_of(set)? != v {",
     "honest_check && hcom.xor_of(set)? != v", "lego"),
    ("cut-and-choose-gate", "cut-and-choose-gate", "cut_and_choose.rs",
     "if eval_gate(l, r, &t, j as u64) != o {",
     "eval_gate(l, r, &t, j as u64) != o", "lego"),
    ("cut-and-choose-authenticator", "cut-and-choose-authenticator", "cut_and_choose.rs",
     "if !auth_accepts(k, &t, j as u64) {", "!auth_accepts(k, &t, j as u64)", "lego"),
    ("delta-rot-commitment", "delta-rot-commitment", "cut_and_choose.rs",
     "if got != rot_r[n..n + plan.sec.spare_rots] {",
     "got != rot_r[n..n + plan.sec.spare_rots]", "lego"),
    ("verleak-lsb-delta", "verleak-lsb-delta", "verleak.rs",
     "if !bits[n + m] {", "!bits[n + m]", "lego"),
    ("input-key-lsb", "input-key-lsb", "eval.rs",
     "if k.lsb() ^ lsb_k0 != y[j] {", "k.lsb() ^ lsb_k0 != y[j]", "lego"),
    ("input-bucket-extraction", "input-bucket-extraction", "eval.rs",
     "bits[p] = extract_bit(bucket, in_keys[p], delta).ok_or(",
     "extract_bit(bucket, in_keys[p], delta)", "lego",
     "Some({c}.unwrap_or(false))",
     "match {c} {{ Some(_) => None, None => Some(false) }}"),
    ("input-authenticator", "input-authenticator", "evaluator.rs",
     "if width > 0 && !input_key_accepted(ok, width) {",
     "width > 0 && !input_key_accepted(ok, width)", "lego"),
    ("batch-id-commit", "batch-id-commit", "batch.rs",
     "if id_commitment(&theirs, &nonce) != com {",
     "id_commitment(&theirs, &nonce) != com", "lego"),
    # --- commitments (FJNT16) ---
    ("decommit", "decommit", "open_receiver.rs",
     "if diff == 0 {", "diff == 0", "commit", "pass"),
    ("bit-open", "bit-open", "open_receiver.rs",
     "if m.bit(bit) != claim {", "m.bit(bit) != claim", "commit"),
    ("commit-consistency", "commit-consistency", "receiver.rs",
     """self.check_combination(
                        &p.combos[a * n..(a + 1) * n],
                        t,
                        m,
                        "commit-consistency",
                    )""",
     """self.check_combination(
                        &p.combos[a * n..(a + 1) * n],
                        t,
                        m,
                        "commit-consistency",
                    )""", "commit",
     "{{ let _ = {c}; Ok(()) }}",
     "match {c} {{ Ok(()) => Err(Error::Cheating {{ check: \"commit-consistency\" }}), "
     "Err(_) => Ok(()) }}"),
    ("batch-decommit@open", "batch-decommit", "open_receiver.rs",
     'self.check_combination(&w, &t, &m, "batch-decommit")?;',
     'self.check_combination(&w, &t, &m, "batch-decommit")', "commit",
     "{{ let _ = {c}; Ok::<(), Error>(()) }}",
     "match {c} {{ Ok(()) => Err(Error::Cheating {{ check: \"batch-decommit\" }}), "
     "Err(_) => Ok(()) }}"),
    ("batch-decommit@program", "batch-decommit", "program.rs",
     'self.check_combination(&w, &t, &m, "batch-decommit")?;',
     'self.check_combination(&w, &t, &m, "batch-decommit")', "commit",
     "{{ let _ = {c}; Ok::<(), Error>(()) }}",
     "match {c} {{ Ok(()) => Err(Error::Cheating {{ check: \"batch-decommit\" }}), "
     "Err(_) => Ok(()) }}"),
    # --- OT layer: KOS / Δ-ROT, TinyOT ---
    ("kos-consistency", "kos-consistency", "columns.rs",
     "if bad != 0 {", "bad != 0", "ot"),
    ("leaky-and-equality", "leaky-and-equality", "leaky_and.rs",
     """    if !ok {
        return Err(Error::Cheating {
            check: EQUALITY_CHECK,""", "!ok", "ot"),
    ("coin-toss-commitment", "coin-toss-commitment", "mod.rs",
     "if commit(open[0], open[1]) != c {", "commit(open[0], open[1]) != c", "ot"),
    ("mac-check", "mac-check", "open.rs",
     "if got.iter().zip(want).fold(0u8, |a, (x, y)| a | (x ^ y)) != 0 {",
     "got.iter().zip(want).fold(0u8, |a, (x, y)| a | (x ^ y)) != 0", "ot"),
    # --- tinytable (KNR+17) ---
    ("input-mask-mac", "input-mask-mac", "preprocessing.rs",
     "if got.iter().zip(&d).fold(0u8, |a, (x, y)| a | (x ^ y)) != 0 {",
     "got.iter().zip(&d).fold(0u8, |a, (x, y)| a | (x ^ y)) != 0", "tinytable"),
    ("table-mac@layer", "table-mac", "online.rs",
     "if theirs != std::mem::replace(verify, next).finish() {",
     "theirs != std::mem::replace(verify, next).finish()", "tinytable"),
    ("table-mac@end", "table-mac", "online.rs",
     """if theirs != verify.finish() {
        return Err(Error::Cheating { check: "table-mac" });""",
     "theirs != verify.finish()", "tinytable"),
    ("output-mac", "output-mac", "online.rs",
     """if theirs != verify.finish() {
            // Nothing computed""",
     "theirs != verify.finish()", "tinytable"),
    # --- store handshake ---
    ("store-sync", "store-sync", "sync.rs",
     "let Some(theirs) = unit_of(p) else {", "unit_of(p)", "store",
     "Some({c}.unwrap_or(ours))",
     "match {c} {{ Some(_) => None, None => Some(ours) }}"),
    # --- i-hash (JIMU) ---
    ("ihash-consistency", "ihash-consistency", "receiver.rs",
     """let outcome = if ok {
            Ok(())
        } else {
            Err(Error::Cheating {
                check: "ihash-consistency",""", "ok", "ihash", "pass"),
    ("ihash-setup-key", "ihash-setup-key", "setup.rs",
     "let outcome = if answer == key {", "answer == key", "ihash", "pass"),
    ("ihash-setup-shares", "ihash-setup-shares", "setup.rs",
     "let mut outcome = if key_hash(p, key) == h || cheat.extra_seed {",
     "key_hash(p, key) == h", "ihash", "pass"),
]

# Tests tried first for a mutation (command group, libtest filters), so a
# killed mutant costs one short run; a mutant they miss is run against its
# whole group before it counts as a survivor. Default: the whole group.
LEGO_ADV = ["-p", "brickyard-lego"] + ADV + ["--test", "lego_adversary"]
LEGO_LIB = ["-p", "brickyard-lego"] + ADV + ["--lib"]
OT_ADV = ["-p", "brickyard-ot", "--all-features", "--test", "adversary"]
COMMIT_LIB = ["-p", "brickyard-commit", "--all-features", "--lib"]
DETERMINISTIC = (LEGO_ADV, ["deterministic_detections"])
HONEST_LEGO = (LEGO_ADV, ["rigged_challenges_with_an_honest_alice"])
TT_ADV = ["-p", "brickyard-tinytable"] + ADV + ["--test", "tinytable_adversary"]
TT_HONEST = (["-p", "brickyard-tinytable"] + ADV + ["--test", "tinytable"],
             ["binary_random_circuits_every_scheme"])
COMMIT_BAD = (COMMIT_LIB, ["tests::cheating", "tests::program"])
COMMIT_OK = (COMMIT_LIB, ["tests::honest", "tests::program"])
TARGETS = {
    "cut-and-choose-selection": [(LEGO_LIB, ["cut_and_choose::tests"])] * 2,
    "delta-rot-proof-of-knowledge": [DETERMINISTIC, HONEST_LEGO],
    "cut-and-choose-gate": [(LEGO_ADV, ["bad_gates_abort"]), HONEST_LEGO],
    "cut-and-choose-authenticator": [(LEGO_ADV, ["false_delta_is_caught"]), HONEST_LEGO],
    "delta-rot-commitment": [DETERMINISTIC, HONEST_LEGO],
    "verleak-lsb-delta": [DETERMINISTIC, HONEST_LEGO],
    "input-key-lsb": [DETERMINISTIC, HONEST_LEGO],
    "input-bucket-extraction": [DETERMINISTIC, (LEGO_ADV, ["nand_gate_with_layers"])],
    "input-authenticator": [DETERMINISTIC, HONEST_LEGO],
    "batch-id-commit": [(LEGO_LIB, ["batch::tests"])] * 2,
    "decommit": [COMMIT_BAD, COMMIT_OK],
    "bit-open": [COMMIT_BAD, COMMIT_OK],
    "commit-consistency": [COMMIT_BAD, COMMIT_OK],
    "batch-decommit@open": [COMMIT_BAD, COMMIT_OK],
    "batch-decommit@program": [COMMIT_BAD, COMMIT_OK],
    "kos-consistency": [(OT_ADV, ["kos_", "delta_rot_receiver_cheat_is_caught_half"])] * 2,
    "leaky-and-equality": [(OT_ADV, ["leaky_and_corruption", "adaptive_equality_cheater_is_caught"])] * 2,
    "coin-toss-commitment": [(OT_ADV, ["coin_toss"])] * 2,
    "mac-check": [(OT_ADV, ["forged_mac"])] * 2,
    "table-mac@layer": [(TT_ADV, ["sbox_lookup_mac_catches"]), TT_HONEST],
    "table-mac@end": [(TT_ADV, ["wrong_mac_on_a_linear_program"])] * 2,
    "output-mac": [(TT_ADV, ["every_strategy_binary"]), TT_HONEST],
    "input-mask-mac": [(TT_ADV, ["real_preprocessing_cheats_on_aes"]), TT_HONEST],
}

FAILED = re.compile(r"^test (\S+) \.\.\. FAILED", re.M)


def mutant_switch(site_id, cond, delete, invert):
    var = (
        "{ static M: ::std::sync::OnceLock<String> = ::std::sync::OnceLock::new(); "
        "M.get_or_init(|| ::std::env::var(\"BRICKYARD_MUTANT\").unwrap_or_default())"
        ".as_str() }"
    )
    return (
        f"(match {var} {{ \"{site_id}:delete\" => {delete}, "
        f"\"{site_id}:invert\" => {invert}, _ => {cond} }})"
    )


def instrument(root, sites):
    files = {}
    for dirpath, _, names in os.walk(os.path.join(root, "crates")):
        for n in names:
            if n.endswith(".rs"):
                files.setdefault(n, []).append(os.path.join(dirpath, n))
    texts = {}
    for site in sites:
        sid, _, fname, anchor, cond, _group = site[:6]
        extra = site[6:]
        hits = []
        for path in files.get(fname, []):
            text = texts.get(path)
            if text is None:
                text = texts[path] = open(path, encoding="utf-8").read()
            if anchor in text:
                hits.append(path)
        if len(hits) != 1 or texts[hits[0]].count(anchor) != 1:
            sys.exit(f"site {sid}: anchor found {len(hits)} times in {fname} files: {hits}")
        if anchor.count(cond) != 1:
            sys.exit(f"site {sid}: condition not once in its anchor")
        if extra == ("pass",):
            delete, invert = f"{{ let _ = {cond}; true }}", f"!({cond})"
        elif len(extra) == 2:
            delete, invert = extra[0].format(c=cond), extra[1].format(c=cond)
        else:
            delete, invert = f"{{ let _ = {cond}; false }}", f"!({cond})"
        path = hits[0]
        new_anchor = anchor.replace(cond, mutant_switch(sid, cond, delete, invert))
        texts[path] = texts[path].replace(anchor, new_anchor)
        # The file is written once all its sites are in.
    for path, text in texts.items():
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)


def cargo(args, env, timeout):
    cmd = os.environ.get("CARGO") or (
        "/work/bin/cargo-slot" if os.path.exists("/work/bin/cargo-slot") else "cargo"
    )
    # A session of our own, so a hang is ended with everything it started
    # (cargo and the test binary) and nothing else.
    p = subprocess.Popen([cmd] + args, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        out, _ = p.communicate(timeout=timeout)
        return p.returncode, out
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
        return None, out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", help="comma-separated site ids")
    ap.add_argument("--keep", help="scratch directory to use and keep")
    ap.add_argument("--timeout", type=int, default=900)
    ap.add_argument("--all-groups", action="store_true",
                    help="run every command of the group even after a failure")
    a = ap.parse_args()
    repo = subprocess.check_output(["git", "rev-parse", "--show-toplevel"], text=True).strip()
    head = subprocess.check_output(["git", "-C", repo, "rev-parse", "--short", "HEAD"],
                                   text=True).strip()
    sites = SITES
    if a.only:
        want = set(a.only.split(","))
        sites = [s for s in SITES if s[0] in want]
    scratch = a.keep or tempfile.mkdtemp(prefix="brickyard-mutants-")
    root = os.path.join(scratch, "brickyard")
    if os.path.exists(root):
        shutil.rmtree(root)
    os.makedirs(root)
    subprocess.run(f"git -C {repo} archive HEAD | tar -x -C {root}", shell=True, check=True)
    instrument(root, SITES)
    env = dict(os.environ)
    env.setdefault("BRICKYARD_SHARED", os.path.join(os.path.dirname(repo), "shared"))
    env.pop("BRICKYARD_MUTANT", None)
    env["CARGO_TERM_COLOR"] = "never"
    os.chdir(root)
    groups = sorted({s[5] for s in sites})
    print(f"HEAD {head}; scratch {root}; {len(sites)} sites; groups {groups}", flush=True)
    for g in groups:
        for args in GROUPS[g]:
            rc, out = cargo(["test", "--no-run"] + args, env, None)
            if rc != 0:
                print(out)
                sys.exit(f"build failed: {args}")
    # Baseline, lazily: every command (with its filters) is run once with
    # no mutant before its first use, and must pass.
    passed = set()

    def run(args, filters, mutant):
        key = tuple(args + ["--"] + filters)
        if key not in passed:
            env.pop("BRICKYARD_MUTANT", None)
            t = time.time()
            rc, out = cargo(["test"] + args + ["--"] + filters, env, a.timeout)
            print(f"baseline {' '.join(key)}: rc {rc} ({time.time() - t:.0f} s)", flush=True)
            if rc != 0:
                print(out[-4000:])
                sys.exit("the unmutated suite fails: fix that first")
            passed.add(key)
        env["BRICKYARD_MUTANT"] = mutant
        rc, out = cargo(["test"] + args + ["--"] + filters, env, a.timeout)
        what = ("--test " + args[args.index("--test") + 1]) if "--test" in args else \
            " ".join(x for x in args if x not in ["--all-features"] + ADV)
        if rc is None:
            return f"{what}: hang (> {a.timeout} s)"
        if rc != 0:
            names = FAILED.findall(out)
            return f"{what}: " + (", ".join(f"`{n}`" for n in names) or f"exit {rc}")
        return None

    rows, survivors = [], []
    for site in sites:
        sid, check, _, _, _, g = site[:6]
        for k, mode in enumerate(("delete", "invert")):
            mutant = f"{sid}:{mode}"
            t = time.time()
            killed_by = []
            if sid in TARGETS:
                args, filters = TARGETS[sid][k]
                r = run(args, filters, mutant)
                if r:
                    killed_by.append(r)
            if not killed_by or a.all_groups:
                for args in GROUPS[g]:
                    r = run(args, [], mutant)
                    if r:
                        killed_by.append(r)
                        if not a.all_groups:
                            break
            verdict = "; ".join(killed_by) if killed_by else "SURVIVED"
            print(f"{sid} {mode}: {verdict} ({time.time() - t:.0f} s)", flush=True)
            rows.append((sid, check, mode, verdict))
            if not killed_by:
                survivors.append(mutant)
    print(f"\n| site | check | mutation | tests that failed |\n|---|---|---|---|")
    for sid, check, mode, verdict in rows:
        print(f"| {sid} | `{check}` | {mode} | {verdict} |")
    print(f"\n{len(rows)} mutants, {len(rows) - len(survivors)} killed; "
          f"survivors: {survivors or 'none'} (HEAD {head})")
    if not a.keep:
        shutil.rmtree(scratch, ignore_errors=True)
    sys.exit(1 if survivors else 0)


if __name__ == "__main__":
    main()
