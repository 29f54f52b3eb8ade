//! The commands the store, its scripts and its tests send, as Redis answers them (RESP2): the
//! strings, hashes, lists and sorted sets they use, expiry, the clock. Any other command is
//! refused as Redis refuses an unknown one, so a new use shows at once in the store's tests.

use super::{Data, Db, Entry, Reply};
use redis::Value;

pub(super) const WRONGTYPE: &str =
    "WRONGTYPE Operation against a key holding the wrong kind of value";
pub(super) const NOT_INTEGER: &str = "ERR value is not an integer or out of range";
pub(super) const SYNTAX: &str = "ERR syntax error";

pub(super) fn bulk(b: &[u8]) -> Value {
    Value::BulkString(b.to_vec())
}

pub(super) fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

pub(super) fn int(b: &[u8]) -> Result<i64, String> {
    text(b).parse().map_err(|_| NOT_INTEGER.to_owned())
}

pub(super) fn float(b: &[u8]) -> Result<f64, String> {
    match text(b).to_ascii_lowercase().as_str() {
        "+inf" | "inf" => Ok(f64::INFINITY),
        "-inf" => Ok(f64::NEG_INFINITY),
        t => t
            .parse::<f64>()
            .ok()
            .filter(|f| !f.is_nan())
            .ok_or_else(|| "ERR value is not a valid float".to_owned()),
    }
}

/// A glob of KEYS and SCAN's MATCH: `*`, `?`, and plain bytes.
fn glob(pattern: &[u8], key: &[u8]) -> bool {
    match (pattern.first(), key.first()) {
        (None, None) => true,
        (Some(b'*'), _) => {
            glob(&pattern[1..], key) || (!key.is_empty() && glob(pattern, &key[1..]))
        }
        (Some(b'?'), Some(_)) => glob(&pattern[1..], &key[1..]),
        (Some(p), Some(k)) if p == k => glob(&pattern[1..], &key[1..]),
        _ => false,
    }
}

impl Db {
    /// Runs one command, given as its words.
    pub(crate) fn command(&mut self, words: &[Vec<u8>]) -> Reply {
        let Some((name, args)) = words.split_first() else {
            return Err("ERR empty command".into());
        };
        let name = text(name).to_ascii_uppercase();
        let arity = |min: usize| {
            if args.len() < min {
                Err(format!(
                    "ERR wrong number of arguments for '{}' command",
                    name.to_ascii_lowercase()
                ))
            } else {
                Ok(())
            }
        };
        match name.as_str() {
            "PING" => Ok(match args.first() {
                Some(a) => bulk(a),
                None => Value::SimpleString("PONG".into()),
            }),
            "TIME" => {
                let now = crate::clock::unix_us();
                Ok(Value::Array(vec![
                    bulk((now / 1_000_000).to_string().as_bytes()),
                    bulk((now % 1_000_000).to_string().as_bytes()),
                ]))
            }
            "GET" => {
                arity(1)?;
                match self.entry(&args[0]) {
                    None => Ok(Value::Nil),
                    Some(Entry {
                        data: Data::Str(s), ..
                    }) => Ok(bulk(s)),
                    Some(_) => Err(WRONGTYPE.into()),
                }
            }
            "SET" => {
                arity(2)?;
                self.set(&args[0], &args[1], &args[2..])
            }
            "SETEX" => {
                arity(3)?;
                let ex = [b"EX".to_vec(), args[1].clone()];
                self.set(&args[0], &args[2], &ex)
            }
            "DEL" | "UNLINK" => {
                arity(1)?;
                let mut n = 0;
                for k in args {
                    if self.entry(k).is_some() {
                        self.entries.remove(k);
                        n += 1;
                    }
                }
                Ok(Value::Int(n))
            }
            "EXISTS" => {
                arity(1)?;
                let n = args.iter().filter(|k| self.entry(k).is_some()).count();
                Ok(Value::Int(n as i64))
            }
            "EXPIRE" | "PEXPIRE" => {
                arity(2)?;
                let unit = if name == "EXPIRE" { 1000 } else { 1 };
                let ms = int(&args[1])?.saturating_mul(unit);
                let now = crate::clock::unix_ms() as i64;
                match self.entry(&args[0]) {
                    None => Ok(Value::Int(0)),
                    Some(e) if ms <= 0 => {
                        e.expires_ms = Some(0);
                        self.entries.remove(&args[0]);
                        Ok(Value::Int(1))
                    }
                    Some(e) => {
                        e.expires_ms = Some((now + ms) as u64);
                        Ok(Value::Int(1))
                    }
                }
            }
            "TTL" | "PTTL" => {
                arity(1)?;
                let now = crate::clock::unix_ms();
                Ok(Value::Int(match self.entry(&args[0]) {
                    None => -2,
                    Some(Entry {
                        expires_ms: None, ..
                    }) => -1,
                    Some(Entry {
                        expires_ms: Some(at),
                        ..
                    }) => {
                        let left = at.saturating_sub(now);
                        if name == "TTL" {
                            left.div_ceil(1000) as i64
                        } else {
                            left as i64
                        }
                    }
                }))
            }
            "INCR" | "INCRBY" => {
                arity(if name == "INCR" { 1 } else { 2 })?;
                let by = if name == "INCR" { 1 } else { int(&args[1])? };
                let now = match self.entry(&args[0]) {
                    None => 0,
                    Some(Entry {
                        data: Data::Str(s), ..
                    }) => int(s)?,
                    Some(_) => return Err(WRONGTYPE.into()),
                };
                let new = now.checked_add(by).ok_or(NOT_INTEGER)?;
                let expires_ms = self.entry(&args[0]).and_then(|e| e.expires_ms);
                self.entries.insert(
                    args[0].clone(),
                    Entry {
                        data: Data::Str(new.to_string().into_bytes()),
                        expires_ms,
                    },
                );
                Ok(Value::Int(new))
            }
            "KEYS" => {
                arity(1)?;
                let now = crate::clock::unix_ms();
                Ok(Value::Array(
                    self.entries
                        .iter()
                        .filter(|(k, e)| {
                            e.expires_ms.is_none_or(|at| at > now) && glob(&args[0], k)
                        })
                        .map(|(k, _)| bulk(k))
                        .collect(),
                ))
            }
            "DBSIZE" => Ok(Value::Int(self.entries.len() as i64)),
            "HSET" | "HSETNX" | "HGET" | "HMGET" | "HGETALL" | "HDEL" | "HLEN" | "HEXISTS"
            | "HINCRBY" => self.hash(&name, args, arity),
            "LPUSH" | "RPUSH" | "LTRIM" | "LRANGE" | "LLEN" => self.list(&name, args, arity),
            "ZADD" | "ZREM" | "ZCARD" | "ZSCORE" | "ZRANGE" | "ZREVRANGE" | "ZRANK"
            | "ZREVRANK" | "ZRANGEBYSCORE" | "ZREMRANGEBYRANK" => self.zset(&name, args, arity),
            _ => Err(format!(
                "ERR unknown command '{}', with args beginning with: ",
                name.to_ascii_lowercase()
            )),
        }
    }

    /// SET key value [NX|XX] [GET] [EX s|PX ms|KEEPTTL].
    fn set(&mut self, key: &[u8], value: &[u8], options: &[Vec<u8>]) -> Reply {
        let (mut nx, mut xx, mut get, mut keep) = (false, false, false, false);
        let mut expires_ms = None;
        let mut i = 0;
        while i < options.len() {
            match text(&options[i]).to_ascii_uppercase().as_str() {
                "NX" => nx = true,
                "XX" => xx = true,
                "GET" => get = true,
                "KEEPTTL" => keep = true,
                unit @ ("EX" | "PX") => {
                    let n = int(options.get(i + 1).ok_or(SYNTAX)?)?;
                    if n <= 0 {
                        return Err("ERR invalid expire time in 'set' command".into());
                    }
                    let ms = if unit == "EX" { n * 1000 } else { n };
                    expires_ms = Some(crate::clock::unix_ms() + ms as u64);
                    i += 1;
                }
                _ => return Err(SYNTAX.into()),
            }
            i += 1;
        }
        let old = match self.entry(key) {
            None => None,
            Some(Entry {
                data: Data::Str(s),
                expires_ms,
            }) => Some((s.clone(), *expires_ms)),
            Some(_) if get => return Err(WRONGTYPE.into()),
            Some(e) => Some((Vec::new(), e.expires_ms)),
        };
        let answer = |done: bool| match (get, &old) {
            (true, Some((s, _))) => bulk(s),
            (true, None) => Value::Nil,
            (false, _) if done => Value::Okay,
            (false, _) => Value::Nil,
        };
        if (nx && old.is_some()) || (xx && old.is_none()) {
            return Ok(answer(false));
        }
        if keep {
            expires_ms = old.as_ref().and_then(|(_, at)| *at);
        }
        self.entries.insert(
            key.to_vec(),
            Entry {
                data: Data::Str(value.to_vec()),
                expires_ms,
            },
        );
        Ok(answer(true))
    }
}

#[cfg(test)]
mod tests {
    use super::super::collections::range;
    use super::*;

    fn words(line: &str) -> Vec<Vec<u8>> {
        line.split(' ').map(|w| w.as_bytes().to_vec()).collect()
    }

    #[test]
    fn ranges_count_from_the_end_and_clamp_as_redis_does() {
        assert_eq!(range(0, -1, 3), Some((0, 2)));
        assert_eq!(range(-2, -1, 3), Some((1, 2)));
        assert_eq!(range(0, 10, 3), Some((0, 2)));
        assert_eq!(range(2, 1, 3), None);
        assert_eq!(range(0, -1, 0), None);
        assert_eq!(range(0, -5, 3), None);
        assert!(glob(b"ns:upd:*", b"ns:upd:12"));
        assert!(!glob(b"ns:upd:*", b"ns:game:12"));
        assert!(glob(b"a?c", b"abc"));
    }

    #[test]
    fn a_sorted_sets_ranks_and_ranges_follow_score_then_member() {
        let db = super::super::Memory::new();
        let run = |line: &str| db.run(&words(line)).unwrap();
        assert_eq!(run("ZADD z 2 b 1 c 2 a"), Value::Int(3));
        assert_eq!(
            run("ZRANGE z 0 -1"),
            Value::Array(vec![bulk(b"c"), bulk(b"a"), bulk(b"b")])
        );
        assert_eq!(run("ZREVRANK z c"), Value::Int(2));
        assert_eq!(
            run("ZRANGEBYSCORE z (1 2 LIMIT 1 5"),
            Value::Array(vec![bulk(b"b")])
        );
        assert_eq!(run("ZREMRANGEBYRANK z 0 -3"), Value::Int(1));
        assert_eq!(run("ZCARD z"), Value::Int(2));
        assert_eq!(run("ZREM z a b"), Value::Int(2));
        assert_eq!(run("EXISTS z"), Value::Int(0), "an empty set is no key");
    }
}
