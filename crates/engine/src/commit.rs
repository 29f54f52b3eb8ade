//! Fairness: the SHA-256 commitment to a fleet (docs/rules.md §4).
//!
//! At the first shot the bot publishes `sha256(canonical text + "|" + salt)` for every fleet;
//! at the end it publishes the canonical texts and the salts, and anyone can recompute the hash.

use crate::fleet::Fleet;
use sha2::{Digest, Sha256};
use std::fmt::Write;

/// The first game schema (`Game::v`) whose canonical texts leave out empty parts: games
/// stored before keep the texts their published commitments were made of.
pub const COMPACT_SINCE: u16 = 2;

/// The canonical text of a layout: every ship as `kind:cells` with cells in Latin form and
/// sorted, ships sorted, then the mines and the border when there are any
/// (`ships=4:A1,B1,C1,D1 3:…;mines=E5`). Two equal layouts have equal texts whatever order
/// they were placed in.
pub fn canonical_text(fleet: &Fleet) -> String {
    canonical(fleet, false)
}

/// The canonical text of games stored before [`COMPACT_SINCE`]: like [`canonical_text`],
/// but with `;mines=` even when there are none.
pub fn canonical_text_v1(fleet: &Fleet) -> String {
    canonical(fleet, true)
}

/// The canonical text for a game of this schema version.
pub fn canonical_text_for(fleet: &Fleet, schema: u16) -> String {
    if schema < COMPACT_SINCE {
        canonical_text_v1(fleet)
    } else {
        canonical_text(fleet)
    }
}

fn canonical(fleet: &Fleet, empty_mines: bool) -> String {
    let mut ships: Vec<String> = fleet
        .ships()
        .iter()
        .map(|s| {
            let mut cells = s.cells.clone();
            cells.sort_unstable_by_key(|c| (c.y, c.x));
            let cells: Vec<String> = cells.iter().map(|c| c.latin()).collect();
            format!("{}:{}", u8::from(s.kind), cells.join(","))
        })
        .collect();
    ships.sort();
    let mut mines = fleet.mines().to_vec();
    mines.sort_unstable_by_key(|c| (c.y, c.x));
    let mines: Vec<String> = mines.iter().map(|c| c.latin()).collect();
    let mut text = format!("ships={}", ships.join(" "));
    if empty_mines || !mines.is_empty() {
        let _ = write!(text, ";mines={}", mines.join(","));
    }
    if let Some(b) = fleet.border() {
        let rows: Vec<String> = b.rows().iter().map(|r| (r + 1).to_string()).collect();
        let _ = write!(text, ";land={}", rows.join(","));
    }
    text
}

/// A salt: 16 random bytes, written as 32 lowercase hex digits.
pub fn salt(rng: &mut impl rand::Rng) -> String {
    let bytes: [u8; 16] = rng.gen();
    hex(&bytes)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// The commitment to a canonical text and salt: 64 lowercase hex digits.
pub fn commitment_of_text(canonical: &str, salt: &str) -> String {
    let mut h = Sha256::new();
    h.update(canonical.as_bytes());
    h.update(b"|");
    h.update(salt.as_bytes());
    hex(&h.finalize())
}

/// The commitment to a fleet under a salt, for a game of this schema version.
pub fn commitment(fleet: &Fleet, salt: &str, schema: u16) -> String {
    commitment_of_text(&canonical_text_for(fleet, schema), salt)
}

/// Checks a reveal: whether the published canonical text and salt give the commitment.
pub fn verify(commitment: &str, canonical: &str, salt: &str) -> bool {
    commitment_of_text(canonical, salt).eq_ignore_ascii_case(commitment.trim())
}
