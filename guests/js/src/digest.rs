//! `__rb_digest(algorithm, bytes)`: the hash functions of Node's `crypto.createHash`, done
//! natively (RustCrypto's digests) rather than in JavaScript, where Boa would take hundreds of
//! times longer. `bytes` is a string of code units 0-255 (one per byte, as `crypto.js` builds
//! it); the answer is the digest's bytes the same way, or `undefined` for an algorithm Node
//! would not know either.

use boa_engine::{Context, JsResult, JsString, JsValue};
use md5::Md5;
use sha1::Sha1;
use sha2::{Digest, Sha224, Sha256, Sha384, Sha512};

/// The digest of `bytes` by `algorithm` (Node's names, any case), if it is one of them.
pub fn digest_of(algorithm: &str, bytes: &[u8]) -> Option<Vec<u8>> {
    Some(match algorithm.to_ascii_lowercase().as_str() {
        "md5" => Md5::digest(bytes).to_vec(),
        "sha1" | "sha-1" => Sha1::digest(bytes).to_vec(),
        "sha224" | "sha-224" => Sha224::digest(bytes).to_vec(),
        "sha256" | "sha-256" => Sha256::digest(bytes).to_vec(),
        "sha384" | "sha-384" => Sha384::digest(bytes).to_vec(),
        "sha512" | "sha-512" => Sha512::digest(bytes).to_vec(),
        _ => return None,
    })
}

/// The native function (see the module's documentation).
pub fn digest(_: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let algorithm = match args.first() {
        Some(v) => v.to_string(context)?.to_std_string_escaped(),
        None => String::new(),
    };
    let bytes: Vec<u8> = match args.get(1) {
        Some(v) => v
            .to_string(context)?
            .iter()
            .map(|unit| unit as u8)
            .collect(),
        None => Vec::new(),
    };
    Ok(match digest_of(&algorithm, &bytes) {
        Some(out) => {
            let units: Vec<u16> = out.into_iter().map(u16::from).collect();
            JsValue::from(JsString::from(&units[..]))
        }
        None => JsValue::undefined(),
    })
}
