//! Long-lived secrets of a store: small values that many executions read,
//! such as a garbler's session-wide free-XOR Δ (CompGC garbles a whole
//! component library under one Δ and needs it for every online execution).
//!
//! Unlike material, a secret is **not** single-use: it is read as often as
//! needed. It is sealed with the store key — encrypted (BLAKE3 keystream)
//! and authenticated (BLAKE3 keyed MAC over session, name, nonce and
//! ciphertext) — because the store directory is assumed readable by
//! others, and a label offset in the clear would hand out every label.
//!
//! File `secret-<name>.bin`: `BYSECR01 ‖ nonce[16] ‖ ciphertext ‖ mac[32]`,
//! replaced atomically.

use crate::fsutil::write_atomic;
use crate::types::KindSpec;
use crate::Store;
use brickyard_core::{Error, Result};
use zeroize::Zeroizing;

const MAGIC: &[u8; 8] = b"BYSECR01";
/// Largest secret: these are keys and offsets, not material.
pub const MAX_SECRET_LEN: usize = 1 << 16;

impl Store {
    fn secret_keys(&self) -> (Zeroizing<[u8; 32]>, Zeroizing<[u8; 32]>) {
        // Derived from the metadata key (itself uniformly random), with
        // BLAKE3's derive-key mode, which is domain-separated from the
        // keyed-hash mode the metadata MAC uses.
        (
            Zeroizing::new(blake3::derive_key(
                "brickyard-store v1 secret encryption",
                &self.key.meta[..],
            )),
            Zeroizing::new(blake3::derive_key(
                "brickyard-store v1 secret mac",
                &self.key.meta[..],
            )),
        )
    }

    /// Names of the secrets this store holds (from the directory listing).
    pub(crate) fn secret_names(&self) -> Result<Vec<String>> {
        let mut out = Vec::new();
        let rd = std::fs::read_dir(&self.dir)
            .map_err(|e| Error::Storage(format!("listing {}: {e}", self.dir.display())))?;
        for e in rd {
            let e =
                e.map_err(|e| Error::Storage(format!("listing {}: {e}", self.dir.display())))?;
            let n = e.file_name();
            let n = n.to_string_lossy();
            if let Some(name) = n
                .strip_prefix("secret-")
                .and_then(|x| x.strip_suffix(".bin"))
            {
                out.push(name.to_string());
            }
        }
        out.sort();
        Ok(out)
    }

    fn secret_path(&self, name: &str) -> Result<std::path::PathBuf> {
        // Same alphabet as kind names: they are file names.
        KindSpec::variable(name).validate()?;
        Ok(self.dir.join(format!("secret-{name}.bin")))
    }

    fn secret_mac(&self, mac_key: &[u8; 32], name: &str, nonce: &[u8], ct: &[u8]) -> blake3::Hash {
        let mut h = blake3::Hasher::new_keyed(mac_key);
        h.update(self.session.0.as_slice());
        h.update(&(name.len() as u32).to_le_bytes());
        h.update(name.as_bytes());
        h.update(nonce);
        h.update(ct);
        h.finalize()
    }

    fn keystream_xor(&self, enc_key: &[u8; 32], name: &str, nonce: &[u8], data: &mut [u8]) {
        let mut h = blake3::Hasher::new_keyed(enc_key);
        h.update(self.session.0.as_slice());
        h.update(&(name.len() as u32).to_le_bytes());
        h.update(name.as_bytes());
        h.update(nonce);
        let mut ks = Zeroizing::new(vec![0u8; data.len()]);
        h.finalize_xof().fill(&mut ks);
        for (d, k) in data.iter_mut().zip(ks.iter()) {
            *d ^= k;
        }
    }

    /// Stores (or replaces) secret `name`, sealed, atomically and durably.
    pub fn put_secret(&mut self, name: &str, value: &[u8]) -> Result<()> {
        if value.len() > MAX_SECRET_LEN {
            return Err(Error::config(format!(
                "secret `{name}` is {} bytes; at most {MAX_SECRET_LEN}",
                value.len()
            )));
        }
        let path = self.secret_path(name)?;
        let (enc, mac) = self.secret_keys();
        let mut nonce = [0u8; 16];
        getrandom::fill(&mut nonce)
            .map_err(|e| Error::Storage(format!("no OS randomness for a nonce: {e}")))?;
        let mut ct = Zeroizing::new(value.to_vec());
        self.keystream_xor(&enc, name, &nonce, &mut ct);
        let tag = self.secret_mac(&mac, name, &nonce, &ct);
        let mut file = Vec::with_capacity(8 + 16 + ct.len() + 32);
        file.extend_from_slice(MAGIC);
        file.extend_from_slice(&nonce);
        file.extend_from_slice(&ct);
        file.extend_from_slice(tag.as_bytes());
        write_atomic(&path, &file)
    }

    /// Reads secret `name`: `None` if it was never stored, `Storage` if the
    /// file was tampered with, truncated or belongs to another store.
    pub fn get_secret(&self, name: &str) -> Result<Option<Zeroizing<Vec<u8>>>> {
        let path = self.secret_path(name)?;
        let file = match std::fs::read(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => {
                return Err(crate::fsutil::storage(
                    format!("reading {}", path.display()),
                    e,
                ))
            }
        };
        let bad = || {
            Error::Storage(format!(
                "{} failed verification: tampered, truncated, or from another store",
                path.display()
            ))
        };
        if file.len() < 8 + 16 + 32 || &file[..8] != MAGIC {
            return Err(bad());
        }
        let (nonce, rest) = file[8..].split_at(16);
        let (ct, tag) = rest.split_at(rest.len() - 32);
        let (enc, mac) = self.secret_keys();
        let want = self.secret_mac(&mac, name, nonce, ct);
        let mut got = [0u8; 32];
        got.copy_from_slice(tag);
        // blake3::Hash equality is constant-time.
        if blake3::Hash::from(got) != want {
            return Err(bad());
        }
        let mut pt = Zeroizing::new(ct.to_vec());
        self.keystream_xor(&enc, name, nonce, &mut pt);
        Ok(Some(pt))
    }
}

#[cfg(test)]
mod tests {
    use crate::{Expected, Role, SessionId, Store, StoreConfig};

    fn fresh(d: &std::path::Path, session: u8) -> Store {
        let mut cfg = StoreConfig::new("t", Role::Alice, SessionId([session; 16]));
        cfg.key_path = Some(d.join(format!("k{session}")));
        Store::create(&d.join(format!("s{session}")), cfg).unwrap()
    }

    #[test]
    fn secrets_round_trip_are_reusable_and_sealed() {
        let d = tempfile::tempdir().unwrap();
        let mut s = fresh(d.path(), 1);
        assert!(s.get_secret("delta").unwrap().is_none());
        s.put_secret("delta", b"0123456789abcdef").unwrap();
        for _ in 0..3 {
            assert_eq!(
                &s.get_secret("delta").unwrap().unwrap()[..],
                b"0123456789abcdef"
            );
        }
        let raw = std::fs::read(s.dir().join("secret-delta.bin")).unwrap();
        assert!(!raw.windows(16).any(|w| w == b"0123456789abcdef"));
        // Survives reopening.
        let dir = s.dir().to_path_buf();
        drop(s);
        let mut e = Expected::new("t", Role::Alice);
        e.key_path = Some(d.path().join("k1"));
        let s = Store::open(&dir, &e).unwrap();
        assert_eq!(
            &s.get_secret("delta").unwrap().unwrap()[..],
            b"0123456789abcdef"
        );
        assert!(s.get_secret("bad/name").is_err());
    }

    #[test]
    fn tampered_or_transplanted_secrets_are_refused() {
        let d = tempfile::tempdir().unwrap();
        let mut a = fresh(d.path(), 1);
        let mut b = fresh(d.path(), 2);
        a.put_secret("delta", b"secret").unwrap();
        b.put_secret("other", b"x").unwrap();
        let pa = a.dir().join("secret-delta.bin");
        let good = std::fs::read(&pa).unwrap();
        for i in [0, 9, 25, good.len() - 1] {
            let mut bad = good.clone();
            bad[i] ^= 1;
            std::fs::write(&pa, &bad).unwrap();
            assert!(matches!(
                a.get_secret("delta"),
                Err(brickyard_core::Error::Storage(_))
            ));
        }
        std::fs::write(&pa, &good[..20]).unwrap();
        assert!(a.get_secret("delta").is_err());
        // Another store's file (other session and key) does not verify.
        std::fs::copy(&pa, b.dir().join("secret-delta.bin")).ok();
        std::fs::write(&pa, &good).unwrap();
        std::fs::copy(&pa, b.dir().join("secret-delta.bin")).unwrap();
        assert!(b.get_secret("delta").is_err());
        assert_eq!(&a.get_secret("delta").unwrap().unwrap()[..], b"secret");
    }
}
