//! A duel in any chat through inline mode (issue 28): `@bot` typed in a private chat between
//! two friends offers cards; the card sent is the game's lobby, and the same inline message,
//! edited through its `inline_message_id`, carries the whole battle to its end (the winner,
//! the reveal and the lines that check it), then a rematch. The bot never sees that chat:
//! every move is a button, every press answered, and the message never goes back to an
//! older state.

use crate::fake_telegram::SentMessage;
use crate::helpers::*;
use morskoy_boy::game::record::inline_chat;
use morskoy_boy::store::Leaderboard;
use teloxide::types::User;

/// What a language's messages say, as the tests read them.
struct Words {
    lang: &'static str,
    card: &'static str,
    tap: &'static str,
    reply: &'static str,
    winner: &'static str,
    not_a_player: &'static str,
    full: &'static str,
    join_done: &'static str,
    reveal: &'static str,
    shoot_where: &'static str,
}

const RU: Words = Words {
    lang: "ru",
    card: "приглашает сыграть",
    tap: "нажмите клетку",
    reply: "ответьте",
    winner: "Победитель",
    not_a_player: "не участвуете",
    full: "мест",
    join_done: "вы в игре",
    reveal: "Расстановки",
    shoot_where: "Стреляйте в чате, куда отправлена игра",
};

const BG: Words = Words {
    lang: "bg",
    card: "ви кани на игра",
    tap: "докоснете клетка",
    reply: "отговорете",
    winner: "Победител",
    not_a_player: "не участвате",
    full: "места",
    join_done: "в играта",
    reveal: "Подрежданията",
    shoot_where: "Стреляйте в чата, където е изпратена играта",
};

const EN: Words = Words {
    lang: "en",
    card: "invites you to play",
    tap: "tap a cell.",
    reply: "reply",
    winner: "Winner",
    not_a_player: "not playing",
    full: "seats are taken",
    join_done: "in the game",
    reveal: "The fleets.",
    shoot_where: "You shoot in the chat the game was sent to",
};

/// Presses a button of an inline message (perhaps one the client has not redrawn yet) and
/// waits for the answer: every press is answered.
async fn press(
    app: &App,
    user: &User,
    inline: &str,
    data: &str,
) -> crate::fake_telegram::CallbackAnswer {
    let id = app.tg.press_inline_stale(user, inline, data);
    app.tg
        .wait_answer(&id, wait())
        .await
        .unwrap_or_else(|| panic!("the press {data} of {} is not answered", user.first_name))
}

/// Whether a message has a button whose data starts with `prefix`.
fn has(m: &SentMessage, prefix: &str) -> bool {
    m.callback_data().iter().any(|d| d.starts_with(prefix))
}

/// The marks of shot cells in a drawing's fields (before the commitments or the reveal).
fn shot_marks(text: &str) -> usize {
    let fields = text.split("SHA-256").next().unwrap_or_default();
    fields
        .chars()
        .filter(|c| matches!(c, '•' | 'X' | '#'))
        .count()
}

/// `creator` types `@bot` in a chat and sends the card of `result` there: the inline
/// message's id, once the card shows.
async fn send_card(app: &App, creator: &User, result: &str, w: &Words) -> String {
    let query = app.tg.inline_query(creator, "");
    let results = app
        .tg
        .inline_answer(&query, wait())
        .await
        .expect("the inline query is answered");
    let ids: Vec<&str> = results.iter().filter_map(|r| r["id"].as_str()).collect();
    assert_eq!(ids, ["sea", "riga"], "the cards offered");
    let inline = app.tg.send_inline_result(&query, result);
    let card = app.tg.inline_message(&inline).expect("the card is sent");
    assert!(
        card.text.contains(w.card),
        "the card speaks {}: {}",
        w.lang,
        card.text
    );
    inline
}

/// A whole duel through inline mode in `w`'s language, from the card to the rematch: at the
/// production pace when `production` (the message edited at most 20 times a minute).
async fn inline_duel(w: &Words, production: bool, base: i64) {
    let app = if production {
        App::spawn_with(3_500, None).await
    } else {
        App::spawn().await
    };
    let a = app.player(base + 1, "Anna", w.lang);
    // Boris never opened the bot: his Join leads him to it, as in groups.
    let b = app.tg.user(base + 2, "Boris", w.lang);
    let c = app.player(base + 3, "Clara", w.lang);
    app.welcomed(&a).await;
    app.welcomed(&c).await;

    let inline = send_card(&app, &a, "sea", w).await;
    let card = app.tg.inline_message(&inline).unwrap();
    let open = data(&card, "ic:");
    // Anna's own first press opens the game, with her seated.
    let answer = press(&app, &a, &inline, &open).await;
    assert!(!answer.show_alert, "{answer:?}");
    assert!(said(&answer).contains(w.join_done), "{answer:?}");
    let lobby = app
        .tg
        .wait_for_inline(
            &inline,
            |m| m.text.contains("1. Anna") && has(m, "j:"),
            wait(),
        )
        .await
        .expect("the card becomes the lobby");
    let game: u64 = data(&lobby, "j:")
        .split(':')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    // Boris's Join takes him to the bot, whose /start seats him.
    let answer = press(&app, &b, &inline, &data(&lobby, "j:")).await;
    let url = answer.url.clone().expect("a link to the bot");
    assert!(url.ends_with(&format!("?start=j{game}")), "{url}");
    app.tg
        .send_command(b.id.0 as i64, &b, &format!("/start j{game}"));
    app.tg
        .wait_for_inline(&inline, |m| m.text.contains("2. Boris"), wait())
        .await
        .expect("the lobby shows Boris");
    // A third user finds the seats taken.
    let answer = press(&app, &c, &inline, &data(&lobby, "j:")).await;
    assert!(
        answer.show_alert && said(&answer).contains(w.full),
        "{answer:?}"
    );
    let answer = press(&app, &a, &inline, &data(&lobby, "s:")).await;
    assert!(!answer.show_alert, "the start is refused: {answer:?}");
    for p in [&a, &b] {
        place_and_ready(&app, p).await;
    }
    let battle = app
        .tg
        .wait_for_inline(&inline, |m| has(m, "f:"), wait())
        .await
        .expect("the battle is drawn on the card");
    assert!(battle.text.contains(w.tap), "{}", battle.text);
    assert!(
        !battle.text.contains(w.reply),
        "no typed shots here: {}",
        battle.text
    );
    let mut d = Duel::from_battle(&battle, [a.clone(), b.clone()], 0);
    let shooter = d.players[d.turn].id.0 as i64;
    app.tg
        .wait_for(shooter, |m| m.text.contains(w.shoot_where), wait())
        .await
        .expect("the shooter's own field says where to shoot");

    let mut presses = 0;
    loop {
        presses += 1;
        assert!(presses < 400, "the game does not end");
        let seat = d.turn;
        // Shot at every cell: the last one ended the game (the end is checked below).
        let Some(cell) = d.next_cell(seat) else {
            break;
        };
        if presses == 7 {
            // Clara is no player: her press changes nothing.
            let answer = press(&app, &c, &inline, &d.fire_data(seat, cell)).await;
            assert!(answer.show_alert, "{answer:?}");
            assert!(said(&answer).contains(w.not_a_player), "{answer:?}");
        }
        let answer = press(&app, &d.players[seat], &inline, &d.fire_data(seat, cell)).await;
        let shot = read_answer(&said(&answer));
        d.follow(seat, cell, shot);
        if shot == Shot::Over {
            break;
        }
    }
    let end = app
        .tg
        .wait_for_inline(
            &inline,
            |m| m.text.contains(w.winner) && has(m, "r:"),
            wait(),
        )
        .await
        .unwrap_or_else(|| panic!("the end: {:?}", app.tg.inline_message(&inline)));
    assert!(end.text.contains(w.reveal), "{}", end.text);
    assert!(
        end.callback_data().iter().any(|d| d.contains("?start=rp")),
        "a replay link: {:?}",
        end.buttons()
    );
    check_history(&app, &inline, &end, w);
    // Every fleet's line hashes to the commitment the battle showed.
    let versions = app.tg.inline_message(&inline).unwrap().versions;
    let verified = verified_fleets(&versions, [&end.text]);
    assert_eq!(verified, 2, "{}", end.text);
    // The whole log goes to each player's private chat.
    for p in [&a, &b] {
        app.tg
            .wait_for(p.id.0 as i64, |m| m.text.contains(w.winner), wait())
            .await
            .unwrap_or_else(|| panic!("{} gets the end in private", p.first_name));
    }
    // Rated on everyone's board; the chat is none the bot knows.
    let store = app.store().await;
    let ratings = store
        .ratings(Leaderboard::People, &[a.id.0, b.id.0])
        .await
        .unwrap();
    assert!(ratings.iter().all(Option::is_some), "{ratings:?}");
    let chat = store
        .ratings(Leaderboard::Chat(inline_chat(&inline)), &[a.id.0, b.id.0])
        .await
        .unwrap();
    assert!(chat.iter().all(Option::is_none), "{chat:?}");
    if production {
        let most = app.tg.inline_max_per_minute(&inline);
        assert!(most <= 20, "{most} edits of the inline message in a minute");
    }
    assert!(app.tg.errors().is_empty(), "{:?}", app.tg.errors());

    // Rematch from the card: the same message becomes the new game's lobby, both seated.
    let answer = press(&app, &b, &inline, &data(&end, "r:")).await;
    assert!(!answer.show_alert, "{answer:?}");
    let again = app
        .tg
        .wait_for_inline(
            &inline,
            |m| m.text.contains("2. Boris") && has(m, "s:"),
            wait(),
        )
        .await
        .expect("the rematch's lobby on the card");
    assert_ne!(data(&again, "s:"), data(&lobby, "s:"), "a new game");
}

/// The inline message's every state: the card, the lobby, the battle with never fewer shots
/// than before, the end last.
fn check_history(app: &App, inline: &str, end: &SentMessage, w: &Words) {
    let versions = app.tg.inline_message(inline).unwrap().versions;
    assert!(versions[0].contains(w.card), "{:?}", versions[0]);
    assert_eq!(versions.last(), Some(&end.text));
    let mut marks = 0;
    let mut ended = false;
    for v in &versions {
        let now = shot_marks(v);
        assert!(now >= marks, "an older state drawn after a newer one: {v}");
        marks = now;
        assert!(!ended, "a state after the end: {v}");
        ended = v.contains(w.winner);
    }
}

flow! {
    fn a_duel_through_inline_mode_in_russian_at_the_production_pace() {
        inline_duel(&RU, true, 28_400).await;
    }
}

flow! {
    fn a_duel_through_inline_mode_in_bulgarian() {
        inline_duel(&BG, false, 28_410).await;
    }
}

flow! {
    fn a_duel_through_inline_mode_in_english() {
        inline_duel(&EN, false, 28_420).await;
    }
}

flow! {
    /// A press on an inline message that is not its game's is refused and changes nothing; a
    /// card of the Riga game opens a Riga lobby; two first presses at once open one game.
    fn an_inline_message_takes_only_its_own_games_presses_and_opens_one_game() {
        let app = App::spawn().await;
        let a = app.player(28_431, "Anna", "en");
        let b = app.player(28_432, "Boris", "en");
        app.welcomed(&a).await;
        app.welcomed(&b).await;
        let first = send_card(&app, &a, "sea", &EN).await;
        let second = send_card(&app, &b, "riga", &EN).await;
        let open = data(&app.tg.inline_message(&first).unwrap(), "ic:");
        // Both press the first card at once: one game, both seated.
        let one = app.tg.press_inline(&a, &first, &open);
        let two = app.tg.press_inline(&b, &first, &open);
        for id in [one, two] {
            let answer = app.tg.wait_answer(&id, wait()).await.expect("answered");
            assert!(!answer.show_alert, "{answer:?}");
        }
        let lobby = app
            .tg
            .wait_for_inline(
                &first,
                |m| m.text.contains("1. Anna") && m.text.contains("2. Boris"),
                wait(),
            )
            .await
            .expect("one lobby with both");
        // The first card's Start pressed on the second card: not its game.
        let answer = press(&app, &a, &second, &data(&lobby, "s:")).await;
        assert!(answer.show_alert, "{answer:?}");
        assert!(said(&answer).contains("does not belong"), "{answer:?}");
        // The Riga card opens a Riga lobby (Boris plays the first game's lobby: busy).
        let riga = data(&app.tg.inline_message(&second).unwrap(), "ic:");
        assert!(riga.ends_with(":r"), "{riga}");
        let c = app.player(28_433, "Clara", "en");
        app.welcomed(&c).await;
        let answer = press(&app, &c, &second, &riga).await;
        assert!(!answer.show_alert, "{answer:?}");
        app.tg
            .wait_for_inline(
                &second,
                |m| m.text.contains("Riga board game") && has(m, "j:"),
                wait(),
            )
            .await
            .unwrap_or_else(|| panic!("a Riga lobby: {:?}", app.tg.inline_message(&second)));
        assert!(app.tg.errors().is_empty(), "{:?}", app.tg.errors());
    }
}
