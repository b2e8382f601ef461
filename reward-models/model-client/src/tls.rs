//! Trusted CA files, and TLS failures worth naming.

use std::path::{Path, PathBuf};

use crate::text::chain;

/// Why a CA file cannot be used; the message names the setting (`judge.ca_cert`).
#[derive(Debug, thiserror::Error)]
pub enum CaFileError {
    /// The file cannot be read.
    #[error("{key}: cannot read {}: {source}", .path.display())]
    Unreadable { key: String, path: PathBuf, source: std::io::Error },
    /// The file is not PEM.
    #[error("{key}: {} is not a PEM certificate file: {}", .path.display(), chain(.source))]
    NotPem { key: String, path: PathBuf, source: reqwest::Error },
    /// The file is PEM without a certificate in it.
    #[error("{key}: {} holds no PEM certificate (-----BEGIN CERTIFICATE-----)", .path.display())]
    Empty { key: String, path: PathBuf },
}

/// The certificates of a PEM file, for the configuration key `key` (`judge.ca_cert`).
pub fn read_ca_certificates(path: &Path, key: &str) -> Result<Vec<reqwest::Certificate>, CaFileError> {
    let (key, path) = (key.to_owned(), path.to_owned());
    let pem = match std::fs::read(&path) {
        Ok(pem) => pem,
        Err(source) => return Err(CaFileError::Unreadable { key, path, source }),
    };
    let certificates = match reqwest::Certificate::from_pem_bundle(&pem) {
        Ok(certificates) => certificates,
        Err(source) => return Err(CaFileError::NotPem { key, path, source }),
    };
    if certificates.is_empty() {
        return Err(CaFileError::Empty { key, path });
    }
    Ok(certificates)
}

/// The TLS error behind a failed request to `peer` ("the judge"), described, when there is
/// one; `ca_key` names the setting that adds a private CA.
pub fn tls_failure(error: &reqwest::Error, peer: &str, ca_key: &str) -> Option<String> {
    let tls = find_tls_error(error)?;
    let hint = if matches!(tls, rustls::Error::InvalidCertificate(_)) {
        format!(" (a server whose certificate a private CA signed needs that CA in {ca_key})")
    } else {
        String::new()
    };
    Some(format!("the TLS connection to {peer} failed: {tls}{hint}"))
}

/// A rustls error among the causes of `error`, also inside the I/O errors that wrap it (an
/// I/O error's `source` skips the error it wraps).
fn find_tls_error<'a>(error: &'a (dyn std::error::Error + 'static)) -> Option<&'a rustls::Error> {
    let mut next = Some(error);
    let mut depth = 0;
    while let Some(current) = next
        && depth < 32
    {
        if let Some(tls) = current.downcast_ref::<rustls::Error>() {
            return Some(tls);
        }
        if let Some(wrapped) = current.downcast_ref::<std::io::Error>().and_then(std::io::Error::get_ref) {
            next = Some(wrapped as &(dyn std::error::Error + 'static));
        } else {
            next = current.source();
        }
        depth += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ca_file_must_hold_certificates() {
        let dir = std::env::temp_dir().join(format!("referee-model-client-ca-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let refused = |path: &Path| read_ca_certificates(path, "judge.ca_cert").err().map(|e| e.to_string());
        let missing = refused(&dir.join("missing.pem")).unwrap_or_default();
        assert!(missing.starts_with("judge.ca_cert: cannot read ") && missing.contains("missing.pem"), "{missing}");
        let text = dir.join("text.pem");
        let _ = std::fs::write(&text, "not a certificate\n");
        let empty = refused(&text).unwrap_or_default();
        assert!(empty.ends_with("holds no PEM certificate (-----BEGIN CERTIFICATE-----)"), "{empty}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
