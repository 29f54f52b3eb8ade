//! A message's keyboard as the views make it: rows of buttons, each with its words and its
//! callback data (see `buttons.rs`) or a link. The Telegram adapter turns it into the Bot
//! API's inline keyboard; the views know nothing of that type.

use serde::Serialize;

/// The most buttons Telegram shows in one row of an inline keyboard.
pub const MAX_ROW: usize = 8;

/// The most buttons Telegram takes in one inline keyboard.
pub const MAX_BUTTONS: usize = 100;

/// An inline keyboard: rows of buttons, top to bottom.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct Keyboard {
    /// The rows, each left to right.
    pub inline_keyboard: Vec<Vec<Key>>,
}

/// One button.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Key {
    /// Its words.
    pub text: String,
    /// What a tap does.
    pub kind: KeyKind,
}

/// What a tap on a button does.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum KeyKind {
    /// Sends this callback data to the bot (1 to 64 bytes).
    Callback(String),
    /// Opens this link.
    Url(String),
    /// Opens this page as a Mini App (private chats only).
    WebApp(String),
}

impl Key {
    /// A button that sends `data` to the bot.
    pub fn callback(text: impl Into<String>, data: impl Into<String>) -> Key {
        Key {
            text: text.into(),
            kind: KeyKind::Callback(data.into()),
        }
    }

    /// A button that opens `url`.
    pub fn url(text: impl Into<String>, url: impl Into<String>) -> Key {
        Key {
            text: text.into(),
            kind: KeyKind::Url(url.into()),
        }
    }

    /// A button that opens the Mini App at `url` (in a private chat).
    pub fn web_app(text: impl Into<String>, url: impl Into<String>) -> Key {
        Key {
            text: text.into(),
            kind: KeyKind::WebApp(url.into()),
        }
    }

    /// Its callback data, if it sends any.
    pub fn data(&self) -> Option<&str> {
        match &self.kind {
            KeyKind::Callback(d) => Some(d),
            KeyKind::Url(_) | KeyKind::WebApp(_) => None,
        }
    }
}

impl Keyboard {
    /// A keyboard of these rows.
    pub fn new(rows: impl IntoIterator<Item = impl IntoIterator<Item = Key>>) -> Keyboard {
        Keyboard {
            inline_keyboard: rows.into_iter().map(|r| r.into_iter().collect()).collect(),
        }
    }

    /// Every button's callback data, row by row.
    pub fn data(&self) -> impl Iterator<Item = &str> {
        self.inline_keyboard.iter().flatten().filter_map(Key::data)
    }
}
