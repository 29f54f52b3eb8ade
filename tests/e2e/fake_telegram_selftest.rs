//! Self-test of the fake Telegram Bot API (tests/fake_telegram/): a real teloxide `Bot` (and a
//! real teloxide `Dispatcher`) talking to it over HTTP; tiny HTTP replicas behind its webhook.

use crate::fake_telegram::{FakeTelegram, BOT_ID, BOT_USERNAME};
use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use teloxide::dispatching::UpdateFilterExt;
use teloxide::prelude::*;
use teloxide::types::{
    AllowedUpdate, BotCommand, BotCommandScope, ChatId, InlineKeyboardButton, InlineKeyboardMarkup,
    InputFile, MessageEntityKind, MessageId, ParseMode, Recipient, ReplyParameters, UpdateKind,
    UserId,
};
use teloxide::{ApiError, RequestError};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::time::Instant;

const GROUP: i64 = -1_001_234_567_890;
const WAIT: Duration = Duration::from_secs(5);

fn keyboard(rows: Vec<Vec<(&str, &str)>>) -> InlineKeyboardMarkup {
    InlineKeyboardMarkup::new(rows.into_iter().map(|row| {
        row.into_iter()
            .map(|(t, d)| InlineKeyboardButton::callback(t, d))
            .collect::<Vec<_>>()
    }))
}

fn api_error(e: RequestError) -> ApiError {
    match e {
        RequestError::Api(e) => e,
        other => panic!("expected a Telegram API error, got {other:?}"),
    }
}

/// The description of an error teloxide does not know by name.
fn unknown(e: RequestError) -> String {
    match api_error(e) {
        ApiError::Unknown(s) => s,
        other => panic!("expected an unnamed API error, got {other:?}"),
    }
}

/// A real PNG of `w`×`h` grey pixels.
fn png(w: u32, h: u32) -> Vec<u8> {
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, w, h);
    enc.set_color(png::ColorType::Grayscale);
    let mut writer = enc.write_header().unwrap();
    writer
        .write_image_data(&vec![128u8; (w * h) as usize])
        .unwrap();
    drop(writer);
    out
}

async fn with_group() -> (FakeTelegram, Bot) {
    let fake = FakeTelegram::start().await;
    fake.group(GROUP, "Морской бой: тест");
    let bot = fake.bot();
    (fake, bot)
}

/// A raw HTTP/1.1 POST, for what teloxide cannot send.
async fn raw_post(fake: &FakeTelegram, path: &str, body: &str) -> (u16, serde_json::Value) {
    let addr = fake.url().trim_start_matches("http://").to_owned();
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).await.unwrap();
    let status = response[9..12].parse().unwrap();
    let (_, body) = response.split_once("\r\n\r\n").unwrap();
    (status, serde_json::from_str(body).unwrap())
}

#[tokio::test]
async fn get_me_answers_as_the_test_bot() {
    let fake = FakeTelegram::start().await;
    let me = fake.bot().get_me().await.unwrap();
    assert_eq!(me.id.0, BOT_ID as u64);
    assert_eq!(me.username(), BOT_USERNAME);
    assert_eq!(me.first_name, "Морской бой");
    assert!(me.is_bot);
    assert!(
        !me.can_read_all_group_messages,
        "privacy mode is on by default"
    );
    assert_eq!(fake.calls("getMe"), 1);
    assert_eq!(fake.calls("GETME"), 1);

    // Another token is refused as Telegram does.
    let wrong = Bot::new("1:WRONG").set_api_url(fake.api_url());
    assert_eq!(
        api_error(wrong.get_me().await.unwrap_err()),
        ApiError::InvalidToken
    );
}

#[tokio::test]
async fn unknown_methods_get_404_and_names_match_in_any_case() {
    let fake = FakeTelegram::start().await;
    fake.group(GROUP, "g");
    let (status, body) = raw_post(&fake, "/bot123456:TEST/sendCarrierPigeon", "{}").await;
    assert_eq!(status, 404);
    assert_eq!(
        body,
        serde_json::json!({"ok": false, "error_code": 404, "description": "Not Found"})
    );

    let body = format!(r#"{{"chat_id":{GROUP},"text":"hi"}}"#);
    let (status, reply) = raw_post(&fake, "/bot123456:TEST/SENDMESSAGE", &body).await;
    assert_eq!(status, 200, "{reply}");
    assert_eq!(reply["result"]["text"], "hi");
    assert_eq!(fake.calls("sendMessage"), 1);
    assert_eq!(fake.errors()[0].method, "sendCarrierPigeon");
}

#[tokio::test]
async fn a_message_to_a_group_is_sent_and_recorded() {
    let (fake, bot) = with_group().await;
    let sent = bot
        .send_message(ChatId(GROUP), "Новая игра!")
        .await
        .unwrap();
    assert_eq!(sent.chat.id, ChatId(GROUP));
    assert!(sent.chat.is_supergroup() || sent.chat.is_group());
    assert_eq!(sent.chat.title(), Some("Морской бой: тест"));
    assert_eq!(sent.from.as_ref().unwrap().id.0, BOT_ID as u64);
    assert_eq!(sent.text(), Some("Новая игра!"));

    let messages = fake.messages(GROUP);
    assert_eq!(messages.len(), 1);
    assert_eq!(messages[0].message_id, sent.id.0);
    assert_eq!(messages[0].text, "Новая игра!");
    assert_eq!(
        fake.last_message(GROUP).unwrap().versions,
        vec!["Новая игра!"]
    );
    assert_eq!(fake.sends_and_edits(GROUP), 1);

    // Message ids grow per chat.
    let second = bot.send_message(ChatId(GROUP), "ещё").await.unwrap();
    assert_eq!(second.id.0, sent.id.0 + 1);

    // A chat that does not exist.
    let e = bot.send_message(ChatId(-42), "x").await.unwrap_err();
    assert_eq!(api_error(e), ApiError::ChatNotFound);
}

#[tokio::test]
async fn keyboards_are_held_to_telegram_limits() {
    let (fake, bot) = with_group().await;
    let nine: Vec<(&str, &str)> = vec![("·", "c"); 9];
    let e = bot
        .send_message(ChatId(GROUP), "board")
        .reply_markup(keyboard(vec![nine]))
        .await;
    assert_eq!(unknown(e.unwrap_err()), "Bad Request: too many buttons");
    let last = fake.errors().pop().unwrap();
    assert_eq!((last.method.as_str(), last.status), ("sendMessage", 400));
    assert!(
        fake.messages(GROUP).is_empty(),
        "a refused message is not recorded"
    );

    let eight: Vec<(&str, &str)> = vec![("·", "c"); 8];
    let ok = keyboard(vec![eight.clone(); 12]);
    bot.send_message(ChatId(GROUP), "96 buttons")
        .reply_markup(ok)
        .await
        .unwrap();
    let too_many = keyboard(vec![eight; 13]);
    let e = bot
        .send_message(ChatId(GROUP), "104")
        .reply_markup(too_many)
        .await
        .unwrap_err();
    assert_eq!(unknown(e), "Bad Request: too many buttons");

    let d65 = "x".repeat(65);
    let e = bot
        .send_message(ChatId(GROUP), "d")
        .reply_markup(keyboard(vec![vec![("b", &d65)]]));
    assert_eq!(api_error(e.await.unwrap_err()), ApiError::ButtonDataInvalid);
    // 64 bytes is the limit in bytes, not characters: 32 Cyrillic letters are 64 bytes.
    let d64 = "б".repeat(32);
    let ok = keyboard(vec![vec![("b", &d64)]]);
    bot.send_message(ChatId(GROUP), "d")
        .reply_markup(ok)
        .await
        .unwrap();
    let d66 = "б".repeat(33);
    let e = bot
        .send_message(ChatId(GROUP), "d")
        .reply_markup(keyboard(vec![vec![("b", &d66)]]));
    assert_eq!(api_error(e.await.unwrap_err()), ApiError::ButtonDataInvalid);

    let localhost = InlineKeyboardButton::url("site", "http://localhost:8080/".parse().unwrap());
    let e = bot
        .send_message(ChatId(GROUP), "u")
        .reply_markup(InlineKeyboardMarkup::new([[localhost]]))
        .await
        .unwrap_err();
    assert_eq!(api_error(e), ApiError::ButtonUrlInvalid);
    let good = InlineKeyboardButton::url("rules", "https://example.org/rules".parse().unwrap());
    let sent = bot
        .send_message(ChatId(GROUP), "u")
        .reply_markup(InlineKeyboardMarkup::new([[good]]))
        .await
        .unwrap();
    assert!(sent.reply_markup().is_some());
}

#[tokio::test]
async fn text_length_is_counted_after_entity_parsing() {
    let (fake, bot) = with_group().await;
    let e = bot
        .send_message(ChatId(GROUP), "a".repeat(4097))
        .await
        .unwrap_err();
    assert_eq!(api_error(e), ApiError::MessageIsTooLong);
    bot.send_message(ChatId(GROUP), "a".repeat(4096))
        .await
        .unwrap();
    // Characters, not bytes.
    bot.send_message(ChatId(GROUP), "ж".repeat(4096))
        .await
        .unwrap();

    // Tags do not count; &lt; &gt; &amp; &quot; count as one character each.
    let html = format!("<b>{}</b><i>{}</i>", "a".repeat(4000), "&lt;".repeat(96));
    let sent = bot
        .send_message(ChatId(GROUP), html)
        .parse_mode(ParseMode::Html)
        .await
        .unwrap();
    assert_eq!(sent.text().unwrap().chars().count(), 4096);
    let html = format!("<b>{}</b>&amp;", "a".repeat(4096));
    let e = bot
        .send_message(ChatId(GROUP), html)
        .parse_mode(ParseMode::Html)
        .await
        .unwrap_err();
    assert_eq!(api_error(e), ApiError::MessageIsTooLong);
    // Without a parse mode the tags are text.
    let raw = format!("<b>{}</b>", "a".repeat(4090));
    let e = bot.send_message(ChatId(GROUP), raw).await.unwrap_err();
    assert_eq!(api_error(e), ApiError::MessageIsTooLong);

    // Empty text, also once markup and white space are gone.
    let e = bot.send_message(ChatId(GROUP), "").await.unwrap_err();
    assert_eq!(api_error(e), ApiError::MessageTextIsEmpty);
    let e = bot
        .send_message(ChatId(GROUP), " <b> </b>\n")
        .parse_mode(ParseMode::Html)
        .await;
    assert_eq!(api_error(e.unwrap_err()), ApiError::MessageTextIsEmpty);

    // Captions stop at 1024.
    let photo = || InputFile::memory(png(8, 8)).file_name("board.png");
    let e = bot
        .send_photo(ChatId(GROUP), photo())
        .caption("c".repeat(1025))
        .await
        .unwrap_err();
    assert_eq!(unknown(e), "Bad Request: message caption is too long");
    bot.send_photo(ChatId(GROUP), photo())
        .caption("c".repeat(1024))
        .await
        .unwrap();
    assert_eq!(fake.messages(GROUP).len(), 4);
}

#[tokio::test]
async fn html_and_markdown_become_plain_text_and_entities() {
    let (fake, bot) = with_group().await;
    let html = "  <b>Ход</b> игрока &lt;Аня&gt;: <code>б6</code> — <a href=\"https://t.me/x\">ссылка</a>\n";
    let sent = bot
        .send_message(ChatId(GROUP), html)
        .parse_mode(ParseMode::Html)
        .await
        .unwrap();
    assert_eq!(sent.text(), Some("Ход игрока <Аня>: б6 — ссылка"));
    let kinds: Vec<_> = sent
        .entities()
        .unwrap()
        .iter()
        .map(|e| (e.kind.clone(), e.offset, e.length))
        .collect();
    assert_eq!(kinds[0], (MessageEntityKind::Bold, 0, 3));
    assert_eq!(kinds[1], (MessageEntityKind::Code, 18, 2));
    assert!(matches!(kinds[2].0, MessageEntityKind::TextLink { .. }));
    let m = fake.last_message(GROUP).unwrap();
    assert_eq!(m.text, "Ход игрока <Аня>: б6 — ссылка");
    assert_eq!(m.raw_text, html);
    assert_eq!(m.parse_mode.as_deref(), Some("HTML"));

    // UTF-16 offsets: an emoji is two units.
    let sent = bot
        .send_message(ChatId(GROUP), "🚢 <i>мимо</i>")
        .parse_mode(ParseMode::Html)
        .await;
    let sent = sent.unwrap();
    let e = &sent.entities().unwrap()[0];
    assert_eq!((e.offset, e.length), (3, 4));

    for (text, expected) in [
        ("<b>незакрыт", "Bad Request: can't parse entities: Can't find end tag corresponding to start tag \"b\""),
        ("a < b", "Bad Request: can't parse entities: Unsupported start tag \"\" at byte offset 2"),
        ("<div>x</div>", "Bad Request: can't parse entities: Unsupported start tag \"div\" at byte offset 0"),
        ("<b>x</i>", "Bad Request: can't parse entities: Unmatched end tag at byte offset 4, expected \"</b>\", found \"</i>\""),
    ] {
        let e = bot.send_message(ChatId(GROUP), text).parse_mode(ParseMode::Html).await.unwrap_err();
        assert_eq!(api_error(e), ApiError::CantParseEntities(expected.to_owned()), "{text}");
    }

    let e = bot
        .send_message(ChatId(GROUP), "Счёт 1.5")
        .parse_mode(ParseMode::MarkdownV2)
        .await;
    assert_eq!(
        api_error(e.unwrap_err()),
        ApiError::CantParseEntities(
            "Bad Request: can't parse entities: Character '.' is reserved and must be escaped with the preceding '\\'".to_owned()
        )
    );
    let sent = bot
        .send_message(ChatId(GROUP), "*Ход* _Ани_ \\(1\\.5\\) `б6`")
        .parse_mode(ParseMode::MarkdownV2)
        .await
        .unwrap();
    assert_eq!(sent.text(), Some("Ход Ани (1.5) б6"));
    assert_eq!(sent.entities().unwrap().len(), 3);
}

#[tokio::test]
async fn edits_are_checked_and_recorded() {
    let (fake, bot) = with_group().await;
    let kb = keyboard(vec![vec![("Вступить", "join")]]);
    let sent = bot
        .send_message(ChatId(GROUP), "<b>Лобби</b>")
        .parse_mode(ParseMode::Html)
        .reply_markup(kb.clone())
        .await
        .unwrap();
    let edit = || {
        bot.edit_message_text(ChatId(GROUP), sent.id, "<b>Лобби</b>")
            .parse_mode(ParseMode::Html)
            .reply_markup(kb.clone())
    };
    assert_eq!(
        api_error(edit().await.unwrap_err()),
        ApiError::MessageNotModified
    );
    // The same entities from another parse mode are the same content too.
    let md = bot
        .edit_message_text(ChatId(GROUP), sent.id, "*Лобби*")
        .parse_mode(ParseMode::MarkdownV2)
        .reply_markup(kb.clone());
    assert_eq!(
        api_error(md.await.unwrap_err()),
        ApiError::MessageNotModified
    );
    // Without reply_markup the keyboard goes: that is a change.
    bot.edit_message_text(ChatId(GROUP), sent.id, "<b>Лобби</b>")
        .parse_mode(ParseMode::Html)
        .await
        .unwrap();
    assert!(!fake.last_message(GROUP).unwrap().has_keyboard());
    let e = bot
        .edit_message_reply_markup(ChatId(GROUP), sent.id)
        .await
        .unwrap_err();
    assert_eq!(api_error(e), ApiError::MessageNotModified);
    bot.edit_message_reply_markup(ChatId(GROUP), sent.id)
        .reply_markup(kb.clone())
        .await
        .unwrap();
    let edited = bot
        .edit_message_text(ChatId(GROUP), sent.id, "Лобби: 1 игрок")
        .reply_markup(kb.clone())
        .await
        .unwrap();
    assert!(edited.edit_date().is_some());

    let m = fake.last_message(GROUP).unwrap();
    assert_eq!(m.edits, 3);
    assert_eq!(m.versions, vec!["Лобби", "Лобби: 1 игрок"]);
    assert_eq!(m.button("Вступить").as_deref(), Some("join"));
    assert_eq!(fake.sends_and_edits(GROUP), 4);

    bot.send_message(ChatId(GROUP), "другое").await.unwrap();
    bot.edit_message_text(ChatId(GROUP), sent.id, "Лобби: 2 игрока")
        .await
        .unwrap();
    assert_eq!(
        fake.all_texts(GROUP),
        vec!["Лобби", "Лобби: 1 игрок", "другое", "Лобби: 2 игрока"]
    );

    let e = bot
        .edit_message_text(ChatId(GROUP), MessageId(999), "x")
        .await
        .unwrap_err();
    assert_eq!(api_error(e), ApiError::MessageToEditNotFound);
    let long = bot
        .edit_message_text(ChatId(GROUP), sent.id, "a".repeat(4097))
        .await;
    assert_eq!(
        api_error(long.unwrap_err()),
        ApiError::EditedMessageIsTooLong
    );

    bot.delete_message(ChatId(GROUP), sent.id).await.unwrap();
    assert!(fake.messages(GROUP)[0].deleted);
    let e = bot
        .delete_message(ChatId(GROUP), sent.id)
        .await
        .unwrap_err();
    assert_eq!(api_error(e), ApiError::MessageToDeleteNotFound);
    let e = bot
        .edit_message_text(ChatId(GROUP), sent.id, "x")
        .await
        .unwrap_err();
    assert_eq!(api_error(e), ApiError::MessageToEditNotFound);

    // A user's message in a group: the bot may delete it only as an administrator.
    let anya = fake.user(11, "Аня", "ru");
    let theirs = fake.send_command(GROUP, &anya, "/newgame");
    let e = bot
        .delete_message(ChatId(GROUP), theirs.id)
        .await
        .unwrap_err();
    assert_eq!(api_error(e), ApiError::MessageCantBeDeleted);
    let e = bot
        .edit_message_text(ChatId(GROUP), theirs.id, "x")
        .await
        .unwrap_err();
    assert_eq!(api_error(e), ApiError::MessageCantBeEdited);
    fake.set_member_status(GROUP, BOT_ID, "administrator");
    bot.delete_message(ChatId(GROUP), theirs.id).await.unwrap();
}

#[tokio::test]
async fn private_messages_need_the_user_to_have_started_the_bot() {
    let fake = FakeTelegram::start().await;
    let bot = fake.bot();
    let boris = fake.user(22, "Борис", "bg");
    let e = bot.send_message(boris.id, "Ваше поле").await.unwrap_err();
    assert_eq!(
        unknown(e),
        "Forbidden: bot can't initiate conversation with a user"
    );
    let last = fake.errors().pop().unwrap();
    assert_eq!(last.status, 403);
    assert!(fake.messages(22).is_empty());

    fake.start_bot(22);
    let sent = bot.send_message(boris.id, "Ваше поле").await.unwrap();
    assert!(sent.chat.is_private());
    assert_eq!(sent.chat.first_name(), Some("Борис"));
    assert_eq!(fake.last_message(22).unwrap().text, "Ваше поле");

    // Writing to the bot starts it too.
    let vera = fake.user(33, "Вера", "");
    fake.send_command(33, &vera, "/start");
    bot.send_message(vera.id, "Привет").await.unwrap();

    fake.block_bot(22);
    let e = bot.send_message(boris.id, "x").await.unwrap_err();
    assert_eq!(api_error(e), ApiError::BotBlocked);
}

#[tokio::test]
async fn an_injected_429_carries_retry_after_and_then_sends_succeed() {
    let (fake, bot) = with_group().await;
    fake.inject_429(GROUP, 2, 3);
    for _ in 0..2 {
        match bot.send_message(ChatId(GROUP), "залп").await.unwrap_err() {
            RequestError::RetryAfter(secs) => assert_eq!(secs.seconds(), 3),
            other => panic!("expected RetryAfter, got {other:?}"),
        }
    }
    bot.send_message(ChatId(GROUP), "залп").await.unwrap();
    assert_eq!(fake.sends_and_edits(GROUP), 1, "429s are not delivered");
    let errors = fake.errors();
    assert_eq!(errors.len(), 2);
    assert!(errors.iter().all(|e| e.status == 429 && e.injected));
    assert_eq!(errors[0].description, "Too Many Requests: retry after 3");

    // A real flood limit, when asked for.
    fake.set_flood_limit(Some(3));
    bot.send_message(ChatId(GROUP), "2").await.unwrap();
    bot.send_message(ChatId(GROUP), "3").await.unwrap();
    match bot.send_message(ChatId(GROUP), "4").await.unwrap_err() {
        RequestError::RetryAfter(secs) => assert!((55..=60).contains(&secs.seconds())),
        other => panic!("expected RetryAfter, got {other:?}"),
    }
    assert!(!fake.errors().last().unwrap().injected);
}

#[tokio::test]
async fn long_polling_delivers_commands_and_presses_and_sees_answers() {
    let (fake, bot) = with_group().await;
    let anya = fake.user(11, "Аня", "ru");

    // Nothing queued: the request is held until an update arrives.
    let poller = bot.clone();
    let started = Instant::now();
    let held = tokio::spawn(async move { poller.get_updates().timeout(5).await });
    tokio::time::sleep(Duration::from_millis(300)).await;
    let cmd = fake.send_command(GROUP, &anya, "/newgame@morskoy_test_bot");
    let updates = held.await.unwrap().unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "the update ended the hold"
    );
    assert_eq!(updates.len(), 1);
    let UpdateKind::Message(msg) = &updates[0].kind else {
        panic!("{:?}", updates[0])
    };
    assert_eq!(msg.id, cmd.id);
    assert_eq!(msg.text(), Some("/newgame@morskoy_test_bot"));
    let entity = &msg.entities().unwrap()[0];
    assert_eq!(
        (entity.kind.clone(), entity.offset, entity.length),
        (MessageEntityKind::BotCommand, 0, 25)
    );
    assert_eq!(
        msg.from.as_ref().unwrap().language_code.as_deref(),
        Some("ru")
    );

    // Until confirmed by offset, the update stays.
    let again = bot.get_updates().await.unwrap();
    assert_eq!(again.len(), 1);
    let next = updates[0].id.0 as i32 + 1;
    assert!(bot.get_updates().offset(next).await.unwrap().is_empty());
    assert_eq!(fake.pending_updates(), 0);

    // The bot's keyboard, pressed.
    let lobby = bot
        .send_message(ChatId(GROUP), "Лобби")
        .reply_markup(keyboard(vec![vec![("Вступить", "join:1")]]))
        .reply_parameters(ReplyParameters::new(cmd.id))
        .await
        .unwrap();
    assert_eq!(lobby.reply_to_message().unwrap().id, cmd.id);
    let query_id = fake.press(GROUP, &anya, lobby.id.0, "join:1");
    let updates = bot.get_updates().offset(next).timeout(5).await.unwrap();
    let UpdateKind::CallbackQuery(q) = &updates[0].kind else {
        panic!("{:?}", updates[0])
    };
    assert_eq!(q.id.0, query_id);
    assert_eq!(q.data.as_deref(), Some("join:1"));
    assert_eq!(q.from.first_name, "Аня");
    assert!(!q.chat_instance.is_empty());
    let message = q.regular_message().unwrap();
    assert_eq!(message.id, lobby.id);
    assert_eq!(message.text(), Some("Лобби"));
    assert!(message.reply_markup().is_some());
    assert_eq!(fake.unanswered_callbacks(), vec![query_id.clone()]);

    bot.answer_callback_query(q.id.clone())
        .text("Вы в игре")
        .await
        .unwrap();
    let answer = fake.wait_answer(&query_id, WAIT).await.unwrap();
    assert_eq!(answer.text.as_deref(), Some("Вы в игре"));
    assert!(!answer.show_alert);
    assert!(fake.unanswered_callbacks().is_empty());
    let e = bot.answer_callback_query(q.id.clone()).await.unwrap_err();
    assert_eq!(
        unknown(e),
        "Bad Request: query is too old and response timeout expired or query ID is invalid"
    );
    // allowed_updates filters what getUpdates hands out.
    let next = updates[0].id.0 as i32 + 1;
    fake.press(GROUP, &anya, lobby.id.0, "join:1");
    fake.send_command(GROUP, &anya, "/help");
    let only_messages = bot
        .get_updates()
        .offset(next)
        .allowed_updates([AllowedUpdate::Message])
        .await
        .unwrap();
    assert_eq!(only_messages.len(), 1);
    assert!(matches!(only_messages[0].kind, UpdateKind::Message(_)));
}

#[tokio::test]
async fn get_updates_holds_for_the_timeout_and_a_newer_poll_ends_an_older_one() {
    let fake = FakeTelegram::start().await;
    let bot = fake.bot();
    let started = Instant::now();
    assert!(bot.get_updates().timeout(1).await.unwrap().is_empty());
    let held = started.elapsed();
    assert!(
        held >= Duration::from_millis(900) && held < Duration::from_secs(3),
        "{held:?}"
    );

    let first = bot.clone();
    let older = tokio::spawn(async move { first.get_updates().timeout(5).await });
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(bot.get_updates().await.unwrap().is_empty());
    assert_eq!(
        api_error(older.await.unwrap().unwrap_err()),
        ApiError::TerminatedByOtherGetUpdates
    );

    // For tests that run several replicas: every held poll gets the pending updates.
    fake.allow_concurrent_polling(true);
    fake.group(GROUP, "g");
    let anya = fake.user(11, "Аня", "ru");
    let (a, b) = (bot.clone(), bot.clone());
    let first = tokio::spawn(async move { a.get_updates().timeout(5).await });
    let second = tokio::spawn(async move { b.get_updates().timeout(5).await });
    tokio::time::sleep(Duration::from_millis(300)).await;
    fake.send_command(GROUP, &anya, "/newgame");
    assert_eq!(first.await.unwrap().unwrap().len(), 1);
    assert_eq!(second.await.unwrap().unwrap().len(), 1);
}

#[tokio::test]
async fn privacy_mode_shows_the_bot_only_commands_and_replies_in_groups() {
    let (fake, bot) = with_group().await;
    let anya = fake.user(11, "Аня", "ru");
    fake.send_text(GROUP, &anya, "б6");
    fake.send_command(GROUP, &anya, "/newgame@other_bot");
    assert_eq!(fake.pending_updates(), 0);
    fake.send_command(GROUP, &anya, "/newgame");
    let prompt = bot.send_message(ChatId(GROUP), "Ваш ход").await.unwrap();
    fake.send_reply(GROUP, &anya, "б6", prompt.id.0);
    let updates = bot.get_updates().await.unwrap();
    let texts: Vec<_> = updates
        .iter()
        .map(|u| match &u.kind {
            UpdateKind::Message(m) => m.text().unwrap().to_owned(),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(texts, vec!["/newgame", "б6"]);
    let UpdateKind::Message(reply) = &updates[1].kind else {
        unreachable!()
    };
    assert_eq!(reply.reply_to_message().unwrap().id, prompt.id);

    fake.set_privacy_mode(false);
    assert!(bot.get_me().await.unwrap().can_read_all_group_messages);
    fake.send_text(GROUP, &anya, "а1");
    assert_eq!(fake.pending_updates(), 3);
}

#[tokio::test]
async fn max_per_minute_counts_successful_sends_and_edits() {
    let (fake, bot) = with_group().await;
    let mut last = None;
    for i in 0..5 {
        last = Some(
            bot.send_message(ChatId(GROUP), format!("ход {i}"))
                .await
                .unwrap(),
        );
    }
    let last = last.unwrap();
    bot.edit_message_text(ChatId(GROUP), last.id, "ход 4: мимо")
        .await
        .unwrap();
    bot.edit_message_text(ChatId(GROUP), last.id, "ход 4: ранен")
        .await
        .unwrap();
    let _ = bot
        .edit_message_text(ChatId(GROUP), last.id, "ход 4: ранен")
        .await
        .unwrap_err();
    bot.send_chat_action(ChatId(GROUP), teloxide::types::ChatAction::Typing)
        .await
        .unwrap();
    assert_eq!(fake.sends_and_edits(GROUP), 7);
    assert_eq!(fake.max_per_minute(GROUP), 7);
    assert_eq!(fake.max_per_minute(-5), 0);
    assert_eq!(fake.chat_actions(GROUP), vec!["typing"]);
}

#[tokio::test]
async fn photos_are_accepted_as_uploads_and_file_ids() {
    let (fake, bot) = with_group().await;
    let picture = png(40, 30);
    let upload = InputFile::memory(picture.clone()).file_name("board.png");
    let sent = bot
        .send_photo(ChatId(GROUP), upload)
        .caption("<b>Поле</b> Ани")
        .parse_mode(ParseMode::Html)
        .reply_markup(keyboard(vec![vec![("Обновить", "refresh")]]))
        .await
        .unwrap();
    assert_eq!(sent.caption(), Some("Поле Ани"));
    assert!(sent.photo().is_some());
    let m = fake.last_message(GROUP).unwrap();
    assert_eq!(m.text, "Поле Ани");
    assert_eq!(
        m.photo.as_deref(),
        Some(format!("board.png ({} bytes)", picture.len()).as_str())
    );
    assert_eq!(m.photos.len(), 1);
    assert_eq!(*m.photos[0], picture);
    assert_eq!(m.callback_data(), vec!["refresh"]);

    let again = InputFile::file_id(sent.photo().unwrap()[0].file.id.clone());
    bot.send_photo(ChatId(GROUP), again).await.unwrap();
    assert!(fake
        .last_message(GROUP)
        .unwrap()
        .photo
        .unwrap()
        .starts_with("AgAC"));

    let e = bot
        .edit_message_text(ChatId(GROUP), sent.id, "x")
        .await
        .unwrap_err();
    assert_eq!(
        unknown(e),
        "Bad Request: there is no text in the message to edit"
    );
    bot.edit_message_caption(ChatId(GROUP), sent.id)
        .caption("Поле Бориса")
        .await
        .unwrap();
    assert_eq!(fake.last_message(GROUP).unwrap().versions.len(), 1);
    assert_eq!(
        fake.messages(GROUP)[0].versions,
        vec!["Поле Ани", "Поле Бориса"]
    );
}

#[tokio::test]
async fn a_photo_is_replaced_by_edit_message_media_and_only_real_pictures_are_taken() {
    use teloxide::types::{InputMedia, InputMediaPhoto};
    let (fake, bot) = with_group().await;
    // Not a picture, or one Telegram will not take.
    let send =
        |bytes: Vec<u8>| bot.send_photo(ChatId(GROUP), InputFile::memory(bytes).file_name("x.png"));
    let e = send(vec![0u8; 64]).await.unwrap_err();
    assert_eq!(api_error(e), ApiError::ImageProcessFailed);
    let e = send(png(300, 10)).await.unwrap_err();
    assert_eq!(unknown(e), "Bad Request: PHOTO_INVALID_DIMENSIONS");
    assert!(fake.messages(GROUP).is_empty());
    let text = bot.send_message(ChatId(GROUP), "текст").await.unwrap();
    let media = |w: u32, caption: &str| {
        InputMedia::Photo(
            InputMediaPhoto::new(InputFile::memory(png(w, 20)).file_name("b.png"))
                .caption(caption.to_owned())
                .parse_mode(ParseMode::Html),
        )
    };
    let e = bot
        .edit_message_media(ChatId(GROUP), text.id, media(20, "x"))
        .await
        .unwrap_err();
    assert_eq!(
        unknown(e),
        "Bad Request: there is no media in the message to edit"
    );
    let sent = bot
        .send_photo(
            ChatId(GROUP),
            InputFile::memory(png(20, 20)).file_name("a.png"),
        )
        .caption("Ход Ани")
        .reply_markup(keyboard(vec![vec![("А1", "f:1")]]))
        .await
        .unwrap();
    let e = bot
        .edit_message_media(ChatId(GROUP), sent.id, media(20, &"c".repeat(1025)))
        .await
        .unwrap_err();
    assert_eq!(unknown(e), "Bad Request: message caption is too long");
    // No keyboard given: the edit takes it away, as Telegram does.
    bot.edit_message_media(ChatId(GROUP), sent.id, media(30, "<b>Ход</b> Бориса"))
        .await
        .unwrap();
    let m = fake.last_message(GROUP).unwrap();
    assert_eq!(m.text, "Ход Бориса");
    assert_eq!(m.versions, vec!["Ход Ани", "Ход Бориса"]);
    assert_eq!(m.photos.len(), 2);
    assert_eq!(*m.photos[1], png(30, 20));
    assert_eq!(m.history[1].photo.as_deref(), Some(&png(30, 20)));
    assert!(!m.has_keyboard());
    assert_eq!(m.edits, 1);
}

#[tokio::test]
async fn commands_are_recorded_per_scope_and_language() {
    let fake = FakeTelegram::start().await;
    let bot = fake.bot();
    let commands = vec![
        BotCommand::new("newgame", "Новая игра"),
        BotCommand::new("rules", "Правила"),
    ];
    bot.set_my_commands(commands.clone())
        .scope(BotCommandScope::AllGroupChats)
        .language_code("ru")
        .await
        .unwrap();
    bot.set_my_commands([BotCommand::new("newgame", "New game")])
        .await
        .unwrap();
    let recorded = fake.commands();
    assert_eq!(recorded.len(), 2);
    assert_eq!(
        recorded[0].0,
        serde_json::json!({"type": "all_group_chats"})
    );
    assert_eq!(recorded[0].1, "ru");
    assert_eq!(
        recorded[0].2[0],
        ("newgame".to_owned(), "Новая игра".to_owned())
    );
    assert_eq!(recorded[1].0, serde_json::json!({"type": "default"}));
    assert_eq!(recorded[1].1, "");

    let got = bot
        .get_my_commands()
        .scope(BotCommandScope::AllGroupChats)
        .language_code("ru")
        .await
        .unwrap();
    assert_eq!(got, commands);
    assert!(bot
        .get_my_commands()
        .language_code("bg")
        .await
        .unwrap()
        .is_empty());

    let e = bot
        .set_my_commands([BotCommand::new("NewGame", "x")])
        .await
        .unwrap_err();
    assert_eq!(unknown(e), "Bad Request: BOT_COMMAND_INVALID");
    bot.delete_my_commands().await.unwrap();
    assert_eq!(fake.commands().len(), 1);

    let scope = BotCommandScope::Chat {
        chat_id: Recipient::Id(ChatId(GROUP)),
    };
    bot.set_my_commands(commands).scope(scope).await.unwrap();
    assert_eq!(
        fake.commands()[1].0,
        serde_json::json!({"type": "chat", "chat_id": GROUP})
    );
    bot.set_chat_menu_button().await.unwrap();
    assert_eq!(fake.calls("setChatMenuButton"), 1);
}

#[tokio::test]
async fn chats_and_members_read_as_teloxide_types() {
    let (fake, bot) = with_group().await;
    let anya = fake.user(11, "Аня", "ru");
    fake.send_command(GROUP, &anya, "/newgame");
    let chat = bot.get_chat(ChatId(GROUP)).await.unwrap();
    assert_eq!(chat.title(), Some("Морской бой: тест"));
    let private = bot.get_chat(anya.id).await.unwrap();
    assert!(private.is_private());

    let member = bot.get_chat_member(ChatId(GROUP), anya.id).await.unwrap();
    assert!(member.is_member());
    let me = bot
        .get_chat_member(ChatId(GROUP), UserId(BOT_ID as u64))
        .await
        .unwrap();
    assert!(me.is_member());
    fake.set_member_status(GROUP, BOT_ID, "administrator");
    fake.set_member_status(GROUP, 11, "creator");
    assert!(bot
        .get_chat_member(ChatId(GROUP), anya.id)
        .await
        .unwrap()
        .is_owner());
    let admins = bot.get_chat_administrators(ChatId(GROUP)).await.unwrap();
    assert_eq!(admins.len(), 2);
    let stranger = fake.user(99, "Гость", "");
    assert!(bot
        .get_chat_member(ChatId(GROUP), stranger.id)
        .await
        .unwrap()
        .is_left());

    fake.set_member_status(GROUP, BOT_ID, "kicked");
    let e = bot.send_message(ChatId(GROUP), "x").await.unwrap_err();
    assert_eq!(unknown(e), "Forbidden: bot was kicked from the group chat");
}

#[tokio::test]
async fn a_bot_removed_from_a_group_gets_403_on_every_method_on_that_chat() {
    let fake = FakeTelegram::start().await;
    let bot = fake.bot();
    let group = -4242;
    fake.group(group, "g");
    let sent = bot.send_message(ChatId(group), "live").await.unwrap();
    let anya = fake.user(11, "Аня", "ru");
    fake.start_bot(11);
    fake.set_member_status(group, BOT_ID, "kicked");
    let kicked = "Forbidden: bot was kicked from the group chat";
    let e = bot.send_message(ChatId(group), "x").await.unwrap_err();
    assert_eq!(unknown(e), kicked);
    let e = bot
        .edit_message_text(ChatId(group), sent.id, "y")
        .await
        .unwrap_err();
    assert_eq!(unknown(e), kicked);
    let e = bot
        .edit_message_reply_markup(ChatId(group), sent.id)
        .await
        .unwrap_err();
    assert_eq!(unknown(e), kicked);
    let e = bot
        .delete_message(ChatId(group), sent.id)
        .await
        .unwrap_err();
    assert_eq!(unknown(e), kicked);
    let e = bot
        .send_chat_action(ChatId(group), teloxide::types::ChatAction::Typing)
        .await
        .unwrap_err();
    assert_eq!(unknown(e), kicked);
    let e = bot
        .pin_chat_message(ChatId(group), sent.id)
        .await
        .unwrap_err();
    assert_eq!(unknown(e), kicked);
    // The message is still there, unchanged: nothing was done.
    assert_eq!(fake.messages(group)[0].text, "live");
    // A bot that left is no member; private chats are not touched.
    fake.set_member_status(group, BOT_ID, "left");
    let e = bot
        .edit_message_text(ChatId(group), sent.id, "y")
        .await
        .unwrap_err();
    assert_eq!(
        unknown(e),
        "Forbidden: bot is not a member of the group chat"
    );
    bot.send_message(anya.id, "still here").await.unwrap();
    // Every refusal is counted with its method.
    let errors = fake.errors();
    assert_eq!(errors.iter().filter(|e| e.status == 403).count(), 7);
    assert!(errors.iter().any(|e| e.method == "deleteMessage"));
}

#[tokio::test]
async fn a_teloxide_dispatcher_runs_against_the_fake() {
    let fake = FakeTelegram::start().await;
    fake.group(GROUP, "g");
    let anya = fake.user(11, "Аня", "ru");

    let handler = dptree::entry()
        .branch(
            Update::filter_message().endpoint(|bot: Bot, msg: Message| async move {
                let text = format!("pong: {}", msg.text().unwrap_or_default());
                bot.send_message(msg.chat.id, text)
                    .reply_markup(keyboard(vec![vec![("Ещё", "more")]]))
                    .await?;
                respond(())
            }),
        )
        .branch(Update::filter_callback_query().endpoint(
            |bot: Bot, q: CallbackQuery| async move {
                let data = q.data.clone().unwrap_or_default();
                bot.answer_callback_query(q.id)
                    .text(format!("got {data}"))
                    .show_alert(true)
                    .await?;
                respond(())
            },
        ));
    let mut dispatcher = Dispatcher::builder(fake.bot(), handler).build();
    let running = tokio::spawn(async move { dispatcher.dispatch().await });

    fake.send_command(GROUP, &anya, "/newgame");
    let pong = fake
        .wait_for_text(GROUP, "pong: /newgame", WAIT)
        .await
        .expect("the bot answers");
    let query = fake.press(GROUP, &anya, pong.message_id, "more");
    let answer = fake
        .wait_answer(&query, WAIT)
        .await
        .expect("the bot answers the press");
    assert_eq!(
        answer,
        crate::fake_telegram::CallbackAnswer {
            text: Some("got more".to_owned()),
            show_alert: true,
            url: None,
        }
    );
    assert!(fake.calls("getMe") >= 1);
    assert!(fake.calls("getUpdates") >= 1);
    assert!(fake.errors().is_empty(), "{:?}", fake.errors());
    running.abort();
}

// ----- the webhook -----

/// What a replica behind the webhook got in one POST.
#[derive(Clone, Debug)]
struct Received {
    path: String,
    secret: Option<String>,
    content_type: String,
    update: serde_json::Value,
}

/// How many POSTs all replicas sharing it were handling at once, and at most.
#[derive(Default)]
struct Load {
    now: AtomicUsize,
    max: AtomicUsize,
}

/// A tiny bot replica on 127.0.0.1: answers every POST with `status` after `delay`, recording
/// what came.
async fn replica(
    status: u16,
    delay: Duration,
    load: Arc<Load>,
) -> (SocketAddr, Arc<Mutex<Vec<Received>>>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let got = Arc::new(Mutex::new(Vec::new()));
    let log = got.clone();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let (log, load) = (log.clone(), load.clone());
            let service = service_fn(move |req: Request<Incoming>| {
                let (log, load) = (log.clone(), load.clone());
                async move {
                    let now = load.now.fetch_add(1, Ordering::SeqCst) + 1;
                    load.max.fetch_max(now, Ordering::SeqCst);
                    let header = |name: &str| {
                        req.headers()
                            .get(name)
                            .and_then(|v| v.to_str().ok())
                            .map(str::to_owned)
                    };
                    let path = req.uri().to_string();
                    let secret = header("x-telegram-bot-api-secret-token");
                    let content_type = header("content-type").unwrap_or_default();
                    let body = req.into_body().collect().await.unwrap().to_bytes();
                    tokio::time::sleep(delay).await;
                    log.lock().unwrap().push(Received {
                        path,
                        secret,
                        content_type,
                        update: serde_json::from_slice(&body).unwrap(),
                    });
                    load.now.fetch_sub(1, Ordering::SeqCst);
                    let response = Response::builder()
                        .status(status)
                        .body(Full::new(Bytes::new()))
                        .unwrap();
                    Ok::<_, Infallible>(response)
                }
            });
            tokio::spawn(async move {
                let _ = http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
    });
    (addr, got)
}

/// An address nothing listens on: connections are refused.
fn closed_address() -> SocketAddr {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap()
}

/// A replica that takes connections and never answers.
async fn silent_replica() -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((stream, _)) = listener.accept().await {
            held.push(stream);
        }
    });
    addr
}

fn texts(got: &Mutex<Vec<Received>>) -> Vec<String> {
    got.lock()
        .unwrap()
        .iter()
        .map(|r| r.update["message"]["text"].as_str().unwrap().to_owned())
        .collect()
}

async fn webhook_info(fake: &FakeTelegram) -> serde_json::Value {
    let (status, body) = raw_post(fake, "/bot123456:TEST/getWebhookInfo", "{}").await;
    assert_eq!(status, 200, "{body}");
    body["result"].clone()
}

#[tokio::test]
async fn set_webhook_is_checked_and_turns_get_updates_off_until_deleted() {
    let (fake, bot) = with_group().await;
    let anya = fake.user(11, "Аня", "ru");
    let url = |s: &str| url::Url::parse(s).unwrap();

    let e = bot.set_webhook(url("http://bot.example.com/hook")).await;
    assert_eq!(
        unknown(e.unwrap_err()),
        "Bad Request: bad webhook: An HTTPS URL must be provided for webhook"
    );
    let e = bot
        .set_webhook(url("https://bot.example.com:8080/hook"))
        .await;
    assert_eq!(api_error(e.unwrap_err()), ApiError::BadWebhookPort);
    let e = bot
        .set_webhook(url("https://bot.example.com/hook"))
        .secret_token("not a secret!")
        .await;
    assert_eq!(
        unknown(e.unwrap_err()),
        "Bad Request: secret token contains unallowed characters"
    );
    let e = bot
        .set_webhook(url("https://bot.example.com/hook"))
        .secret_token("s".repeat(257))
        .await;
    assert_eq!(
        unknown(e.unwrap_err()),
        "Bad Request: secret token is too long"
    );
    assert_eq!(fake.webhook(), None);
    assert_eq!(fake.errors().last().unwrap().method, "setWebhook");

    // Nothing set: the info says so.
    fake.send_command(GROUP, &anya, "/newgame");
    let info = bot.get_webhook_info().await.unwrap();
    assert_eq!(info.url, None);
    assert_eq!(info.pending_update_count, 1);
    assert_eq!(info.max_connections, None);

    // Set (raw JSON here, by teloxide below); the same again is "already set".
    let body = r#"{"url":"https://bot.example.com:8443/tg/hook","secret_token":"Ab_9-z"}"#;
    let (status, reply) = raw_post(&fake, "/bot123456:TEST/setWebhook", body).await;
    assert_eq!(status, 200, "{reply}");
    assert_eq!(
        reply,
        serde_json::json!({"ok": true, "result": true, "description": "Webhook was set"})
    );
    let (_, reply) = raw_post(&fake, "/bot123456:TEST/setWebhook", body).await;
    assert_eq!(reply["description"], "Webhook is already set");
    assert_eq!(
        fake.webhook(),
        Some((
            "https://bot.example.com:8443/tg/hook".to_owned(),
            Some("Ab_9-z".to_owned())
        ))
    );
    let info = bot.get_webhook_info().await.unwrap();
    assert_eq!(
        info.url.as_ref().map(url::Url::as_str),
        Some("https://bot.example.com:8443/tg/hook")
    );
    assert!(!info.has_custom_certificate);
    assert_eq!(info.pending_update_count, 1);
    assert_eq!(info.max_connections, Some(40));
    assert_eq!(info.allowed_updates, None);
    assert_eq!(info.last_error_message, None);

    bot.set_webhook(url("https://bot.example.com/other"))
        .max_connections(5)
        .allowed_updates([AllowedUpdate::Message, AllowedUpdate::CallbackQuery])
        .await
        .unwrap();
    let info = bot.get_webhook_info().await.unwrap();
    assert_eq!(info.max_connections, Some(5));
    assert_eq!(
        info.allowed_updates,
        Some(vec![AllowedUpdate::Message, AllowedUpdate::CallbackQuery])
    );
    assert_eq!(
        fake.webhook().unwrap().1,
        None,
        "the new call set no secret"
    );

    // No getUpdates while a webhook is set, held or new.
    let (status, reply) = raw_post(&fake, "/bot123456:TEST/getUpdates", "{}").await;
    assert_eq!(status, 409);
    assert_eq!(
        reply["description"],
        "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to \
         delete the webhook first"
    );
    assert_eq!(fake.pending_updates(), 1, "no backends: the update waits");

    bot.delete_webhook().await.unwrap();
    assert_eq!(fake.webhook(), None);
    let info = webhook_info(&fake).await;
    assert_eq!(
        info,
        serde_json::json!({"url": "", "has_custom_certificate": false, "pending_update_count": 1})
    );
    let updates = bot.get_updates().await.unwrap();
    assert_eq!(updates.len(), 1);
    let (_, reply) = raw_post(&fake, "/bot123456:TEST/deleteWebhook", "{}").await;
    assert_eq!(reply["description"], "Webhook is already deleted");

    // A held getUpdates ends with 409 when a webhook is set.
    let poller = bot.clone();
    let offset = updates[0].id.0 as i32 + 1;
    let held = tokio::spawn(async move { poller.get_updates().offset(offset).timeout(5).await });
    tokio::time::sleep(Duration::from_millis(300)).await;
    bot.set_webhook(url("https://bot.example.com/hook"))
        .await
        .unwrap();
    assert!(held.await.unwrap().is_err());
    // An empty URL removes it, dropping the pending updates if asked.
    fake.send_command(GROUP, &anya, "/help");
    bot.set_webhook(url("https://bot.example.com/hook"))
        .await
        .unwrap();
    let (_, reply) = raw_post(
        &fake,
        "/bot123456:TEST/setWebhook",
        r#"{"url":"","drop_pending_updates":true}"#,
    )
    .await;
    assert_eq!(reply["description"], "Webhook was deleted");
    assert_eq!(fake.webhook(), None);
    assert_eq!(fake.pending_updates(), 0);
}

#[tokio::test]
async fn webhook_updates_reach_both_replicas_once_with_the_secret_at_the_path() {
    let (fake, bot) = with_group().await;
    let anya = fake.user(11, "Аня", "ru");
    let load = Arc::new(Load::default());
    let delay = Duration::from_millis(100);
    let (a, got_a) = replica(200, delay, load.clone()).await;
    let (b, got_b) = replica(200, delay, load.clone()).await;

    // Updates queued before the webhook is set are delivered too.
    fake.send_command(GROUP, &anya, "/cmd0");
    fake.send_command(GROUP, &anya, "/cmd1");
    bot.set_webhook(url::Url::parse("https://bot.example.com/tg/hook?r=1").unwrap())
        .secret_token("s3cret_-X")
        .max_connections(2)
        .await
        .unwrap();
    fake.set_webhook_backends(vec![a, b]);
    for i in 2..10 {
        fake.send_command(GROUP, &anya, &format!("/cmd{i}"));
    }
    assert!(fake.wait_confirmed(Duration::from_secs(20)).await);

    let (to_a, to_b) = (got_a.lock().unwrap().clone(), got_b.lock().unwrap().clone());
    assert!(!to_a.is_empty() && !to_b.is_empty(), "{to_a:?} {to_b:?}");
    for r in to_a.iter().chain(&to_b) {
        assert_eq!(r.path, "/tg/hook?r=1");
        assert_eq!(r.secret.as_deref(), Some("s3cret_-X"));
        assert_eq!(r.content_type, "application/json");
        assert_eq!(r.update["message"]["chat"]["id"], GROUP);
    }
    let mut all = texts(&got_a);
    all.extend(texts(&got_b));
    all.sort();
    let sent: Vec<String> = (0..10).map(|i| format!("/cmd{i}")).collect();
    assert_eq!(all, sent, "each update once");
    let max = load.max.load(Ordering::SeqCst);
    assert!(max <= 2, "max_connections 2, yet {max} at once");

    let deliveries = fake.webhook_deliveries();
    assert_eq!(deliveries.len(), 10);
    assert!(deliveries.iter().all(|d| d.delivered()), "{deliveries:?}");
    assert_eq!(
        deliveries.iter().filter(|d| d.backend == a).count(),
        5,
        "round-robin"
    );
    let info = bot.get_webhook_info().await.unwrap();
    assert_eq!(info.pending_update_count, 0);
    assert_eq!(info.last_error_message, None);

    // Deleted: no more deliveries, getUpdates hands the update out.
    bot.delete_webhook().await.unwrap();
    fake.send_command(GROUP, &anya, "/after");
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(fake.webhook_deliveries().len(), 10);
    let updates = bot.get_updates().await.unwrap();
    assert_eq!(updates.len(), 1);
}

#[tokio::test]
async fn a_failed_webhook_delivery_is_retried_on_the_other_replica() {
    let (fake, bot) = with_group().await;
    let anya = fake.user(11, "Аня", "ru");
    let load = Arc::new(Load::default());
    let (ok, got_ok) = replica(200, Duration::ZERO, load.clone()).await;
    let (busy, got_busy) = replica(503, Duration::ZERO, load).await;
    let closed = closed_address();
    let silent = silent_replica().await;
    fake.set_webhook_timeout(Duration::from_millis(300));
    bot.set_webhook(url::Url::parse("https://bot.example.com/hook").unwrap())
        .await
        .unwrap();

    let mut sent = Vec::new();
    let phases = [
        (
            busy,
            "Wrong response from the webhook: 503 Service Unavailable",
        ),
        (closed, "Connection refused"),
        (silent, "Read timeout expired"),
    ];
    for (n, (failing, error)) in phases.into_iter().enumerate() {
        fake.set_webhook_backends(vec![failing, ok]);
        let before = fake.webhook_deliveries().len();
        for i in 0..4 {
            let text = format!("/cmd{n}_{i}");
            fake.send_command(GROUP, &anya, &text);
            sent.push(text);
        }
        assert!(fake.wait_confirmed(Duration::from_secs(20)).await);
        let deliveries = fake.webhook_deliveries()[before..].to_vec();
        let failed: Vec<_> = deliveries.iter().filter(|d| !d.delivered()).collect();
        assert!(!failed.is_empty(), "round-robin hits {failing} too");
        for f in &failed {
            assert_eq!(f.backend, failing);
            let expected = match error {
                e if e.starts_with("Wrong") => Ok(503),
                e => Err(e.to_owned()),
            };
            assert_eq!(f.outcome, expected);
            let retried = deliveries
                .iter()
                .filter(|d| d.update_id == f.update_id && d.delivered())
                .collect::<Vec<_>>();
            assert_eq!(retried.len(), 1, "{deliveries:?}");
            assert_eq!(retried[0].backend, ok);
        }
        let info = bot.get_webhook_info().await.unwrap();
        assert_eq!(info.last_error_message.as_deref(), Some(error));
        assert!(info.last_error_date.is_some());
    }

    // Every update delivered exactly once with a 2xx, all to the replica that answers.
    let deliveries = fake.webhook_deliveries();
    let mut delivered: Vec<u32> = deliveries
        .iter()
        .filter(|d| d.delivered())
        .map(|d| d.update_id)
        .collect();
    delivered.sort();
    delivered.dedup();
    assert_eq!(delivered.len(), sent.len());
    assert_eq!(
        deliveries.iter().filter(|d| d.delivered()).count(),
        sent.len()
    );
    let mut got = texts(&got_ok);
    got.sort();
    sent.sort();
    assert_eq!(got, sent);
    assert!(!got_busy.lock().unwrap().is_empty());
}

/// Inline mode: a query reaches the bot, its answer is held to Telegram's limits (≤ 50
/// results, ids of 1–64 bytes, one answer a query), a result sent becomes an inline message,
/// a press on it carries the `inline_message_id` and no message, and edits by that id are
/// answered `true`, refused when nothing changed or the id is unknown.
#[tokio::test]
async fn inline_queries_results_messages_presses_and_edits_as_telegram_has_them() {
    use teloxide::types::{
        InlineQueryResult, InlineQueryResultArticle, InputMessageContent, InputMessageContentText,
    };
    let (fake, bot) = with_group().await;
    let anya = fake.user(21, "Аня", "ru");
    let query = fake.inline_query(&anya, "бой");
    let updates = bot.get_updates().await.unwrap();
    let UpdateKind::InlineQuery(q) = &updates[0].kind else {
        panic!("{:?}", updates[0])
    };
    assert_eq!((q.id.0.as_str(), q.query.as_str()), (query.as_str(), "бой"));
    let offset = updates[0].id.0 as i32 + 1;
    let _ = bot.get_updates().offset(offset).await.unwrap();
    let article = |id: &str| {
        InlineQueryResult::Article(
            InlineQueryResultArticle::new(
                id,
                "Морской бой",
                InputMessageContent::Text(
                    InputMessageContentText::new("Лобби: <b>Аня</b>").parse_mode(ParseMode::Html),
                ),
            )
            .reply_markup(keyboard(vec![vec![("Вступить", "ij:21")]])),
        )
    };
    let too_many: Vec<_> = (0..51).map(|i| article(&format!("r{i}"))).collect();
    let e = bot
        .answer_inline_query(q.id.clone(), too_many)
        .await
        .unwrap_err();
    assert!(matches!(api_error(e), ApiError::TooMuchInlineQueryResults));
    let e = bot
        .answer_inline_query(q.id.clone(), vec![article(&"x".repeat(65))])
        .await
        .unwrap_err();
    assert_eq!(unknown(e), "Bad Request: RESULT_ID_INVALID");
    bot.answer_inline_query(q.id.clone(), vec![article("sea"), article("riga")])
        .await
        .unwrap();
    let e = bot
        .answer_inline_query(q.id.clone(), vec![article("sea")])
        .await
        .unwrap_err();
    assert!(
        format!("{e}").contains("query is too old"),
        "answered twice: {e}"
    );
    let results = fake.inline_answer(&query, WAIT).await.unwrap();
    assert_eq!(results.len(), 2);

    let inline = fake.send_inline_result(&query, "sea");
    let shown = fake.inline_message(&inline).unwrap();
    assert_eq!(shown.text, "Лобби: Аня");
    let press = fake.press_inline(&anya, &inline, "ij:21");
    let updates = bot.get_updates().offset(offset).await.unwrap();
    let UpdateKind::CallbackQuery(cb) = &updates[0].kind else {
        panic!("{:?}", updates[0])
    };
    assert_eq!(cb.inline_message_id.as_deref(), Some(inline.as_str()));
    assert!(cb.message.is_none());
    bot.answer_callback_query(cb.id.clone()).await.unwrap();
    assert!(fake.wait_answer(&press, WAIT).await.is_some());

    bot.edit_message_text_inline(inline.clone(), "Бой: ход Ани")
        .reply_markup(keyboard(vec![vec![("а1", "f:1")]]))
        .await
        .unwrap();
    assert_eq!(fake.inline_message(&inline).unwrap().text, "Бой: ход Ани");
    let e = bot
        .edit_message_text_inline(inline.clone(), "Бой: ход Ани")
        .reply_markup(keyboard(vec![vec![("а1", "f:1")]]))
        .await
        .unwrap_err();
    assert!(matches!(api_error(e), ApiError::MessageNotModified));
    let e = bot
        .edit_message_text_inline("AgAAAFnothing", "?")
        .await
        .unwrap_err();
    assert!(matches!(api_error(e), ApiError::MessageIdInvalid));
    let e = bot
        .edit_message_text_inline(inline.clone(), "x".repeat(4097))
        .await
        .unwrap_err();
    assert!(matches!(api_error(e), ApiError::EditedMessageIsTooLong));
    assert_eq!(fake.inline_max_per_minute(&inline), 1);
}

/// A raw sendMessage (or any method) to the fake's HTTP API: its status and body.
async fn call(
    fake: &FakeTelegram,
    method: &str,
    body: serde_json::Value,
) -> (u16, serde_json::Value) {
    raw_post(
        fake,
        &format!("/bot{}/{method}", fake.token()),
        &body.to_string(),
    )
    .await
}

/// A 429 as Telegram shapes it, with its `retry_after`.
fn retry_after(status: u16, body: &serde_json::Value) -> u64 {
    assert_eq!(status, 429, "{body}");
    assert_eq!(body["ok"], false);
    assert_eq!(body["error_code"], 429);
    let secs = body["parameters"]["retry_after"]
        .as_u64()
        .expect("retry_after");
    assert_eq!(
        body["description"],
        format!("Too Many Requests: retry after {secs}")
    );
    secs
}

#[tokio::test]
async fn the_token_budget_refuses_the_call_beyond_its_calls_a_second_across_all_chats() {
    use crate::fake_telegram::{ChatType, Limit, TokenLimits};
    let fake = FakeTelegram::start().await;
    let groups: Vec<i64> = (1..=6).map(|i| -1_000 - i).collect();
    for &g in &groups {
        fake.group(g, "Залп");
    }
    let anya = fake.user(21, "Аня", "ru");
    fake.start_bot(21);
    fake.set_token_limits(Some(TokenLimits {
        per_second: 5,
        group_per_minute: 100,
        private_per_second: 100.0,
        private_burst: 100.0,
    }));
    let started = Instant::now();
    // Five calls that take effect, in five chats, sends and an edit, and calls the budget
    // does not count between them: all pass.
    let (status, first) = call(
        &fake,
        "sendMessage",
        serde_json::json!({"chat_id": groups[0], "text": "1"}),
    )
    .await;
    assert_eq!(status, 200, "{first}");
    let id = first["result"]["message_id"].as_i64().unwrap();
    for &g in &groups[1..3] {
        let (status, _) = call(
            &fake,
            "sendMessage",
            serde_json::json!({"chat_id": g, "text": "2"}),
        )
        .await;
        assert_eq!(status, 200);
    }
    let (status, _) = call(
        &fake,
        "editMessageText",
        serde_json::json!({"chat_id": groups[0], "message_id": id, "text": "1!"}),
    )
    .await;
    assert_eq!(status, 200);
    // A refused edit (not modified) is not spent.
    let (status, _) = call(
        &fake,
        "editMessageText",
        serde_json::json!({"chat_id": groups[0], "message_id": id, "text": "1!"}),
    )
    .await;
    assert_eq!(status, 400);
    for method in ["getMe", "getChat", "sendChatAction"] {
        let body = serde_json::json!({"chat_id": groups[3], "action": "typing"});
        let (status, _) = call(&fake, method, body).await;
        assert_eq!(status, 200, "{method} is not counted");
    }
    let (status, _) = call(
        &fake,
        "sendMessage",
        serde_json::json!({"chat_id": 21, "text": "поле"}),
    )
    .await;
    assert_eq!(status, 200, "the fifth call");
    // The sixth within the second, to a chat of its own: refused, and it had no effect.
    let (status, body) = call(
        &fake,
        "sendMessage",
        serde_json::json!({"chat_id": groups[5], "text": "6"}),
    )
    .await;
    assert!(
        started.elapsed() < Duration::from_millis(900),
        "the test was too slow to tell"
    );
    assert_eq!(retry_after(status, &body), 1);
    assert!(fake.messages(groups[5]).is_empty());
    let (status, _) = call(
        &fake,
        "editMessageText",
        serde_json::json!({"chat_id": groups[0], "message_id": id, "text": "1?"}),
    )
    .await;
    assert_eq!(status, 429, "edits are counted as sends are");
    assert_eq!(fake.messages(groups[0])[0].text, "1!");

    // A second after the first call the window has room again.
    tokio::time::sleep(
        Duration::from_secs(1).saturating_sub(started.elapsed()) + Duration::from_millis(50),
    )
    .await;
    let (status, _) = call(
        &fake,
        "sendMessage",
        serde_json::json!({"chat_id": groups[5], "text": "6"}),
    )
    .await;
    assert_eq!(status, 200);

    let usage = fake.token_usage();
    assert_eq!(usage.accepted.len(), 6);
    assert_eq!(usage.rejected(), 2);
    assert_eq!(usage.too_many[&("sendMessage", ChatType::Group)], 1);
    assert_eq!(usage.too_many[&("editMessageText", ChatType::Group)], 1);
    assert_eq!(usage.calls[&("editMessageText", ChatType::Group)], 3);
    assert_eq!(usage.calls[&("sendMessage", ChatType::Private)], 1);
    assert_eq!(usage.by_limit[&Limit::Global], 2);
    assert_eq!(usage.max_per_second(), 5);
    assert_eq!(anya.first_name, "Аня");
}

#[tokio::test]
async fn the_token_budget_refuses_a_groups_call_beyond_its_calls_a_minute() {
    use crate::fake_telegram::{Limit, TokenLimits};
    let (fake, _bot) = with_group().await;
    fake.group(-77, "Другая");
    fake.set_token_limits(Some(TokenLimits {
        group_per_minute: 3,
        ..TokenLimits::TELEGRAM
    }));
    for i in 0..3 {
        let (status, _) = call(
            &fake,
            "sendMessage",
            serde_json::json!({"chat_id": GROUP, "text": i}),
        )
        .await;
        assert_eq!(status, 200, "call {i}");
    }
    let (status, body) = call(
        &fake,
        "sendMessage",
        serde_json::json!({"chat_id": GROUP, "text": "4"}),
    )
    .await;
    assert!((59..=60).contains(&retry_after(status, &body)));
    assert_eq!(fake.sends_and_edits(GROUP), 3);
    let (status, _) = call(
        &fake,
        "sendMessage",
        serde_json::json!({"chat_id": -77, "text": "1"}),
    )
    .await;
    assert_eq!(status, 200, "another group has a minute of its own");
    assert_eq!(fake.token_usage().by_limit[&Limit::Group], 1);

    // Off again: no limit at all.
    fake.set_token_limits(None);
    let (status, _) = call(
        &fake,
        "sendMessage",
        serde_json::json!({"chat_id": GROUP, "text": "5"}),
    )
    .await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn the_token_budget_lets_a_private_chat_burst_then_one_call_a_second() {
    use crate::fake_telegram::{ChatType, Limit, TokenLimits};
    let fake = FakeTelegram::start().await;
    for id in [21, 22] {
        fake.user(id, "Игрок", "ru");
        fake.start_bot(id);
    }
    fake.set_token_limits(Some(TokenLimits::TELEGRAM));
    let started = Instant::now();
    let mut last = 0;
    for i in 0..3 {
        let (status, body) = call(
            &fake,
            "sendMessage",
            serde_json::json!({"chat_id": 21, "text": i}),
        )
        .await;
        assert_eq!(status, 200, "the burst's call {i}");
        last = body["result"]["message_id"].as_i64().unwrap();
    }
    let (status, body) = call(
        &fake,
        "editMessageText",
        serde_json::json!({"chat_id": 21, "message_id": last, "text": "x"}),
    )
    .await;
    assert_eq!(retry_after(status, &body), 1);
    assert!(
        started.elapsed() < Duration::from_millis(500),
        "the test was too slow to tell"
    );
    let (status, _) = call(
        &fake,
        "sendMessage",
        serde_json::json!({"chat_id": 22, "text": "1"}),
    )
    .await;
    assert_eq!(status, 200, "another private chat has a bucket of its own");

    // One more a second after.
    tokio::time::sleep(Duration::from_millis(1050)).await;
    let (status, _) = call(
        &fake,
        "editMessageText",
        serde_json::json!({"chat_id": 21, "message_id": last, "text": "x"}),
    )
    .await;
    assert_eq!(status, 200);
    let (status, _) = call(
        &fake,
        "sendMessage",
        serde_json::json!({"chat_id": 21, "text": "y"}),
    )
    .await;
    assert_eq!(status, 429, "and no more");
    let usage = fake.token_usage();
    assert_eq!(usage.by_limit[&Limit::Private], 2);
    assert_eq!(usage.too_many[&("sendMessage", ChatType::Private)], 1);
    assert_eq!(usage.too_many[&("editMessageText", ChatType::Private)], 1);
    assert_eq!(fake.messages(21).len(), 3);
}

/// Telegram takes a press's answer only within about 15 s of the press; later it is refused
/// as "query is too old" (the player's app stopped waiting for it).
#[tokio::test]
async fn a_press_is_answered_within_15_s_of_it_or_never() {
    let (fake, bot) = with_group().await;
    let anya = fake.user(11, "Аня", "ru");
    let lobby = bot
        .send_message(ChatId(GROUP), "Лобби")
        .reply_markup(keyboard(vec![vec![("Вступить", "join:1")]]))
        .await
        .unwrap();
    let mut offset = 0;
    for (age, taken) in [(14, true), (16, false)] {
        let query_id = fake.press(GROUP, &anya, lobby.id.0, "join:1");
        fake.age_press(&query_id, Duration::from_secs(age));
        let updates = bot.get_updates().offset(offset).timeout(5).await.unwrap();
        let last = updates.last().expect("the press");
        offset = last.id.0 as i32 + 1;
        let UpdateKind::CallbackQuery(q) = &last.kind else {
            panic!("{last:?}")
        };
        match bot.answer_callback_query(q.id.clone()).await {
            Ok(_) => assert!(taken, "an answer {age} s after the press was taken"),
            Err(e) => {
                assert!(!taken, "an answer {age} s after the press was refused: {e}");
                assert_eq!(
                    unknown(e),
                    "Bad Request: query is too old and response timeout expired or query ID is invalid"
                );
            }
        }
    }
}
