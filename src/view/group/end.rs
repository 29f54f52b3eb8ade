//! The end of a game: who won, the ratings, the figures, the reveal in an inline message,
//! and the keyboard under a finished game.

use super::*;
use crate::game::record::Play;

/// The end of a game in an inline message, drawn on it (the chat is not the bot's to send
/// to): the fields, the last results and who won, then every fleet revealed with the line
/// its commitment checks; within Telegram's 4096 characters (without the fields when
/// they do not fit).
pub(super) fn inline_end(rec: &GameRecord) -> (String, Shown) {
    let mut reveal = String::new();
    for block in crate::view::reveal::reveal_blocks(rec) {
        if reveal.is_empty() {
            reveal.push_str(&format!("\n\n{}", t(rec.lang, "end-reveal")));
        }
        reveal.push_str(&format!("\n{block}"));
    }
    let room = MAX_TEXT.saturating_sub(visible_len(&reveal));
    let (mut text, shown) = battle_words(rec, true, room);
    let (text, shown) = if visible_len(&text) <= room {
        text.push_str(&reveal);
        (text, shown)
    } else {
        let (mut text, shown) = battle_words(rec, false, room);
        text.push_str(&reveal);
        (text, shown)
    };
    (text, shown)
}

/// The keyboard under a finished game: Rematch, and its replay by a link anyone may open.
pub fn end_keyboard(rec: &GameRecord, id: GameId, username: &str) -> Keyboard {
    let mut row = vec![Key::callback(
        t(rec.lang, "btn-rematch"),
        Button::Rematch(id).to_string(),
    )];
    if let Some(key) = crate::view::reveal::replay_key(rec) {
        let url = format!(
            "https://t.me/{username}?start={}",
            crate::view::buttons::replay_payload(id, &key)
        );
        row.push(Key::url(t(rec.lang, "btn-replay"), url));
    }
    Keyboard::new(vec![row])
}

/// Who won, or how the game ended.
pub(super) fn end_words(rec: &GameRecord) -> String {
    end_words_in(rec, rec.lang)
}

/// Who won, or how the game ended, in `lang`.
pub fn end_words_in(rec: &GameRecord, lang: Lang) -> String {
    let Phase::Finished { winners, reason } = rec.game.phase() else {
        return String::new();
    };
    let names: Vec<String> = winners
        .iter()
        .map(|s| escape(rec.names.get(s.index()).map_or("?", String::as_str)))
        .collect();
    let key = match reason {
        EndReason::Cancelled => "end-cancelled",
        _ if names.is_empty() => "end-no-winner",
        _ => "end-winner",
    };
    ta(
        lang,
        key,
        &[
            ("names", list(lang, &names).into()),
            ("count", names.len().into()),
        ],
    )
}

/// Each rated player's rating before and after the game, on the game's own board (the
/// chat's, or against the bot), once the end is settled: the highest first.
pub(super) fn rating_lines(rec: &GameRecord) -> Vec<String> {
    let Some(s) = &rec.settlement else {
        return Vec::new();
    };
    let board = s.ratings.first().map(|w| w.board);
    let mut rated: Vec<_> = s
        .ratings
        .iter()
        .filter(|w| Some(w.board) == board)
        .collect();
    rated.sort_by_key(|w| std::cmp::Reverse(w.after));
    rated
        .into_iter()
        .map(|w| {
            let name = rec
                .names
                .get(usize::from(w.seat))
                .cloned()
                .unwrap_or_default();
            ta(
                rec.lang,
                "end-rating",
                &[
                    ("name", crate::view::render::escape(&name).into()),
                    ("before", w.before.into()),
                    ("after", w.after.into()),
                    ("change", format!("{:+}", w.after - w.before).into()),
                ],
            )
        })
        .collect()
}

/// The end's announcement: who won, the ratings it moved, the whole game in results (one line for each run of
/// shots by the same player at the same field), and every fleet in words with the text and
/// salt that check its commitment. No fields: the battle message just above shows them. As
/// many messages as that takes, each within Telegram's limit and never cutting a line; the
/// last one gets the Rematch button.
pub fn end_texts(rec: &GameRecord) -> Vec<String> {
    match &rec.play {
        Play::SeaBattle(_) => {}
        Play::Riga(r) => return crate::view::riga::end_texts(rec, r),
    }
    let lang = rec.lang;
    let mut blocks = vec![format!("<b>{}</b>", end_words(rec))];
    let mut log = run_lines(rec, &rec.names, &rec.log);
    if (rec.log.len() as u64) < rec.log_total {
        // A record from before the log kept the whole game: its oldest results are gone.
        log.insert(0, "…".to_owned());
    }
    let mut heading = |key: &str, lines: Vec<String>| {
        let mut lines = lines.into_iter();
        if let Some(first) = lines.next() {
            // The heading stays with its first line.
            blocks.push(format!("\n{}\n{first}", t(lang, key)));
            blocks.extend(lines);
        }
    };
    heading("end-figures", figure_lines(rec));
    heading("end-ratings", rating_lines(rec));
    heading("end-log", log);
    heading("end-reveal", crate::view::reveal::reveal_blocks(rec));
    let mut texts: Vec<String> = Vec::new();
    for block in blocks {
        match texts.last_mut() {
            Some(last) if visible_len(last) + 1 + visible_len(&block) <= MAX_TEXT => {
                last.push('\n');
                last.push_str(&block);
            }
            _ => texts.push(block.trim_start().to_owned()),
        }
    }
    texts
}

/// Each seat's turns, cells shot and hits, one line a seat that came to battle.
pub(super) fn figure_lines(rec: &GameRecord) -> Vec<String> {
    (0..rec.game.seats().len() as u8)
        .filter(|&i| rec.game.fleet(SeatId(i)).is_some())
        .map(|i| {
            let f = crate::game::rating::figures(rec, i);
            let name = escape(rec.names.get(usize::from(i)).map_or("?", String::as_str));
            ta(
                rec.lang,
                "end-figure",
                &[
                    ("name", name.into()),
                    ("turns", f.turns.into()),
                    ("cells", f.shots.into()),
                    ("hits", f.hits.into()),
                ],
            )
        })
        .collect()
}
