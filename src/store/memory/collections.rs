//! The hashes, lists and sorted sets of the in-memory server, as Redis answers for them: an
//! empty one is no key, a range counts from either end.

use super::commands::{bulk, float, int, text, NOT_INTEGER, SYNTAX, WRONGTYPE};
use super::{Data, Db, Entry, Reply};
use redis::Value;
use std::collections::{HashMap, VecDeque};

type Hash = HashMap<Vec<u8>, Vec<u8>>;
type Zset = HashMap<Vec<u8>, f64>;

fn hash_of(d: &mut Data) -> Option<&mut HashMap<Vec<u8>, Vec<u8>>> {
    match d {
        Data::Hash(x) => Some(x),
        _ => None,
    }
}

fn list_of(d: &mut Data) -> Option<&mut VecDeque<Vec<u8>>> {
    match d {
        Data::List(x) => Some(x),
        _ => None,
    }
}

fn zset_of(d: &mut Data) -> Option<&mut HashMap<Vec<u8>, f64>> {
    match d {
        Data::Zset(x) => Some(x),
        _ => None,
    }
}

/// A score as Redis writes it: an integer without a point, else the shortest exact form.
fn score(f: f64) -> Value {
    if f.fract() == 0.0 && f.abs() < 1e17 {
        Value::BulkString((f as i64).to_string().into_bytes())
    } else {
        Value::BulkString(f.to_string().into_bytes())
    }
}

/// `start..=stop` of a list of `len`, Redis's way (negative from the end, clamped); `None`
/// when empty.
pub(super) fn range(start: i64, stop: i64, len: usize) -> Option<(usize, usize)> {
    let len = len as i64;
    let start = if start < 0 {
        (len + start).max(0)
    } else {
        start
    };
    let stop = if stop < 0 {
        len + stop
    } else {
        stop.min(len - 1)
    };
    (start <= stop && start < len).then_some((start as usize, stop as usize))
}

/// A score bound of ZRANGEBYSCORE: `(` before it means "not equal".
fn bound(b: &[u8]) -> Result<(f64, bool), String> {
    match b.strip_prefix(b"(") {
        Some(rest) => Ok((float(rest)?, true)),
        None => Ok((float(b)?, false)),
    }
}

impl Db {
    /// The value of type `D` at `key`, made empty when there is none (`make`), or `None`.
    fn typed<T>(
        &mut self,
        key: &[u8],
        make: Option<fn() -> Data>,
        pick: fn(&mut Data) -> Option<&mut T>,
    ) -> Result<Option<&mut T>, String> {
        if self.entry(key).is_none() {
            let Some(make) = make else { return Ok(None) };
            self.entries.insert(
                key.to_vec(),
                Entry {
                    data: make(),
                    expires_ms: None,
                },
            );
        }
        let entry = self.entries.get_mut(key).expect("just made");
        pick(&mut entry.data)
            .map(Some)
            .ok_or_else(|| WRONGTYPE.into())
    }

    /// Removes `key` when its collection is empty, as Redis does.
    fn drop_empty(&mut self, key: &[u8]) {
        let empty = match self.entries.get(key).map(|e| &e.data) {
            Some(Data::Hash(h)) => h.is_empty(),
            Some(Data::List(l)) => l.is_empty(),
            Some(Data::Zset(z)) => z.is_empty(),
            _ => false,
        };
        if empty {
            self.entries.remove(key);
        }
    }

    pub(super) fn hash(
        &mut self,
        name: &str,
        args: &[Vec<u8>],
        arity: impl Fn(usize) -> Result<(), String>,
    ) -> Reply {
        arity(1)?;
        let key = &args[0];
        let pick: fn(&mut Data) -> Option<&mut Hash> = hash_of;
        let make = Some((|| Data::Hash(HashMap::new())) as fn() -> Data);
        let reply = match name {
            "HSET" | "HSETNX" => {
                if args.len() < 3
                    || args.len().is_multiple_of(2)
                    || (name == "HSETNX" && args.len() != 3)
                {
                    arity(usize::MAX)?;
                }
                let h = self.typed(key, make, pick)?.expect("made");
                let mut added = 0;
                for pair in args[1..].chunks(2) {
                    if name == "HSETNX" && h.contains_key(&pair[0]) {
                        continue;
                    }
                    if h.insert(pair[0].clone(), pair[1].clone()).is_none() {
                        added += 1;
                    }
                }
                Value::Int(added)
            }
            "HINCRBY" => {
                arity(3)?;
                let by = int(&args[2])?;
                let h = self.typed(key, make, pick)?.expect("made");
                let now = h.get(&args[1]).map_or(Ok(0), |v| int(v))?;
                let new = now.checked_add(by).ok_or(NOT_INTEGER)?;
                h.insert(args[1].clone(), new.to_string().into_bytes());
                Value::Int(new)
            }
            _ => {
                let h = self.typed(key, None, pick)?;
                match name {
                    "HGET" => {
                        arity(2)?;
                        h.and_then(|h| h.get(&args[1]))
                            .map_or(Value::Nil, |v| bulk(v))
                    }
                    "HMGET" => {
                        arity(2)?;
                        Value::Array(
                            args[1..]
                                .iter()
                                .map(|f| {
                                    h.as_ref()
                                        .and_then(|h| h.get(f))
                                        .map_or(Value::Nil, |v| bulk(v))
                                })
                                .collect(),
                        )
                    }
                    "HGETALL" => Value::Array(
                        h.into_iter()
                            .flat_map(|h| h.iter())
                            .flat_map(|(f, v)| [bulk(f), bulk(v)])
                            .collect(),
                    ),
                    "HLEN" => Value::Int(h.map_or(0, |h| h.len() as i64)),
                    "HEXISTS" => {
                        arity(2)?;
                        Value::Int(h.is_some_and(|h| h.contains_key(&args[1])) as i64)
                    }
                    _ => {
                        arity(2)?;
                        let n = h.map_or(0, |h| {
                            args[1..].iter().filter(|f| h.remove(*f).is_some()).count()
                        });
                        Value::Int(n as i64)
                    }
                }
            }
        };
        self.drop_empty(key);
        Ok(reply)
    }

    pub(super) fn list(
        &mut self,
        name: &str,
        args: &[Vec<u8>],
        arity: impl Fn(usize) -> Result<(), String>,
    ) -> Reply {
        arity(1)?;
        let key = &args[0];
        let pick: fn(&mut Data) -> Option<&mut VecDeque<Vec<u8>>> = list_of;
        let reply = match name {
            "LPUSH" | "RPUSH" => {
                arity(2)?;
                let make = Some((|| Data::List(VecDeque::new())) as fn() -> Data);
                let l = self.typed(key, make, pick)?.expect("made");
                for v in &args[1..] {
                    if name == "LPUSH" {
                        l.push_front(v.clone());
                    } else {
                        l.push_back(v.clone());
                    }
                }
                Value::Int(l.len() as i64)
            }
            "LLEN" => Value::Int(self.typed(key, None, pick)?.map_or(0, |l| l.len() as i64)),
            _ => {
                arity(3)?;
                let (start, stop) = (int(&args[1])?, int(&args[2])?);
                let l = self.typed(key, None, pick)?;
                let len = l.as_ref().map_or(0, |l| l.len());
                let kept = range(start, stop, len);
                match (name, l) {
                    ("LRANGE", l) => Value::Array(match (l, kept) {
                        (Some(l), Some((a, b))) => l.range(a..=b).map(|v| bulk(v)).collect(),
                        _ => Vec::new(),
                    }),
                    (_, Some(l)) => {
                        match kept {
                            Some((a, b)) => {
                                l.truncate(b + 1);
                                l.drain(..a);
                            }
                            None => l.clear(),
                        }
                        Value::Okay
                    }
                    (_, None) => Value::Okay,
                }
            }
        };
        self.drop_empty(key);
        Ok(reply)
    }

    pub(super) fn zset(
        &mut self,
        name: &str,
        args: &[Vec<u8>],
        arity: impl Fn(usize) -> Result<(), String>,
    ) -> Reply {
        arity(1)?;
        let key = &args[0];
        let pick: fn(&mut Data) -> Option<&mut Zset> = zset_of;
        // Members in Redis's order: by score, then by member's bytes.
        let sorted = |z: &HashMap<Vec<u8>, f64>| {
            let mut v: Vec<(Vec<u8>, f64)> = z.iter().map(|(m, s)| (m.clone(), *s)).collect();
            v.sort_by(|a, b| a.1.total_cmp(&b.1).then_with(|| a.0.cmp(&b.0)));
            v
        };
        let reply = match name {
            "ZADD" => {
                let mut i = 1;
                let (mut nx, mut xx, mut gt, mut lt, mut ch) = (false, false, false, false, false);
                while let Some(flag) = args.get(i) {
                    match text(flag).to_ascii_uppercase().as_str() {
                        "NX" => nx = true,
                        "XX" => xx = true,
                        "GT" => gt = true,
                        "LT" => lt = true,
                        "CH" => ch = true,
                        _ => break,
                    }
                    i += 1;
                }
                let pairs = &args[i..];
                if pairs.is_empty() || !pairs.len().is_multiple_of(2) {
                    return Err(SYNTAX.into());
                }
                let scores: Vec<f64> = pairs
                    .chunks(2)
                    .map(|p| float(&p[0]))
                    .collect::<Result<_, _>>()?;
                let make = Some((|| Data::Zset(HashMap::new())) as fn() -> Data);
                let z = self.typed(key, make, pick)?.expect("made");
                let (mut added, mut changed) = (0, 0);
                for (p, s) in pairs.chunks(2).zip(scores) {
                    match z.get(&p[1]).copied() {
                        None if !xx => {
                            z.insert(p[1].clone(), s);
                            added += 1;
                        }
                        Some(old) if !(nx || old == s || (gt && s <= old) || (lt && s >= old)) => {
                            z.insert(p[1].clone(), s);
                            changed += 1;
                        }
                        _ => {}
                    }
                }
                Value::Int(if ch { added + changed } else { added })
            }
            "ZREM" => {
                arity(2)?;
                let n = self.typed(key, None, pick)?.map_or(0, |z| {
                    args[1..].iter().filter(|m| z.remove(*m).is_some()).count()
                });
                Value::Int(n as i64)
            }
            "ZCARD" => Value::Int(self.typed(key, None, pick)?.map_or(0, |z| z.len() as i64)),
            "ZSCORE" => {
                arity(2)?;
                match self.typed(key, None, pick)?.and_then(|z| z.get(&args[1])) {
                    Some(s) => score(*s),
                    None => Value::Nil,
                }
            }
            "ZRANK" | "ZREVRANK" => {
                arity(2)?;
                let all = self
                    .typed(key, None, pick)?
                    .map(|z| sorted(z))
                    .unwrap_or_default();
                match all.iter().position(|(m, _)| *m == args[1]) {
                    Some(i) if name == "ZRANK" => Value::Int(i as i64),
                    Some(i) => Value::Int((all.len() - 1 - i) as i64),
                    None => Value::Nil,
                }
            }
            "ZRANGE" | "ZREVRANGE" | "ZREMRANGEBYRANK" => {
                arity(3)?;
                let (start, stop) = (int(&args[1])?, int(&args[2])?);
                let scores = match args.get(3) {
                    None => false,
                    Some(w) if text(w).eq_ignore_ascii_case("WITHSCORES") => true,
                    Some(_) => return Err(SYNTAX.into()),
                };
                let Some(z) = self.typed(key, None, pick)? else {
                    return Ok(if name == "ZREMRANGEBYRANK" {
                        Value::Int(0)
                    } else {
                        Value::Array(Vec::new())
                    });
                };
                let mut all = sorted(z);
                if name == "ZREVRANGE" {
                    all.reverse();
                }
                let picked: Vec<(Vec<u8>, f64)> = match range(start, stop, all.len()) {
                    Some((a, b)) => all[a..=b].to_vec(),
                    None => Vec::new(),
                };
                if name == "ZREMRANGEBYRANK" {
                    for (m, _) in &picked {
                        z.remove(m);
                    }
                    Value::Int(picked.len() as i64)
                } else {
                    Value::Array(
                        picked
                            .iter()
                            .flat_map(|(m, s)| {
                                std::iter::once(bulk(m)).chain(scores.then(|| score(*s)))
                            })
                            .collect(),
                    )
                }
            }
            _ => {
                // ZRANGEBYSCORE key min max [WITHSCORES] [LIMIT offset count]
                arity(3)?;
                let (min, max) = (bound(&args[1])?, bound(&args[2])?);
                let (mut scores, mut offset, mut count) = (false, 0usize, usize::MAX);
                let mut i = 3;
                while let Some(w) = args.get(i) {
                    match text(w).to_ascii_uppercase().as_str() {
                        "WITHSCORES" => scores = true,
                        "LIMIT" => {
                            let o = int(args.get(i + 1).ok_or(SYNTAX)?)?;
                            let c = int(args.get(i + 2).ok_or(SYNTAX)?)?;
                            offset = o.max(0) as usize;
                            count = if c < 0 { usize::MAX } else { c as usize };
                            i += 2;
                        }
                        _ => return Err(SYNTAX.into()),
                    }
                    i += 1;
                }
                let all = self
                    .typed(key, None, pick)?
                    .map(|z| sorted(z))
                    .unwrap_or_default();
                let within = |s: f64| {
                    (if min.1 { s > min.0 } else { s >= min.0 })
                        && (if max.1 { s < max.0 } else { s <= max.0 })
                };
                Value::Array(
                    all.iter()
                        .filter(|(_, s)| within(*s))
                        .skip(offset)
                        .take(count)
                        .flat_map(|(m, s)| {
                            std::iter::once(bulk(m)).chain(scores.then(|| score(*s)))
                        })
                        .collect(),
                )
            }
        };
        self.drop_empty(key);
        Ok(reply)
    }
}
