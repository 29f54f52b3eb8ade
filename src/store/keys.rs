//! The whole Redis key schema, in one place.
//!
//! Every key starts with a namespace and a schema version (`mb:v1:` by default). The keys of
//! one game share the hash tag `{g:<id>}`, so in a Redis Cluster they live in one slot and a
//! Lua script may touch them together.
//!
//! | key | type | holds | expiry |
//! |---|---|---|---|
//! | `mb:v1:{g:ID}` | hash | `v` version, `c` codec, `d` the game record (JSON) | by phase |
//! | `mb:v1:{g:ID}:draft:SEAT` | hash | `v`, `c`, `d`: a seat's placement draft (JSON) | one day |
//! | `mb:v1:seq:game` | string | the last game id handed out | none |
//! | `mb:v1:chat:CHAT:game` | string | the active game of a chat (of a forum's General topic) | as its game |
//! | `mb:v1:chat:CHAT:topic:TOPIC:game` | string | the active game of a forum topic | as its game |
//! | `mb:v1:user:USER:game` | string | the active game of a user | as its game |
//! | `mb:v1:chat:CHAT:settings` | string | chat settings (JSON) | none |
//! | `mb:v1:quick` | hash | `v`, `c`, `d`: the quick match's queue: who waits, the pairs made and not yet opened (JSON) | thirty days from its last change |
//! | `mb:v1:chat:CHAT:tournament` | hash | `v`, `c`, `d`: the chat's latest tournament (JSON) | thirty days from its last change |
//! | `mb:v1:user:USER:settings` | string | user settings (JSON) | none |
//! | `mb:v1:user:USER:stats` | hash | `SCOPE|games`, `…|wins`, `…|shots`, `…|hits`, `…|winshots` (shots in won games), `…|turns`, `…|winturns` (turns in won games), `…|streak` (longest run of hits); SCOPE: a ruleset, `all` or `riga` | none |
//! | `mb:v1:upd:BUCKET` | hash | update id → the replica that claimed it, or `done` (128 ids a hash) | one day after its last change |
//! | `mb:v1:deadlines` | sorted set | game ids by when they next need a tick | none |
//! | `mb:v1:{g:ID}:send` | string | the fencing token of the game's one sender | seconds |
//! | `mb:v1:{g:ID}:ai` | string | the replica that moves for the bot now (its lease) | seconds |
//! | `mb:v1:{g:ID}:layouts-counted` | string | the game's revealed layouts were counted once | as its game |
//! | `mb:v1:chat:CHAT:layouts:RULESET` | list | the layouts revealed in the chat's games of a ruleset, newest first | none |
//! | `mb:v1:layouts:RULESET` | list | the same over every chat | none |
//! | `mb:v1:user:USER:layouts:RULESET` | list | the layouts a person placed in games that came to battle and ended, newest first (their habits) | 365 days from the last |
//! | `mb:v1:{g:ID}:presses` | hash | update id of a press → the process whose change claimed it, or `done` once answered | a day after its last change |
//! | `mb:v1:answered:QUERY` | string | a button press (callback query id) was answered, so it is never answered twice | fifteen minutes |
//! | `mb:v1:life:NAME/BOOT` | string | a bot process is alive (renewed every half second) | two seconds |
//! | `mb:v1:outbox` | sorted set | game ids with something maybe to send, by when marked | none |
//! | `mb:v1:{c:CHAT}:rating` | hash | user → `mu|sigma|games|name`: ratings from the chat's games between people | none |
//! | `mb:v1:{c:CHAT}:top` | sorted set | users by shown rating (the best 1 000 kept) | none |
//! | `mb:v1:{r:all}:rating`, `…:top` | hash, sorted set | the same over every chat (the best 10 000 ranked) | none |
//! | `mb:v1:{r:bot}:rating`, `…:top` | hash, sorted set | the same for games against the bot | none |
//! | `mb:v1:rulesets` | hash | a ruleset's name in the statistics → the ruleset (JSON), to name it in words | none |
//! | `mb:v1:{c:CHAT}:budget` | string | the chat's GCRA bucket of sends and edits | a minute |
//! | `mb:v1:{t}:budget` | string | the bot token's GCRA bucket of sends and edits (every replica's) | a minute |
//! | `mb:v1:{t}:pause` | string | until when Telegram asked the token to wait (a 429) | its wait |
//! | `mb:v1:{t}:board-turn` | string | the live boards' next free turn of the token (µs, the server's clock): boards queue first come first served | a second past it |
//! | `mb:v1:{c:CHAT}:said:USER:WHAT` | string | a command answered lately | a minute |
//! | `mb:v1:{c:CHAT}:panel:MESSAGE` | string | a hash of what a `/settings` panel (or the `/lang` choice) shows | a day |

pub use crate::game::rating::Leaderboard;
pub use crate::game::GameId;

/// The default namespace: project, then schema version.
pub const DEFAULT_NAMESPACE: &str = "mb:v1";

/// Key builder for one namespace.
#[derive(Clone, Debug)]
pub struct Keys {
    ns: String,
}

impl Keys {
    /// Keys under `namespace` (e.g. `mb:v1`; tests use their own).
    pub fn new(namespace: impl Into<String>) -> Keys {
        Keys {
            ns: namespace.into(),
        }
    }

    /// The namespace.
    pub fn namespace(&self) -> &str {
        &self.ns
    }

    /// The hash tag shared by every key of one game.
    pub fn game_tag(id: GameId) -> String {
        format!("{{g:{id}}}")
    }

    /// The game's record.
    pub fn game(&self, id: GameId) -> String {
        format!("{}:{}", self.ns, Self::game_tag(id))
    }

    /// A seat's placement draft.
    pub fn draft(&self, id: GameId, seat: u8) -> String {
        format!("{}:{}:draft:{seat}", self.ns, Self::game_tag(id))
    }

    /// Who is thinking for the bot's seat in game `id`: one replica at a time.
    pub fn ai_lease(&self, id: GameId) -> String {
        format!("{}:{}:ai", self.ns, Self::game_tag(id))
    }

    /// Every key of one game with `seats` seats.
    pub fn game_keys(&self, id: GameId, seats: u8) -> Vec<String> {
        let mut keys = vec![self.game(id)];
        keys.extend((0..seats).map(|s| self.draft(id, s)));
        keys
    }

    /// The game id counter.
    pub fn game_seq(&self) -> String {
        format!("{}:seq:game", self.ns)
    }

    /// The active game of a chat.
    pub fn chat_game(&self, chat: i64, topic: Option<i32>) -> String {
        match topic {
            Some(topic) => format!("{}:chat:{chat}:topic:{topic}:game", self.ns),
            None => format!("{}:chat:{chat}:game", self.ns),
        }
    }

    /// The active game of a user.
    pub fn user_game(&self, user: u64) -> String {
        format!("{}:user:{user}:game", self.ns)
    }

    /// A chat's settings.
    pub fn chat_settings(&self, chat: i64) -> String {
        format!("{}:chat:{chat}:settings", self.ns)
    }

    /// The quick match's queue.
    pub fn quick(&self) -> String {
        format!("{}:quick", self.ns)
    }

    /// A chat's latest tournament (sign-up, running or over).
    pub fn tournament(&self, chat: i64) -> String {
        format!("{}:chat:{chat}:tournament", self.ns)
    }

    /// What a user's latest inline card offers.
    pub fn card(&self, user: u64) -> String {
        format!("{}:user:{user}:card", self.ns)
    }

    /// A user's settings.
    pub fn user_settings(&self, user: u64) -> String {
        format!("{}:user:{user}:settings", self.ns)
    }

    /// A user's statistics.
    pub fn user_stats(&self, user: u64) -> String {
        format!("{}:user:{user}:stats", self.ns)
    }

    /// Games waiting for a tick, scored by when (a sorted set).
    pub fn deadlines(&self) -> String {
        format!("{}:deadlines", self.ns)
    }

    /// Who sends a game's outbox: one sender at a time, holding a fencing token.
    pub fn send_lease(&self, id: GameId) -> String {
        format!("{}:{}:send", self.ns, Self::game_tag(id))
    }

    /// The game's presses claimed with their changes (update id → claimant or `done`), in
    /// the game's hash slot so the change's script writes it.
    pub fn presses(&self, id: GameId) -> String {
        format!("{}:{}:presses", self.ns, Self::game_tag(id))
    }

    /// A button press (its callback query id) was answered: Telegram refuses a second
    /// answer, which a process taking over a dead one's update would otherwise send.
    pub fn answered(&self, query: &str) -> String {
        format!("{}:answered:{query}", self.ns)
    }

    /// A bot process's life key (see `life.rs`): `claimant` is `name/boot`.
    pub fn life(&self, claimant: &str) -> String {
        format!("{}:life:{claimant}", self.ns)
    }

    /// Games whose outbox or live message may have something to send (a sorted set of
    /// game ids, by when they were marked).
    pub fn outbox_index(&self) -> String {
        format!("{}:outbox", self.ns)
    }

    /// The rulesets the statistics name.
    pub fn rulesets(&self) -> String {
        format!("{}:rulesets", self.ns)
    }

    /// A leaderboard's ratings (hash) and ranking (sorted set), in one slot.
    pub fn board(&self, board: Leaderboard) -> (String, String) {
        let tag = match board {
            Leaderboard::Chat(chat) => format!("{{c:{chat}}}"),
            Leaderboard::People => "{r:all}".to_owned(),
            Leaderboard::Bot => "{r:bot}".to_owned(),
        };
        (
            format!("{}:{tag}:rating", self.ns),
            format!("{}:{tag}:top", self.ns),
        )
    }

    /// A chat's budget of sends and edits: the theoretical arrival time of a GCRA bucket.
    pub fn chat_budget(&self, chat: i64) -> String {
        format!("{}:{{c:{chat}}}:budget", self.ns)
    }

    /// The bot token's budget of sends and edits, shared by every replica: the theoretical
    /// arrival time of a GCRA bucket, and (`:pause`) until when Telegram asked to wait.
    pub fn token_budget(&self) -> (String, String) {
        (
            format!("{}:{{t}}:budget", self.ns),
            format!("{}:{{t}}:pause", self.ns),
        )
    }

    /// The token's priorities: for each rank, until when a caller of it waits for a turn (in
    /// the budget's slot).
    pub fn token_waiting(&self) -> String {
        format!("{}:{{t}}:waiting", self.ns)
    }

    /// The live boards' next free turn of the token's budget (all replicas'): they queue for
    /// it first come first served.
    pub fn board_turn(&self) -> String {
        format!("{}:{{t}}:board-turn", self.ns)
    }

    /// A command of one person in a chat answered lately (answered once a minute at most).
    pub fn said(&self, chat: i64, user: u64, what: &str) -> String {
        format!("{}:{{c:{chat}}}:said:{user}:{what}", self.ns)
    }

    /// What a `/settings` panel message of a chat shows (a hash), so a tap that changes
    /// nothing edits nothing.
    pub fn panel(&self, chat: i64, message: i32) -> String {
        format!("{}:{{c:{chat}}}:panel:{message}", self.ns)
    }

    /// The layouts revealed in a chat's games of one ruleset (a list, newest first).
    pub fn chat_layouts(&self, chat: i64, ruleset: &str) -> String {
        format!("{}:chat:{chat}:layouts:{ruleset}", self.ns)
    }

    /// The layouts revealed in every chat's games of one ruleset (a list, newest first).
    pub fn all_layouts(&self, ruleset: &str) -> String {
        format!("{}:layouts:{ruleset}", self.ns)
    }

    /// The layouts one person placed in games of one ruleset (a list, newest first).
    pub fn user_layouts(&self, user: u64, ruleset: &str) -> String {
        format!("{}:user:{user}:layouts:{ruleset}", self.ns)
    }

    /// Marks a game's layouts as counted, so a second settling does not count them again.
    pub fn layouts_counted(&self, id: GameId) -> String {
        format!("{}:{}:layouts-counted", self.ns, Self::game_tag(id))
    }

    /// The Telegram updates claimed or handled: one hash per [`UPDATE_BUCKET`] consecutive
    /// update ids (a small hash is stored compactly), and the update's field in it.
    pub fn update(&self, update_id: u32) -> (String, String) {
        (
            format!("{}:upd:{}", self.ns, update_id / UPDATE_BUCKET),
            update_id.to_string(),
        )
    }
}

/// How many consecutive update ids share one hash: within Redis's compact encoding of small
/// hashes (`hash-max-listpack-entries`, 128 by default).
pub const UPDATE_BUCKET: u32 = 128;

#[cfg(test)]
mod tests {
    use super::*;

    /// The key patterns of the table in this file's docs.
    fn table() -> Vec<String> {
        include_str!("keys.rs")
            .lines()
            .filter_map(|l| l.strip_prefix("//! | `"))
            .flat_map(|l| {
                let cell = &l[..l.find(" |").unwrap_or(l.len())];
                cell.split(", ")
                    .map(|k| k.trim_matches('`').to_owned())
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    /// Whether `key` is of `pattern`: upper-case words stand for any value.
    fn matches(pattern: &str, key: &str) -> bool {
        let parts: Vec<&str> = pattern.split(':').collect();
        let got: Vec<&str> = key.split(':').collect();
        parts.len() == got.len()
            && parts.iter().zip(&got).all(|(p, g)| {
                let stripped = p.trim_matches(|c| c == '{' || c == '}');
                let g = g.trim_matches(|c| c == '{' || c == '}');
                stripped == g || stripped.chars().all(|c| c.is_ascii_uppercase())
            })
    }

    #[test]
    fn the_table_lists_every_key_the_builder_makes() {
        let k = Keys::new(DEFAULT_NAMESPACE);
        let (rating, top) = k.board(Leaderboard::Chat(-100));
        let (all_rating, all_top) = k.board(Leaderboard::People);
        let (bot_rating, bot_top) = k.board(Leaderboard::Bot);
        let made = [
            k.game(GameId(7)),
            k.draft(GameId(7), 1),
            k.ai_lease(GameId(7)),
            k.game_seq(),
            k.chat_game(-100, None),
            k.chat_game(-100, Some(3)),
            k.user_game(5),
            k.chat_settings(-100),
            k.tournament(-100),
            k.quick(),
            k.user_settings(5),
            k.user_stats(5),
            k.deadlines(),
            k.send_lease(GameId(7)),
            k.outbox_index(),
            k.rulesets(),
            rating,
            top,
            all_rating,
            all_top,
            bot_rating,
            bot_top,
            k.chat_budget(-100),
            k.said(-100, 5, "help"),
            k.panel(-100, 12),
            k.chat_layouts(-100, "classic"),
            k.all_layouts("classic"),
            k.user_layouts(5, "classic"),
            k.layouts_counted(GameId(7)),
            k.update(9).0,
            k.life("NAME/BOOT"),
            k.presses(GameId(7)),
            k.answered("QUERY"),
        ];
        let table = table();
        assert!(table.len() >= 20, "{table:?}");
        let expand = |p: &String| -> Vec<String> {
            // `mb:v1:{r:all}:rating`, `…:top`: the second is the first's prefix and `top`.
            match p.strip_prefix("…:") {
                Some(rest) => table
                    .iter()
                    .filter(|q| q.ends_with(":rating"))
                    .map(|q| format!("{}:{rest}", q.trim_end_matches(":rating")))
                    .collect(),
                None => vec![p.clone()],
            }
        };
        let patterns: Vec<String> = table.iter().flat_map(expand).collect();
        for key in made {
            assert!(
                patterns.iter().any(|p| matches(p, &key)),
                "{key} is not in the key table of src/store/keys.rs"
            );
        }
    }

    #[test]
    fn every_key_is_namespaced_and_versioned() {
        let k = Keys::new(DEFAULT_NAMESPACE);
        for key in [
            k.game(GameId(7)),
            k.game_seq(),
            k.chat_game(-100, None),
            k.user_game(5),
            k.chat_settings(-100),
            k.user_settings(5),
            k.user_stats(5),
            k.update(9).0,
        ] {
            assert!(key.starts_with("mb:v1:"), "{key}");
        }
        assert_eq!(k.game(GameId(7)), "mb:v1:{g:7}");
    }

    #[test]
    fn the_keys_of_one_game_share_its_hash_tag() {
        let k = Keys::new(DEFAULT_NAMESPACE);
        for key in k.game_keys(GameId(42), 4) {
            assert!(key.contains("{g:42}"), "{key}");
        }
    }
}
