//! The group's messages, drawn from records of every kind of game.

use super::*;
use engine::{random_fleet, Action, Field, Game, PlayerId, Players, Ruleset};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// A game of `ruleset` in battle, every seat with a random fleet and a long name.
fn record(ruleset: Ruleset, seed: u64) -> (GameRecord, StdRng) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut game = Game::new(ruleset.clone());
    for p in 0..ruleset.seats() as u64 {
        game.apply(Action::Join(PlayerId(p + 1)), 0, &mut rng)
            .unwrap();
    }
    game.apply(Action::Start, 0, &mut rng).unwrap();
    for s in 0..ruleset.seats() as u8 {
        let fleet = random_fleet(&ruleset, &mut rng).unwrap();
        game.apply(Action::Ready(SeatId(s), fleet), 0, &mut rng)
            .unwrap();
    }
    let mut rec = GameRecord::new(game, -1, 0);
    rec.delivery.begun = true;
    rec.names = (0..ruleset.seats())
        .map(|i| format!("{i}{}", "Ж".repeat(63)))
        .collect();
    (rec, rng)
}

/// One move of random play: a salvo or a shot at a random unknown cell of a random
/// target, or a random cell given up after a mine.
fn step(rec: &mut GameRecord, rng: &mut StdRng) -> Vec<Event> {
    let game = &rec.game;
    let size = game.ruleset().size();
    let action = if let Some(m) = game.mine_choice() {
        let fleet = game.fleet(m.seat).unwrap();
        let cell = fleet
            .ship_cells()
            .find(|&c| !game.is_known(m.seat, c))
            .unwrap();
        Action::GiveUp(m.seat, cell)
    } else {
        let shooter = game.turn();
        let targets = game.targets(shooter);
        let target = targets[rng.gen_range(0..targets.len())];
        let mut unknown: Vec<Coord> = size
            .cells()
            .filter(|&c| !game.is_known(target, c))
            .collect();
        match rec.salvo_size(target) {
            Some(n) => {
                let mut cells = Vec::new();
                for _ in 0..n {
                    cells.push(unknown.swap_remove(rng.gen_range(0..unknown.len())));
                }
                Action::Salvo(shooter, target, cells)
            }
            None => Action::Fire(shooter, target, unknown[rng.gen_range(0..unknown.len())]),
        }
    };
    let events = rec.game.apply(action, 0, rng).unwrap();
    rec.push_log(&events);
    events
}

/// The lines of a text that draw a field's rows (not its column letters).
fn grid_lines(text: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut inside = false;
    for line in text.split('\n') {
        if inside {
            lines.push(line);
        }
        if line.starts_with("<pre>") {
            inside = true;
        }
        if line.ends_with("</pre>") {
            inside = false;
        }
    }
    lines
}

#[test]
fn four_players_on_the_largest_field_with_long_names_fit_every_message() {
    let ruleset = Ruleset {
        field: Field::LandSeaAir,
        players: Players::FreeForAll(4),
        mines: 2,
        ..Ruleset::default()
    };
    let (mut rec, mut rng) = record(ruleset, 7);
    let mut longest = 0;
    for n in 0.. {
        step(&mut rec, &mut rng);
        if rec.game.is_finished() {
            break;
        }
        if n % 25 != 0 {
            continue;
        }
        // Nothing is ever shown: the log grows to its bound.
        let text = battle_text(&rec);
        longest = longest.max(visible_len(&text));
        assert!(visible_len(&text) <= MAX_TEXT, "{}", visible_len(&text));
        for line in grid_lines(&text) {
            assert!(!line.contains(','), "the border shows: {line}");
            assert!(!line.contains(['O', 'm']), "a ship or a mine shows: {line}");
        }
        let kb = battle_keyboard(&rec, GameId(u64::MAX));
        if let Some(kb) = kb {
            let buttons: usize = kb.inline_keyboard.iter().map(Vec::len).sum();
            assert!(buttons <= render::MAX_BUTTONS);
            assert!(kb
                .inline_keyboard
                .iter()
                .all(|r| r.len() <= render::MAX_ROW));
        }
    }
    assert!(
        longest > 3000,
        "the test does not reach the limit: {longest}"
    );
    for text in end_texts(&rec) {
        assert!(visible_len(&text) <= MAX_TEXT, "{}", visible_len(&text));
    }
}

#[test]
fn a_game_in_an_inline_message_asks_for_taps_and_ends_there_with_the_reveal_within_the_limit() {
    for (ruleset, seed) in [
        (Ruleset::default(), 3),
        (
            Ruleset {
                field: Field::LandSeaAir,
                players: Players::FreeForAll(4),
                mines: 2,
                ..Ruleset::default()
            },
            7,
        ),
    ] {
        let (mut rec, mut rng) = record(ruleset, seed);
        rec.inline = Some("AgAAAF000001fake".into());
        for lang in Lang::ALL {
            rec.lang = lang;
            let (text, _) = live_message(&rec, GameId(9), "bot");
            let tap = |key| {
                let words = ta(lang, key, &[("name", "x".into()), ("target", "y".into())]);
                words.rsplit('—').next().unwrap().to_owned()
            };
            assert!(
                text.contains(&tap("battle-turn-tap")) || text.contains(&tap("battle-turn-at-tap")),
                "{text}"
            );
            rec.inline = None;
            let (chat_text, _) = live_message(&rec, GameId(9), "bot");
            rec.inline = Some("AgAAAF000001fake".into());
            assert_ne!(text, chat_text, "the same words as in a group");
        }
        while !rec.game.is_finished() {
            step(&mut rec, &mut rng);
        }
        for lang in Lang::ALL {
            rec.lang = lang;
            let (text, kb) = live_message(&rec, GameId(9), "bot");
            assert!(visible_len(&text) <= MAX_TEXT, "{}", visible_len(&text));
            assert!(text.contains(&t(lang, "end-reveal")), "{text}");
            for block in crate::view::reveal::reveal_blocks(&rec) {
                assert!(text.contains(&block), "{block} is not in {text}");
            }
            let kb = kb.expect("Rematch and Replay under the end");
            let data: Vec<String> = kb.inline_keyboard[0]
                .iter()
                .map(|k| match &k.kind {
                    crate::view::keyboard::KeyKind::Callback(d)
                    | crate::view::keyboard::KeyKind::Url(d)
                    | crate::view::keyboard::KeyKind::WebApp(d) => d.clone(),
                })
                .collect();
            assert_eq!(data[0], Button::Rematch(GameId(9)).to_string());
            assert!(
                data[1].starts_with("https://t.me/bot?start=rp9-"),
                "{data:?}"
            );
        }
    }
}

#[test]
fn the_shot_that_sinks_the_last_ship_tells_the_shooter_they_won_not_to_shoot_again() {
    for seed in 0..3 {
        let (mut rec, mut rng) = record(Ruleset::default(), seed);
        let mut last = Vec::new();
        while !rec.game.is_finished() {
            let events = step(&mut rec, &mut rng);
            let before = shot_answer(Lang::En, &rec, &events);
            if !rec.game.is_finished() && before.contains("sunk") {
                assert!(before.contains("Shoot again"), "{before}");
            }
            last = events;
        }
        for lang in Lang::ALL {
            let words = shot_answer(lang, &rec, &last);
            let again = ta(
                lang,
                "answer-sunk",
                &[("cell", "".into()), ("ship", "".into())],
            );
            let again = again.rsplit('!').next().unwrap().trim();
            assert!(!words.contains(again), "{words}");
            assert!(words.ends_with('!'), "{words}");
        }
    }
}

#[test]
fn each_weapon_is_told_to_the_group_in_words_with_every_players_weapons_left() {
    let ruleset = Ruleset {
        arsenal: 1,
        ..Ruleset::default()
    };
    let (mut rec, mut rng) = record(ruleset, 5);
    rec.names = vec!["Anna".into(), "Boris".into()];
    let a = rec.game.turn();
    let b = rec.game.targets(a)[0];
    let plays = [
        Action::Radar(a, b, Coord::new(4, 4)),
        Action::AirStrike(b, a, Coord::new(1, 1)),
        Action::Torpedo(a, b, Coord::new(0, 5), None),
    ];
    for action in plays {
        while rec.game.turn() != action_seat(&action) {
            step(&mut rec, &mut rng);
        }
        let events = rec.game.apply(action, 0, &mut rng).unwrap();
        rec.push_log(&events);
        for lang in Lang::ALL {
            let answer = shot_answer(lang, &rec, &events);
            assert!(!answer.is_empty() && !answer.contains('&'), "{answer}");
        }
    }
    for lang in Lang::ALL {
        rec.lang = lang;
        rec.mark_shown(0);
        let text = battle_text(&rec);
        for (icon, key) in [
            ("📡", "weapon-radar"),
            ("✈", "weapon-air-strike"),
            ("🚀", "weapon-torpedo"),
        ] {
            let line = text
                .lines()
                .find(|l| l.starts_with(icon))
                .unwrap_or_else(|| panic!("no {icon} line in {text}"));
            assert!(line.contains(&t(lang, key)), "{line}");
        }
        let left = ta(lang, "weapons-left", &[("list", "".into())]);
        assert!(text.contains(left.trim()), "{text}");
        assert!(text.contains("Anna 📡0 ✈1 🚀0") || text.contains("Boris 📡0 ✈1 🚀0"));
    }
}

fn action_seat(a: &Action) -> SeatId {
    match a {
        Action::Radar(s, ..) | Action::AirStrike(s, ..) | Action::Torpedo(s, ..) => *s,
        _ => SeatId(0),
    }
}

#[test]
fn the_group_never_learns_which_cells_of_a_salvo_hit() {
    let ruleset = Ruleset {
        salvo: Some(3),
        players: Players::FreeForAll(3),
        ..Ruleset::default()
    };
    let (mut rec, mut rng) = record(ruleset, 11);
    rec.names = vec!["Anna".into(), "Boris".into(), "Clara".into()];
    let mut salvoes = 0;
    while !rec.game.is_finished() {
        let events = step(&mut rec, &mut rng);
        rec.mark_shown(rec.log_total);
        if rec.game.is_finished() {
            break;
        }
        let text = battle_text(&rec);
        for line in grid_lines(&text) {
            assert!(!line.contains(['X', '#', 'O']), "{line}");
        }
        for e in &events {
            if let Event::Salvo { .. } = e {
                salvoes += 1;
                let line = render::log_line(
                    Lang::En,
                    e,
                    &rec.names,
                    rec.alphabet,
                    rec.game.ruleset().size(),
                    true,
                )
                .unwrap();
                assert!(line.contains("a salvo of 3"), "{line}");
                let after = line.split("a salvo of 3").nth(1).unwrap();
                let cell = after
                    .as_bytes()
                    .windows(2)
                    .any(|w| w[0].is_ascii_uppercase() && w[1].is_ascii_digit());
                assert!(!cell, "{line}");
            }
        }
    }
    assert!(salvoes > 10);
}

#[test]
fn the_classic_duel_has_no_target_row_legend_or_fire_button() {
    let (rec, _) = record(Ruleset::default(), 3);
    let (text, kb) = (battle_text(&rec), battle_keyboard(&rec, GameId(1)));
    assert!(!text.contains(&t(Lang::En, "battle-legend")));
    let kb = kb.unwrap();
    let data: Vec<String> = kb
        .inline_keyboard
        .iter()
        .flatten()
        .map(|b| b.data().unwrap_or_default().to_owned())
        .collect();
    assert!(data
        .iter()
        .all(|d| d.starts_with("f:") || d.starts_with("v:")));
}

/// Each result of the log on its own line, as the battle message writes it.
fn single_lines(rec: &GameRecord) -> Vec<String> {
    let size = rec.game.ruleset().size();
    rec.log
        .iter()
        .filter_map(|e| {
            render::log_line(rec.lang, e, &rec.names, rec.alphabet, size, is_aimed(rec))
        })
        .collect()
}

/// A shot as a part of a run's line: `а1 — мимо`.
fn shot_part(rec: &GameRecord, e: &Event) -> Option<String> {
    let Event::Shot { cell, result, .. } = e else {
        return None;
    };
    let size = rec.game.ruleset().size();
    Some(ta(
        rec.lang,
        "log-shot-part",
        &[
            ("cell", render::cell_name(*cell, rec.alphabet, size).into()),
            ("result", render::result_words(rec.lang, *result).into()),
        ],
    ))
}

/// A classic duel in Russian with Russian letters, short names.
fn russian_duel(seed: u64) -> (GameRecord, StdRng) {
    let (mut rec, rng) = record(Ruleset::default(), seed);
    rec.names = vec!["Анна".into(), "Борис".into()];
    rec.lang = Lang::Ru;
    rec.alphabet = engine::Alphabet::Russian;
    (rec, rng)
}

#[test]
fn once_seen_the_battle_message_shows_only_the_last_few_results() {
    let (mut rec, mut rng) = russian_duel(21);
    for n in 0..60 {
        step(&mut rec, &mut rng);
        rec.mark_shown(rec.log_total);
        if rec.game.is_finished() {
            break;
        }
        let text = battle_text(&rec);
        let all = single_lines(&rec);
        let shown: Vec<&str> = text
            .lines()
            .filter(|l| all.iter().any(|a| a == l))
            .collect();
        let latest = &all[all.len().saturating_sub(SHOWN)..];
        assert_eq!(shown, latest, "after {n} moves");
        assert_eq!(results(&rec, &rec.names, usize::MAX).0, latest);
    }
    assert_eq!(
        rec.log.len() as u64,
        rec.log_total,
        "the log keeps every result"
    );
}

#[test]
fn a_burst_since_the_last_redraw_shows_every_result_of_it() {
    let (mut rec, mut rng) = russian_duel(22);
    for _ in 0..5 {
        step(&mut rec, &mut rng);
    }
    rec.mark_shown(rec.log_total);
    let before = rec.log.len();
    while rec.log.len() < before + 3 * SHOWN && !rec.game.is_finished() {
        step(&mut rec, &mut rng);
    }
    let burst = &rec.log[before..];
    assert!(burst.len() > SHOWN);
    let text = battle_text(&rec);
    let lines = results(&rec, &rec.names, usize::MAX).0;
    for e in burst {
        let part = shot_part(&rec, e).expect("a duel logs shots only");
        assert!(
            lines.iter().any(|l| l.contains(&part)),
            "{part} in {lines:?}"
        );
    }
    for line in &lines {
        assert!(text.contains(line.as_str()), "{line}");
    }
    // Nothing before the burst: those lines were seen.
    let seen = shot_part(&rec, &rec.log[before - 1]).unwrap();
    assert!(lines.iter().all(|l| !l.contains(&seen)), "{seen}");
}

#[test]
fn the_end_tells_the_whole_game_and_the_fleets_in_the_chats_letters_without_fields() {
    let (mut rec, mut rng) = russian_duel(23);
    while !rec.game.is_finished() {
        step(&mut rec, &mut rng);
        rec.mark_shown(rec.log_total);
    }
    let texts = end_texts(&rec);
    let all = texts.join("\n");
    assert!(texts[0].starts_with(&format!("<b>{}</b>", end_words(&rec))));
    for text in &texts {
        assert!(visible_len(text) <= MAX_TEXT);
        assert!(!text.contains("<pre>"), "a field in the end: {text}");
    }
    assert!(all.contains(&t(Lang::Ru, "end-log")));
    // Each player's turns, cells shot and hits, as the statistics count them.
    assert!(all.contains(&t(Lang::Ru, "end-figures")), "{all}");
    for seat in 0..2u8 {
        let f = crate::game::rating::figures(&rec, seat);
        assert!(f.turns > 0 && f.shots >= f.turns.saturating_sub(1), "{f:?}");
        let line = ta(
            Lang::Ru,
            "end-figure",
            &[
                ("name", escape(&rec.names[usize::from(seat)]).into()),
                ("turns", f.turns.into()),
                ("cells", f.shots.into()),
                ("hits", f.hits.into()),
            ],
        );
        assert!(all.contains(&line), "{line}\n{all}");
    }
    // Every result, in order.
    let mut at = 0;
    for part in rec.log.iter().filter_map(|e| shot_part(&rec, e)) {
        let found = all[at..].find(&part).unwrap_or_else(|| panic!("{part}"));
        at += found + part.len();
    }
    assert!(!all.contains("mines="), "{all}");
    assert!(!all.contains(&t(Lang::Ru, "end-mines")), "{all}");
    for s in [SeatId(0), SeatId(1)] {
        let (layout, salt) = rec.game.reveal(s).unwrap();
        assert!(
            all.contains(&format!("<code>{layout}|{salt}</code>")),
            "{all}"
        );
        let fleet = rec.game.fleet(s).unwrap();
        for ship in fleet.ships() {
            let first = ship.cells.iter().min_by_key(|c| (c.y, c.x)).unwrap();
            let name = render::cell_name(*first, rec.alphabet, rec.game.ruleset().size());
            assert!(
                name.starts_with(|c: char| ('а'..='к').contains(&c)),
                "{name}"
            );
            let reveal = all.split(&t(Lang::Ru, "end-reveal")).nth(1).unwrap();
            let line = reveal
                .lines()
                .find(|l| l.starts_with(&rec.names[s.index()]))
                .unwrap();
            assert!(line.contains(&name), "{name} in {line}");
        }
    }
}

#[test]
fn a_team_s_win_names_both_winners_in_the_plural() {
    let teams = Ruleset {
        players: Players::Teams,
        ..Ruleset::default()
    };
    let (mut rec, mut rng) = record(teams, 26);
    rec.names = ["Анна", "Борис", "Вера", "Глеб"].map(String::from).to_vec();
    while !rec.game.is_finished() {
        step(&mut rec, &mut rng);
    }
    let Phase::Finished { winners, .. } = rec.game.phase().clone() else {
        unreachable!()
    };
    assert_eq!(winners.len(), 2, "{winners:?}");
    let [a, b] = [0, 1].map(|i| rec.names[winners[i].index()].clone());
    for (lang, expected) in [
        (Lang::Ru, format!("Победители — {a} и {b}!")),
        (Lang::Bg, format!("Победители: {a} и {b}!")),
        (Lang::En, format!("Winners: {a} and {b}!")),
    ] {
        rec.lang = lang;
        let all = end_texts(&rec).join("\n");
        assert!(all.contains(&expected), "{lang}: {all}");
    }
    // One winner: the singular, as ever.
    let (mut duel, mut rng) = russian_duel(27);
    duel.names = vec!["Анна".into(), "Борис".into()];
    while !duel.game.is_finished() {
        step(&mut duel, &mut rng);
    }
    let Phase::Finished { winners, .. } = duel.game.phase().clone() else {
        unreachable!()
    };
    let winner = &duel.names[winners[0].index()];
    let all = end_texts(&duel).join("\n");
    assert!(all.contains(&format!("Победитель — {winner}!")), "{all}");
    duel.lang = Lang::En;
    let all = end_texts(&duel).join("\n");
    assert!(all.contains(&format!("Winner: {winner}!")), "{all}");
}

#[test]
fn a_player_blown_up_on_a_mine_is_told_of_the_same_way_whoever_they_are() {
    let ruleset = Ruleset {
        mines: 2,
        ..Ruleset::default()
    };
    let (mut rec, mut rng) = record(ruleset, 28);
    rec.names = vec!["Анна".into(), "Вера".into()];
    rec.lang = Lang::Ru;
    while rec.game.mine_choice().is_none() {
        assert!(!rec.game.is_finished(), "no mine was hit");
        step(&mut rec, &mut rng);
    }
    let seat = rec.game.mine_choice().unwrap().seat;
    let name = &rec.names[seat.index()];
    let text = battle_text(&rec);
    assert!(
        text.contains(&format!(
            "Мина! <b>{name}</b> выбирает клетку своего флота."
        )),
        "{text}"
    );
    assert!(!text.contains("подорвался"), "{text}");
}

#[test]
fn the_reveal_names_the_mines_only_in_a_game_with_mines() {
    let ruleset = Ruleset {
        mines: 2,
        ..Ruleset::default()
    };
    let (mut rec, mut rng) = record(ruleset, 24);
    rec.names = vec!["Anna".into(), "Boris".into()];
    while !rec.game.is_finished() {
        step(&mut rec, &mut rng);
    }
    let all = end_texts(&rec).join("\n");
    let mines = format!("{}: ", t(Lang::En, "end-mines"));
    assert_eq!(all.matches(&mines).count(), 2, "{all}");
    assert_eq!(all.matches(";mines=").count(), 2, "{all}");
}

#[test]
fn a_long_game_ends_in_several_messages_without_cutting_a_line() {
    let (mut rec, mut rng) = record(Ruleset::default(), 25);
    while !rec.game.is_finished() {
        step(&mut rec, &mut rng);
    }
    // Long names make every line long: the whole log takes more than one message.
    let texts = end_texts(&rec);
    assert!(texts.len() > 1, "{}", texts.len());
    let lines = run_lines(&rec, &rec.names, &rec.log);
    for text in &texts {
        assert!(visible_len(text) <= MAX_TEXT);
    }
    for line in &lines {
        assert!(texts.iter().any(|t| t.contains(line.as_str())), "{line}");
    }
}

#[test]
fn the_battle_message_leads_to_the_live_board_by_a_button_or_else_a_link() {
    use crate::game::record::Board;
    use crate::view::keyboard::MAX_BUTTONS;
    use crate::view::live::{live_drawing, with_board_link};
    let link = "https://t.me/bot/board?startapp=g1_00aa";
    let buttons = |d: &crate::view::live::Drawing| -> usize {
        d.keyboard
            .iter()
            .flat_map(|k| &k.inline_keyboard)
            .map(Vec::len)
            .sum()
    };
    for (board, seed) in [(Board::Text, 31), (Board::Picture, 32)] {
        let (mut rec, mut rng) = record(Ruleset::default(), seed);
        rec.board = board;
        step(&mut rec, &mut rng);
        let plain = live_drawing(&rec, GameId(1), "bot");
        let linked = with_board_link(plain.clone(), &rec, Some(link));
        let last = linked
            .keyboard
            .as_ref()
            .and_then(|k| k.inline_keyboard.last());
        if buttons(&plain) < MAX_BUTTONS {
            let key = &last.expect("a row")[0];
            assert_eq!(key.kind, crate::view::keyboard::KeyKind::Url(link.into()));
            assert_eq!(key.text, t(rec.lang, "webapp-open"));
            assert_eq!(buttons(&linked), buttons(&plain) + 1);
        } else {
            assert_eq!(buttons(&linked), MAX_BUTTONS);
            assert!(linked.text.contains(link), "{}", linked.text);
            let limit = if linked.picture.is_some() {
                MAX_CAPTION
            } else {
                MAX_TEXT
            };
            assert!(visible_len(&linked.text) <= limit);
        }
        // No link without a short name, nor after the battle.
        assert_eq!(with_board_link(plain.clone(), &rec, None).text, plain.text);
        while !rec.game.is_finished() {
            step(&mut rec, &mut rng);
        }
        let end = live_drawing(&rec, GameId(1), "bot");
        let linked = with_board_link(end.clone(), &rec, Some(link));
        assert_eq!(buttons(&linked), buttons(&end));
        assert!(!linked.text.contains(link));
    }
}

#[test]
fn the_battle_picture_shows_the_public_view_and_its_caption_fits() {
    use crate::view::live::{battle_picture, live_drawing};
    let rulesets = [
        Ruleset {
            field: Field::LandSeaAir,
            players: Players::FreeForAll(4),
            mines: 2,
            ..Ruleset::default()
        },
        Ruleset {
            salvo: Some(3),
            players: Players::FreeForAll(3),
            ..Ruleset::default()
        },
        Ruleset::default(),
    ];
    for (n, ruleset) in rulesets.into_iter().enumerate() {
        let (mut rec, mut rng) = record(ruleset, 20 + n as u64);
        let mut ruled_out = 0;
        loop {
            let finished = rec.game.is_finished();
            let public = rec.game.public_view();
            let picture = battle_picture(&rec);
            assert_eq!(picture.fields.len(), public.fields.len());
            for (drawn, seen) in picture.fields.iter().zip(&public.fields) {
                // Exactly what the group may see; an unknown cell only ever ruled out.
                assert_eq!(drawn.border, seen.border);
                assert_eq!(drawn.marks, seen.marks);
                // A cell known empty with no sunk ship beside it: a hit's corner.
                ruled_out += seen
                    .size
                    .cells()
                    .filter(|&c| {
                        seen.mark(c) == Mark::Halo
                            && !c.around(seen.size).any(|d| seen.mark(d) == Mark::Sunk)
                    })
                    .count();
                if !finished {
                    assert!(drawn.border.is_none());
                    assert!(!drawn
                        .marks
                        .iter()
                        .any(|m| matches!(m, Mark::Ship | Mark::IdleMine)));
                }
            }
            let drawing = live_drawing(&rec, GameId(1), "bot");
            assert!(drawing.picture.is_some());
            assert!(
                visible_len(&drawing.text) <= MAX_CAPTION,
                "{}",
                drawing.text
            );
            if finished {
                assert!(drawing.keyboard.is_none());
                break;
            }
            step(&mut rec, &mut rng);
            rec.mark_shown(rec.log_total);
        }
        // The classic duel rules out the corners of its hits.
        assert_eq!(ruled_out > 0, n == 2, "ruleset {n}");
    }
}

/// The names a caption uses: cut to [`NAME_IN_CAPTION`].
fn caption_names(rec: &GameRecord) -> Vec<String> {
    (0..rec.names.len())
        .map(|i| rec.short_name(SeatId(i as u8), NAME_IN_CAPTION))
        .collect()
}

/// Draws captions of `rec` as the sender does, each marked drawn, until the group has
/// seen every result; checks each one and gives back the ranges they showed.
fn draw_until_all_shown(rec: &mut GameRecord) -> Vec<Shown> {
    let mut drawn = Vec::new();
    for _ in 0..1000 {
        let (caption, shown) = battle_caption(rec);
        assert!(
            visible_len(&caption) <= MAX_CAPTION,
            "{}",
            visible_len(&caption)
        );
        if rec.game.phase() == &Phase::Battle {
            for s in 0..rec.game.seats().len() as u8 {
                let c = rec.game.commitment(SeatId(s)).unwrap();
                assert_eq!(c.len(), 64);
                assert!(caption.contains(&format!("<code>{c}</code>")), "{caption}");
            }
            assert!(!caption.contains("…</code>"), "{caption}");
        }
        let waiting = rec.log_total - shown.to;
        let more = ta(
            rec.lang,
            "battle-more",
            &[("count", (waiting as usize).into())],
        );
        assert_eq!(caption.contains(&more), waiting > 0, "{caption}");
        let base = rec.log_total - rec.log.len() as u64;
        let from = usize::try_from(shown.from.max(base) - base).unwrap();
        let to = usize::try_from(shown.to - base).unwrap();
        if shown.to > rec.delivery.log_shown {
            // The new results it shows, each in its line.
            let seen = usize::try_from(rec.delivery.log_shown - base).unwrap();
            let names = caption_names(rec);
            for line in run_lines(rec, &names, &rec.log[seen..to]) {
                assert!(caption.contains(&line), "{line} in {caption}");
            }
            assert!(from <= seen);
        }
        let done = shown.to == rec.log_total;
        rec.mark_drawn(shown);
        drawn.push(shown);
        if done {
            return drawn;
        }
    }
    panic!("the results never all show");
}

#[test]
fn a_burst_too_long_for_the_caption_shows_its_oldest_results_then_the_rest_and_keeps_the_commitments_whole(
) {
    let ruleset = Ruleset {
        field: Field::LandSeaAir,
        players: Players::FreeForAll(4),
        mines: 2,
        ..Ruleset::default()
    };
    let (mut rec, mut rng) = record(ruleset, 31);
    // Names of 64 letters, in Russian: long lines.
    rec.lang = Lang::Ru;
    for _ in 0..120 {
        step(&mut rec, &mut rng);
    }
    assert!(!rec.game.is_finished());
    // More than a caption holds: the first one says how many wait.
    let (first, shown) = battle_caption(&rec);
    assert!(shown.to < rec.log_total, "{first}");
    let more = ta(
        Lang::Ru,
        "battle-more",
        &[("count", ((rec.log_total - shown.to) as usize).into())],
    );
    assert!(first.contains(&more), "{first}");
    let drawn = draw_until_all_shown(&mut rec);
    assert!(drawn.len() > 2, "{drawn:?}");
    // One after the other, from the first result to the last: none left out (the last
    // few, when few are new, show with those before them).
    assert_eq!(drawn[0].from, 0);
    for pair in drawn.windows(2) {
        assert!(pair[1].from <= pair[0].to, "{drawn:?}");
        assert!(pair[1].to > pair[0].to, "{drawn:?}");
    }
    assert_eq!(drawn.last().unwrap().to, rec.log_total);
}

#[test]
fn every_result_of_a_fast_game_shows_in_some_caption_whatever_the_bursts() {
    for (n, ruleset) in [
        Ruleset {
            field: Field::LandSeaAir,
            players: Players::FreeForAll(4),
            mines: 2,
            ..Ruleset::default()
        },
        Ruleset {
            salvo: Some(3),
            players: Players::FreeForAll(3),
            ..Ruleset::default()
        },
        Ruleset::default(),
    ]
    .into_iter()
    .enumerate()
    {
        let (mut rec, mut rng) = record(ruleset, 40 + n as u64);
        let mut next = 0;
        while !rec.game.is_finished() {
            // A burst of 1 to 60 moves between two redraws.
            for _ in 0..rng.gen_range(1..=60) {
                step(&mut rec, &mut rng);
                if rec.game.is_finished() {
                    break;
                }
            }
            // One redraw, or more till the group caught up at the end.
            let (_, shown) = battle_caption(&rec);
            let drawn = if rec.game.is_finished() {
                draw_until_all_shown(&mut rec)
            } else {
                rec.mark_drawn(shown);
                vec![shown]
            };
            for d in drawn {
                // What it shows new starts where the group stopped.
                assert!(d.to >= next, "{d:?} after {next}");
                assert!(d.from <= next || d.to == next, "{d:?} after {next}");
                next = d.to;
            }
        }
        assert_eq!(next, rec.log_total, "ruleset {n}");
    }
}

#[test]
fn a_drawn_caption_is_drawn_the_same_until_a_new_result_comes() {
    let (mut rec, mut rng) = russian_duel(32);
    for burst in [1, 3, 9, 2, 30] {
        for _ in 0..burst {
            step(&mut rec, &mut rng);
        }
        let (first, shown) = battle_caption(&rec);
        let (text, text_shown) = battle_text_shown(&rec);
        assert_eq!(shown, text_shown);
        rec.mark_drawn(shown);
        // Drawn again with nothing new: the same words, so the sender edits nothing.
        assert_eq!(battle_caption(&rec).0, first, "after a burst of {burst}");
        assert_eq!(battle_text(&rec), text, "after a burst of {burst}");
    }
}

#[test]
fn the_visible_length_is_counted_without_markup_and_in_utf16() {
    assert_eq!(visible_len("<b>a&lt;b</b>"), 3);
    assert_eq!(visible_len("🤖 ж"), 4);
}
