//! Ratings and leaderboards (issue 16): per board (a chat, everyone, against the bot) a hash
//! of every rated player's rating and name and a sorted set of the best by shown rating,
//! sharing a hash tag so one script sets both. Values are written whole, never added to, so
//! writing a game's results again after a crash changes nothing.

use super::{Leaderboard, Store, StoreError};
use crate::game::rating::Rating;
pub use crate::game::rating::{rating_value, read_rating};
use crate::game::record::RatingWrite;
use std::collections::HashMap;

/// One player on a board: the rating and the name shown.
#[derive(Clone, Debug, PartialEq)]
pub struct Rated {
    /// The user.
    pub user: u64,
    /// The rating.
    pub rating: Rating,
    /// The name as of the player's last rated game.
    pub name: String,
}

/// Sets ratings and their places (KEYS: the hash, the sorted set; ARGV: how many the ranking
/// keeps, then user, value, score for each player).
const SET_RATINGS: &str = include_str!("lua/set-ratings.lua");

impl Store {
    /// The ratings of `users` on `board`, in order (`None`: never rated there).
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn ratings(
        &self,
        board: Leaderboard,
        users: &[u64],
    ) -> Result<Vec<Option<Rating>>, StoreError> {
        if users.is_empty() {
            return Ok(Vec::new());
        }
        let (hash, _) = self.keys.board(board);
        let users = users.to_vec();
        let got: Vec<Option<String>> = self
            .run(|mut c| async move {
                redis::cmd("HMGET")
                    .arg(hash)
                    .arg(users)
                    .query_async(&mut c)
                    .await
            })
            .await?;
        Ok(got
            .iter()
            .map(|v| {
                v.as_deref()
                    .and_then(crate::game::rating::read_rating)
                    .map(|(r, _)| r)
            })
            .collect())
    }

    /// Writes the new ratings of one game's players on `board` (those of `writes` that are
    /// on it), whole: writing them again changes nothing.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn set_ratings(
        &self,
        board: Leaderboard,
        writes: &[RatingWrite],
    ) -> Result<(), StoreError> {
        let mut args: Vec<String> = vec![board.kept().to_string()];
        for w in writes.iter().filter(|w| w.board == board) {
            args.push(w.user.to_string());
            args.push(w.value.clone());
            args.push(w.after.to_string());
        }
        if args.len() == 1 {
            return Ok(());
        }
        let (hash, top) = self.keys.board(board);
        self.run(|mut c| async move {
            redis::Script::new(SET_RATINGS)
                .key(hash)
                .key(top)
                .arg(args)
                .invoke_async::<i32>(&mut c)
                .await
        })
        .await
        .map(|_| ())
    }

    /// The best `n` of `board`, best first.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn top(&self, board: Leaderboard, n: usize) -> Result<Vec<Rated>, StoreError> {
        let (hash, top) = self.keys.board(board);
        let users: Vec<u64> = self
            .run(|mut c| {
                let top = top.clone();
                async move {
                    redis::cmd("ZREVRANGE")
                        .arg(top)
                        .arg(0)
                        .arg(n.saturating_sub(1))
                        .query_async(&mut c)
                        .await
                }
            })
            .await?;
        if users.is_empty() {
            return Ok(Vec::new());
        }
        let ids = users.clone();
        let values: Vec<Option<String>> = self
            .run(|mut c| async move {
                redis::cmd("HMGET")
                    .arg(hash)
                    .arg(ids)
                    .query_async(&mut c)
                    .await
            })
            .await?;
        Ok(users
            .into_iter()
            .zip(values)
            .filter_map(|(user, v)| {
                let (rating, name) = read_rating(v.as_deref()?)?;
                Some(Rated { user, rating, name })
            })
            .collect())
    }

    /// `user`'s place on `board` (1 = best) and how many are ranked; `None` when not ranked.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn place(
        &self,
        board: Leaderboard,
        user: u64,
    ) -> Result<Option<(u64, u64)>, StoreError> {
        let (_, top) = self.keys.board(board);
        let (rank, total): (Option<u64>, u64) = self
            .run(|mut c| async move {
                redis::pipe()
                    .cmd("ZREVRANK")
                    .arg(&top)
                    .arg(user)
                    .cmd("ZCARD")
                    .arg(&top)
                    .query_async(&mut c)
                    .await
            })
            .await?;
        Ok(rank.map(|r| (r + 1, total)))
    }

    /// Every statistic of `user` (`SCOPE|FIELD` → value; a scope is a ruleset, `riga` or
    /// `all`).
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn all_stats(&self, user: u64) -> Result<HashMap<String, u64>, StoreError> {
        let key = self.keys.user_stats(user);
        self.run(|mut c| async move { redis::cmd("HGETALL").arg(key).query_async(&mut c).await })
            .await
    }

    /// Sets statistics of `user` to the given values, whole: setting them again changes
    /// nothing.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn set_stats(&self, user: u64, values: &[(String, u64)]) -> Result<(), StoreError> {
        if values.is_empty() {
            return Ok(());
        }
        let key = self.keys.user_stats(user);
        let values = values.to_vec();
        self.run(|mut c| async move {
            redis::cmd("HSET")
                .arg(key)
                .arg(values)
                .query_async(&mut c)
                .await
        })
        .await
    }

    /// Notes which ruleset the statistics' `scope` names (its JSON), to tell it in words.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn note_ruleset(&self, scope: &str, json: &str) -> Result<(), StoreError> {
        let key = self.keys.rulesets();
        let (scope, json) = (scope.to_owned(), json.to_owned());
        self.run(|mut c| async move {
            redis::cmd("HSET")
                .arg(key)
                .arg(scope)
                .arg(json)
                .query_async(&mut c)
                .await
        })
        .await
    }

    /// The ruleset the statistics' `scope` names (its JSON), when noted.
    ///
    /// # Errors
    /// [`StoreError::Unavailable`] and the like.
    pub async fn ruleset_of(&self, scope: &str) -> Result<Option<String>, StoreError> {
        let key = self.keys.rulesets();
        let scope = scope.to_owned();
        self.run(|mut c| async move {
            redis::cmd("HGET")
                .arg(key)
                .arg(scope)
                .query_async(&mut c)
                .await
        })
        .await
    }
}
