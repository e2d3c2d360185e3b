//! TinyOT: MAC relations of aBits, correctness of aAND triples, Beaver
//! multiplication and opening, for both roles.

mod common;

use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel};
use brickyard_ot::tinyot::{AndTriple, AuthShare, Role, TinyOt};
use common::{pair, run2, Net};

/// Runs `f` for Alice and Bob; returns each party's Δ and result.
fn both<T: Send + 'static>(
    net: Net,
    f: impl Fn(&mut TinyOt, &mut Channel) -> T + Send + Sync + Clone + 'static,
) -> ((Block, T), (Block, T)) {
    let g = f.clone();
    run2(
        pair(net),
        move |ch| {
            let mut t = TinyOt::setup(ch, Role::Alice, &mut Prg::new()).unwrap();
            let r = f(&mut t, ch);
            (t.delta(), r)
        },
        move |ch| {
            let mut t = TinyOt::setup(ch, Role::Bob, &mut Prg::new()).unwrap();
            let r = g(&mut t, ch);
            (t.delta(), r)
        },
    )
}

fn assert_macs(da: Block, db: Block, a: &AuthShare, b: &AuthShare) {
    assert_eq!(a.mac, b.key ^ db.and_bit(a.bit), "Alice's MAC under Δ_B");
    assert_eq!(b.mac, a.key ^ da.and_bit(b.bit), "Bob's MAC under Δ_A");
}

#[test]
fn abits_carry_valid_macs_under_each_global_key() {
    let ((da, a), (db, b)) = both(Net::Tcp, |t, ch| t.abits(ch, 1000).unwrap());
    assert!(da.lsb() && db.lsb());
    assert!(da.bit(1) && !db.bit(1), "bit 1 of Δ_A ⊕ Δ_B must be 1");
    let ones = a.iter().zip(&b).filter(|(x, y)| x.bit ^ y.bit).count();
    assert!((350..650).contains(&ones), "biased aBits: {ones}");
    for (x, y) in a.iter().zip(&b) {
        assert_macs(da, db, x, y);
    }
}

fn check_triples(da: Block, db: Block, a: &[AndTriple], b: &[AndTriple]) {
    let mut xs = 0;
    for (ta, tb) in a.iter().zip(b) {
        for (sa, sb) in [(&ta.x, &tb.x), (&ta.y, &tb.y), (&ta.z, &tb.z)] {
            assert_macs(da, db, sa, sb);
        }
        let x = ta.x.bit ^ tb.x.bit;
        let y = ta.y.bit ^ tb.y.bit;
        assert_eq!(ta.z.bit ^ tb.z.bit, x & y, "z ≠ x·y");
        xs += x as usize;
    }
    if a.len() > 200 {
        assert!(xs > a.len() / 3 && xs < 2 * a.len() / 3, "biased x: {xs}");
    }
}

#[test]
fn and_triples_are_correct_and_authenticated() {
    for n in [0usize, 1, 700] {
        let ((da, a), (db, b)) = both(Net::Memory, move |t, ch| t.and_triples(ch, n).unwrap());
        assert_eq!((a.len(), b.len()), (n, n));
        check_triples(da, db, &a, &b);
    }
}

#[test]
fn leaky_and_triples_are_correct_when_honest() {
    let ((da, a), (db, b)) = both(Net::Tcp, |t, ch| t.leaky_and_triples(ch, 3000).unwrap());
    check_triples(da, db, &a, &b);
}

#[test]
fn beaver_multiplication_and_opening() {
    let ((_, a), (_, b)) = both(Net::Memory, |t, ch| {
        let v = t.abits(ch, 400).unwrap();
        let tr = t.and_triples(ch, 200).unwrap();
        let z = t.mul_many(ch, &v[..200], &v[200..], &tr).unwrap();
        let single = t.mul(ch, v[0], v[1], tr[0]).is_ok();
        let opened = t.open(ch, &[&v[..], &z[..]].concat()).unwrap();
        // ⟦x⟧ ⊕ 1 opens to ¬x.
        let flipped: Vec<AuthShare> = v.iter().map(|&s| t.add_public(s, true)).collect();
        let opened_flip = t.open(ch, &flipped).unwrap();
        (opened, opened_flip, single)
    });
    assert_eq!(a, b, "both parties open the same values");
    let (opened, flip, single) = a;
    assert!(single);
    for i in 0..200 {
        assert_eq!(opened[400 + i], opened[i] & opened[200 + i], "product {i}");
    }
    for i in 0..400 {
        assert_eq!(flip[i], !opened[i]);
    }
}
