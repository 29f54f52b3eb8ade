//! A Mini App's `initData` (issue 31), checked as Telegram documents it: the query string the
//! client hands the page, signed by Telegram with a key derived from the bot's token.
//!
//! - The data-check string is every `key=value` pair but `hash`, decoded, sorted by key and
//!   joined by `\n`. That includes `signature` (Telegram's Ed25519 signature for third
//!   parties, sent since Bot API 8.0) and any field Telegram adds later: the HMAC covers them.
//! - The secret key is `HMAC-SHA256(key = "WebAppData", message = token)`.
//! - `hash` must be the hex of `HMAC-SHA256(key = secret, message = data-check string)`.
//! - `auth_date` (Unix seconds) must be at most [`MAX_AGE`] old, and not from the future.
//!
//! Only then is the `user` field (JSON) trusted: the id and the language of whoever opened the
//! page. HMAC is RustCrypto's `hmac` on `sha2` (checked here against RFC 4231's vectors), the
//! query is read by `form_urlencoded`, the hash's hex by `hex`, and secrets are compared in
//! constant time by `subtle`.

use hmac::{Hmac, Mac};
use serde::Deserialize;
use sha2::Sha256;

/// How old an `initData` may be: a day.
pub const MAX_AGE: u64 = 24 * 3600;

/// Why an `initData` was refused (the page gets 401 whatever the reason).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InitDataError {
    /// No `hash`, no `auth_date` or no `user` (a JSON object with an id).
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
    // HMAC takes a key of any length.
    let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes any key");
    mac.update(message);
    mac.finalize().into_bytes().into()
}

fn hex(bytes: &[u8]) -> String {
    hex::encode(bytes)
}

/// The data-check string of decoded `pairs` and the hash they carry.
fn check_string(pairs: &[(String, String)]) -> Option<(String, String)> {
    let hash = pairs.iter().find(|(k, _)| k == "hash")?.1.clone();
    let mut signed: Vec<&(String, String)> = pairs.iter().filter(|(k, _)| k != "hash").collect();
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
    let pairs: Vec<(String, String)> = form_urlencoded::parse(init_data.as_bytes())
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    let (check, hash) = check_string(&pairs).ok_or(InitDataError::Malformed)?;
    // Compared whole, in constant time over the hex digits.
    let expected = sign(token, &check);
    if !same_secret(expected.as_bytes(), hash.to_ascii_lowercase().as_bytes()) {
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
    pairs
        .iter()
        .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
        .chain([format!("hash={hash}")])
        .collect::<Vec<_>>()
        .join("&")
}

/// `s` percent-encoded as a query's value (`form_urlencoded`'s: a space as `+`).
fn encode(s: &str) -> String {
    form_urlencoded::byte_serialize(s.as_bytes()).collect()
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
    same_secret(game_token(id, token).as_bytes(), s.as_bytes()).then_some(id)
}

/// Whether a secret given (`given`) is the one expected, compared in constant time: how long
/// the comparison takes says nothing of how many of its first bytes were right (only whether
/// the lengths differ, which a secret's format says anyway).
pub fn same_secret(expected: &[u8], given: &[u8]) -> bool {
    use subtle::ConstantTimeEq;
    expected.ct_eq(given).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_the_same_only_when_every_byte_and_the_length_are() {
        let secret = b"s3cret_token-of-32-characters-ok";
        assert!(same_secret(secret, secret));
        assert!(same_secret(b"", b""));
        for other in [
            &b"s3cret_token-of-32-characters-oK"[..],
            b"S3cret_token-of-32-characters-ok",
            b"s3cret_token-of-32-characters-o",
            b"s3cret_token-of-32-characters-ok!",
            b"",
        ] {
            assert!(
                !same_secret(secret, other),
                "{:?}",
                std::str::from_utf8(other)
            );
        }
    }

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

    /// `initData` as Telegram signs it today (Bot API 8.0 and later): a `signature` field
    /// (Ed25519, for third parties) beside `hash`, and `hash` the HMAC over every other field,
    /// `signature` included. A check that leaves `signature` out refuses every real client.
    #[test]
    fn init_data_with_a_signature_is_checked_with_the_signature_under_the_hmac() {
        let auth = NOW.to_string();
        let fields = [
            ("query_id", "AAHdF6IQAAAAAN0XohDhrOrc"),
            ("user", ANNA),
            ("auth_date", auth.as_str()),
            ("signature", "TYJxVcisqbWjtodPepiJ6ghziUL94-KNpG8Pau-X7oNNLNBM72APCpi_RKiUlBvcqo5L-LAxIc3dnTzcZX_PDg"),
            ("chat_instance", "-8134722200314281151"),
            ("chat_type", "group"),
        ];
        // The HMAC as Telegram computes it: every pair but `hash`, sorted, joined by "\n".
        let mut check: Vec<String> = fields.iter().map(|(k, v)| format!("{k}={v}")).collect();
        check.sort();
        let hash = sign(TOKEN, &check.join("\n"));
        let raw = |fields: &[(&str, &str)], hash: &str| {
            let mut q: Vec<String> = fields
                .iter()
                .map(|(k, v)| format!("{k}={}", encode(v)))
                .collect();
            q.push(format!("hash={hash}"));
            q.join("&")
        };
        let data = validate(&raw(&fields, &hash), TOKEN, NOW + 5).expect("accepted");
        assert_eq!(data.user.id, 42);
        // `signature` is under the HMAC: changed or taken away, the hash no longer matches.
        let mut changed = fields;
        changed[3].1 = "AAAA";
        assert_eq!(
            validate(&raw(&changed, &hash), TOKEN, NOW),
            Err(InitDataError::BadHash)
        );
        assert_eq!(
            validate(&raw(&fields[..3], &hash), TOKEN, NOW),
            Err(InitDataError::BadHash)
        );
        // A field Telegram may add later is covered too, and needs no change here.
        let mut more = fields.to_vec();
        more.push(("new_field", "{\"a\":1}"));
        let mut check: Vec<String> = more.iter().map(|(k, v)| format!("{k}={v}")).collect();
        check.sort();
        let hash = sign(TOKEN, &check.join("\n"));
        assert!(validate(&raw(&more, &hash), TOKEN, NOW).is_ok());
        // The helper the tests and the fake Telegram sign with agrees.
        assert!(validate(&signed(&fields, TOKEN), TOKEN, NOW).is_ok());
    }

    /// Published `initData` vectors, each checked at its own date (the clock is `now`): the
    /// Telegram docs' example as init-data-golang and the telegram-apps docs carry it (with
    /// `signature`), aiogram's (with `+` for spaces), and init-data-node's (more fields,
    /// `auth_date=1`). All four validate with "every pair but `hash`".
    #[test]
    fn the_published_vectors_validate_at_their_dates() {
        struct Vector {
            name: &'static str,
            token: &'static str,
            data: &'static str,
            user: Option<u64>,
        }
        let vectors = [
            Vector {
                name: "Telegram docs' example (init-data-golang)",
                token: "5768337691:AAH5YkoiEuPk8-FZa32hStHTqXiLPtAEhx8",
                data: "query_id=AAHdF6IQAAAAAN0XohDhrOrc&user=%7B%22id%22%3A279058397%2C%22first_name%22%3A%22Vladislav%22%2C%22last_name%22%3A%22Kibenko%22%2C%22username%22%3A%22vdkfrost%22%2C%22language_code%22%3A%22ru%22%2C%22is_premium%22%3Atrue%7D&auth_date=1662771648&hash=c501b71e775f74ce10e377dea85a7ea24ecd640b223ea86dfe453e0eaed2e2b2",
                user: Some(279_058_397),
            },
            Vector {
                name: "telegram-apps docs (with signature)",
                token: "7342037359:AAHI25ES9xCOMPokpYoz-p8XVrZUdygo2J4",
                data: "user=%7B%22id%22%3A279058397%2C%22first_name%22%3A%22Vladislav%20%2B%20-%20%3F%20%5C%2F%22%2C%22last_name%22%3A%22Kibenko%22%2C%22username%22%3A%22vdkfrost%22%2C%22language_code%22%3A%22ru%22%2C%22is_premium%22%3Atrue%2C%22allows_write_to_pm%22%3Atrue%2C%22photo_url%22%3A%22https%3A%5C%2F%5C%2Ft.me%5C%2Fi%5C%2Fuserpic%5C%2F320%5C%2F4FPEE4tmP3ATHa57u6MqTDih13LTOiMoKoLDRG4PnSA.svg%22%7D&chat_instance=8134722200314281151&chat_type=private&auth_date=1733509682&signature=TYJxVcisqbWjtodPepiJ6ghziUL94-KNpG8Pau-X7oNNLNBM72APCpi_RKiUlBvcqo5L-LAxIc3dnTzcZX_PDg&hash=a433d8f9847bd6addcc563bff7cc82c89e97ea0d90c11fe5729cae6796a36d73",
                user: Some(279_058_397),
            },
            Vector {
                name: "aiogram",
                token: "42:TEST",
                data: "auth_date=1650385342&user=%7B%22id%22%3A42%2C%22first_name%22%3A%22Test%22%7D&query_id=test&hash=46d2ea5e32911ec8d30999b56247654460c0d20949b6277af519e76271182803",
                user: Some(42),
            },
            Vector {
                // Its user's id is a string, which Telegram never sends: the hash is right,
                // the user is not trusted.
                name: "aiogram (spaces as +)",
                token: "42:TEST",
                data: "auth_date=1650385342&user=%7B%22id%22%3A+%22123456789%22%2C+%22first_name%22%3A+%22PlaceholderFirstName%22%2C+%22last_name%22%3A+%22PlaceholderLastName+%5Cud83c%5Cuddfa%5Cud83c%5Cudde6%22%2C+%22username%22%3A+%22Latand%22%2C+%22language_code%22%3A+%22en%22%2C+%22is_premium%22%3A+%22true%22%2C+%22allows_write_to_pm%22%3A+%22true%22%7D&query_id=test&hash=b3c8b293f14ad0f7f0abcf769aea1209a72295d30a87eb0e74df855d32e53bfe",
                user: None,
            },
            Vector {
                name: "init-data-node",
                token: "5768337691:AAH5YkoiEuPk8-FZa32hStHTqXiLPtAEhx8",
                data: "auth_date=1&can_send_after=10000&chat=%7B%22id%22%3A1%2C%22type%22%3A%22group%22%2C%22title%22%3A%22chat-title%22%2C%22photo_url%22%3A%22group%22%2C%22username%22%3A%22my-chat%22%7D&chat_instance=888&chat_type=sender&hash=47cfa22e72b887cba90c9cb833c5ea0f599975b6ce7193741844b5c4a4228b40&query_id=QUERY&receiver=%7B%22added_to_attachment_menu%22%3Afalse%2C%22allows_write_to_pm%22%3Atrue%2C%22first_name%22%3A%22receiver-first-name%22%2C%22id%22%3A991%2C%22is_bot%22%3Afalse%2C%22is_premium%22%3Atrue%2C%22language_code%22%3A%22ru%22%2C%22last_name%22%3A%22receiver-last-name%22%2C%22photo_url%22%3A%22receiver-photo%22%2C%22username%22%3A%22receiver-username%22%7D&start_param=debug&user=%7B%22added_to_attachment_menu%22%3Afalse%2C%22allows_write_to_pm%22%3Afalse%2C%22first_name%22%3A%22user-first-name%22%2C%22id%22%3A222%2C%22is_bot%22%3Atrue%2C%22is_premium%22%3Afalse%2C%22language_code%22%3A%22en%22%2C%22last_name%22%3A%22user-last-name%22%2C%22photo_url%22%3A%22user-photo%22%2C%22username%22%3A%22user-username%22%7D",
                user: Some(222),
            },
        ];
        for v in &vectors {
            let auth_date: u64 = v
                .data
                .split('&')
                .find_map(|p| p.strip_prefix("auth_date="))
                .and_then(|d| d.parse().ok())
                .unwrap();
            // An hour after it was signed, as the vector's own clock would say.
            let at = auth_date + 3600;
            match (validate(v.data, v.token, at), v.user) {
                (Ok(data), Some(id)) => assert_eq!(data.user.id, id, "{}", v.name),
                (Err(InitDataError::Malformed), None) => {}
                (got, want) => panic!("{}: {got:?}, wanted the user {want:?}", v.name),
            }
            // The same vector is refused for another bot, a changed field, and years on.
            let other = format!("{}x", v.token);
            assert_eq!(
                validate(v.data, &other, at),
                Err(InitDataError::BadHash),
                "{}",
                v.name
            );
            let altered = v.data.replacen("auth_date=", "auth_date=9", 1);
            assert!(validate(&altered, v.token, at).is_err(), "{}", v.name);
            if v.user.is_some() {
                assert_eq!(
                    validate(v.data, v.token, at + 2 * MAX_AGE),
                    Err(InitDataError::Expired),
                    "{}",
                    v.name
                );
            }
        }
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
