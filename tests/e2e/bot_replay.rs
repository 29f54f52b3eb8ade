//! Replays (issue 28): every finished Sea Battle game gets a "🎞 Replay" link on its end;
//! anyone who opens it gets, in their private chat and their language, one message stepping
//! through the game, shot by shot, to the reveal. A replay of a game that does not exist, has
//! expired or is not over gets a clear answer.

use crate::fake_telegram::SentMessage;
use crate::helpers::*;
use engine::{Event, ShotResult};
use morskoy_boy::store::GameId;

/// The replay's message in `user`'s private chat, once it shows `step`.
async fn replay_at(app: &App, user: i64, step: usize, count: usize, words: &str) -> SentMessage {
    let wanted = words
        .replace("{step}", &step.to_string())
        .replace("{count}", &count.to_string());
    app.tg
        .wait_for(user, |m| m.text.contains(&wanted), wait())
        .await
        .unwrap_or_else(|| panic!("no replay at step {step}: {:?}", app.tg.last_message(user)))
}

/// `user` opens `/start payload` and is told, at last the `count`th time in their chat, that
/// there is no such replay.
async fn refused(app: &App, user: &teloxide::types::User, payload: &str, count: usize) {
    let chat = user.id.0 as i64;
    app.tg
        .send_command(chat, user, &format!("/start {payload}"));
    let refusals = || {
        app.tg
            .messages(chat)
            .iter()
            .filter(|m| m.text.contains("does not exist or has expired") && !m.has_keyboard())
            .count()
    };
    let deadline = tokio::time::Instant::now() + wait();
    while refusals() < count {
        assert!(
            tokio::time::Instant::now() < deadline,
            "{payload} is not refused"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// The marks of shot cells (a miss, a hit, a sunk ship's cell) in a replay's fields.
fn shot_marks(text: &str) -> usize {
    let fields = text.split("SHA-256").next().unwrap_or_default();
    fields
        .chars()
        .filter(|c| matches!(c, '•' | 'X' | '#'))
        .count()
}

flow! {
    fn a_replay_steps_through_the_games_log_to_the_reveal_in_each_language() {
        let app = App::spawn().await;
        let group = -2_801;
        app.tg.group(group, "Replays");
        let a = app.player(28_101, "Anna", "en");
        let b = app.player(28_102, "Boris", "en");
        let mut d = duel(&app, group, a.clone(), b.clone()).await;
        let battle = app
            .tg
            .messages(group)
            .into_iter()
            .find(|m| m.message_id == d.battle)
            .unwrap();
        play_out(&app, &mut d).await;
        let end = app
            .tg
            .wait_for(
                group,
                |m| m.callback_data().iter().any(|c| c.starts_with("r:")),
                wait(),
            )
            .await
            .expect("the end");
        let link = end.button("Replay").expect("a replay button on the end");
        let payload = link
            .split("?start=")
            .nth(1)
            .unwrap_or_else(|| panic!("a deep link: {link}"))
            .to_owned();
        // The game's id and a key only those who saw the game know.
        let key = payload
            .strip_prefix(&format!("rp{}-", d.game))
            .unwrap_or_else(|| panic!("a replay payload: {payload}"));
        assert_eq!(key.len(), 12, "{payload}");

        // The game's results, as stored.
        let store = app.store().await;
        let (rec, _) = store.load_game(GameId(d.game)).await.unwrap();
        // The results a replay steps through: every shot, and who was out at the end.
        let steps: Vec<&Event> = rec
            .log
            .iter()
            .filter(|e| !matches!(e, Event::Reminder(_)))
            .collect();
        let shots = steps
            .iter()
            .filter(|e| matches!(e, Event::Shot { .. }))
            .count();
        assert_eq!(shots, d.shots, "the log has every shot of the game");
        let size = rec.game.ruleset().size();

        // Someone who did not play opens it, in English, and steps from the first shot to the last.
        let c = app.player(28_103, "Clara", "en");
        app.welcomed(&c).await;
        let chat = c.id.0 as i64;
        app.tg.send_command(chat, &c, &format!("/start {payload}"));
        let n = steps.len();
        let mut m = replay_at(&app, chat, 0, n, "Step {step} of {count}").await;
        assert!(m.text.contains("Anna — Boris"), "{}", m.text);
        assert_eq!(shot_marks(&m.text), 0);
        let mut shot = 0;
        for (k, event) in steps.iter().enumerate() {
            let step = k + 1;
            let next = m.button("▶").unwrap_or_else(|| panic!("no ▶ at step {k}"));
            assert_eq!(next, format!("rp:{}:{step}", d.game));
            let answer = app.press(chat, &c, m.message_id, &next).await;
            assert!(!answer.show_alert, "{answer:?}");
            m = replay_at(&app, chat, step, n, "Step {step} of {count}").await;
            // The step's line is that shot: who, where, what it did.
            // The title and step, the two fields, then the step's result.
            let line = m.text.split("\n\n").nth(3).unwrap_or_default().to_owned();
            let lower = line.to_lowercase();
            match event {
                Event::Shot {
                    shooter,
                    cell,
                    result,
                    ..
                } => {
                    let who = ["Anna", "Boris"][shooter.index()];
                    let at = morskoy_boy::view::render::cell_name(*cell, rec.alphabet, size);
                    let what = match result {
                        ShotResult::Miss => "miss",
                        ShotResult::Hit => "hit",
                        ShotResult::Sunk(_) => "sunk",
                        ShotResult::Mine => "mine",
                    };
                    assert!(
                        line.contains(who) && line.contains(&at) && lower.contains(what),
                        "step {step}: {line:?} is not {who} {at} {what}"
                    );
                    shot += 1;
                }
                Event::Eliminated(seat) => {
                    let who = ["Anna", "Boris"][seat.index()];
                    assert!(line.contains(who), "step {step}: {line:?} is not {who} out");
                }
                other => panic!("a result the duel should not have: {other:?}"),
            }
            // The fields show exactly the shots made so far.
            assert_eq!(shot_marks(&m.text), shot, "step {step}: {}", m.text);
        }
        // The last step names the winner; ▶ then shows the reveal, whose commitments are the
        // battle's and verify.
        assert!(m.text.contains("Winner"), "{}", m.text);
        let next = m.button("▶").expect("a ▶ to the reveal");
        app.press(chat, &c, m.message_id, &next).await;
        let m = app
            .tg
            .wait_for(chat, |m| m.text.contains("The reveal"), wait())
            .await
            .expect("the reveal");
        assert!(
            m.button("▶").is_none_or(|d| !d.starts_with("rp:")),
            "a ▶ past the end"
        );
        let last = m.text.clone();
        assert!(last.contains("Winner"), "{last}");
        let mut verified = 0;
        let lines: Vec<&str> = last.lines().collect();
        for pair in lines.windows(2) {
            let Some(shown) = pair[1].strip_prefix("SHA-256: ") else {
                continue;
            };
            let (layout, salt) = pair[0].rsplit_once('|').expect("the line under a fleet");
            let commitment = engine::commit::commitment_of_text(layout, salt);
            assert_eq!(commitment, shown, "{}", pair[0]);
            assert!(
                battle.text.contains(&commitment),
                "{} is no commitment of the battle",
                pair[0]
            );
            verified += 1;
        }
        assert_eq!(verified, 2, "{last}");
        // ⏮ goes back to the beginning; a forged step past the end shows the end.
        let first = m.button("⏮").unwrap();
        app.press(chat, &c, m.message_id, &first).await;
        let m = replay_at(&app, chat, 0, n, "Step {step} of {count}").await;
        app.press(chat, &c, m.message_id, &format!("rp:{}:9999", d.game))
            .await;
        app.tg
            .wait_for(
                chat,
                |m| m.text.contains("The reveal") && m.edits > 2,
                wait(),
            )
            .await
            .expect("a step past the end shows the reveal");

        // In Russian and Bulgarian.
        for (id, lang, words) in [
            (28_104, "ru", "Ход {step} из {count}"),
            (28_105, "bg", "Ход {step} от {count}"),
        ] {
            let p = app.player(id, "Reader", lang);
            app.welcomed(&p).await;
            app.tg.send_command(id, &p, &format!("/start {payload}"));
            let m = replay_at(&app, id, 0, n, words).await;
            let next = m.button("▶").unwrap();
            app.press(id, &p, m.message_id, &next).await;
            replay_at(&app, id, 1, n, words).await;
        }

        // A link with the game's id and a guessed key opens nothing (game ids count up: replays
        // are not found by counting); nor does a game that never was, nor one expired (its
        // record gone, as after MB_FINISHED_DAYS), whose buttons say so too.
        let replay = app.tg.last_message(chat).unwrap();
        refused(&app, &c, &format!("rp{}-000000000000", d.game), 1).await;
        refused(&app, &c, "rp987654-0", 2).await;
        let mut conn = app.store().await.connection();
        let record = store.keys().game(GameId(d.game));
        let _: () = redis::cmd("DEL")
            .arg(&record)
            .query_async(&mut conn)
            .await
            .unwrap();
        let next = format!("rp:{}:1", d.game);
        let answer = app.press(chat, &c, replay.message_id, &next).await;
        assert!(said(&answer).contains("expired"), "{answer:?}");
        assert!(said(&answer).contains("30 days"), "{answer:?}");
        refused(&app, &c, &payload, 3).await;
        assert!(app.tg.errors().is_empty(), "{:#?}", app.tg.errors());
    }
}

flow! {
    fn a_game_not_over_has_no_replay_yet() {
        let app = App::spawn().await;
        let group = -2_802;
        app.tg.group(group, "Replays too");
        let a = app.player(28_111, "Anna", "ru");
        let b = app.player(28_112, "Boris", "en");
        let mut d = duel(&app, group, a.clone(), b.clone()).await;
        d.shoot_button(&app).await;
        let chat = b.id.0 as i64;
        app.tg
            .send_command(chat, &b, &format!("/start rp{}-0", d.game));
        app.tg
            .wait_for(chat, |m| m.text.contains("not over yet"), wait())
            .await
            .expect("a running game's replay waits for the end");
        // Nothing of the fleets leaked into the private chat.
        assert!(!app
            .tg
            .all_texts(chat)
            .iter()
            .any(|t| t.contains("SHA-256: ")));
    }
}
