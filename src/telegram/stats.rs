//! `/stats` and `/top` (issue 16): a player's figures and ratings, and a chat's leaderboard
//! (everyone's in a private chat), in the chat's language; the leaderboard drawn as a picture
//! in a chat that sees the fields as pictures.

use super::context::{Ctx, HandlerResult};
use super::send::{reply, reply_photo};
use crate::game::lang::Lang;
use crate::game::record::Board;
use crate::store::Leaderboard;
use crate::view::group::{visible_len, MAX_CAPTION};
use crate::view::i18n::{t, ta};
use crate::view::picture::{render_leaderboard_png, BoardRow};
use crate::view::render::{escape, ruleset_words};
use std::collections::HashMap;
use teloxide::types::{Message, User};

/// How many rows `/top` shows.
pub const TOP_ROWS: usize = 10;

/// A percentage, rounded: `part` of `whole`.
fn percent(part: u64, whole: u64) -> i64 {
    if whole == 0 {
        0
    } else {
        ((part as f64 * 100.0) / whole as f64).round() as i64
    }
}

/// The ruleset played most (its name in the statistics), of those counted.
fn favourite(stats: &HashMap<String, u64>) -> Option<String> {
    stats
        .iter()
        .filter_map(|(k, &v)| {
            let scope = k.strip_suffix("|games")?;
            (scope != "all" && scope != "riga" && v > 0).then(|| (v, scope.to_owned()))
        })
        .max()
        .map(|(_, scope)| scope)
}

/// What the learning level has learned of `user`'s placements, in words: on the ruleset they
/// play most (classic when it has terrain or is not known), once it has seen enough layouts;
/// nothing otherwise, or without Redis.
async fn habits(ctx: &Ctx, user: u64, stats: &HashMap<String, u64>, lang: Lang) -> Vec<String> {
    let mut ruleset = engine::Ruleset::default();
    if let Some(scope) = favourite(stats) {
        if let Ok(Some(json)) = ctx.store.ruleset_of(&scope).await {
            if let Ok(r) = serde_json::from_str::<engine::Ruleset>(&json) {
                ruleset = r;
            }
        }
    }
    let Ok(codes) = ctx.store.player_layouts(user, &ruleset.to_string()).await else {
        return Vec::new();
    };
    let learned = tokio::task::spawn_blocking(move || {
        let area = ruleset.size().area();
        engine::Habits::from_codes(&codes, &[], area).tendencies(&ruleset)
    })
    .await
    .ok()
    .flatten();
    learned.map_or_else(Vec::new, |t| crate::view::bot::habits_lines(lang, &t))
}

/// `/stats`: the sender's games, wins, accuracy, shots to win, longest run of hits, the
/// rules played most, and ratings (this chat's, everyone's, against the bot).
pub async fn on_stats(ctx: &Ctx, msg: &Message, user: &User, lang: Lang) -> HandlerResult {
    let id = user.id.0;
    let stats = ctx.store.all_stats(id).await?;
    let n = |k: &str| stats.get(k).copied().unwrap_or(0);
    let name = escape(&user.first_name);
    let (games, riga) = (n("all|games"), n("riga|games"));
    if games == 0 && riga == 0 {
        return reply(ctx, msg, ta(lang, "stats-none", &[("name", name.into())])).await;
    }
    let mut lines = vec![ta(lang, "stats-title", &[("name", name.into())])];
    if games > 0 {
        let wins = n("all|wins");
        lines.push(ta(
            lang,
            "stats-games",
            &[
                ("games", (games as i64).into()),
                ("wins", (wins as i64).into()),
                ("percent", percent(wins, games).into()),
            ],
        ));
        let shots = n("all|shots");
        lines.push(ta(
            lang,
            "stats-accuracy",
            &[
                ("percent", percent(n("all|hits"), shots).into()),
                ("shots", (shots as i64).into()),
            ],
        ));
        if wins > 0 {
            let average = (n("all|winshots") as f64 / wins as f64).round() as i64;
            lines.push(ta(lang, "stats-win-shots", &[("shots", average.into())]));
            let turns = n("all|winturns");
            if turns > 0 {
                let average = (turns as f64 / wins as f64).round() as i64;
                lines.push(ta(lang, "stats-win-turns", &[("turns", average.into())]));
            }
        }
        lines.push(ta(
            lang,
            "stats-streak",
            &[("hits", (n("all|streak") as i64).into())],
        ));
        if let Some(scope) = favourite(&stats) {
            let ruleset = ctx
                .store
                .ruleset_of(&scope)
                .await?
                .and_then(|json| serde_json::from_str::<engine::Ruleset>(&json).ok());
            if let Some(r) = ruleset {
                let played = n(&format!("{scope}|games"));
                lines.push(ta(
                    lang,
                    "stats-favourite",
                    &[
                        ("rules", ruleset_words(lang, &r).into()),
                        ("games", (played as i64).into()),
                    ],
                ));
            }
        }
    }
    if games > 0 {
        lines.extend(habits(ctx, id, &stats, lang).await);
    }
    if riga > 0 {
        lines.push(ta(
            lang,
            "stats-riga",
            &[
                ("games", (riga as i64).into()),
                ("wins", (n("riga|wins") as i64).into()),
            ],
        ));
    }
    let mut boards = vec![(Leaderboard::People, "stats-rating-all")];
    if msg.chat.id.0 < 0 {
        boards.insert(0, (Leaderboard::Chat(msg.chat.id.0), "stats-rating-chat"));
    }
    boards.push((Leaderboard::Bot, "stats-rating-bot"));
    for (board, key) in boards {
        let Some(Some(r)) = ctx.store.ratings(board, &[id]).await?.into_iter().next() else {
            continue;
        };
        let place = ctx.store.place(board, id).await?;
        let (place, total) = place.map_or((0, 0), |(p, t)| (p as i64, t as i64));
        lines.push(ta(
            lang,
            key,
            &[
                ("rating", r.shown().into()),
                ("games", i64::from(r.games).into()),
                ("place", place.into()),
                ("total", total.into()),
            ],
        ));
    }
    reply(ctx, msg, lines.join("\n")).await
}

/// `/top`: the chat's best ten by rating from games between people (in a private chat,
/// everyone's).
pub async fn on_top(ctx: &Ctx, msg: &Message, lang: Lang) -> HandlerResult {
    let group = msg.chat.id.0 < 0;
    let board = if group {
        Leaderboard::Chat(msg.chat.id.0)
    } else {
        Leaderboard::People
    };
    let rows = ctx.store.top(board, TOP_ROWS).await?;
    if rows.is_empty() {
        let key = if group {
            "top-none-chat"
        } else {
            "top-none-all"
        };
        return reply(ctx, msg, t(lang, key)).await;
    }
    let mut lines = vec![t(
        lang,
        if group {
            "top-title-chat"
        } else {
            "top-title-all"
        },
    )];
    for (i, row) in rows.iter().enumerate() {
        lines.push(ta(
            lang,
            "top-row",
            &[
                ("place", (i + 1).into()),
                ("name", escape(&row.name).into()),
                ("rating", row.rating.shown().into()),
                ("games", i64::from(row.rating.games).into()),
            ],
        ));
    }
    let text = lines.join("\n");
    // A chat that sees pictures gets the leaderboard drawn, the same words as its caption
    // (as text, should long names make them too long for one).
    if !sees_pictures(ctx, msg.chat.id.0).await || visible_len(&text) > MAX_CAPTION {
        return reply(ctx, msg, text).await;
    }
    let title = plain(&lines[0]);
    let players: Vec<(String, i64, String)> = rows
        .iter()
        .map(|row| {
            let games = i64::from(row.rating.games);
            let words = ta(lang, "top-games", &[("games", games.into())]);
            (row.name.clone(), row.rating.shown(), words)
        })
        .collect();
    reply_photo(ctx, msg, text, "top.png", move || {
        let rows: Vec<BoardRow<'_>> = players
            .iter()
            .enumerate()
            .map(|(i, (name, rating, games))| BoardRow {
                place: i as u32 + 1,
                name,
                rating: *rating,
                games,
            })
            .collect();
        render_leaderboard_png(&title, &rows)
    })
    .await
}

/// Whether a chat sees pictures: its own choice of board, else the bot's default.
async fn sees_pictures(ctx: &Ctx, chat: i64) -> bool {
    let board = match ctx.store.chat_settings(chat).await {
        Ok(settings) => settings.board,
        Err(e) => {
            log::debug!("settings of {chat}: {e}");
            None
        }
    };
    board.unwrap_or(ctx.config.board) == Board::Picture
}

/// HTML as the plain text it shows: tags left out, the escapes of `escape` undone.
fn plain(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            _ if in_tag => {}
            c => out.push(c),
        }
    }
    out.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(lang: Lang, games: i64) -> String {
        ta(
            lang,
            "top-row",
            &[
                ("place", 1i64.into()),
                ("name", "A".into()),
                ("rating", 1000i64.into()),
                ("games", games.into()),
            ],
        )
    }

    #[test]
    fn the_leaderboard_counts_games_in_each_languages_plural_forms() {
        for (lang, cases) in [
            (
                Lang::En,
                &[(1, "1 game"), (2, "2 games"), (5, "5 games")][..],
            ),
            (
                Lang::Ru,
                &[
                    (1, "1 партия"),
                    (3, "3 партии"),
                    (5, "5 партий"),
                    (21, "21 партия"),
                    (12, "12 партий"),
                ][..],
            ),
            (
                Lang::Bg,
                &[(1, "1 игра"), (2, "2 игри"), (11, "11 игри")][..],
            ),
        ] {
            for &(n, words) in cases {
                let text = row(lang, n);
                assert!(text.contains(words), "{lang:?} {n}: {text}");
            }
        }
    }

    #[test]
    fn the_leaderboards_games_read_the_same_alone_and_in_a_row() {
        for lang in Lang::ALL {
            for n in [1i64, 3, 5, 21] {
                let words = ta(lang, "top-games", &[("games", n.into())]);
                assert!(
                    row(lang, n).ends_with(&format!(" · {words}")),
                    "{lang:?} {n}"
                );
            }
        }
    }

    #[test]
    fn a_title_in_html_reads_plain_in_the_picture() {
        assert_eq!(
            plain("🏆 <b>The best &lt;players&gt; &amp; co</b>"),
            "🏆 The best <players> & co"
        );
        assert_eq!(plain(&t(Lang::En, "top-title-all")), "🏆 The best players");
    }

    #[test]
    fn the_favourite_rules_are_the_most_played_ruleset() {
        let stats: HashMap<String, u64> = [
            ("all|games", 9),
            ("riga|games", 7),
            ("classic|games", 5),
            ("big|games", 4),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v))
        .collect();
        assert_eq!(favourite(&stats).as_deref(), Some("classic"));
        assert_eq!(percent(1, 3), 33);
        assert_eq!(percent(0, 0), 0);
    }
}
