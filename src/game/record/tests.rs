use super::*;
use engine::{random_fleet, Action, Players};
use rand::SeedableRng;

/// Sea Battle's part of a Sea Battle record, to change.
fn sea_mut(rec: &mut GameRecord) -> &mut SeaBattle {
    match &mut rec.play {
        Play::SeaBattle(sb) => sb,
        Play::Riga(_) => panic!("a Riga record"),
    }
}

#[test]
fn a_games_place_in_a_forum_is_stored_and_read_back() {
    let mut rec = GameRecord::new(Game::new(Ruleset::default()), -100, 0);
    let plain = serde_json::to_value(&rec).unwrap();
    // Outside a forum nothing of it is written.
    assert!(plain.get("topic").is_none() && plain.get("own_topic").is_none());
    rec.topic = Some(42);
    rec.own_topic = true;
    rec.delivery.topic_gone = true;
    let back: GameRecord = serde_json::from_str(&serde_json::to_string(&rec).unwrap()).unwrap();
    assert_eq!(
        (back.topic, back.own_topic, back.delivery.topic_gone),
        (Some(42), true, true)
    );
}

#[test]
fn a_game_stored_before_pictures_stays_text_and_a_new_one_is_a_picture() {
    let rec = GameRecord::new(Game::new(Ruleset::default()), -1, 0);
    assert_eq!(rec.board, Board::Picture);
    let mut json: serde_json::Value = serde_json::to_value(&rec).unwrap();
    let back: GameRecord = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(back.board, Board::Picture);
    json.as_object_mut().unwrap().remove("board");
    let old: GameRecord = serde_json::from_value(json).unwrap();
    assert_eq!(old.board, Board::Text);
    // A chat that never chose has no board of its own: the bot's default applies.
    let s: ChatSettings = serde_json::from_str("{}").unwrap();
    assert_eq!(s.board, None);
}

fn free_for_all() -> GameRecord {
    let mut rng = rand::rngs::StdRng::seed_from_u64(5);
    let r = Ruleset {
        players: Players::FreeForAll(3),
        ..Ruleset::default()
    };
    let mut game = Game::new(r.clone());
    for p in 1..=3 {
        game.apply(Action::Join(PlayerId(p)), 0, &mut rng).unwrap();
    }
    game.apply(Action::Start, 0, &mut rng).unwrap();
    for s in 0..3 {
        let fleet = random_fleet(&r, &mut rng).unwrap();
        game.apply(Action::Ready(SeatId(s), fleet), 0, &mut rng)
            .unwrap();
    }
    GameRecord::new(game, -1, 0)
}

#[test]
fn a_record_written_before_the_variants_decodes_as_begun_with_no_aim() {
    let mut json = serde_json::to_value(free_for_all()).unwrap();
    for key in ["aim", "mine_dm", "begun"] {
        json.as_object_mut().unwrap().remove(key);
    }
    let rec: GameRecord = serde_json::from_value(json).unwrap();
    assert!(rec.delivery.begun);
    assert_eq!(
        (rec.sea().unwrap().aim.clone(), rec.delivery.mine_dm),
        (None, None)
    );
}

#[test]
fn a_record_is_stored_flat_as_an_older_bot_wrote_it_and_reads_back_the_same() {
    let mut rec = free_for_all();
    rec.delivery.message = Some(3);
    rec.delivery.generation = 2;
    sea_mut(&mut rec).block = 1;
    let json = serde_json::to_value(&rec).unwrap();
    for key in [
        "game",
        "message",
        "generation",
        "block",
        "aim",
        "begun",
        "board",
    ] {
        assert!(json.get(key).is_some(), "{key} in {json}");
    }
    for key in ["play", "delivery", "riga"] {
        assert!(json.get(key).is_none(), "{key} in {json}");
    }
    assert_eq!(serde_json::from_value::<GameRecord>(json).unwrap(), rec);
    // A Riga game keeps its state under "riga", as before.
    let mut rng = rand::rngs::StdRng::seed_from_u64(2);
    rec.play = Play::Riga(crate::game::riga_state::RigaPlay::ordering(&mut rng));
    let json = serde_json::to_value(&rec).unwrap();
    assert!(json["riga"]["orders"].is_array(), "{json}");
    assert_eq!(serde_json::from_value::<GameRecord>(json).unwrap(), rec);
}

#[test]
fn the_aim_holds_only_for_its_shooter_and_a_field_that_may_be_shot() {
    let mut rec = free_for_all();
    let shooter = rec.game.turn();
    let targets = rec.game.targets(shooter);
    let first = rec.current_aim().unwrap();
    assert_eq!((first.shooter, first.target), (shooter, targets[0]));
    let aim = Aim {
        shooter,
        target: targets[1],
        picked: vec![Coord::new(1, 1)],
        armed: None,
        corner: None,
    };
    sea_mut(&mut rec).aim = Some(aim.clone());
    assert_eq!(rec.current_aim(), Some(aim.clone()));
    // Another seat's aim, or the shooter's own field, falls back to the first target.
    sea_mut(&mut rec).aim = Some(Aim {
        shooter: targets[0],
        ..aim.clone()
    });
    assert_eq!(rec.current_aim().unwrap().target, targets[0]);
    sea_mut(&mut rec).aim = Some(Aim {
        target: shooter,
        ..aim
    });
    let fallback = rec.current_aim().unwrap();
    assert_eq!((fallback.target, fallback.picked.len()), (targets[0], 0));
}

/// A random duel on the classic field played to its end, every result logged.
fn finished_duel(seed: u64) -> GameRecord {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let r = Ruleset::default();
    let mut game = Game::new(r.clone());
    for p in 1..=2 {
        game.apply(Action::Join(PlayerId(p)), 0, &mut rng).unwrap();
    }
    game.apply(Action::Start, 0, &mut rng).unwrap();
    for s in 0..2 {
        let fleet = random_fleet(&r, &mut rng).unwrap();
        game.apply(Action::Ready(SeatId(s), fleet), 0, &mut rng)
            .unwrap();
    }
    let mut rec = GameRecord::new(game, -1, 0);
    rec.names = vec!["Anna".into(), "Boris".into()];
    while !rec.game.is_finished() {
        let shooter = rec.game.turn();
        let target = rec.game.targets(shooter)[0];
        let unknown: Vec<Coord> = r
            .size()
            .cells()
            .filter(|&c| !rec.game.is_known(target, c))
            .collect();
        let cell = unknown[rand::Rng::gen_range(&mut rng, 0..unknown.len())];
        let events = rec
            .game
            .apply(Action::Fire(shooter, target, cell), 0, &mut rng)
            .unwrap();
        rec.push_log(&events);
    }
    rec
}

#[test]
fn a_game_in_an_inline_message_is_drawn_on_it_throughout_and_rated_on_everyones_board() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(4);
    let r = Ruleset::default();
    let mut game = Game::new(r.clone());
    for p in 1..=2 {
        game.apply(Action::Join(PlayerId(p)), 0, &mut rng).unwrap();
    }
    game.apply(Action::Start, 0, &mut rng).unwrap();
    let inline = "AgAAAF000001fake";
    let mut rec = GameRecord::new(game, inline_chat(inline), 0);
    rec.inline = Some(inline.into());
    rec.delivery.message = Some(INLINE_MESSAGE);
    rec.delivery.drawn = 7;
    for s in 0..2 {
        let fleet = random_fleet(&r, &mut rng).unwrap();
        rec.game
            .apply(Action::Ready(SeatId(s), fleet), 0, &mut rng)
            .unwrap();
    }
    rec.derive_effects();
    // No message retired, none sent: the battle is drawn on the same one.
    let kinds: Vec<Effect> = rec
        .delivery
        .outbox
        .iter()
        .map(|o| o.effect.clone())
        .collect();
    assert_eq!(kinds, vec![Effect::Dm { seat: 0 }, Effect::Dm { seat: 1 }]);
    assert_eq!(rec.delivery.message, Some(INLINE_MESSAGE));
    assert_eq!((rec.delivery.generation, rec.delivery.drawn), (1, 0));
    let json = serde_json::to_string(&rec).unwrap();
    let back: GameRecord = serde_json::from_str(&json).unwrap();
    assert_eq!(back, rec);
    assert_eq!(back.inline.as_deref(), Some(inline));
    // A record of a chat's game is written without the field, as before.
    let chat_game = GameRecord::new(Game::new(r.clone()), -5, 0);
    assert!(!serde_json::to_string(&chat_game)
        .unwrap()
        .contains("inline"));
    rec.game
        .apply(Action::Surrender(SeatId(1)), 0, &mut rng)
        .unwrap();
    let boards: Vec<_> = crate::game::settle::wanted(&rec)
        .ratings
        .into_iter()
        .map(|(b, _)| b)
        .collect();
    assert_eq!(
        boards,
        vec![
            crate::game::leaderboard::Leaderboard::People,
            crate::game::leaderboard::Leaderboard::Bot
        ]
    );
}

#[test]
fn an_inline_messages_key_is_stable_its_own_and_far_below_every_chat() {
    let a = inline_chat("AgAAAF000001fake");
    assert_eq!(a, inline_chat("AgAAAF000001fake"));
    assert_ne!(a, inline_chat("AgAAAF000002fake"));
    for id in ["", "x", "AgAAAF000001fake", &"z".repeat(300)] {
        let k = inline_chat(id);
        assert!(k <= -(1i64 << 62), "{id}: {k}");
    }
}

#[test]
fn a_record_keeps_every_result_of_a_whole_game_in_a_few_kilobytes() {
    for seed in 0..5 {
        let rec = finished_duel(seed);
        let shots = rec
            .log
            .iter()
            .filter(|e| matches!(e, Event::Shot { .. }))
            .count();
        assert!(shots > 40, "{shots}");
        assert_eq!(rec.log.len() as u64, rec.log_total);
        let json = serde_json::to_string(&rec).unwrap();
        assert!(json.len() < 8 * 1024, "{} bytes", json.len());
        assert_eq!(serde_json::from_str::<GameRecord>(&json).unwrap(), rec);
    }
}

#[test]
fn a_record_whose_log_holds_whole_events_still_decodes() {
    let rec = finished_duel(9);
    let mut json = serde_json::to_value(&rec).unwrap();
    json["log"] = serde_json::to_value(&rec.log).unwrap();
    assert!(json["log"][0].get("Shot").is_some(), "{}", json["log"][0]);
    assert_eq!(serde_json::from_value::<GameRecord>(json).unwrap(), rec);
}

#[test]
fn shown_results_stay_in_the_log_and_only_its_bound_drops_the_oldest() {
    let mut rec = finished_duel(3);
    let total = rec.log.len();
    rec.mark_shown(rec.log_total);
    assert_eq!(rec.log.len(), total);
    let first = rec.log[0].clone();
    let events = vec![first; LOG_MAX];
    rec.push_log(&events);
    assert_eq!(rec.log.len(), LOG_MAX);
    assert_eq!(rec.log_total as usize, total + LOG_MAX);
}

#[test]
fn the_settings_page_of_a_lobby_round_trips_and_a_record_without_one_still_decodes() {
    let mut rec = GameRecord::new(Game::new(Ruleset::default()), -1, 0);
    let without = serde_json::to_string(&rec).unwrap();
    assert!(!without.contains("panel"), "{without}");
    assert_eq!(
        serde_json::from_str::<GameRecord>(&without).unwrap().panel,
        None
    );
    rec.panel = Some(SettingsPage::Players);
    let with = serde_json::to_string(&rec).unwrap();
    assert!(with.contains(r#""panel":"players""#), "{with}");
    assert_eq!(serde_json::from_str::<GameRecord>(&with).unwrap(), rec);
}
