//! Flows that take minutes of the bot's time, on paused time ([`flow!`]): the bot, the fake
//! Telegram and the in-memory store in one process, on one clock.

use crate::helpers::*;
use std::time::Duration;

flow! {
    /// The default turn timer, three minutes, at its real length and Telegram's production
    /// pace (a 4.5 s gap between a group's edits, 18 sends and edits a group a minute): the
    /// player to move who does nothing is reminded at half time and forfeits at the end, and
    /// the other wins.
    fn an_idle_player_is_reminded_at_half_time_and_forfeits_after_three_minutes() {
        let mut app = App::world(4500, None).await;
        app.start_bot().await;
        let a = app.player(3101, "Alice", "en");
        let b = app.player(3102, "Bob", "en");
        let d = duel(&app, -3101, a, b).await;
        let (rec, _) = app
            .store()
            .await
            .load_game(morskoy_boy::store::GameId(d.game))
            .await
            .expect("the game, in the store the bot uses");
        // The timer's next look: the reminder, at half of the turn's three minutes.
        let half = rec.game.next_deadline().expect("a turn with a timer");
        let now = morskoy_boy::clock::unix_secs;
        assert!((80..=90).contains(&(half - now())), "{} s to half time", half - now());
        let idle = d.players[d.turn].first_name.clone();
        let other = d.players[1 - d.turn].first_name.clone();
        let long = Duration::from_secs(400);
        app.tg
            .wait_for_text(d.group, &format!("{idle}, half of your time is gone"), long)
            .await
            .expect("the reminder");
        let reminded = now();
        app.tg
            .wait_for_text(d.group, &format!("{idle} ran out of time and loses by forfeit"), long)
            .await
            .expect("the forfeit");
        let forfeited = now();
        // Each at its time, and on the group's board within its pace (edits 4.5 s apart, the
        // timer looking every second).
        let end = half + 90;
        assert!(
            (half..half + 7).contains(&reminded),
            "reminded {} s after half time",
            reminded as i64 - half as i64
        );
        assert!(
            (end..end + 7).contains(&forfeited),
            "forfeited {} s after the turn's end",
            forfeited as i64 - end as i64
        );
        let end = wait_for_rematch(&app, d.group, d.battle).await;
        assert!(end.text.contains(&format!("Winner: {other}")), "{}", end.text);
        assert_no_4xx(&app);
    }
}
