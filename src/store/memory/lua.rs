//! EVAL, EVALSHA and SCRIPT as Redis runs them: the script's source by its SHA1, run by Lua
//! 5.1 with `KEYS`, `ARGV` and `redis.call`, its values turned into Lua's and back by Redis's
//! rules (a nil reply is `false`; a number returned is an integer, truncated; a table is an
//! array up to its first nil; `{err = …}` an error, `{ok = …}` a status).

use super::{Db, Reply};
use mlua::{Function, Lua, Value as Lua_, Variadic};
use redis::Value;
use std::collections::HashMap;

/// The loaded scripts, by SHA1, compiled.
pub(super) struct Scripts {
    lua: Lua,
    by_sha: HashMap<String, Function>,
}

const NOSCRIPT: &str = "NOSCRIPT No matching script. Please use EVAL.";

impl Scripts {
    pub(super) fn new() -> Scripts {
        Scripts {
            lua: Lua::new(),
            by_sha: HashMap::new(),
        }
    }

    /// Compiles `source` and keeps it by its SHA1 (the one redis-rs asks for).
    fn load(&mut self, source: &[u8]) -> Result<String, String> {
        let source = String::from_utf8_lossy(source).into_owned();
        let sha = redis::Script::new(&source).get_hash().to_owned();
        if !self.by_sha.contains_key(&sha) {
            let f = self
                .lua
                .load(source.as_str())
                .set_name(format!("@user_script:{sha}"))
                .into_function()
                .map_err(|e| format!("ERR Error compiling script: {e}"))?;
            self.by_sha.insert(sha.clone(), f);
        }
        Ok(sha)
    }

    /// EVAL, EVALSHA or SCRIPT, with the words after the command's name.
    pub(super) fn command(&mut self, db: &mut Db, name: &str, args: &[Vec<u8>]) -> Reply {
        let wrong = || {
            format!(
                "ERR wrong number of arguments for '{}' command",
                name.to_ascii_lowercase()
            )
        };
        if name == "SCRIPT" {
            let sub = args.first().ok_or_else(wrong)?;
            return match String::from_utf8_lossy(sub).to_ascii_uppercase().as_str() {
                "LOAD" => {
                    let sha = self.load(args.get(1).ok_or_else(wrong)?)?;
                    Ok(Value::BulkString(sha.into_bytes()))
                }
                "EXISTS" => Ok(Value::Array(
                    args[1..]
                        .iter()
                        .map(|s| {
                            let sha = String::from_utf8_lossy(s).to_ascii_lowercase();
                            Value::Int(self.by_sha.contains_key(&sha) as i64)
                        })
                        .collect(),
                )),
                "FLUSH" => {
                    self.by_sha.clear();
                    Ok(Value::Okay)
                }
                _ => Err("ERR unknown subcommand".into()),
            };
        }
        if args.len() < 2 {
            return Err(wrong());
        }
        let sha = if name == "EVAL" {
            self.load(&args[0])?
        } else {
            String::from_utf8_lossy(&args[0]).to_ascii_lowercase()
        };
        let f = self.by_sha.get(&sha).ok_or(NOSCRIPT)?.clone();
        let n: usize = String::from_utf8_lossy(&args[1])
            .parse()
            .map_err(|_| "ERR value is not an integer or out of range".to_owned())?;
        let rest = &args[2..];
        if n > rest.len() {
            return Err("ERR Number of keys can't be greater than number of args".into());
        }
        let (keys, argv) = rest.split_at(n);
        self.run(db, &f, keys, argv)
    }

    fn run(&self, db: &mut Db, f: &Function, keys: &[Vec<u8>], argv: &[Vec<u8>]) -> Reply {
        let lua = &self.lua;
        let out = lua.scope(|scope| {
            let call = scope.create_function_mut(|lua, args: Variadic<Lua_>| {
                let words = args
                    .iter()
                    .map(argument)
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(mlua::Error::RuntimeError)?;
                match db.command(&words) {
                    Ok(v) => to_lua(lua, v),
                    Err(e) => Err(mlua::Error::RuntimeError(e)),
                }
            })?;
            let redis = lua.create_table()?;
            redis.set("call", call)?;
            let globals = lua.globals();
            globals.set("redis", redis)?;
            let strings = |words: &[Vec<u8>]| {
                lua.create_sequence_from(
                    words
                        .iter()
                        .map(|w| lua.create_string(w))
                        .collect::<mlua::Result<Vec<_>>>()?,
                )
            };
            globals.set("KEYS", strings(keys)?)?;
            globals.set("ARGV", strings(argv)?)?;
            let out: Lua_ = f.call(())?;
            Ok(from_lua(out))
        });
        match out {
            Ok(reply) => reply,
            Err(e) => Err(format!("ERR user_script: {e}")),
        }
    }
}

/// An argument of `redis.call`: a string, or a number written as Redis writes it.
fn argument(v: &Lua_) -> Result<Vec<u8>, String> {
    match v {
        Lua_::String(s) => Ok(s.as_bytes().to_vec()),
        Lua_::Integer(i) => Ok(i.to_string().into_bytes()),
        Lua_::Number(n) if n.fract() == 0.0 && n.abs() < 1e17 => {
            Ok((*n as i64).to_string().into_bytes())
        }
        Lua_::Number(n) => Ok(n.to_string().into_bytes()),
        _ => Err("Lua redis lib command arguments must be strings or integers".into()),
    }
}

/// A reply as a script sees it.
fn to_lua(lua: &Lua, v: Value) -> mlua::Result<Lua_> {
    Ok(match v {
        Value::Nil => Lua_::Boolean(false),
        Value::Int(i) => Lua_::Number(i as f64),
        Value::BulkString(b) => Lua_::String(lua.create_string(b)?),
        Value::Array(items) => {
            let t = lua.create_table()?;
            for (i, item) in items.into_iter().enumerate() {
                t.raw_set(i + 1, to_lua(lua, item)?)?;
            }
            Lua_::Table(t)
        }
        Value::Okay => {
            let t = lua.create_table()?;
            t.set("ok", "OK")?;
            Lua_::Table(t)
        }
        Value::SimpleString(s) => {
            let t = lua.create_table()?;
            t.set("ok", s)?;
            Lua_::Table(t)
        }
        other => {
            return Err(mlua::Error::RuntimeError(format!(
                "a reply scripts never see: {other:?}"
            )))
        }
    })
}

/// A script's result as Redis replies it.
fn from_lua(v: Lua_) -> Reply {
    Ok(match v {
        Lua_::Nil | Lua_::Boolean(false) => Value::Nil,
        Lua_::Boolean(true) => Value::Int(1),
        Lua_::Integer(i) => Value::Int(i),
        Lua_::Number(n) => Value::Int(n as i64),
        Lua_::String(s) => Value::BulkString(s.as_bytes().to_vec()),
        Lua_::Table(t) => {
            if let Ok(Lua_::String(e)) = t.raw_get::<Lua_>("err") {
                return Err(e.to_string_lossy());
            }
            if let Ok(Lua_::String(s)) = t.raw_get::<Lua_>("ok") {
                return Ok(Value::SimpleString(s.to_string_lossy()));
            }
            let mut items = Vec::new();
            for i in 1.. {
                match t.raw_get::<Lua_>(i) {
                    Ok(Lua_::Nil) | Err(_) => break,
                    Ok(item) => items.push(from_lua(item)?),
                }
            }
            Value::Array(items)
        }
        _ => Value::Nil,
    })
}
