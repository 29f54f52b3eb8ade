//! End to end: the placement editor under the variants — ships of any shape tapped cell by
//! cell and confirmed (a forbidden shape refused with its reason), mines with their own tool,
//! and the land-sea border moved column by column. The real bot binary, a real Redis and the
//! fake Telegram, as in `tests/e2e/bot.rs`; each chat's ruleset is written to Redis first.

use crate::fake_telegram::SentMessage;
use crate::helpers::*;
use engine::{Ruleset, Shapes};
use teloxide::types::User;

/// A lobby in `group` under `ruleset` with Alice and Bob, started: Alice's editor.
async fn editor_for(app: &App, group: i64, ruleset: Ruleset) -> (User, SentMessage) {
    app.tg.group(group, "Sea dogs");
    app.set_rules(group, ruleset).await;
    let alice = app.player(group.unsigned_abs() as i64 * 10 + 1, "Alice", "en");
    let bob = app.player(group.unsigned_abs() as i64 * 10 + 2, "Bob", "en");
    let lobby = lobby_of_two(app, group, &alice, &bob).await;
    let start = data(&lobby, "s:");
    assert!(
        !app.press(group, &alice, lobby.message_id, &start)
            .await
            .show_alert
    );
    let chat = alice.id.0 as i64;
    let editor = app.message_with_button(chat, "pe:").await;
    (alice, editor)
}

/// The editor's game id, from its buttons.
fn game_of(editor: &SentMessage) -> String {
    data(editor, "pe:").split(':').nth(1).unwrap().to_owned()
}

/// Presses an editor button and returns the answer and the editor's text after it.
async fn tap(app: &App, user: &User, editor: &SentMessage, data: &str) -> (String, bool, String) {
    let chat = user.id.0 as i64;
    let answer = app.press(chat, user, editor.message_id, data).await;
    // The edit follows the answer; give it a moment, then read the message as it is.
    tokio::time::sleep(std::time::Duration::from_millis(150)).await;
    let now = app
        .tg
        .messages(chat)
        .into_iter()
        .find(|m| m.message_id == editor.message_id)
        .unwrap();
    (
        answer.text.clone().unwrap_or_default(),
        answer.show_alert,
        now.text,
    )
}

/// The editor's grid row `y` (1-based as printed), without its row number.
fn grid_row(text: &str, y: usize) -> String {
    text.lines()
        .find(|l| l.split_whitespace().next() == Some(&y.to_string()))
        .map(|l| l.split_whitespace().skip(1).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

flow! {
    fn bent_ships_are_tapped_cell_by_cell_and_a_forbidden_shape_is_refused() {
        let app = App::spawn().await;
        let ruleset = Ruleset {
            shapes: Shapes::Bent,
            ..Ruleset::default()
        };
        let (alice, editor) = editor_for(&app, -9101, ruleset).await;
        let g = game_of(&editor);
        // An L of three: A1, A2, B2 (row-major indices 0, 10, 11).
        for i in [0, 10, 11] {
            let (_, alert, _) = tap(&app, &alice, &editor, &format!("pt:{g}:{i}")).await;
            assert!(!alert);
        }
        let (said, alert, text) = tap(&app, &alice, &editor, &format!("pe:{g}:f")).await;
        assert!(!alert, "the L of three is refused: {said}");
        assert!(said.contains("cruiser"), "{said}");
        assert!(grid_row(&text, 1).starts_with("O ·"), "{text}");
        assert!(grid_row(&text, 2).starts_with("O O"), "{text}");
        // A T of four is not among the bent shapes: refused, with the reason, and nothing placed.
        for i in [4, 5, 6, 15] {
            tap(&app, &alice, &editor, &format!("pt:{g}:{i}")).await;
        }
        let (said, alert, text) = tap(&app, &alice, &editor, &format!("pe:{g}:f")).await;
        assert!(alert, "a T of four was accepted");
        assert!(said.contains("shape is not allowed"), "{said}");
        assert!(
            grid_row(&text, 1).contains('+'),
            "the cells stay picked: {text}"
        );
        assert!(!grid_row(&text, 1).contains("O O O"), "{text}");
        // Untapping the stem and confirming three cells in a row makes a straight cruiser.
        tap(&app, &alice, &editor, &format!("pt:{g}:15")).await;
        let (said, alert, text) = tap(&app, &alice, &editor, &format!("pe:{g}:f")).await;
        assert!(!alert, "{said}");
        assert!(grid_row(&text, 1).contains("O O O"), "{text}");
        // A fifth cell is one more than the largest ship has.
        for i in [30, 31, 32, 33] {
            tap(&app, &alice, &editor, &format!("pt:{g}:{i}")).await;
        }
        let (said, alert, _) = tap(&app, &alice, &editor, &format!("pt:{g}:34")).await;
        assert!(alert && said.contains("at most 4 cells"), "{said}");
    }
}

flow! {
    fn mines_have_their_own_tool_and_count() {
        let app = App::spawn().await;
        let ruleset = Ruleset {
            mines: 2,
            ..Ruleset::default()
        };
        let (alice, editor) = editor_for(&app, -9102, ruleset).await;
        let g = game_of(&editor);
        assert!(editor.text.contains("2 mines"), "{}", editor.text);
        tap(&app, &alice, &editor, &format!("pe:{g}:m")).await;
        let (_, alert, text) = tap(&app, &alice, &editor, &format!("pt:{g}:99")).await;
        assert!(!alert);
        assert!(grid_row(&text, 10).ends_with('m'), "{text}");
        assert!(text.contains("1 mine"), "{text}");
        // Tapping the mine again removes it.
        let (_, _, text) = tap(&app, &alice, &editor, &format!("pt:{g}:99")).await;
        assert!(!grid_row(&text, 10).contains('m'), "{text}");
        // Back to ships: two ends place a straight ship.
        tap(&app, &alice, &editor, &format!("pe:{g}:m")).await;
        tap(&app, &alice, &editor, &format!("pt:{g}:0")).await;
        let (said, _, _) = tap(&app, &alice, &editor, &format!("pt:{g}:3")).await;
        assert!(said.contains("battleship"), "{said}");
    }
}

flow! {
    fn the_land_sea_border_moves_column_by_column_and_only_its_owner_sees_it() {
        let app = App::spawn().await;
        let group = -9103;
        let (alice, editor) = editor_for(&app, group, Ruleset::land_sea_air()).await;
        let g = game_of(&editor);
        let column_land = |text: &str, x: usize| -> usize {
            (1..=15)
                .filter(|&y| {
                    grid_row(text, y)
                        .split(' ')
                        .nth(x)
                        .is_some_and(|c| c == ",")
                })
                .count()
        };
        let before = column_land(&editor.text, 0);
        assert!(before > 0, "no land shown to its owner: {}", editor.text);
        tap(&app, &alice, &editor, &format!("pe:{g}:b")).await;
        // A tap on the sea at the top of column A raises the land by a row.
        let (said, alert, text) = tap(&app, &alice, &editor, &format!("pt:{g}:0")).await;
        if alert {
            // The neighbouring column forbids it (the border may step one row at a time).
            assert!(said.contains("border"), "{said}");
        } else {
            assert_eq!(column_land(&text, 0), before + 1, "{text}");
            // A tap on the land lowers it again.
            let (_, _, text) = tap(&app, &alice, &editor, &format!("pt:{g}:280")).await;
            assert_eq!(column_land(&text, 0), before, "{text}");
        }
        // Off the border tool, a random border and a random fleet are both available.
        tap(&app, &alice, &editor, &format!("pe:{g}:b")).await;
        let (_, alert, _) = tap(&app, &alice, &editor, &format!("pe:{g}:g")).await;
        assert!(!alert);
        // The group never sees land.
        for text in app.tg.all_texts(group) {
            for line in text.lines().filter(|l| {
                l.trim_start()
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_digit())
            }) {
                assert!(!line.contains(','), "the group sees a border: {line}");
            }
        }
    }
}

flow! {
    fn editor_taps_that_change_nothing_and_forged_ones_are_answered_so_and_edit_nothing() {
        let app = App::spawn().await;
        let ruleset = Ruleset {
            shapes: Shapes::Bent,
            ..Ruleset::default()
        };
        let (alice, editor) = editor_for(&app, -9104, ruleset).await;
        let g = game_of(&editor);
        let chat = alice.id.0 as i64;
        let edits = |app: &App| {
            app.tg
                .messages(chat)
                .into_iter()
                .find(|m| m.message_id == editor.message_id)
                .map_or(0, |m| m.edits)
        };
        let settle = || tokio::time::sleep(std::time::Duration::from_millis(400));
        let before = edits(&app);
        // Undo with nothing to undo, Clear on an empty field, the block already shown: twice
        // each, and the two Undos at once.
        for data in [
            format!("pe:{g}:u"),
            format!("pe:{g}:c"),
            format!("pv:{g}:0"),
        ] {
            for _ in 0..2 {
                let a = app.press(chat, &alice, editor.message_id, &data).await;
                assert_eq!(said(&a), "nothing to do.", "{data}");
                assert!(!a.show_alert, "{data}");
            }
        }
        let undo = format!("pe:{g}:u");
        let both = [
            app.tg.press_stale(chat, &alice, editor.message_id, &undo),
            app.tg.press_stale(chat, &alice, editor.message_id, &undo),
        ];
        for id in both {
            let a = app.tg.wait_answer(&id, wait()).await.expect("an answer");
            assert_eq!(said(&a), "nothing to do.");
        }
        // A settings panel's or a lobby's payload on the editor: refused, and nothing drawn.
        for forged in ["o:pm".to_owned(), "o:k".to_owned(), format!("s:{g}:0")] {
            let a = app.press(chat, &alice, editor.message_id, &forged).await;
            assert!(a.show_alert, "{forged} was taken");
            assert_eq!(said(&a), "this button does not belong to this message.");
        }
        settle().await;
        assert_eq!(
            edits(&app),
            before,
            "a tap that changed nothing edited the editor"
        );
        // A T of four, refused with its reason: the picked cells stay, and the editor is not
        // drawn again.
        for i in [4, 5, 6, 15] {
            tap(&app, &alice, &editor, &format!("pt:{g}:{i}")).await;
        }
        settle().await;
        let picked = edits(&app);
        assert!(picked > before, "the picks were not drawn");
        for _ in 0..2 {
            let (said, alert, _) = tap(&app, &alice, &editor, &format!("pe:{g}:f")).await;
            assert!(alert && said.contains("shape is not allowed"), "{said}");
        }
        settle().await;
        assert_eq!(edits(&app), picked, "a refused shape redrew the editor");
        let errors = app.tg.errors();
        assert!(
            !errors
                .iter()
                .any(|e| e.description.contains("not modified")),
            "{errors:?}"
        );
    }
}
