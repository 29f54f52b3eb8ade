//! The live message as drawn: text with its keyboard, or — in a chat that sees the fields as
//! a picture — a PNG of the fields with the turn and the latest results in its caption and
//! the same keyboard under it.
//!
//! A [`Drawing`] is cheap to make and to compare (its hash covers what the picture would
//! show), so the sender decides whether to redraw without rendering; the PNG is rendered
//! only when it is sent.

use super::group::{battle_caption, battle_keyboard, live_message_shown, Shown};
use super::keyboard::Keyboard;
use crate::game::record::Play;
use crate::game::record::{Board, GameRecord};
use crate::game::GameId;
use crate::view::picture::{render_png, Panel};
use engine::{Alphabet, Coord, Event, FieldView, Phase, SeatId};
use std::hash::{Hash, Hasher};

/// What the live message shows.
#[derive(Clone, Debug)]
pub struct Drawing {
    /// The text, or the picture's caption (HTML).
    pub text: String,
    /// The keyboard under it.
    pub keyboard: Option<Keyboard>,
    /// The picture, in a chat that sees the fields as one.
    pub picture: Option<Picture>,
    /// The results it shows: once it is drawn, the group has seen every one before `to`.
    pub shown: Shown,
}

/// What a picture of the fields shows: enough to render it and to tell two apart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    /// Every field, as the public (or the owner) sees it, the cells ruled out marked.
    pub fields: Vec<FieldView>,
    /// Above each field: its owner's name.
    pub titles: Vec<String>,
    /// The column letters.
    pub alphabet: Alphabet,
    /// The last shot's cell, by field.
    pub last: Vec<Vec<Coord>>,
    /// The field being shot at now.
    pub active: Option<usize>,
}

impl Picture {
    /// The PNG: a few milliseconds a field (see `benches/picture.rs`), so the sender renders it
    /// on the blocking pool.
    pub fn png(&self) -> Vec<u8> {
        let panels: Vec<Panel<'_>> = self
            .fields
            .iter()
            .enumerate()
            .map(|(i, view)| Panel {
                view,
                title: &self.titles[i],
                alphabet: self.alphabet,
                last: &self.last[i],
                active: self.active == Some(i),
            })
            .collect();
        render_png(&panels)
    }

    fn key(&self, h: &mut impl Hasher) {
        for f in &self.fields {
            f.seat.0.hash(h);
            for m in &f.marks {
                (*m as u8).hash(h);
            }
            f.border
                .as_ref()
                .map(|b| format!("{b:?}"))
                .unwrap_or_default()
                .hash(h);
        }
        self.titles.hash(h);
        format!("{:?}", self.alphabet).hash(h);
        self.last.hash(h);
        self.active.hash(h);
    }
}

impl Drawing {
    /// A hash of the picture alone (0 for none): a drawing whose picture did not change
    /// needs only its caption edited.
    pub fn picture_hash(&self) -> u64 {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        match &self.picture {
            Some(p) => {
                p.key(&mut h);
                h.finish().max(1)
            }
            None => 0,
        }
    }

    /// A hash of everything shown: 0 is kept for "nothing drawn yet".
    pub fn hash(&self) -> u64 {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.text.hash(&mut h);
        serde_json::to_string(&self.keyboard)
            .unwrap_or_default()
            .hash(&mut h);
        if let Some(p) = &self.picture {
            p.key(&mut h);
        }
        h.finish().max(1)
    }
}

/// The live message for the record as it stands: a picture from the battle on in a Sea
/// Battle game of a chat that sees pictures, else text.
pub fn live_drawing(rec: &GameRecord, id: GameId, username: &str) -> Drawing {
    if !shows_picture(rec) {
        let (text, keyboard, shown) = live_message_shown(rec, id, username);
        return Drawing {
            text,
            keyboard,
            picture: None,
            shown,
        };
    }
    let (text, shown) = battle_caption(rec);
    Drawing {
        text,
        keyboard: battle_keyboard(rec, id),
        picture: Some(battle_picture(rec)),
        shown,
    }
}

/// The live message with a way to the game's live board in the Mini App (`link`), during
/// the battle: a button under the fields when the keyboard has room for one more row, else
/// a link at the end of its words, when it stays within a caption's or a text's limit.
pub fn with_board_link(mut d: Drawing, rec: &GameRecord, link: Option<&str>) -> Drawing {
    use super::group::{visible_len, MAX_CAPTION, MAX_TEXT};
    use super::keyboard::{Key, MAX_BUTTONS};
    let (Some(link), Phase::Battle) = (link, rec.game.phase()) else {
        return d;
    };
    let words = crate::view::i18n::t(rec.lang, "webapp-open");
    let buttons: usize = d
        .keyboard
        .iter()
        .flat_map(|k| &k.inline_keyboard)
        .map(Vec::len)
        .sum();
    if buttons < MAX_BUTTONS {
        d.keyboard
            .get_or_insert_with(Keyboard::default)
            .inline_keyboard
            .push(vec![Key::url(words, link)]);
        return d;
    }
    let limit = if d.picture.is_some() {
        MAX_CAPTION
    } else {
        MAX_TEXT
    };
    let line = format!(
        "\n<a href=\"{}\">{}</a>",
        super::render::escape(link),
        words
    );
    if visible_len(&d.text) + visible_len(&line) <= limit {
        d.text.push_str(&line);
    }
    d
}

/// Whether the live message is a picture now: Sea Battle whose battle began (it has a message
/// of its own), in a chat that sees pictures.
pub fn shows_picture(rec: &GameRecord) -> bool {
    let sea_battle = match rec.play {
        Play::SeaBattle(_) => true,
        Play::Riga(_) => false,
    };
    rec.board == Board::Picture
        && sea_battle
        && rec.delivery.begun
        && matches!(rec.game.phase(), Phase::Battle | Phase::Finished { .. })
}

/// The fields as the group sees them, each titled with its owner's name.
pub fn battle_picture(rec: &GameRecord) -> Picture {
    // The engine marks what is known empty (a hit's corners too) as everyone sees it.
    let fields = rec.game.public_view().fields;
    let titles = (0..fields.len())
        .map(|i| rec.names.get(i).cloned().unwrap_or_else(|| "?".into()))
        .collect();
    let mut last = vec![Vec::new(); fields.len()];
    if let Some((seat, cell)) = last_shot(rec) {
        if let Some(l) = last.get_mut(seat.index()) {
            l.push(cell);
        }
    }
    let active = match rec.game.phase() {
        Phase::Battle => rec.current_aim().map(|a| a.target.index()),
        _ => None,
    };
    Picture {
        fields,
        titles,
        alphabet: rec.alphabet,
        last,
        active,
    }
}

/// The field and cell of the latest shot (or cell given up after a mine).
fn last_shot(rec: &GameRecord) -> Option<(SeatId, Coord)> {
    rec.log.iter().rev().find_map(|e| match e {
        Event::Shot { target, cell, .. } => Some((*target, *cell)),
        Event::GaveUp { seat, cell, .. } => Some((*seat, *cell)),
        _ => None,
    })
}
