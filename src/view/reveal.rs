//! The fleets revealed at the end, in words a person reads: each seat's ships by size in the
//! chat's alphabet, its mines when the game has them, and under them the exact text its
//! commitment was made of (the layout's canonical text, `|` and the salt).

use super::render::{cell_name, escape, kind_name};
use crate::game::lang::Lang;
use crate::game::record::GameRecord;
use crate::game::record::Play;
use crate::view::i18n::t;
use engine::{Alphabet, Coord, Fleet, Kind, SeatId, Size};
use std::cmp::Reverse;

/// One block for each seat whose fleet is revealed: `Anna: 4: а1–г1 · 3: в3–в5, к1–к3 · …`
/// and the check line in `<code>`. Empty before the end.
pub fn reveal_blocks(rec: &GameRecord) -> Vec<String> {
    let ruleset = rec.game.ruleset();
    let size = ruleset.size();
    (0..rec.game.seats().len() as u8)
        .map(SeatId)
        .filter_map(|seat| {
            let (layout, salt) = rec.game.reveal(seat)?;
            let fleet = rec.game.fleet(seat)?;
            let name = escape(rec.names.get(seat.index()).map_or("?", String::as_str));
            let words = fleet_words(rec.lang, fleet, rec.alphabet, size, ruleset.mines > 0);
            Some(format!("{name}: {words}\n<code>{layout}|{salt}</code>"))
        })
        .collect()
}

/// A fleet in words: its ships by kind, the largest ships first, then the land and air
/// units; then the mines, when the game has them. No part is empty.
pub fn fleet_words(
    lang: Lang,
    fleet: &Fleet,
    alphabet: Alphabet,
    size: Size,
    mines: bool,
) -> String {
    let order = |k: Kind| match k {
        Kind::Ship(n) => (0, Reverse(n), 0),
        unit => (1, Reverse(0), u8::from(unit)),
    };
    let mut kinds: Vec<Kind> = fleet.ships().iter().map(|s| s.kind).collect();
    kinds.sort_by_key(|&k| order(k));
    kinds.dedup();
    let mut parts: Vec<String> = kinds
        .into_iter()
        .map(|kind| {
            let label = match kind {
                Kind::Ship(n) => n.to_string(),
                unit => kind_name(lang, unit),
            };
            let mut ships: Vec<Vec<Coord>> = fleet
                .ships()
                .iter()
                .filter(|s| s.kind == kind)
                .map(|s| {
                    let mut cells = s.cells.clone();
                    cells.sort_unstable_by_key(|c| (c.y, c.x));
                    cells
                })
                .collect();
            ships.sort_unstable_by_key(|cells| cells.first().map(|c| (c.y, c.x)));
            let ships: Vec<String> = ships
                .iter()
                .map(|cells| ship_words(cells, alphabet, size))
                .collect();
            format!("{label}: {}", ships.join(", "))
        })
        .collect();
    if mines && !fleet.mines().is_empty() {
        let mut cells = fleet.mines().to_vec();
        cells.sort_unstable_by_key(|c| (c.y, c.x));
        let cells: Vec<String> = cells
            .iter()
            .map(|&c| cell_name(c, alphabet, size))
            .collect();
        parts.push(format!("{}: {}", t(lang, "end-mines"), cells.join(", ")));
    }
    parts.join(" · ")
}

/// A ship's cells (sorted by row, then column): `а1–г1` for a straight line, else each cell.
fn ship_words(cells: &[Coord], alphabet: Alphabet, size: Size) -> String {
    let name = |c: Coord| cell_name(c, alphabet, size);
    let (Some(&first), Some(&last)) = (cells.first(), cells.last()) else {
        return String::new();
    };
    if cells.len() == 1 {
        return name(first);
    }
    let line = cells
        .windows(2)
        .all(|w| w[0].y == w[1].y && w[0].x + 1 == w[1].x)
        || cells
            .windows(2)
            .all(|w| w[0].x == w[1].x && w[0].y + 1 == w[1].y);
    if line {
        format!("{}–{}", name(first), name(last))
    } else {
        let names: Vec<String> = cells.iter().map(|&c| name(c)).collect();
        names.join(" ")
    }
}

/// The key of a finished game's replay link, known only to those who saw the game (its
/// group, its players): replays are not found by counting game ids. Drawn from the fleets'
/// commitments the battle message showed, or a Riga game's start position. `None` for a
/// game with nothing to replay.
pub fn replay_key(rec: &GameRecord) -> Option<String> {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    h.update(b"morskoy-boy replay");
    match &rec.play {
        Play::Riga(r) => h.update(serde_json::to_vec(r.start.as_ref()?).ok()?),
        Play::SeaBattle(_) => {
            for s in 0..rec.game.seats().len() as u8 {
                h.update(rec.game.commitment(SeatId(s))?.as_bytes());
            }
        }
    }
    Some(
        h.finalize()[..6]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::Ruleset;

    fn c(x: u8, y: u8) -> Coord {
        Coord::new(x, y)
    }

    #[test]
    fn a_straight_ship_is_written_by_its_ends_and_a_bent_one_cell_by_cell() {
        let size = Ruleset::default().size();
        let cyr = Alphabet::Russian;
        assert_eq!(
            ship_words(&[c(0, 0), c(1, 0), c(2, 0), c(3, 0)], cyr, size),
            "а1–г1"
        );
        assert_eq!(ship_words(&[c(9, 0), c(9, 1), c(9, 2)], cyr, size), "к1–к3");
        assert_eq!(ship_words(&[c(4, 4)], cyr, size), "д5");
        assert_eq!(
            ship_words(&[c(0, 0), c(1, 0), c(1, 1)], Alphabet::Latin, size),
            "A1 B1 B2"
        );
    }
}
