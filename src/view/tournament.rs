//! A group's tournament message: the sign-up (who is in, the format, Join / Leave / Start /
//! Call off), then the rounds' pairings and results with the standings, then the podium.
//! Drawn from the tournament alone, as every live message is.

use crate::game::lang::Lang;
use crate::game::tournament::{Format, Phase, Tournament, TournamentRefused};
use crate::view::buttons::{Button, TourOp};
use crate::view::i18n::{t, ta};
use crate::view::keyboard::{Key, Keyboard};
use crate::view::render::escape;

/// A format in words.
pub fn format_words(lang: Lang, format: Format) -> String {
    t(
        lang,
        match format {
            Format::RoundRobin => "tour-format-round-robin",
            Format::Swiss => "tour-format-swiss",
            Format::Elimination => "tour-format-elimination",
        },
    )
}

/// A hash of a drawing of the tournament's message (never 0, kept for "nothing drawn").
pub fn message_hash(text: &str, keyboard: &Option<Keyboard>) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    keyboard.hash(&mut h);
    h.finish().max(1)
}

/// A refusal of a tournament's change in words.
pub fn refusal_words(lang: Lang, r: TournamentRefused) -> String {
    t(lang, r.key())
}

/// The most characters of a name the message shows: 32 players' standings and a round's
/// pairings stay within Telegram's 4096 characters.
const NAME_CHARS: usize = 24;

/// Entrant `i`'s name as the message shows it: escaped, a long one cut with "…".
fn name(tour: &Tournament, i: usize) -> String {
    let Some(e) = tour.entrants.get(i) else {
        return "?".to_owned();
    };
    match e.name.chars().count() > NAME_CHARS {
        true => {
            let cut: String = e.name.chars().take(NAME_CHARS - 1).collect();
            format!("{}…", escape(&cut))
        }
        false => escape(&e.name),
    }
}

/// The tournament's message in `lang`: its text (HTML) and keyboard (none once it is over).
pub fn tournament_message(tour: &Tournament, lang: Lang) -> (String, Option<Keyboard>) {
    let format = format_words(lang, tour.format);
    let rounds = tour.rounds_total();
    let mut text = ta(
        lang,
        "tour-head",
        &[("format", format.into()), ("rounds", rounds.into())],
    );
    text.push('\n');
    let runner = tour
        .entrants
        .iter()
        .position(|e| e.user == tour.runner)
        .map(|i| name(tour, i));
    match tour.phase {
        Phase::SignUp => {
            if let Some(runner) = &runner {
                text.push_str(&ta(lang, "tour-runner", &[("name", runner.clone().into())]));
                text.push('\n');
            }
            text.push_str(&ta(
                lang,
                "tour-signed-up",
                &[
                    ("count", tour.entrants.len().into()),
                    ("max", tour.format.max_players().into()),
                ],
            ));
            for (i, _) in tour.entrants.iter().enumerate() {
                text.push_str(&format!("\n{}. {}", i + 1, name(tour, i)));
            }
            text.push_str("\n\n");
            text.push_str(&t(lang, "tour-hint-signup"));
            (text, Some(signup_keyboard(tour, lang)))
        }
        Phase::Running => {
            text.push_str(&rounds_lines(tour, lang));
            text.push_str(&standings_lines(tour, lang));
            let keyboard = Keyboard::new([[Key::callback(
                t(lang, "btn-tour-cancel"),
                Button::Tour(tour.id, TourOp::Cancel).to_string(),
            )]]);
            (text, Some(keyboard))
        }
        Phase::Finished => {
            text.push_str(&podium_lines(tour, lang));
            text.push_str(&rounds_lines(tour, lang));
            text.push_str(&standings_lines(tour, lang));
            (text, None)
        }
        Phase::Cancelled => {
            text.push_str(&t(lang, "tour-cancelled"));
            (text, None)
        }
    }
}

/// "The tournament is over" and the podium: a line for each of the first three places.
pub fn podium_lines(tour: &Tournament, lang: Lang) -> String {
    let mut text = t(lang, "tour-over");
    text.push('\n');
    for (place, names) in tour.podium().iter().enumerate().take(3) {
        let names: Vec<String> = names.iter().map(|&i| name(tour, i)).collect();
        text.push_str(&ta(
            lang,
            "tour-podium-place",
            &[
                ("place", (place + 1).into()),
                ("names", crate::view::i18n::list(lang, &names).into()),
            ],
        ));
        text.push('\n');
    }
    text
}

/// One row of the standings' picture: the place, the name (not escaped: the picture draws
/// it as it is), the points, and the tie-break in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PictureRow {
    /// The place, from 1.
    pub place: u32,
    /// The entrant's name.
    pub name: String,
    /// The points.
    pub points: i64,
    /// Buchholz (Swiss, round robin) or the wins (knockout), in words.
    pub detail: String,
}

/// The standings as a picture shows them: its title and its rows, best first.
pub fn standings_picture(tour: &Tournament, lang: Lang) -> (String, Vec<PictureRow>) {
    let title = ta(
        lang,
        "tour-picture-title",
        &[("format", format_words(lang, tour.format).into())],
    );
    let rows = tour
        .standings()
        .into_iter()
        .map(|s| PictureRow {
            place: s.place as u32,
            name: tour
                .entrants
                .get(s.entrant)
                .map_or_else(String::new, |e| e.name.clone()),
            points: i64::from(s.points),
            detail: match tour.format {
                Format::Elimination => ta(lang, "tour-picture-wins", &[("wins", s.wins.into())]),
                Format::Swiss | Format::RoundRobin => ta(
                    lang,
                    "tour-picture-buchholz",
                    &[("buchholz", s.buchholz.into())],
                ),
            },
        })
        .collect();
    (title, rows)
}

fn signup_keyboard(tour: &Tournament, lang: Lang) -> Keyboard {
    let b = |op| Button::Tour(tour.id, op).to_string();
    let formats = Format::ALL.map(|f| {
        let words = format_words(lang, f);
        let words = if f == tour.format {
            format!("✓ {words}")
        } else {
            words
        };
        Key::callback(words, b(TourOp::Format(f)))
    });
    Keyboard::new([
        vec![
            Key::callback(t(lang, "btn-tour-join"), b(TourOp::Join)),
            Key::callback(t(lang, "btn-tour-leave"), b(TourOp::Leave)),
        ],
        formats.to_vec(),
        vec![
            Key::callback(t(lang, "btn-tour-start"), b(TourOp::Start)),
            Key::callback(t(lang, "btn-tour-cancel"), b(TourOp::Cancel)),
        ],
    ])
}

/// The latest round: its pairings, with the results played (the earlier rounds' are in the
/// standings; all of them would not fit a message of 32 players).
fn rounds_lines(tour: &Tournament, lang: Lang) -> String {
    let mut text = String::new();
    if let Some((r, round)) = tour.rounds.iter().enumerate().next_back() {
        text.push_str(&format!(
            "\n<b>{}</b>\n",
            ta(
                lang,
                "tour-round",
                &[
                    ("round", (r + 1).into()),
                    ("rounds", tour.rounds_total().into())
                ]
            )
        ));
        for m in &round.matches {
            let line = match (m.b, m.winner) {
                (None, _) => ta(lang, "tour-bye", &[("name", name(tour, m.a).into())]),
                (Some(b), Some(w)) => {
                    let loser = if w == m.a { b } else { m.a };
                    let key = if m.forfeit {
                        "tour-pair-forfeit"
                    } else {
                        "tour-pair-won"
                    };
                    ta(
                        lang,
                        key,
                        &[
                            ("winner", name(tour, w).into()),
                            ("loser", name(tour, loser).into()),
                        ],
                    )
                }
                (Some(b), None) => {
                    let key = if m.game.is_some() {
                        "tour-pair-playing"
                    } else {
                        "tour-pair"
                    };
                    ta(
                        lang,
                        key,
                        &[("a", name(tour, m.a).into()), ("b", name(tour, b).into())],
                    )
                }
            };
            text.push_str(&line);
            text.push('\n');
        }
    }
    text
}

/// The standings: place, name, points, and the tie-break where the format has one.
fn standings_lines(tour: &Tournament, lang: Lang) -> String {
    let mut text = format!("\n<b>{}</b>\n", t(lang, "tour-standings"));
    for s in tour.standings() {
        let key = match tour.format {
            Format::Elimination => "tour-standing",
            Format::Swiss | Format::RoundRobin => "tour-standing-buchholz",
        };
        text.push_str(&ta(
            lang,
            key,
            &[
                ("place", s.place.into()),
                ("name", name(tour, s.entrant).into()),
                ("points", s.points.into()),
                ("buchholz", s.buchholz.into()),
                ("wins", s.wins.into()),
                ("losses", s.losses.into()),
            ],
        ));
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::tournament::Entrant;

    /// Thirty-two entrants with the longest names Telegram gives (a first and a last name
    /// of 64 characters each, with HTML to escape), at every stage.
    fn crowded(format: Format) -> Vec<Tournament> {
        let long = |i: usize| format!("<{i:02}>{}", "Щ".repeat(124));
        let mut t = Tournament::open(
            9,
            -1,
            None,
            Entrant {
                user: 0,
                name: long(0),
            },
            format,
            0,
        );
        for i in 1..format.max_players() {
            t.join(Entrant {
                user: i as u64,
                name: long(i),
            })
            .unwrap();
        }
        let mut stages = vec![t.clone()];
        t.start(0, false).unwrap();
        let mut game = 100;
        while let Some((r, i)) = t.next_match() {
            t.assign_game(r, i, game).unwrap();
            let m = &t.rounds[r].matches[i];
            let winner = t.entrants[m.a].user;
            t.record(game, winner, false).unwrap();
            game += 1;
            stages.push(t.clone());
        }
        stages
    }

    #[test]
    fn every_refusal_of_a_tournament_and_of_the_quick_match_has_words_in_every_language() {
        use crate::game::quick::QuickRefused;
        let tournament = [
            TournamentRefused::NotOpen,
            TournamentRefused::AlreadyIn,
            TournamentRefused::NotIn,
            TournamentRefused::Full,
            TournamentRefused::TooFew,
            TournamentRefused::TooManyForFormat,
            TournamentRefused::NotRunner,
            TournamentRefused::NotRunning,
            TournamentRefused::UnknownGame,
            TournamentRefused::NotInMatch,
        ]
        .map(TournamentRefused::key);
        let quick = [
            QuickRefused::AlreadyWaiting,
            QuickRefused::AlreadyPaired,
            QuickRefused::NotWaiting,
        ]
        .map(QuickRefused::key);
        for key in tournament.iter().chain(&quick) {
            for lang in Lang::ALL {
                let words = t(lang, key);
                assert!(
                    !words.is_empty() && words != *key,
                    "{key} in {lang}: {words:?}"
                );
            }
        }
    }

    #[test]
    fn every_stage_of_the_largest_tournaments_fits_a_message_in_every_language() {
        for format in Format::ALL {
            for t in crowded(format) {
                for lang in Lang::ALL {
                    let (text, kb) = tournament_message(&t, lang);
                    let chars = text.chars().count();
                    assert!(chars <= 4096, "{format:?} {lang}: {chars} characters");
                    if let Some(kb) = kb {
                        assert!(kb.inline_keyboard.iter().all(|r| r.len() <= 8));
                        for key in kb.inline_keyboard.iter().flatten() {
                            let data = key.data().unwrap();
                            assert!(!data.is_empty() && data.len() <= 64, "{data}");
                        }
                    }
                    assert!(!text.contains("<00>"), "a name unescaped");
                }
            }
        }
    }
}
