//! How people place: the layouts revealed at the end of games, per chat and over all chats,
//! for the learning level (`engine::Habits`). Capped lists of layout codes, newest first.

use super::{GameId, Store, StoreError};

/// Layouts kept per chat and ruleset.
pub const CHAT_LAYOUTS: isize = 200;
/// Layouts kept over all chats, per ruleset.
pub const ALL_LAYOUTS: isize = 1000;
/// Layouts kept per person and ruleset: their habits.
pub const PLAYER_LAYOUTS: isize = 200;
/// A chat's layouts are dropped after this long without a game (seconds).
const CHAT_TTL: i64 = 180 * 24 * 3600;
/// A person's layouts are dropped after this long without a game (seconds).
const PLAYER_TTL: i64 = 365 * 24 * 3600;

impl Store {
    /// Counts the layouts of a game that ended in `chat`, each with the person who placed it
    /// (see `game::settle::revealed_layouts`): once per game, however often it is settled.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn observe_layouts(
        &self,
        id: GameId,
        chat: i64,
        ruleset: &str,
        placed: &[(u64, String)],
    ) -> Result<(), StoreError> {
        if placed.is_empty()
            || !self
                .set_once(self.keys.layouts_counted(id), 24 * 3600)
                .await?
        {
            return Ok(());
        }
        let codes: Vec<&String> = placed.iter().map(|(_, code)| code).collect();
        let lists = [
            (
                self.keys.chat_layouts(chat, ruleset),
                codes.clone(),
                CHAT_LAYOUTS,
                Some(CHAT_TTL),
            ),
            (self.keys.all_layouts(ruleset), codes, ALL_LAYOUTS, None),
        ];
        let people = placed.iter().map(|(user, code)| {
            (
                self.keys.user_layouts(*user, ruleset),
                vec![code],
                PLAYER_LAYOUTS,
                Some(PLAYER_TTL),
            )
        });
        // Every list at once: a pipeline each (one pipeline may not span cluster nodes).
        let writes = lists
            .into_iter()
            .chain(people)
            .map(|(key, codes, cap, ttl)| {
                let mut pipe = redis::pipe();
                pipe.lpush(&key, codes).ignore();
                pipe.ltrim(&key, 0, cap - 1).ignore();
                if let Some(ttl) = ttl {
                    pipe.expire(&key, ttl).ignore();
                }
                self.run(|mut c| async move { pipe.query_async::<()>(&mut c).await })
            });
        futures::future::try_join_all(writes).await?;
        Ok(())
    }

    /// The layouts revealed in `chat`'s games of `ruleset`, and in every chat's.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn layouts(
        &self,
        chat: i64,
        ruleset: &str,
    ) -> Result<(Vec<String>, Vec<String>), StoreError> {
        let (chat, all, _) = self.layouts_with_people(chat, ruleset, &[]).await?;
        Ok((chat, all))
    }

    /// [`Store::layouts`], and each of `people`'s own ([`Store::player_layouts`]), all asked
    /// at once.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn layouts_with_people(
        &self,
        chat: i64,
        ruleset: &str,
        people: &[u64],
    ) -> Result<(Vec<String>, Vec<String>, Vec<Vec<String>>), StoreError> {
        let keys = [
            self.keys.chat_layouts(chat, ruleset),
            self.keys.all_layouts(ruleset),
        ]
        .into_iter()
        .chain(people.iter().map(|&u| self.keys.user_layouts(u, ruleset)));
        // Every list at once (one pipeline may not span cluster nodes).
        let mut lists = futures::future::try_join_all(keys.map(|key| self.whole_list(key))).await?;
        let own = lists.split_off(2.min(lists.len()));
        let all = lists.pop().unwrap_or_default();
        let chat = lists.pop().unwrap_or_default();
        Ok((chat, all, own))
    }

    /// The layouts `user` placed in games of `ruleset`, newest first.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn player_layouts(
        &self,
        user: u64,
        ruleset: &str,
    ) -> Result<Vec<String>, StoreError> {
        self.whole_list(self.keys.user_layouts(user, ruleset)).await
    }

    /// Every item of the list at `key`, first to last.
    async fn whole_list(&self, key: String) -> Result<Vec<String>, StoreError> {
        self.run(|mut c| async move {
            redis::cmd("LRANGE")
                .arg(key)
                .arg(0)
                .arg(-1)
                .query_async(&mut c)
                .await
        })
        .await
    }
}
