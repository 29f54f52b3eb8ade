//! A finished game's replay, in a private chat: one message stepping through the game with
//! ⏮ ◀ ▶ ⏭, each step a result of the game's log with both fields as they were after it
//! (every ship shown: the game is over), and at the last step the reveal and how to check the
//! commitments. Text, so it fits any variant's fields and the message is edited in place.

use super::buttons::Button;
use super::group::end_words_in;
use super::keyboard::{Key, Keyboard};
use super::render::{escape, field_text, log_line};
use super::reveal::fleet_words;
use crate::game::id::GameId;
use crate::game::lang::Lang;
use crate::game::record::GameRecord;
use crate::view::i18n::{t, ta};
use engine::{Coord, Event, SeatId};

/// The results a replay steps through: the log's shots, salvoes, cells given up after a mine
/// and the players who left (not the reminders, nor the mine's question).
pub fn steps(rec: &GameRecord) -> Vec<&Event> {
    rec.log
        .iter()
        .filter(|e| {
            matches!(
                e,
                Event::Shot { .. }
                    | Event::Salvo { .. }
                    | Event::GaveUp { .. }
                    | Event::Surrendered(_)
                    | Event::Forfeit(_)
                    | Event::Eliminated(_)
            )
        })
        .collect()
}

/// The replay of finished game `id` at `step` (0: before the first result; clamped to the
/// last), in `lang`: its text (HTML) and its buttons. `None` for a game not finished (its
/// fleets are secret) or a Riga game (its moves are no shots).
pub fn replay_view(
    rec: &GameRecord,
    id: GameId,
    step: usize,
    lang: Lang,
) -> Option<(String, Keyboard)> {
    if !rec.game.is_finished() || rec.is_riga() || rec.game.fleet(SeatId(0)).is_none() {
        return None;
    }
    let steps = steps(rec);
    let last = steps.len();
    let step = step.min(last);
    let ruleset = rec.game.ruleset();
    let size = ruleset.size();
    let name = |s: SeatId| escape(rec.names.get(s.index()).map_or("?", String::as_str));
    let seats: Vec<SeatId> = (0..rec.game.seats().len() as u8).map(SeatId).collect();
    let players: Vec<String> = seats.iter().map(|&s| name(s)).collect();
    let mut text = format!(
        "<b>{}</b>\n{}",
        ta(
            lang,
            "replay-title",
            &[
                ("game", id.0.to_string().into()),
                ("players", players.join(" — ").into()),
            ]
        ),
        ta(
            lang,
            "replay-step",
            &[("step", step.into()), ("count", last.into())]
        )
    );
    let shots: Vec<(SeatId, Coord)> = steps[..step]
        .iter()
        .filter_map(|e| match e {
            Event::Shot { target, cell, .. } => Some((*target, *cell)),
            Event::GaveUp { seat, cell, .. } => Some((*seat, *cell)),
            _ => None,
        })
        .collect();
    let fields = rec.game.fields_after(&shots);
    for (s, field) in seats.iter().zip(&fields) {
        text.push_str(&format!(
            "\n\n<b>{}</b>\n<pre>{}</pre>",
            name(*s),
            field_text(field, ruleset, rec.alphabet)
        ));
    }
    let aimed = seats.len() > 2;
    let line = match step.checked_sub(1).and_then(|i| steps.get(i)) {
        Some(e) => log_line(lang, e, &rec.names, rec.alphabet, size, aimed).unwrap_or_default(),
        None => t(lang, "replay-start"),
    };
    text.push_str(&format!("\n\n{line}"));
    if step == last {
        text.push_str(&format!("\n\n<b>{}</b>", end_words_in(rec, lang)));
        text.push_str(&format!("\n\n{}", t(lang, "end-reveal")));
        for &s in &seats {
            let (Some((layout, salt)), Some(fleet)) = (rec.game.reveal(s), rec.game.fleet(s))
            else {
                continue;
            };
            let words = fleet_words(lang, fleet, rec.alphabet, size, ruleset.mines > 0);
            let commitment = rec.game.commitment(s).unwrap_or_default();
            text.push_str(&format!(
                "\n{}: {words}\n<code>{layout}|{salt}</code>\nSHA-256: <code>{commitment}</code>",
                name(s)
            ));
        }
        text.push_str(&format!("\n\n{}", t(lang, "replay-check")));
    }
    let key = |label: &str, to: usize| {
        if to == step {
            Key::callback("·", Button::Noop.to_string())
        } else {
            Key::callback(label, Button::Replay(id, to as u16).to_string())
        }
    };
    let kb = Keyboard::new([vec![
        key("⏮", 0),
        key("◀", step.saturating_sub(1)),
        key("▶", (step + 1).min(last)),
        key("⏭", last),
    ]]);
    Some((text, kb))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::group::visible_len;
    use engine::{random_fleet, Action, Game, PlayerId, Ruleset};
    use rand::SeedableRng;

    fn finished() -> GameRecord {
        let mut rng = rand::rngs::StdRng::seed_from_u64(4);
        let r = Ruleset::default();
        let mut game = Game::new(r.clone());
        for p in [7, 8] {
            game.apply(Action::Join(PlayerId(p)), 0, &mut rng).unwrap();
        }
        game.apply(Action::Start, 0, &mut rng).unwrap();
        let mut rec = GameRecord::new(game, -100, 0);
        rec.names = vec!["Anna".into(), "Boris".into()];
        for s in 0..2 {
            let fleet = random_fleet(&r, &mut rng).unwrap();
            let events = rec
                .game
                .apply(Action::Ready(SeatId(s), fleet), 0, &mut rng)
                .unwrap();
            rec.push_log(&events);
        }
        let size = r.size();
        let mut next = [0usize; 2];
        while !rec.game.is_finished() {
            let shooter = rec.game.turn();
            let target = SeatId(1 - shooter.0);
            let c = loop {
                let c = size.coord(next[shooter.index()]);
                next[shooter.index()] += 1;
                if !rec.game.is_known(target, c) {
                    break c;
                }
            };
            let events = rec
                .game
                .apply(Action::Fire(shooter, target, c), 0, &mut rng)
                .unwrap();
            rec.push_log(&events);
        }
        rec
    }

    #[test]
    fn every_step_shows_its_result_and_the_last_the_reveal_within_telegrams_limit() {
        let rec = finished();
        let n = steps(&rec).len();
        assert!(n > 20);
        for lang in Lang::ALL {
            for step in 0..=n {
                let (text, kb) = replay_view(&rec, GameId(9), step, lang).unwrap();
                assert!(visible_len(&text) <= 4096, "{lang:?} step {step}");
                let expected = match step {
                    0 => t(lang, "replay-start"),
                    _ => log_line(
                        lang,
                        steps(&rec)[step - 1],
                        &rec.names,
                        rec.alphabet,
                        rec.game.ruleset().size(),
                        false,
                    )
                    .unwrap(),
                };
                assert!(text.contains(&expected), "{lang:?} step {step}: {text}");
                assert_eq!(text.contains("SHA-256"), step == n);
                let data: Vec<String> = kb.inline_keyboard[0]
                    .iter()
                    .filter_map(|k| k.data().map(str::to_owned))
                    .collect();
                // The way back and forward, never to the step shown.
                assert_eq!(data.contains(&format!("rp:9:{}", step + 1)), step < n);
                assert_eq!(
                    data.contains(&format!("rp:9:{}", step.wrapping_sub(1))),
                    step > 0
                );
                assert!(!data.contains(&format!("rp:9:{step}")));
            }
        }
        // Past the end is the end.
        assert_eq!(
            replay_view(&rec, GameId(9), n + 5, Lang::En),
            replay_view(&rec, GameId(9), n, Lang::En)
        );
    }

    #[test]
    fn a_game_not_finished_has_no_replay() {
        let mut rec = finished();
        rec.game = Game::new(Ruleset::default());
        assert!(replay_view(&rec, GameId(9), 0, Lang::En).is_none());
    }
}
