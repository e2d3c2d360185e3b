//! `store export` / `store import`: moving a store (data and key) to
//! another machine in one file encrypted under a passphrase.
//!
//! A store is only safe to use in one place: two usable copies would hand
//! out the same indices. Export therefore *moves*: it verifies the store,
//! writes the archive, and durably marks the source `Exported` (in the
//! state and the mirror beside the key) before the archive appears under
//! its name; the source refuses all use from then on. A crash in between
//! loses the material, never duplicates it.
//!
//! Archive: `BYEXPRT1 ‖ u32 version ‖ salt[16] ‖ u32 m_kib ‖ u32 t ‖ u32 p`
//! (the header), then segments `u32 len ‖ ChaCha20-Poly1305(ciphertext)`
//! of at most 1 MiB of plaintext each. The key is Argon2id(passphrase,
//! salt, m, t, p); segment `i` has nonce `u64 i ‖ u32 last` and the header
//! as associated data, so reordered, dropped, truncated or appended
//! segments fail. The plaintext is a list of entries `u8 type ‖ u16
//! name length ‖ name ‖ u64 length ‖ bytes` (type 1: a store file, 2: the
//! key file, 3: the state mirror), ended by type 0.

use crate::fsutil::{create_private_dir, fsync_dir, private_new, storage};
use crate::key::{default_key_path, mirror_path};
use crate::manifest::Manifest;
use crate::state::Closed;
use crate::store::Store;
use argon2::{Algorithm, Argon2, Params, Version};
use brickyard_core::{Error, Result};
use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{ChaCha20Poly1305, Key, Nonce};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use zeroize::Zeroizing;

const MAGIC: &[u8; 8] = b"BYEXPRT1";
const VERSION: u32 = 1;
const HEADER_LEN: usize = 8 + 4 + 16 + 12;
const SEGMENT: usize = 1 << 20;
/// Argon2id cost of a new archive: 64 MiB, 3 passes (OWASP's order of
/// magnitude for interactive use; an archive is made rarely).
const M_KIB: u32 = 64 * 1024;
const T_COST: u32 = 3;
/// Largest costs an archive may ask for on import (a hostile header must
/// not make us allocate or spin without bound).
const MAX_M_KIB: u32 = 1024 * 1024;
const MAX_T_COST: u32 = 16;

const END: u8 = 0;
const STORE_FILE: u8 = 1;
const KEY_FILE: u8 = 2;
const MIRROR_FILE: u8 = 3;

fn derive(pass: &[u8], salt: &[u8; 16], m: u32, t: u32, p: u32) -> Result<Zeroizing<[u8; 32]>> {
    let params = Params::new(m, t, p, Some(32))
        .map_err(|e| Error::config(format!("archive key parameters: {e}")))?;
    let mut out = Zeroizing::new([0u8; 32]);
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
        .hash_password_into(pass, salt, &mut out[..])
        .map_err(|e| Error::config(format!("deriving the archive key: {e}")))?;
    Ok(out)
}

fn nonce(i: u64, last: bool) -> [u8; 12] {
    let mut n = [0u8; 12];
    n[..8].copy_from_slice(&i.to_le_bytes());
    n[8..].copy_from_slice(&(last as u32).to_le_bytes());
    n
}

/// Encrypts a plaintext stream segment by segment into `out`.
struct SealWriter<W: Write> {
    out: W,
    aead: ChaCha20Poly1305,
    header: Vec<u8>,
    buf: Zeroizing<Vec<u8>>,
    index: u64,
}

impl<W: Write> SealWriter<W> {
    fn segment(&mut self, last: bool) -> std::io::Result<()> {
        let n = nonce(self.index, last);
        let ct = self
            .aead
            .encrypt(
                Nonce::from_slice(&n),
                Payload {
                    msg: &self.buf,
                    aad: &self.header,
                },
            )
            .map_err(|_| std::io::Error::other("encryption failed"))?;
        self.out.write_all(&(ct.len() as u32).to_le_bytes())?;
        self.out.write_all(&ct)?;
        self.buf.clear();
        self.index += 1;
        Ok(())
    }

    fn finish(mut self) -> std::io::Result<W> {
        self.segment(true)?;
        self.out.flush()?;
        Ok(self.out)
    }
}

impl<W: Write> Write for SealWriter<W> {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        let take = data.len().min(SEGMENT - self.buf.len());
        self.buf.extend_from_slice(&data[..take]);
        if self.buf.len() == SEGMENT {
            self.segment(false)?;
        }
        Ok(take)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Decrypts the segments of an archive as a plaintext stream; a missing
/// last segment, a forged or reordered one, or bytes after the last are
/// errors.
struct OpenReader<R: Read> {
    input: R,
    aead: ChaCha20Poly1305,
    header: Vec<u8>,
    buf: Zeroizing<Vec<u8>>,
    at: usize,
    index: u64,
    done: bool,
}

impl<R: Read> OpenReader<R> {
    fn next_segment(&mut self) -> std::io::Result<()> {
        let bad = |m: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, m.to_string());
        let mut len = [0u8; 4];
        self.input
            .read_exact(&mut len)
            .map_err(|_| bad("archive truncated"))?;
        let len = u32::from_le_bytes(len) as usize;
        if len > SEGMENT + 16 {
            return Err(bad("archive segment too long"));
        }
        let mut ct = vec![0u8; len];
        self.input
            .read_exact(&mut ct)
            .map_err(|_| bad("archive truncated"))?;
        for last in [false, true] {
            let n = nonce(self.index, last);
            if let Ok(pt) = self.aead.decrypt(
                Nonce::from_slice(&n),
                Payload {
                    msg: &ct,
                    aad: &self.header,
                },
            ) {
                self.buf = Zeroizing::new(pt);
                self.at = 0;
                self.index += 1;
                self.done = last;
                if last {
                    let mut extra = [0u8; 1];
                    if self.input.read(&mut extra)? != 0 {
                        return Err(bad("bytes after the archive's last segment"));
                    }
                }
                return Ok(());
            }
        }
        Err(bad(
            "archive does not decrypt: wrong passphrase, or the file was altered",
        ))
    }
}

impl<R: Read> Read for OpenReader<R> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        while self.at == self.buf.len() {
            if self.done {
                return Ok(0);
            }
            self.next_segment()?;
        }
        let n = out.len().min(self.buf.len() - self.at);
        out[..n].copy_from_slice(&self.buf[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

fn entry_head(w: &mut impl Write, kind: u8, name: &str, len: u64) -> std::io::Result<()> {
    w.write_all(&[kind])?;
    w.write_all(&(name.len() as u16).to_le_bytes())?;
    w.write_all(name.as_bytes())?;
    w.write_all(&len.to_le_bytes())
}

/// What an export or import moved.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct TransferReport {
    /// The archive file.
    pub archive: PathBuf,
    /// The store directory (source of an export, target of an import).
    pub store: PathBuf,
    /// The key file (source or target).
    pub key: PathBuf,
    /// Files moved (store files, key, mirror).
    pub files: u64,
    /// Bytes of plaintext moved.
    pub bytes: u64,
}

impl Store {
    /// Moves this store into an archive encrypted under `passphrase` (see
    /// the module documentation); the store is verified first and refuses
    /// all use afterwards.
    pub fn export(mut self, archive: &Path, passphrase: &[u8]) -> Result<TransferReport> {
        self.state.check_open()?;
        self.commit()?;
        self.verify()?;
        if archive.exists() {
            return Err(Error::config(format!(
                "{} exists; refusing to overwrite it",
                archive.display()
            )));
        }
        let mut salt = [0u8; 16];
        getrandom::fill(&mut salt)
            .map_err(|e| Error::Storage(format!("OS randomness unavailable: {e}")))?;
        let key = derive(passphrase, &salt, M_KIB, T_COST, 1)?;
        let mut header = Vec::with_capacity(HEADER_LEN);
        header.extend_from_slice(MAGIC);
        header.extend_from_slice(&VERSION.to_le_bytes());
        header.extend_from_slice(&salt);
        for x in [M_KIB, T_COST, 1] {
            header.extend_from_slice(&x.to_le_bytes());
        }
        let mut tmp = archive.as_os_str().to_owned();
        tmp.push(".partial");
        let tmp = PathBuf::from(tmp);
        let file = private_new()
            .write(true)
            .create_new(true)
            .open(&tmp)
            .map_err(|e| storage(format!("creating {}", tmp.display()), e))?;
        let mut out = std::io::BufWriter::new(file);
        let io = |e: std::io::Error| storage(format!("writing {}", tmp.display()), e);
        out.write_all(&header).map_err(io)?;
        let mut w = SealWriter {
            out,
            aead: ChaCha20Poly1305::new(Key::from_slice(&key[..])),
            header,
            buf: Zeroizing::new(Vec::with_capacity(SEGMENT)),
            index: 0,
        };
        let (mut files, mut bytes) = (0u64, 0u64);
        // The manifest first: import learns session and role from it.
        let mut names: Vec<String> = std::fs::read_dir(&self.dir)
            .map_err(|e| storage(format!("listing {}", self.dir.display()), e))?
            .filter_map(|e| e.ok())
            .filter(|e| e.file_type().map(|t| t.is_file()).unwrap_or(false))
            .map(|e| e.file_name().to_string_lossy().to_string())
            .filter(|n| n != crate::lock::LOCK_FILE && !n.starts_with('.'))
            .collect();
        names.sort_by_key(|n| (n != crate::manifest::MANIFEST_FILE, n.clone()));
        let mirror = mirror_path(&self.key_path);
        let mut sources: Vec<(u8, String, PathBuf)> = names
            .into_iter()
            .map(|n| (STORE_FILE, n.clone(), self.dir.join(n)))
            .collect();
        sources.push((KEY_FILE, String::new(), self.key_path.clone()));
        sources.push((MIRROR_FILE, String::new(), mirror));
        for (kind, name, path) in &sources {
            let mut f = std::fs::File::open(path)
                .map_err(|e| storage(format!("opening {}", path.display()), e))?;
            let len = f
                .metadata()
                .map_err(|e| storage(format!("reading {}", path.display()), e))?
                .len();
            entry_head(&mut w, *kind, name, len).map_err(io)?;
            let copied = std::io::copy(&mut (&mut f).take(len), &mut w).map_err(io)?;
            if copied != len {
                return Err(Error::Storage(format!(
                    "{} changed while it was exported",
                    path.display()
                )));
            }
            files += 1;
            bytes += len;
        }
        entry_head(&mut w, END, "", 0).map_err(io)?;
        let out = w.finish().map_err(io)?;
        let file = out.into_inner().map_err(|e| io(e.into_error()))?;
        file.sync_all().map_err(io)?;
        drop(file);
        // Moved, not copied: the source refuses use before the archive
        // appears under its name.
        self.close(Closed::Exported)?;
        std::fs::rename(&tmp, archive)
            .map_err(|e| storage(format!("renaming {}", tmp.display()), e))?;
        if let Some(d) = archive.parent().filter(|d| !d.as_os_str().is_empty()) {
            fsync_dir(d)?;
        }
        Ok(TransferReport {
            archive: archive.to_path_buf(),
            store: self.dir.clone(),
            key: self.key_path.clone(),
            files,
            bytes,
        })
    }
}

/// An archive's header: its bytes (the associated data of every segment),
/// the salt and the Argon2id costs (m KiB, t, p).
type ArchiveHeader = (Vec<u8>, [u8; 16], u32, u32, u32);

pub(crate) fn read_archive_header(r: &mut impl Read) -> Result<ArchiveHeader> {
    let mut h = vec![0u8; HEADER_LEN];
    r.read_exact(&mut h)
        .map_err(|_| Error::malformed("not a brickyard store archive (too short)"))?;
    if &h[..8] != MAGIC {
        return Err(Error::malformed("not a brickyard store archive"));
    }
    let u = |at: usize| u32::from_le_bytes(h[at..at + 4].try_into().unwrap_or([0; 4]));
    if u(8) != VERSION {
        return Err(Error::Storage(format!(
            "store archive version {}, this build reads {VERSION}",
            u(8)
        )));
    }
    let mut salt = [0u8; 16];
    salt.copy_from_slice(&h[12..28]);
    let (m, t, p) = (u(28), u(32), u(36));
    if m > MAX_M_KIB || t > MAX_T_COST || p != 1 {
        return Err(Error::malformed(format!(
            "store archive asks for key costs m={m} KiB, t={t}, p={p}; refused"
        )));
    }
    Ok((h, salt, m, t, p))
}

/// Imports an archive made by [`Store::export`] into `dir` (which must not
/// exist or be empty), with the key at `key_path` (default: the usual
/// place under `$BRICKYARD_HOME/keys`, which must not hold that key yet);
/// the imported store is verified before this returns. On any failure
/// whatever was written is removed.
pub fn import(
    archive: &Path,
    dir: &Path,
    key_path: Option<&Path>,
    passphrase: &[u8],
) -> Result<TransferReport> {
    let file = std::fs::File::open(archive)
        .map_err(|e| storage(format!("opening {}", archive.display()), e))?;
    let mut input = std::io::BufReader::new(file);
    let (header, salt, m, t, p) = read_archive_header(&mut input)?;
    let key = derive(passphrase, &salt, m, t, p)?;
    let mut r = OpenReader {
        input,
        aead: ChaCha20Poly1305::new(Key::from_slice(&key[..])),
        header,
        buf: Zeroizing::new(Vec::new()),
        at: 0,
        index: 0,
        done: false,
    };
    if dir.exists()
        && std::fs::read_dir(dir)
            .map_err(|e| storage(format!("listing {}", dir.display()), e))?
            .next()
            .is_some()
    {
        return Err(Error::config(format!(
            "{} is not empty; refusing to import over existing files",
            dir.display()
        )));
    }
    let mut written: Vec<PathBuf> = Vec::new();
    let res = import_entries(&mut r, dir, key_path, &mut written);
    let res = res.and_then(|(key_path, files, bytes)| {
        let mut s = Store::open_any(dir, Some(&key_path))?;
        s.verify()?;
        Ok(TransferReport {
            archive: archive.to_path_buf(),
            store: dir.to_path_buf(),
            key: key_path,
            files,
            bytes,
        })
    });
    if res.is_err() {
        for p in written.iter().rev() {
            let _ = std::fs::remove_file(p);
        }
        let _ = std::fs::remove_dir(dir);
    }
    res
}

fn import_entries(
    r: &mut impl Read,
    dir: &Path,
    key_path: Option<&Path>,
    written: &mut Vec<PathBuf>,
) -> Result<(PathBuf, u64, u64)> {
    let bad = |m: String| Error::malformed(format!("store archive: {m}"));
    let io = |e: std::io::Error| bad(e.to_string());
    create_private_dir(dir)?;
    let mut key_target: Option<PathBuf> = key_path.map(Path::to_path_buf);
    let (mut files, mut bytes) = (0u64, 0u64);
    let (mut have_key, mut have_mirror) = (false, false);
    loop {
        let mut kind = [0u8; 1];
        r.read_exact(&mut kind).map_err(io)?;
        let mut nl = [0u8; 2];
        r.read_exact(&mut nl).map_err(io)?;
        let mut name = vec![0u8; u16::from_le_bytes(nl) as usize];
        r.read_exact(&mut name).map_err(io)?;
        let name = String::from_utf8(name).map_err(|_| bad("a file name is not UTF-8".into()))?;
        let mut ll = [0u8; 8];
        r.read_exact(&mut ll).map_err(io)?;
        let len = u64::from_le_bytes(ll);
        let target = match kind[0] {
            END => break,
            STORE_FILE => {
                let ok = !name.is_empty()
                    && name.len() <= 128
                    && name
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
                    && !name.starts_with('.');
                if !ok {
                    return Err(bad(format!("refusing the file name {name:?}")));
                }
                dir.join(&name)
            }
            KEY_FILE | MIRROR_FILE => {
                if key_target.is_none() {
                    // The manifest came first and names session and role.
                    let m = Manifest::load_unverified(dir)?;
                    key_target = Some(default_key_path(&m.session()?, m.role)?);
                }
                let kp = key_target.clone().unwrap_or_default();
                if kind[0] == KEY_FILE {
                    if let Some(parent) = kp.parent() {
                        create_private_dir(parent)?;
                    }
                    have_key = true;
                    kp
                } else {
                    have_mirror = true;
                    mirror_path(&kp)
                }
            }
            k => return Err(bad(format!("unknown entry type {k}"))),
        };
        let mut f = private_new()
            .write(true)
            .create_new(true)
            .open(&target)
            .map_err(|e| storage(format!("creating {}", target.display()), e))?;
        written.push(target.clone());
        let copied = std::io::copy(&mut r.take(len), &mut f).map_err(io)?;
        if copied != len {
            return Err(bad("archive truncated".into()));
        }
        f.sync_all()
            .map_err(|e| storage(format!("syncing {}", target.display()), e))?;
        files += 1;
        bytes += len;
    }
    let mut rest = [0u8; 1];
    if r.read(&mut rest).map_err(io)? != 0 {
        return Err(bad("data after the end entry".into()));
    }
    let key_path = match (key_target, have_key, have_mirror) {
        (Some(k), true, true) => k,
        _ => return Err(bad("the archive lacks the key or its state".into())),
    };
    fsync_dir(dir)?;
    if let Some(parent) = key_path.parent() {
        fsync_dir(parent)?;
    }
    Ok((key_path, files, bytes))
}
