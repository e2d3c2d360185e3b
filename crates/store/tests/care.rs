//! Poisoning after a cheating peer, two copies of one store, file modes,
//! and `verify`.

mod common;

use brickyard_core::Error;
use brickyard_store::{info_with_key, Role, SessionId, Store};
use common::*;
use std::os::unix::fs::PermissionsExt;

const SID: SessionId = SessionId([9; 16]);

fn mode(p: &std::path::Path) -> u32 {
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

#[test]
fn a_poisoned_store_refuses_all_use_for_good() {
    let fx = Fixture::new();
    let (d, k) = (fx.dir("a"), fx.key("a"));
    let mut s = Store::create(&d, config(&k, Role::Alice, SID, 1024)).unwrap();
    produce(&mut s, Role::Alice, 50);
    let _ = s.reserve("ot", 5).unwrap();
    // Keep a copy of the directory as it was before the poisoning.
    let before = fx.root.path().join("before");
    copy_dir(&d, &before);
    s.poison("bit-open").unwrap();
    let e = s.reserve("ot", 1).unwrap_err();
    assert!(
        matches!(&e, Error::Config(m) if m.contains("poisoned") && m.contains("bit-open")),
        "{e}"
    );
    drop(s);
    let mut s = Store::open(&d, &expected(&k, Role::Alice)).unwrap();
    assert!(s.reserve("ot", 1).is_err(), "poison survives reopening");
    let (mut ca, _cb) = brickyard_core::channel::memory_pair();
    assert!(matches!(
        s.sync_next_index(&mut ca, &["ot"]),
        Err(Error::Config(_))
    ));
    drop(s);
    let info = info_with_key(&d, Some(&k)).unwrap();
    assert!(info.closed.unwrap().contains("bit-open"));
    // Restoring the directory does not lift it: the mirror beside the key
    // is newer and wins.
    std::fs::remove_dir_all(&d).unwrap();
    copy_dir(&before, &d);
    let mut s = Store::open(&d, &expected(&k, Role::Alice)).unwrap();
    assert!(
        s.reserve("ot", 1).is_err(),
        "poison survives a restored directory"
    );
}

fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, to.join(p.file_name().unwrap())).unwrap();
    }
}

#[test]
fn two_copies_of_one_store_cannot_both_hand_out_indices() {
    let fx = Fixture::new();
    let (d, k) = (fx.dir("a"), fx.key("a"));
    let mut s = Store::create(&d, config(&k, Role::Alice, SID, 1024)).unwrap();
    produce(&mut s, Role::Alice, 50);
    drop(s);
    let copy = fx.dir("copy");
    copy_dir(&d, &copy);
    let mut one = Store::open(&d, &expected(&k, Role::Alice)).unwrap();
    let e = Store::open(&copy, &expected(&k, Role::Alice)).unwrap_err();
    assert!(
        matches!(&e, Error::Storage(m) if m.contains("another copy")),
        "{e}"
    );
    let r = one.reserve("ot", 10).unwrap();
    assert_eq!(r.range(), 0..10);
    drop(one);
    // Once the first is closed the copy opens, and continues after index 10
    // (the mirror beside the key is newer than the copy's state file).
    let mut two = Store::open(&copy, &expected(&k, Role::Alice)).unwrap();
    assert_eq!(two.reserve("ot", 10).unwrap().range(), 10..20);
}

#[test]
fn store_directories_are_0700_and_files_0600() {
    let fx = Fixture::new();
    let (d, k) = (fx.dir("a"), fx.key("a"));
    // An existing empty directory with a loose mode is tightened.
    std::fs::create_dir_all(&d).unwrap();
    std::fs::set_permissions(&d, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut s = Store::create(&d, config(&k, Role::Alice, SID, 256)).unwrap();
    produce(&mut s, Role::Alice, 40);
    s.put_secret("delta", b"0123456789abcdef").unwrap();
    let _ = s.reserve("ot", 3).unwrap();
    assert_eq!(mode(&d), 0o700);
    assert_eq!(mode(k.parent().unwrap()), 0o700);
    let mut n = 0;
    for e in std::fs::read_dir(&d).unwrap() {
        let p = e.unwrap().path();
        assert_eq!(mode(&p), 0o600, "{}", p.display());
        n += 1;
    }
    assert!(n >= 6, "manifest, state, lock, two data files, a secret");
    for e in std::fs::read_dir(k.parent().unwrap()).unwrap() {
        let p = e.unwrap().path();
        assert_eq!(mode(&p), 0o600, "{}", p.display());
    }
}

#[test]
fn verify_finds_a_flipped_byte_and_reserves_nothing() {
    let fx = Fixture::new();
    let (d, k) = (fx.dir("a"), fx.key("a"));
    let mut s = Store::create(&d, config(&k, Role::Alice, SID, 512)).unwrap();
    produce(&mut s, Role::Alice, 200);
    s.put_secret("delta", b"0123456789abcdef").unwrap();
    let r = s.verify().unwrap();
    assert_eq!(r.secrets, 1);
    assert!(r
        .kinds
        .iter()
        .any(|(n, c, rec)| n == "ot" && *c > 3 && *rec == 200));
    drop(s);
    let before = info_with_key(&d, Some(&k)).unwrap();
    // Flip one byte deep inside the OT file.
    let p = d.join("ot.dat");
    let mut bytes = std::fs::read(&p).unwrap();
    let at = bytes.len() - 100;
    bytes[at] ^= 1;
    std::fs::write(&p, &bytes).unwrap();
    let mut s = Store::open(&d, &expected(&k, Role::Alice)).unwrap();
    let e = s.verify().unwrap_err();
    assert!(
        matches!(&e, Error::Storage(m) if m.contains("ot") && m.contains("MAC")),
        "{e}"
    );
    drop(s);
    assert_eq!(
        info_with_key(&d, Some(&k)).unwrap(),
        before,
        "verify consumed nothing"
    );
    // A tampered secret is found as well.
    bytes[at] ^= 1;
    std::fs::write(&p, &bytes).unwrap();
    let sp = d.join("secret-delta.bin");
    let mut sb = std::fs::read(&sp).unwrap();
    sb[30] ^= 1;
    std::fs::write(&sp, &sb).unwrap();
    let mut s = Store::open_any(&d, Some(&k)).unwrap();
    assert!(matches!(s.verify(), Err(Error::Storage(_))));
}

#[test]
fn export_moves_a_store_and_import_restores_it_elsewhere() {
    let fx = Fixture::new();
    let (d, k) = (fx.dir("a"), fx.key("a"));
    let mut s = Store::create(&d, config(&k, Role::Alice, SID, 512)).unwrap();
    produce(&mut s, Role::Alice, 120);
    s.put_secret("delta", b"0123456789abcdef").unwrap();
    let _ = s.reserve("ot", 7).unwrap();
    drop(s);
    let archive = fx.root.path().join("a.bystore");
    let s = Store::open(&d, &expected(&k, Role::Alice)).unwrap();
    let r = s.export(&archive, b"correct horse battery").unwrap();
    assert!(r.files >= 6, "{r:?}");
    assert_eq!(mode(&archive), 0o600);
    // The source refuses use from now on, also after reopening.
    let mut s = Store::open(&d, &expected(&k, Role::Alice)).unwrap();
    let e = s.reserve("ot", 1).unwrap_err();
    assert!(
        matches!(&e, Error::Config(m) if m.contains("exported")),
        "{e}"
    );
    drop(s);
    // "Another machine": another store directory and key place.
    let (d2, k2) = (fx.dir("moved"), fx.root.path().join("other-keys/a.key"));
    let wrong = brickyard_store::import(&archive, &d2, Some(&k2), b"wrong passphrase");
    assert!(wrong.is_err());
    assert!(
        !d2.exists() && !k2.exists(),
        "a failed import leaves nothing"
    );
    let mut bytes = std::fs::read(&archive).unwrap();
    let flipped = fx.root.path().join("flipped.bystore");
    let at = bytes.len() / 2;
    bytes[at] ^= 1;
    std::fs::write(&flipped, &bytes).unwrap();
    assert!(brickyard_store::import(&flipped, &d2, Some(&k2), b"correct horse battery").is_err());
    let cut = fx.root.path().join("cut.bystore");
    std::fs::write(&cut, &std::fs::read(&archive).unwrap()[..at]).unwrap();
    assert!(brickyard_store::import(&cut, &d2, Some(&k2), b"correct horse battery").is_err());
    brickyard_store::import(&archive, &d2, Some(&k2), b"correct horse battery").unwrap();
    assert_eq!(mode(&d2), 0o700);
    assert_eq!(mode(&k2), 0o600);
    let mut s = Store::open(&d2, &expected(&k2, Role::Alice)).unwrap();
    let r = s.reserve("ot", 10).unwrap();
    assert_eq!(
        r.range(),
        7..17,
        "the moved store continues where it stopped"
    );
    assert_eq!(s.read(&r).unwrap(), ot_records(Role::Alice, 7..17));
    assert_eq!(
        &s.get_secret("delta").unwrap().unwrap()[..],
        b"0123456789abcdef"
    );
}
