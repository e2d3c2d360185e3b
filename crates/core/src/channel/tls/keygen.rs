//! Making an identity: a fresh ECDSA P-256 key and a self-signed
//! certificate for it, usable by either role (listener or connector), that
//! the peer pins by fingerprint or takes as its `--peer-ca`.

use super::Fingerprint;
use crate::{Error, Result};
use rcgen::{CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, KeyPair, KeyUsagePurpose};
use std::io::Write;
use std::path::{Path, PathBuf};
use zeroize::Zeroizing;

/// How long a generated certificate is valid.
const VALID_YEARS: i32 = 10;

/// A generated identity, in PEM, with the certificate's fingerprint.
pub struct GeneratedIdentity {
    /// The self-signed certificate.
    pub cert_pem: String,
    /// The private key (PKCS#8), zeroized on drop.
    pub key_pem: Zeroizing<String>,
    /// The certificate's SHA-256 fingerprint (what the peer pins).
    pub fingerprint: Fingerprint,
}

/// Generates a key (from the OS's randomness, through `ring`) and a
/// self-signed certificate for `name`, which becomes the subject's common
/// name and its one subject alternative name (a DNS name, or an IP address
/// if it parses as one). Valid from yesterday for ten years; marked as no
/// CA; key purposes: server and client authentication.
pub fn generate(name: &str) -> Result<GeneratedIdentity> {
    let err = |e: rcgen::Error| Error::config(format!("certificate for {name:?}: {e}"));
    let key = KeyPair::generate().map_err(err)?;
    let mut params = CertificateParams::new(vec![name.to_string()]).map_err(err)?;
    params.distinguished_name.push(DnType::CommonName, name);
    params.is_ca = IsCa::ExplicitNoCa;
    params.key_usages = vec![KeyUsagePurpose::DigitalSignature];
    params.extended_key_usages = vec![
        ExtendedKeyUsagePurpose::ServerAuth,
        ExtendedKeyUsagePurpose::ClientAuth,
    ];
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_err(|_| Error::config("the system clock is before 1970"))?
        .as_secs() as i64;
    let (y, m, d) = civil_from_days(now / 86_400 - 1);
    params.not_before = rcgen::date_time_ymd(y, m, d);
    params.not_after = rcgen::date_time_ymd(y + VALID_YEARS, m, d.min(28));
    let cert = params.self_signed(&key).map_err(err)?;
    Ok(GeneratedIdentity {
        cert_pem: cert.pem(),
        key_pem: Zeroizing::new(key.serialize_pem()),
        fingerprint: Fingerprint::of(cert.der()),
    })
}

impl GeneratedIdentity {
    /// Writes `cert.pem` (mode 0644) and `key.pem` (created with mode 0600)
    /// into `dir` (created if missing); existing files are never
    /// overwritten. Returns both paths.
    pub fn write_to(&self, dir: &Path) -> Result<(PathBuf, PathBuf)> {
        std::fs::create_dir_all(dir)
            .map_err(|e| Error::config(format!("{}: {e}", dir.display())))?;
        let cert = dir.join("cert.pem");
        let key = dir.join("key.pem");
        for p in [&cert, &key] {
            if p.exists() {
                return Err(Error::config(format!(
                    "{} already exists (not overwritten: choose another --out)",
                    p.display()
                )));
            }
        }
        write_new(&key, self.key_pem.as_bytes(), 0o600)?;
        write_new(&cert, self.cert_pem.as_bytes(), 0o644)?;
        Ok((cert, key))
    }
}

fn write_new(path: &Path, data: &[u8], mode: u32) -> Result<()> {
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(mode);
    }
    #[cfg(not(unix))]
    let _ = mode;
    let e = |e: std::io::Error| Error::config(format!("{}: {e}", path.display()));
    let mut f = opts.open(path).map_err(e)?;
    f.write_all(data).map_err(e)?;
    f.sync_all().map_err(e)
}

/// Year, month, day of a day count since 1970-01-01 (proleptic Gregorian).
fn civil_from_days(z: i64) -> (i32, u8, u8) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y as i32, m as u8, d as u8)
}

#[cfg(test)]
mod tests {
    use super::civil_from_days;

    #[test]
    fn civil_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(59), (1970, 3, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
    }
}
