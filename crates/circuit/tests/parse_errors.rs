//! Each kind of malformed file gives the right error on the right line, and
//! the normalised operations (EQ, EQW, MAND, old format) mean what they say.

use brickyard_circuit::bristol::ParseErrorKind as K;
use brickyard_circuit::{parse_bristol, ParseError};

/// Fashion: inputs x (1), y (1); output ¬(x ∧ y) on wire 3.
const BASE: &str = "2 4\n2 1 1\n1 1\n\n2 1 0 1 2 AND\n1 1 2 3 INV\n";

fn err(text: &str) -> ParseError {
    match parse_bristol(text) {
        Ok(c) => panic!("accepted {text:?} as {c:?}"),
        Err(e) => e,
    }
}

#[test]
fn base_parses() {
    let c = parse_bristol(BASE).unwrap();
    for (x, y) in [(false, false), (true, false), (true, true)] {
        assert_eq!(c.eval(&[vec![x], vec![y]]).unwrap(), vec![vec![!(x && y)]]);
    }
}

#[test]
fn each_error_names_its_line() {
    let cases: Vec<(String, usize, K)> = vec![
        (BASE.replace("AND", "NAND"), 5, K::UnknownOp("NAND".into())),
        (
            BASE.replace("0 1 2 AND", "0 3 2 AND"),
            5,
            K::ReadBeforeWrite(3),
        ),
        (BASE.replace("2 3 INV", "2 1 INV"), 6, K::WrittenTwice(1)),
        (
            BASE.replace("0 1 2 AND", "0 x 2 AND"),
            5,
            K::NotANumber("x".into()),
        ),
        (
            BASE.replace("0 1 2 AND", "0 9 2 AND"),
            5,
            K::WireOutOfRange {
                wire: 9,
                num_wires: 4,
            },
        ),
        (
            BASE.replace("2 4\n", "3 4\n"),
            6,
            K::Truncated {
                expected: 3,
                found: 2,
            },
        ),
        (format!("{BASE}1 1 3 4 INV\n"), 7, K::TrailingContent(2)),
        ("1 2\n1 1\n1 1\n1 1 0 0 EQ\n".into(), 4, K::WrittenTwice(0)),
        (
            "1 1\n0\n1 1\n1 1 1 0 EQ\n".into(),
            4,
            K::ConstantWithoutInputs,
        ),
        (
            "1 4294967295\n1 1\n1 1\n1 1 0 1 INV\n".into(),
            1,
            K::TooLarge(4294967295),
        ),
        (
            "1 5\n2 1 1\n1 1\n2 1 0 1 2 AND\n".into(),
            3,
            K::OutputNotWritten(4),
        ),
    ];
    for (text, line, kind) in cases {
        assert_eq!(err(&text), ParseError { line, kind }, "{text:?}");
    }
}

#[test]
fn arity_and_header_problems() {
    let arity = |t: &str, line: usize| {
        let e = err(t);
        assert_eq!(e.line, line, "{t:?}: {e}");
        assert!(matches!(e.kind, K::Arity(_)), "{t:?}: {e}");
    };
    arity(&BASE.replace("2 1 0 1 2 AND", "2 1 0 1 AND"), 5);
    arity(&BASE.replace("2 1 0 1 2 AND", "1 1 0 2 AND"), 5);
    arity(&BASE.replace("1 1 2 3 INV", "2 1 2 2 3 INV"), 6);
    arity(&BASE.replace("2 1 0 1 2 AND", "4 1 0 1 0 1 2 MAND"), 5);
    arity(&BASE.replace("2 1 0 1 2 AND", "2 1 0 1 2"), 5);
    let header = |t: &str, line: usize| {
        let e = err(t);
        assert_eq!(e.line, line, "{t:?}: {e}");
        assert!(matches!(e.kind, K::Header(_)), "{t:?}: {e}");
    };
    header(&BASE.replace("2 1 1\n", "3 1 1\n"), 2);
    header(&BASE.replace("2 4\n", "2 4 7\n"), 1);
    header("2 4\n", 2);
    header("", 1);
    header("1 3\n2 5 5\n1 1\n1 1 0 2 INV\n", 3);
    // Old format: three numbers on line 2.
    header("1 3\n1 1\n\n1 1 0 2 INV\n", 2);
}

#[test]
fn eq_eqw_mand_are_normalised() {
    // inputs a (2), b (2); outputs: MAND(a,b) (2), const 1, const 0, copy of a0, a1 ^ 1
    let text = "\
7 12
2 2 2
5 2 1 1 1 1

4 2 0 1 2 3 4 5 MAND
1 1 4 6 EQW
1 1 5 7 EQW
1 1 1 8 EQ
1 1 0 9 EQ
1 1 0 10 EQW
2 1 1 8 11 XOR
";
    let c = parse_bristol(text).unwrap();
    c.validate().unwrap();
    assert_eq!(c.and_count(), 2);
    // MAND gives 2 ANDs; EQ adds x⊕x and its INV; the EQWs add nothing.
    assert_eq!(c.gates.len(), 2 + 2 + 1);
    for v in 0..16u8 {
        let a = vec![v & 1 == 1, v & 2 == 2];
        let b = vec![v & 4 == 4, v & 8 == 8];
        let out = c.eval(&[a.clone(), b.clone()]).unwrap();
        let want = vec![
            vec![a[0] && b[0], a[1] && b[1]],
            vec![true],
            vec![false],
            vec![a[0]],
            vec![!a[1]],
        ];
        assert_eq!(out, want);
    }
}

#[test]
fn old_format_is_detected() {
    // Old format, trailing spaces and runs of spaces as in the shared files.
    let text = "2 4 \n1 1   1 \n\n2 1 0 1 2 AND\n1 1 2 3 INV";
    let c = parse_bristol(text).unwrap();
    assert_eq!(c.inputs.len(), 2);
    assert_eq!(c.outputs[0].wires.len(), 1);
    assert_eq!(
        c.eval(&[vec![true], vec![true]]).unwrap(),
        vec![vec![false]]
    );
    // `n1 0 nout`: the empty second input is not a group.
    let c = parse_bristol("1 2\n1 0 1\n1 1 0 1 INV\n").unwrap();
    assert_eq!(c.inputs.len(), 1);
}
