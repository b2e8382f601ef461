//! Helpers of the HTTP clients that call model servers (the LLM judge here, the RLPR remote
//! model in `referee-rlpr`): trusted CA files, error chains, and TLS failures worth naming.

/// The certificates of a PEM file, for the configuration key `key` (`judge.ca_cert`).
pub fn read_ca_certificates(path: &std::path::Path, key: &str) -> Result<Vec<reqwest::Certificate>, String> {
    let shown = path.display();
    let pem = std::fs::read(path).map_err(|e| format!("{key}: cannot read {shown}: {e}"))?;
    let certificates = reqwest::Certificate::from_pem_bundle(&pem)
        .map_err(|e| format!("{key}: {shown} is not a PEM certificate file: {}", chain(&e)))?;
    if certificates.is_empty() {
        return Err(format!("{key}: {shown} holds no PEM certificate (-----BEGIN CERTIFICATE-----)"));
    }
    Ok(certificates)
}

/// An error with its causes, `: `-separated, each said once.
pub fn chain(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let said = cause.to_string();
        if !text.contains(&said) {
            text.push_str(": ");
            text.push_str(&said);
        }
        source = cause.source();
    }
    text
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
