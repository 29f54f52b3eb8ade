//! A Mini App's `initData` (issue 31), checked as Telegram documents it: the query string the
//! client hands the page, signed by Telegram with a key derived from the bot's token.
//!
//! - The data-check string is every `key=value` pair but `hash` (and `signature`), decoded,
//!   sorted by key and joined by `\n`.
//! - The secret key is `HMAC-SHA256(key = "WebAppData", message = token)`.
//! - `hash` must be the hex of `HMAC-SHA256(key = secret, message = data-check string)`.
//! - `auth_date` (Unix seconds) must be at most [`MAX_AGE`] old, and not from the future.
//!
//! Only then is the `user` field (JSON) trusted: the id and the language of whoever opened the
//! page. HMAC is built here on `sha2` (RFC 2104, checked against RFC 4231's vectors) rather
//! than with another crate for its twenty lines.

use serde::Deserialize;
use sha2::{Digest, Sha256};

/// How old an `initData` may be: a day.
pub const MAX_AGE: u64 = 24 * 3600;

/// Why an `initData` was refused (the page gets 401 whatever the reason).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InitDataError {
    /// No `hash`, no `auth_date` or no `user`, or a pair that does not decode.
    Malformed,
    /// The hash does not match: forged, altered, or signed for another bot.
    BadHash,
    /// Older than [`MAX_AGE`], or from the future.
    Expired,
}

/// Whoever opened the page, as Telegram vouches for them.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct WebAppUser {
    /// The Telegram user id.
    pub id: u64,
    /// Their first name.
    #[serde(default)]
    pub first_name: String,
    /// Their Telegram language (`ru`, `bg`, `en` …), if told.
    #[serde(default)]
    pub language_code: Option<String>,
}

/// What a checked `initData` tells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InitData {
    /// Who opened the page.
    pub user: WebAppUser,
    /// When Telegram signed it (Unix seconds).
    pub auth_date: u64,
    /// The `start_param` of a `t.me/<bot>/<app>?startapp=…` link, if any.
    pub start_param: Option<String>,
}

/// HMAC-SHA256 of `message` under `key` (RFC 2104).
pub fn hmac_sha256(key: &[u8], message: &[u8]) -> [u8; 32] {
    const BLOCK: usize = 64;
    let mut block = [0u8; BLOCK];
    if key.len() > BLOCK {
        block[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        block[..key.len()].copy_from_slice(key);
    }
    let pad = |byte: u8| block.map(|b| b ^ byte);
    let inner = Sha256::new()
        .chain_update(pad(0x36))
        .chain_update(message)
        .finalize();
    Sha256::new()
        .chain_update(pad(0x5c))
        .chain_update(inner)
        .finalize()
        .into()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `%XX` and `+` decoded; `None` if an escape is broken or the result is not UTF-8.
pub fn decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hexits = s.get(i + 1..i + 3)?;
                out.push(u8::from_str_radix(hexits, 16).ok()?);
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

/// The data-check string of decoded `pairs` and the hash they carry.
fn check_string(pairs: &[(String, String)]) -> Option<(String, String)> {
    let hash = pairs.iter().find(|(k, _)| k == "hash")?.1.clone();
    let mut signed: Vec<&(String, String)> = pairs
        .iter()
        .filter(|(k, _)| k != "hash" && k != "signature")
        .collect();
    signed.sort_by(|a, b| a.0.cmp(&b.0));
    let text = signed
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join("\n");
    Some((text, hash))
}

/// The hash Telegram puts in an `initData` of the bot `token` over `check`.
fn sign(token: &str, check: &str) -> String {
    let secret = hmac_sha256(b"WebAppData", token.as_bytes());
    hex(&hmac_sha256(&secret, check.as_bytes()))
}

/// Checks `init_data` (the raw query string) for the bot `token` at `now` (Unix seconds).
///
/// # Errors
/// [`InitDataError`]: malformed, a hash that does not match, or too old.
pub fn validate(init_data: &str, token: &str, now: u64) -> Result<InitData, InitDataError> {
    let pairs: Vec<(String, String)> = init_data
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            Some((decode(k)?, decode(v)?))
        })
        .collect::<Option<_>>()
        .ok_or(InitDataError::Malformed)?;
    let (check, hash) = check_string(&pairs).ok_or(InitDataError::Malformed)?;
    // Compared whole, in constant time over the hex digits.
    let expected = sign(token, &check);
    let same = expected.len() == hash.len()
        && expected
            .bytes()
            .zip(hash.to_ascii_lowercase().bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0;
    if !same {
        return Err(InitDataError::BadHash);
    }
    let field = |name: &str| pairs.iter().find(|(k, _)| k == name).map(|(_, v)| v);
    let auth_date: u64 = field("auth_date")
        .and_then(|v| v.parse().ok())
        .ok_or(InitDataError::Malformed)?;
    if auth_date > now.saturating_add(60) || now.saturating_sub(auth_date) > MAX_AGE {
        return Err(InitDataError::Expired);
    }
    let user: WebAppUser = field("user")
        .and_then(|v| serde_json::from_str(v).ok())
        .ok_or(InitDataError::Malformed)?;
    Ok(InitData {
        user,
        auth_date,
        start_param: field("start_param").cloned(),
    })
}

/// An `initData` as Telegram would sign it for the bot `token`: `pairs` (not encoded) with
/// their hash, percent-encoded. For tests and the fake Telegram.
pub fn signed(pairs: &[(&str, &str)], token: &str) -> String {
    let owned: Vec<(String, String)> = pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .chain([("hash".to_owned(), String::new())])
        .collect();
    let (check, _) = check_string(&owned).unwrap_or_default();
    let hash = sign(token, &check);
    let encode = |s: &str| {
        s.bytes()
            .map(|b| {
                if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
                    (b as char).to_string()
                } else {
                    format!("%{b:02X}")
                }
            })
            .collect::<String>()
    };
    pairs
        .iter()
        .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
        .chain([format!("hash={hash}")])
        .collect::<Vec<_>>()
        .join("&")
}

/// Game `id`'s name in the Mini App's links (`startapp=`, `?game=`): its number and a MAC of
/// it keyed by the bot's token, so a game's board is opened from its own messages, never
/// guessed from another's number.
pub fn game_token(id: u64, token: &str) -> String {
    let key = hmac_sha256(b"MiniAppGame", token.as_bytes());
    let mac = hmac_sha256(&key, id.to_string().as_bytes());
    format!("g{id}_{}", hex(&mac[..6]))
}

/// The game a token of [`game_token`] names, if it is one made with `token`.
pub fn game_of_token(s: &str, token: &str) -> Option<u64> {
    let id: u64 = s.strip_prefix('g')?.split_once('_')?.0.parse().ok()?;
    (game_token(id, token) == s).then_some(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOKEN: &str = "123456:ABC-test-token";
    const NOW: u64 = 1_800_000_000;

    fn fresh(user: &str) -> String {
        signed(
            &[
                ("query_id", "AAHdF6IQAAAAAN0XohDhrOrc"),
                ("user", user),
                ("auth_date", &NOW.to_string()),
                ("start_param", "g42"),
            ],
            TOKEN,
        )
    }

    const ANNA: &str = r#"{"id":42,"first_name":"Аня","language_code":"ru"}"#;

    #[test]
    fn hmac_matches_rfc_4231() {
        // Test cases 1 and 2; case 6 has a key longer than a block.
        assert_eq!(
            hex(&hmac_sha256(&[0x0b; 20], b"Hi There")),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        );
        assert_eq!(
            hex(&hmac_sha256(b"Jefe", b"what do ya want for nothing?")),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        assert_eq!(
            hex(&hmac_sha256(
                &[0xaa; 131],
                b"Test Using Larger Than Block-Size Key - Hash Key First"
            )),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        );
    }

    #[test]
    fn a_signed_init_data_tells_who_opened_the_page() {
        let data = validate(&fresh(ANNA), TOKEN, NOW + 10).unwrap();
        assert_eq!(data.user.id, 42);
        assert_eq!(data.user.first_name, "Аня");
        assert_eq!(data.user.language_code.as_deref(), Some("ru"));
        assert_eq!(data.start_param.as_deref(), Some("g42"));
        assert_eq!(data.auth_date, NOW);
        // The order of the pairs does not matter, nor the case of the hash's digits.
        let raw = fresh(ANNA);
        let mut parts: Vec<&str> = raw.split('&').collect();
        parts.reverse();
        let upper = parts.join("&").replace("hash=", "HASHMARK").to_owned();
        let (before, after) = upper.split_once("HASHMARK").unwrap();
        let (digits, rest) = after.split_at(64);
        let shuffled = format!("{before}hash={}{rest}", digits.to_ascii_uppercase());
        assert_eq!(validate(&shuffled, TOKEN, NOW).unwrap().user.id, 42);
    }

    #[test]
    fn forged_altered_and_expired_init_data_are_refused() {
        let good = fresh(ANNA);
        // Another user put in: the hash no longer matches.
        let altered = good.replace("%3A42%2C", "%3A43%2C");
        assert_ne!(altered, good);
        assert_eq!(validate(&altered, TOKEN, NOW), Err(InitDataError::BadHash));
        // Signed with another bot's token.
        assert_eq!(
            validate(&good, "999:other", NOW),
            Err(InitDataError::BadHash)
        );
        // A hash made up.
        let forged = format!(
            "{}&hash={}",
            good.rsplit_once("&hash=").unwrap().0,
            "0".repeat(64)
        );
        assert_eq!(validate(&forged, TOKEN, NOW), Err(InitDataError::BadHash));
        // No hash, a broken escape.
        let bare = good.rsplit_once("&hash=").unwrap().0;
        assert_eq!(validate(bare, TOKEN, NOW), Err(InitDataError::Malformed));
        assert_eq!(
            validate("user=%4", TOKEN, NOW),
            Err(InitDataError::Malformed)
        );
        // A day and a second old; from the future.
        assert_eq!(
            validate(&good, TOKEN, NOW + MAX_AGE + 1),
            Err(InitDataError::Expired)
        );
        assert!(validate(&good, TOKEN, NOW + MAX_AGE).is_ok());
        assert_eq!(
            validate(&good, TOKEN, NOW - 3600),
            Err(InitDataError::Expired)
        );
        // Signed, but without a user: nothing to trust.
        let nobody = signed(&[("auth_date", &NOW.to_string())], TOKEN);
        assert_eq!(validate(&nobody, TOKEN, NOW), Err(InitDataError::Malformed));
    }

    #[test]
    fn a_game_token_names_its_game_for_its_bot_only() {
        let t = game_token(42, TOKEN);
        assert_eq!(game_of_token(&t, TOKEN), Some(42));
        assert_eq!(game_of_token(&t, "654321:other"), None);
        assert_eq!(game_of_token(&t.replace("g42", "g43"), TOKEN), None);
        assert_eq!(game_of_token("g42", TOKEN), None);
        assert_eq!(game_of_token("42", TOKEN), None);
        assert!(t.len() <= 64, "startapp takes 64 characters");
    }
}
