//! The game's log as stored: [`GameRecord::log`](crate::game::record::GameRecord::log) keeps every
//! result of a game and is written to Redis with each transition, so a shot, nearly all of
//! it, is written as a short text (`0>1@C4:h`) and any other result in its usual serde form.
//! Records written before, with every result in the usual form, still decode.
//!
//! A shot's text is `shooter>target@cell:result`: seats as numbers, the cell in its Latin
//! storage form, the result `m` (miss), `h` (hit), `x` (a mine) or `s` and the sunk kind's
//! number (`s4`, `s101`).

use engine::{Coord, Event, Kind, SeatId, ShotResult};
use serde::de::{self, Deserializer};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};

/// Writes the log: shots as short texts, the rest as they are.
///
/// # Errors
/// The serializer's.
pub fn serialize<S: Serializer>(log: &[Event], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_seq(log.iter().map(|e| match shot_text(e) {
        Some(text) => Stored::Short(text),
        None => Stored::Full(e),
    }))
}

/// Reads a log written by [`serialize`], or one of events in their usual form.
///
/// # Errors
/// The deserializer's, for an entry that is neither a shot's text nor an event.
pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<Event>, D::Error> {
    let entries = Vec::<Entry>::deserialize(deserializer)?;
    Ok(entries
        .into_iter()
        .map(|e| match e {
            Entry::Short(ShortShot(e)) | Entry::Full(e) => e,
        })
        .collect())
}

#[derive(Serialize)]
#[serde(untagged)]
enum Stored<'a> {
    Short(String),
    Full(&'a Event),
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Entry {
    Short(ShortShot),
    Full(Event),
}

/// A shot read from its short text; any other text is refused, so that an event whose usual
/// form is a text (a unit variant) is read as that event.
struct ShortShot(Event);

impl<'de> Deserialize<'de> for ShortShot {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<ShortShot, D::Error> {
        let text = String::deserialize(deserializer)?;
        parse_shot(&text)
            .map(ShortShot)
            .ok_or_else(|| de::Error::custom(format!("not a shot: {text}")))
    }
}

/// A shot's short text; `None` for any other event.
pub fn shot_text(e: &Event) -> Option<String> {
    let Event::Shot {
        shooter,
        target,
        cell,
        result,
    } = e
    else {
        return None;
    };
    let result = match result {
        ShotResult::Miss => "m".to_owned(),
        ShotResult::Hit => "h".to_owned(),
        ShotResult::Mine => "x".to_owned(),
        ShotResult::Sunk(k) => format!("s{}", u8::from(*k)),
    };
    Some(format!(
        "{}>{}@{}:{result}",
        shooter.0,
        target.0,
        cell.latin()
    ))
}

/// Reads a shot's short text.
pub fn parse_shot(text: &str) -> Option<Event> {
    let (shooter, rest) = text.split_once('>')?;
    let (target, rest) = rest.split_once('@')?;
    let (cell, result) = rest.split_once(':')?;
    let result = match result {
        "m" => ShotResult::Miss,
        "h" => ShotResult::Hit,
        "x" => ShotResult::Mine,
        _ => ShotResult::Sunk(Kind::try_from(result.strip_prefix('s')?.parse::<u8>().ok()?).ok()?),
    };
    Some(Event::Shot {
        shooter: SeatId(shooter.parse().ok()?),
        target: SeatId(target.parse().ok()?),
        cell: Coord::from_latin(cell)?,
        result,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Holder {
        #[serde(with = "super")]
        log: Vec<Event>,
    }

    /// Every kind of result the log keeps (see `GameRecord::push_log`), and a unit event.
    fn every_kind() -> Vec<Event> {
        let shot = |result| Event::Shot {
            shooter: SeatId(0),
            target: SeatId(3),
            cell: Coord::new(25, 25),
            result,
        };
        vec![
            shot(ShotResult::Miss),
            shot(ShotResult::Hit),
            shot(ShotResult::Mine),
            shot(ShotResult::Sunk(Kind::Ship(4))),
            shot(ShotResult::Sunk(Kind::Ship(26))),
            shot(ShotResult::Sunk(Kind::AttackAircraft)),
            shot(ShotResult::Sunk(Kind::Tank)),
            Event::Salvo {
                shooter: SeatId(1),
                target: SeatId(2),
                shots: 3,
                hits: 1,
                mines: 1,
                sunk: vec![Kind::Ship(1)],
            },
            Event::GaveUp {
                seat: SeatId(1),
                cell: Coord::new(0, 0),
                result: ShotResult::Sunk(Kind::Ship(2)),
                timed_out: true,
            },
            Event::MineChoice {
                seat: SeatId(1),
                remaining: 1,
                deadline: 1_700_000_000,
            },
            Event::Surrendered(SeatId(2)),
            Event::Forfeit(SeatId(3)),
            Event::Eliminated(SeatId(0)),
            Event::Reminder(SeatId(1)),
            Event::PlacementBegan,
        ]
    }

    #[test]
    fn every_kind_of_result_round_trips_and_shots_are_short() {
        let holder = Holder { log: every_kind() };
        let json = serde_json::to_string(&holder).unwrap();
        assert!(json.contains(r#""0>3@Z26:m""#), "{json}");
        assert!(json.contains(r#""0>3@Z26:s104""#), "{json}");
        assert!(!json.contains("Shot"), "{json}");
        assert_eq!(serde_json::from_str::<Holder>(&json).unwrap(), holder);
    }

    #[test]
    fn a_log_of_events_in_their_usual_form_still_decodes() {
        let log = every_kind();
        let old = serde_json::json!({ "log": serde_json::to_value(&log).unwrap() });
        assert!(old.to_string().contains(r#""Shot""#));
        let holder: Holder = serde_json::from_value(old).unwrap();
        assert_eq!(holder.log, log);
    }

    #[test]
    fn a_text_that_is_no_shot_is_refused() {
        for text in [
            "0>1@C4",
            "0>1@C0:m",
            "0>1@C4:s0",
            "a>1@C4:m",
            "0>1@c4:h",
            "0>1@C4:q",
        ] {
            assert_eq!(parse_shot(text), None, "{text}");
        }
        let bad = serde_json::json!({ "log": ["0>1@C4:q"] });
        assert!(serde_json::from_value::<Holder>(bad).is_err());
    }
}
