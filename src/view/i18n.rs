//! Every word a user sees comes from `locales/` (Fluent): this is the only way to get one.
//!
//! Unicode isolation marks are off: chat clients show them as stray characters.

use crate::game::lang::Lang;
use fluent_templates::fluent_bundle::FluentValue;
use fluent_templates::{LanguageIdentifier, Loader};
use std::borrow::Cow;
use std::collections::HashMap;

fluent_templates::static_loader! {
    static LOCALES = {
        locales: "./locales",
        fallback_language: "en",
        customise: |bundle| bundle.set_use_isolating(false),
    };
}

fn langid(lang: Lang) -> LanguageIdentifier {
    lang.code()
        .parse()
        .expect("ru, bg and en are language identifiers")
}

/// An argument of a message: text or a number (numbers choose plural forms).
#[derive(Clone, Debug)]
pub enum Arg {
    /// Text, inserted as it is.
    Text(String),
    /// A number: formatted, and used for plural forms.
    Num(i64),
}

impl From<&str> for Arg {
    fn from(s: &str) -> Arg {
        Arg::Text(s.to_owned())
    }
}

impl From<String> for Arg {
    fn from(s: String) -> Arg {
        Arg::Text(s)
    }
}

impl From<i64> for Arg {
    fn from(n: i64) -> Arg {
        Arg::Num(n)
    }
}

impl From<usize> for Arg {
    fn from(n: usize) -> Arg {
        Arg::Num(n as i64)
    }
}

impl From<u8> for Arg {
    fn from(n: u8) -> Arg {
        Arg::Num(i64::from(n))
    }
}

impl From<u32> for Arg {
    fn from(n: u32) -> Arg {
        Arg::Num(i64::from(n))
    }
}

/// The message `key` in `lang`.
pub fn t(lang: Lang, key: &str) -> String {
    LOCALES.lookup(&langid(lang), key)
}

/// The message `key` in `lang` with arguments.
pub fn ta(lang: Lang, key: &str, args: &[(&'static str, Arg)]) -> String {
    let map: HashMap<Cow<'static, str>, FluentValue> = args
        .iter()
        .map(|(k, v)| {
            let v = match v {
                Arg::Text(s) => FluentValue::from(s.clone()),
                Arg::Num(n) => FluentValue::from(*n),
            };
            (Cow::Borrowed(*k), v)
        })
        .collect();
    LOCALES.lookup_with_args(&langid(lang), key, &map)
}

/// Items (already in words) as the language lists them: «Борис», «Борис и Глеб», «Анна,
/// Борис и Глеб»; "Anna, Boris and Clara".
pub fn list(lang: Lang, items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => ta(
            lang,
            "list-and",
            &[
                ("first", rest.join(", ").into()),
                ("last", last.clone().into()),
            ],
        ),
    }
}
