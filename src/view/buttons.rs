//! Callback data: what a button means, typed, in at most 64 bytes.
//!
//! Buttons stay in chats for months, so every kind carries the game id, and group buttons
//! the generation of the message they belong to; an old button decodes and is then refused
//! politely ("this game is over", "out of date"), never misread.

pub use crate::game::placement::EditOp;
use crate::game::record::{GameKind, SettingsPage};
pub use crate::game::settings::{FieldChoice, SetOp};
use crate::game::tournament::Format;
pub use crate::game::tournament::TourOp;
use crate::game::GameId;
use engine::{Players, Shapes, Touching, TurnTimer};
use std::fmt;

/// The most bytes Telegram takes in callback data.
pub const MAX_LEN: usize = 64;

/// A button's meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Button {
    /// Lobby: take a seat.
    Join(GameId, u32),
    /// Lobby: start placement (creator).
    Start(GameId, u32),
    /// Lobby: call the game off (creator).
    Cancel(GameId, u32),
    /// Lobby: seat the bot (creator).
    Bot(GameId, u32),
    /// Battle: shoot at `target`'s cell with this row-major index.
    Fire(GameId, u32, u8, u16),
    /// Battle: show another block of the target field.
    View(GameId, u32, u8),
    /// Battle (free-for-all, teams): aim at this seat's field.
    Target(GameId, u32, u8),
    /// Battle (salvo): fire the picked cells at this seat's field.
    Salvo(GameId, u32, u8),
    /// Battle (the arsenal): arm this weapon for the next cell, or put it down.
    Arm(GameId, u32, engine::Weapon),
    /// Battle (the arsenal): the torpedo from the corner tapped runs this way.
    Heading(GameId, u32, engine::Heading),
    /// After a mine, in the shooter's private chat: give up this cell (row-major index) of
    /// the own fleet; the choice is named by its deadline, so a button of an earlier choice
    /// is out of date.
    GiveUp(GameId, u64, u16),
    /// Battle, under a player's own field in their private chat: bring it up to date now.
    OwnField(GameId),
    /// Finished game: a new game with the same players.
    Rematch(GameId),
    /// Placement editor: tap a cell.
    Cell(GameId, u16),
    /// Placement editor: show another block.
    Block(GameId, u8),
    /// Placement editor: undo, clear, random, Perelman, ready.
    Edit(GameId, EditOp),
    /// `/lang`: speak this language (to the user in private, to the group in a group).
    Lang(crate::game::lang::Lang),
    /// `/settings`: the chat's column letters.
    Alphabet(engine::Alphabet),
    /// `/settings`: how well the bot plays in the chat.
    AiLevel(engine::ai::Level),
    /// The settings panel: an option chosen, a page opened, seats swapped, Done.
    Set(Panel, SetOp),
    /// Riga set-up, in the private chat: this start point (west to east) is tapped; two
    /// taps swap their ships.
    RigaTap(GameId, u8),
    /// Riga set-up: a random order.
    RigaShuffle(GameId),
    /// Riga set-up: the order is locked.
    RigaLock(GameId),
    /// Riga battle: this move, in the position after this many moves.
    RigaMove(GameId, u32, riga::Move),
    /// Lobby: Sea Battle or the Riga game (creator).
    RigaToggle(GameId, u32),
    /// A finished game's replay, in a private chat: show this step (0 before the first
    /// shot).
    Replay(GameId, u16),
    /// An inline card (sent by this user, of this game): its first press opens the game's
    /// lobby on the card, and takes a seat.
    Card(u64, GameKind),
    /// A group's tournament (by its id): join, leave, its format, start, cancel.
    Tour(u64, TourOp),
    /// Look for an opponent (`true`: the welcome's button) or stop (the waiting message's).
    Find(bool),
    /// A quick match's board: send the opponent this reaction (`own_field::REACTIONS`).
    React(GameId, u8),
    /// A quick match's board at the end: never be paired with this opponent again.
    BlockPlayer(GameId),
    /// Does nothing (labels, spacers).
    Noop,
}

impl TourOp {
    fn code(self) -> String {
        match self {
            TourOp::Join => "j".into(),
            TourOp::Leave => "l".into(),
            TourOp::Start => "s".into(),
            TourOp::Cancel => "x".into(),
            TourOp::Format(f) => format!("f{}", format_code(f)),
        }
    }

    fn from_code(s: &str) -> Option<TourOp> {
        let ops = [TourOp::Join, TourOp::Leave, TourOp::Start, TourOp::Cancel];
        let formats = Format::ALL.map(TourOp::Format);
        ops.into_iter().chain(formats).find(|op| op.code() == s)
    }
}

fn format_code(f: Format) -> &'static str {
    match f {
        Format::RoundRobin => "r",
        Format::Swiss => "s",
        Format::Elimination => "e",
    }
}

/// The kind of message a button is made for. A press is taken only on a message of its
/// button's kind: callback data can be forged by a client, and a settings panel's button
/// pressed on the battle message must not turn it into a panel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Surface {
    /// A game's live message before the battle: the lobby (its settings panel included), a
    /// Riga game's set-up in the group.
    Lobby(GameId),
    /// A game's live message in the battle.
    Battle(GameId),
    /// A seat's private message while it places its fleet (or orders its Riga ships).
    Placement(GameId),
    /// The question after a mine, in the shooter's private chat.
    Mine(GameId),
    /// A player's own field in their private chat, in the battle.
    OwnField(GameId),
    /// The end's announcement.
    End(GameId),
    /// A `/settings` panel of a chat's defaults.
    ChatPanel,
    /// The `/lang` choice.
    Language,
    /// A finished game's replay.
    Replay(GameId),
    /// An inline card before its game is opened.
    Card,
    /// A group's tournament message (sign-up, then standings), by the tournament's id.
    Tournament(u64),
    /// The welcome, `/find`'s waiting message.
    Find,
    /// A label or spacer: on any message.
    Anywhere,
}

/// A Riga move as callback data: `f3` forward, `l3` left, `r3` right, `m3` lay a mine (ship
/// 3), `p` pass.
fn move_code(m: riga::Move) -> String {
    match m {
        riga::Move::Forward(i) => format!("f{i}"),
        riga::Move::Left(i) => format!("l{i}"),
        riga::Move::Right(i) => format!("r{i}"),
        riga::Move::Lay(i) => format!("m{i}"),
        riga::Move::Pass => "p".into(),
    }
}

fn parse_move_code(s: &str) -> Option<riga::Move> {
    if s == "p" {
        return Some(riga::Move::Pass);
    }
    let (head, rest) = s.split_at(s.char_indices().nth(1)?.0);
    let i: u8 = rest.parse().ok()?;
    Some(match head {
        "f" => riga::Move::Forward(i),
        "l" => riga::Move::Left(i),
        "r" => riga::Move::Right(i),
        "m" => riga::Move::Lay(i),
        _ => return None,
    })
}

fn weapon_code(w: engine::Weapon) -> &'static str {
    match w {
        engine::Weapon::Radar => "r",
        engine::Weapon::AirStrike => "a",
        engine::Weapon::Torpedo => "t",
    }
}

fn parse_weapon(s: &str) -> Option<engine::Weapon> {
    engine::Weapon::ALL
        .into_iter()
        .find(|&w| weapon_code(w) == s)
}

fn heading_code(h: engine::Heading) -> &'static str {
    match h {
        engine::Heading::East => "e",
        engine::Heading::West => "w",
        engine::Heading::South => "s",
        engine::Heading::North => "n",
    }
}

fn parse_heading(s: &str) -> Option<engine::Heading> {
    engine::Heading::ALL
        .into_iter()
        .find(|&h| heading_code(h) == s)
}

/// Which settings a panel's button changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Panel {
    /// The chat's defaults for its next games (`/settings` outside a lobby).
    Chat,
    /// An open lobby's ruleset (and the chat's defaults with it), by game and generation.
    Lobby(GameId, u32),
}

impl SettingsPage {
    /// Every page.
    pub const ALL: [SettingsPage; 9] = [
        SettingsPage::Main,
        SettingsPage::Touching,
        SettingsPage::Shapes,
        SettingsPage::Field,
        SettingsPage::Salvo,
        SettingsPage::Mines,
        SettingsPage::Arsenal,
        SettingsPage::Players,
        SettingsPage::Timer,
    ];

    fn code(self) -> char {
        match self {
            SettingsPage::Main => 'm',
            SettingsPage::Touching => 't',
            SettingsPage::Shapes => 's',
            SettingsPage::Field => 'f',
            SettingsPage::Salvo => 'v',
            SettingsPage::Mines => 'n',
            SettingsPage::Arsenal => 'z',
            SettingsPage::Players => 'p',
            SettingsPage::Timer => 'c',
        }
    }

    fn from_code(c: &str) -> Option<SettingsPage> {
        SettingsPage::ALL
            .into_iter()
            .find(|p| c.len() == 1 && c.starts_with(p.code()))
    }
}

impl fmt::Display for SetOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let step = |up: bool| if up { '+' } else { '-' };
        match *self {
            SetOp::Page(p) => write!(f, "p{}", p.code()),
            SetOp::Touching(t) => write!(f, "t{}", t as u8),
            SetOp::Shapes(s) => write!(f, "s{}", s as u8),
            SetOp::Field(c) => write!(
                f,
                "f{}",
                match c {
                    FieldChoice::Classic => 'c',
                    FieldChoice::Big => 'b',
                    FieldChoice::LandSeaAir => 'l',
                    FieldChoice::Custom => 'x',
                }
            ),
            SetOp::Width(up) => write!(f, "w{}", step(up)),
            SetOp::Height(up) => write!(f, "h{}", step(up)),
            SetOp::AddShip(n) => write!(f, "a{n}"),
            SetOp::RemoveShip => f.write_str("r"),
            SetOp::Salvo(n) => write!(f, "v{}", n.unwrap_or(0)),
            SetOp::SalvoStep(up) => write!(f, "v{}", step(up)),
            SetOp::Mines(n) => write!(f, "n{n}"),
            SetOp::Arsenal(n) => write!(f, "z{n}"),
            SetOp::Players(p) => match p {
                Players::Duel => f.write_str("gd"),
                Players::FreeForAll(n) => write!(f, "g{n}"),
                Players::Teams => f.write_str("gt"),
            },
            SetOp::Timer(t) => write!(f, "c{}", t.seconds().map_or(0, |s| s / 60)),
            SetOp::Alphabet(a) => write!(f, "A{a}"),
            SetOp::Level(l) => write!(f, "L{l}"),
            SetOp::Board(b) => write!(
                f,
                "B{}",
                match b {
                    crate::game::record::Board::Picture => 'p',
                    crate::game::record::Board::Text => 't',
                }
            ),
            SetOp::Swap(seat) => write!(f, "x{seat}"),
            SetOp::OwnTopics(on) => write!(f, "T{}", u8::from(on)),
            SetOp::Done => f.write_str("k"),
        }
    }
}

impl SetOp {
    /// Reads an op as [`Display`](fmt::Display) writes it.
    fn parse(s: &str) -> Option<SetOp> {
        let mut chars = s.chars();
        let head = chars.next()?;
        let rest = chars.as_str();
        let num = || rest.parse::<u8>().ok();
        let step = || match rest {
            "+" => Some(true),
            "-" => Some(false),
            _ => None,
        };
        Some(match head {
            'p' => SetOp::Page(SettingsPage::from_code(rest)?),
            't' => SetOp::Touching(match rest {
                "0" => Touching::None,
                "1" => Touching::Corners,
                "2" => Touching::Any,
                _ => return None,
            }),
            's' => SetOp::Shapes(match rest {
                "0" => Shapes::Straight,
                "1" => Shapes::Bent,
                "2" => Shapes::Free,
                _ => return None,
            }),
            'f' => SetOp::Field(match rest {
                "c" => FieldChoice::Classic,
                "b" => FieldChoice::Big,
                "l" => FieldChoice::LandSeaAir,
                "x" => FieldChoice::Custom,
                _ => return None,
            }),
            'w' => SetOp::Width(step()?),
            'h' => SetOp::Height(step()?),
            'a' => SetOp::AddShip(num()?),
            'r' if rest.is_empty() => SetOp::RemoveShip,
            'v' => match step() {
                Some(up) => SetOp::SalvoStep(up),
                None => SetOp::Salvo(Some(num()?).filter(|&n| n > 0)),
            },
            'n' => SetOp::Mines(num()?),
            'z' => SetOp::Arsenal(num()?),
            'g' => SetOp::Players(match rest {
                "d" => Players::Duel,
                "t" => Players::Teams,
                _ => Players::FreeForAll(num()?),
            }),
            'c' => SetOp::Timer(match rest {
                "0" => TurnTimer::Off,
                "1" => TurnTimer::OneMinute,
                "3" => TurnTimer::ThreeMinutes,
                "10" => TurnTimer::TenMinutes,
                _ => return None,
            }),
            'A' => SetOp::Alphabet(rest.parse().ok()?),
            'L' => SetOp::Level(rest.parse().ok()?),
            'B' => SetOp::Board(rest.parse().ok()?),
            'x' => SetOp::Swap(num()?),
            'T' => SetOp::OwnTopics(match rest {
                "0" => false,
                "1" => true,
                _ => return None,
            }),
            'k' if rest.is_empty() => SetOp::Done,
            _ => return None,
        })
    }
}

impl EditOp {
    fn code(self) -> char {
        match self {
            EditOp::Undo => 'u',
            EditOp::Clear => 'c',
            EditOp::Random => 'r',
            EditOp::Perelman => 'p',
            EditOp::Ready => 'k',
            EditOp::Confirm => 'f',
            EditOp::Mines => 'm',
            EditOp::Border => 'b',
            EditOp::RandomBorder => 'g',
        }
    }

    fn from_code(c: &str) -> Option<EditOp> {
        Some(match c {
            "u" => EditOp::Undo,
            "c" => EditOp::Clear,
            "r" => EditOp::Random,
            "p" => EditOp::Perelman,
            "k" => EditOp::Ready,
            "f" => EditOp::Confirm,
            "m" => EditOp::Mines,
            "b" => EditOp::Border,
            "g" => EditOp::RandomBorder,
            _ => return None,
        })
    }
}

impl fmt::Display for Button {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Button::Join(g, n) => write!(f, "j:{g}:{n}"),
            Button::Start(g, n) => write!(f, "s:{g}:{n}"),
            Button::Cancel(g, n) => write!(f, "x:{g}:{n}"),
            Button::Bot(g, n) => write!(f, "b:{g}:{n}"),
            Button::Fire(g, n, t, c) => write!(f, "f:{g}:{n}:{t}:{c}"),
            Button::View(g, n, b) => write!(f, "v:{g}:{n}:{b}"),
            Button::Target(g, n, s) => write!(f, "t:{g}:{n}:{s}"),
            Button::Salvo(g, n, s) => write!(f, "sv:{g}:{n}:{s}"),
            Button::GiveUp(g, d, c) => write!(f, "g:{g}:{d}:{c}"),
            Button::Rematch(g) => write!(f, "r:{g}"),
            Button::OwnField(g) => write!(f, "of:{g}"),
            Button::Cell(g, c) => write!(f, "pt:{g}:{c}"),
            Button::Block(g, b) => write!(f, "pv:{g}:{b}"),
            Button::Edit(g, op) => write!(f, "pe:{g}:{}", op.code()),
            Button::Lang(l) => write!(f, "l:{l}"),
            Button::Alphabet(a) => write!(f, "a:{a}"),
            Button::AiLevel(l) => write!(f, "al:{l}"),
            Button::Set(Panel::Chat, op) => write!(f, "o:{op}"),
            Button::Set(Panel::Lobby(g, n), op) => write!(f, "o:{g}:{n}:{op}"),
            Button::RigaTap(g, p) => write!(f, "qt:{g}:{p}"),
            Button::RigaShuffle(g) => write!(f, "qr:{g}"),
            Button::RigaLock(g) => write!(f, "qk:{g}"),
            Button::RigaMove(g, n, m) => write!(f, "qm:{g}:{n}:{}", move_code(m)),
            Button::RigaToggle(g, n) => write!(f, "qg:{g}:{n}"),
            Button::Replay(g, k) => write!(f, "rp:{g}:{k}"),
            Button::Arm(g, n, w) => write!(f, "wa:{g}:{n}:{}", weapon_code(w)),
            Button::Heading(g, n, h) => write!(f, "wh:{g}:{n}:{}", heading_code(h)),
            Button::Card(u, kind) => {
                let code = match kind {
                    GameKind::SeaBattle => "s",
                    GameKind::Riga => "r",
                };
                write!(f, "ic:{u}:{code}")
            }
            Button::Tour(id, op) => write!(f, "tn:{id}:{}", op.code()),
            Button::Find(go) => f.write_str(if go { "fs" } else { "fx" }),
            Button::React(g, i) => write!(f, "re:{g}:{i}"),
            Button::BlockPlayer(g) => write!(f, "bl:{g}"),
            Button::Noop => f.write_str("-"),
        }
    }
}

impl Button {
    /// The kind of message this button is made for.
    pub fn surface(&self) -> Surface {
        match *self {
            Button::Join(g, _)
            | Button::Start(g, _)
            | Button::Cancel(g, _)
            | Button::Bot(g, _)
            | Button::RigaToggle(g, _)
            | Button::Set(Panel::Lobby(g, _), _) => Surface::Lobby(g),
            Button::Fire(g, ..)
            | Button::View(g, ..)
            | Button::Target(g, ..)
            | Button::Salvo(g, ..)
            | Button::Arm(g, ..)
            | Button::Heading(g, ..)
            | Button::RigaMove(g, ..) => Surface::Battle(g),
            Button::Cell(g, _)
            | Button::Block(g, _)
            | Button::Edit(g, _)
            | Button::RigaTap(g, _)
            | Button::RigaShuffle(g)
            | Button::RigaLock(g) => Surface::Placement(g),
            Button::GiveUp(g, ..) => Surface::Mine(g),
            Button::Rematch(g) => Surface::End(g),
            Button::OwnField(g) => Surface::OwnField(g),
            Button::Set(Panel::Chat, _) | Button::Alphabet(_) | Button::AiLevel(_) => {
                Surface::ChatPanel
            }
            Button::Lang(_) => Surface::Language,
            Button::Replay(g, _) => Surface::Replay(g),
            Button::Card(..) => Surface::Card,
            Button::Tour(id, _) => Surface::Tournament(id),
            Button::Find(_) => Surface::Find,
            Button::React(g, _) | Button::BlockPlayer(g) => Surface::OwnField(g),
            Button::Noop => Surface::Anywhere,
        }
    }

    /// Whether this is a button of a grid (the battle's, the editor's, the mine question's),
    /// whose handler never reads the keyboard it was on: it is cut out of the update before
    /// parsing (`telegram/polling.rs`), and the handler checks the message by its id in the
    /// game's record instead.
    pub fn of_a_grid(&self) -> bool {
        matches!(
            self,
            Button::Fire(..)
                | Button::View(..)
                | Button::Target(..)
                | Button::Salvo(..)
                | Button::Arm(..)
                | Button::Heading(..)
                | Button::GiveUp(..)
                | Button::Cell(..)
                | Button::Block(..)
                | Button::Edit(..)
                | Button::Noop
        )
    }

    /// Whether this button may be pressed on a message whose keyboard carries `keyboard`
    /// (the callback data of its buttons): some button there is of the same kind of
    /// message. A label fits anywhere.
    pub fn fits<'a>(&self, mut keyboard: impl Iterator<Item = &'a str>) -> bool {
        let surface = self.surface();
        surface == Surface::Anywhere
            || keyboard.any(|d| Button::parse(d).is_some_and(|b| b.surface() == surface))
    }

    /// Reads callback data; `None` for anything this bot never wrote.
    pub fn parse(data: &str) -> Option<Button> {
        if data.len() > MAX_LEN {
            return None;
        }
        let parts: Vec<&str> = data.split(':').collect();
        let num = |i: usize| parts.get(i)?.parse::<u64>().ok();
        let game = || num(1).map(GameId);
        let small = |i: usize| num(i).and_then(|n| u32::try_from(n).ok());
        let tiny = |i: usize| num(i).and_then(|n| u8::try_from(n).ok());
        let cell = |i: usize| num(i).and_then(|n| u16::try_from(n).ok());
        let b = match (parts.first().copied()?, parts.len()) {
            ("j", 3) => Button::Join(game()?, small(2)?),
            ("s", 3) => Button::Start(game()?, small(2)?),
            ("x", 3) => Button::Cancel(game()?, small(2)?),
            ("b", 3) => Button::Bot(game()?, small(2)?),
            ("f", 5) => Button::Fire(game()?, small(2)?, tiny(3)?, cell(4)?),
            ("v", 4) => Button::View(game()?, small(2)?, tiny(3)?),
            ("t", 4) => Button::Target(game()?, small(2)?, tiny(3)?),
            ("sv", 4) => Button::Salvo(game()?, small(2)?, tiny(3)?),
            ("g", 4) => Button::GiveUp(game()?, num(2)?, cell(3)?),
            ("r", 2) => Button::Rematch(game()?),
            ("of", 2) => Button::OwnField(game()?),
            ("pt", 3) => Button::Cell(game()?, cell(2)?),
            ("pv", 3) => Button::Block(game()?, tiny(2)?),
            ("pe", 3) => Button::Edit(game()?, EditOp::from_code(parts[2])?),
            ("l", 2) => Button::Lang(parts[1].parse().ok()?),
            ("a", 2) => Button::Alphabet(parts[1].parse().ok()?),
            ("al", 2) => Button::AiLevel(parts[1].parse().ok()?),
            ("o", 2) => Button::Set(Panel::Chat, SetOp::parse(parts[1])?),
            ("o", 4) => Button::Set(Panel::Lobby(game()?, small(2)?), SetOp::parse(parts[3])?),
            ("qt", 3) => Button::RigaTap(game()?, tiny(2)?),
            ("qr", 2) => Button::RigaShuffle(game()?),
            ("qk", 2) => Button::RigaLock(game()?),
            ("qm", 4) => Button::RigaMove(game()?, small(2)?, parse_move_code(parts[3])?),
            ("qg", 3) => Button::RigaToggle(game()?, small(2)?),
            ("rp", 3) => Button::Replay(game()?, cell(2)?),
            ("wa", 4) => Button::Arm(game()?, small(2)?, parse_weapon(parts[3])?),
            ("wh", 4) => Button::Heading(game()?, small(2)?, parse_heading(parts[3])?),
            ("ic", 3) => Button::Card(
                num(1)?,
                match parts[2] {
                    "s" => GameKind::SeaBattle,
                    "r" => GameKind::Riga,
                    _ => return None,
                },
            ),
            ("tn", 3) => Button::Tour(num(1)?, TourOp::from_code(parts[2])?),
            ("fs", 1) => Button::Find(true),
            ("fx", 1) => Button::Find(false),
            ("re", 3) => Button::React(game()?, tiny(2)?),
            ("bl", 2) => Button::BlockPlayer(game()?),
            ("-", 1) => Button::Noop,
            _ => return None,
        };
        Some(b)
    }
}

/// The deep-link payload that completes a join in the private chat: `j<game id>`.
pub fn join_payload(game: GameId) -> String {
    format!("j{game}")
}

/// The deep-link payload that opens a finished game's replay: `rp<game id>-<key>` (the key
/// from [`crate::view::replay::replay_key`]).
pub fn replay_payload(game: GameId, key: &str) -> String {
    format!("rp{game}-{key}")
}

/// Reads a replay's deep-link payload: the game and the key.
pub fn parse_replay_payload(payload: &str) -> Option<(GameId, String)> {
    let (game, key) = payload.strip_prefix("rp")?.split_once('-')?;
    Some((GameId(game.parse().ok()?), key.to_owned()))
}

/// Reads a deep-link payload.
pub fn parse_join_payload(payload: &str) -> Option<GameId> {
    payload.strip_prefix('j')?.parse().ok().map(GameId)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_button_fits_only_a_keyboard_of_its_kind_of_message() {
        let g = GameId(7);
        let other = GameId(8);
        let battle = [
            Button::Fire(g, 2, 1, 5).to_string(),
            Button::Noop.to_string(),
            Button::View(g, 2, 1).to_string(),
        ];
        let panel = [
            Button::Set(Panel::Chat, SetOp::Page(SettingsPage::Timer)).to_string(),
            Button::Alphabet(engine::Alphabet::Latin).to_string(),
        ];
        let lobby = [
            Button::Join(g, 0).to_string(),
            Button::Set(Panel::Lobby(g, 0), SetOp::Page(SettingsPage::Main)).to_string(),
        ];
        let on = |b: Button, kb: &[String]| b.fits(kb.iter().map(String::as_str));
        let chat_panel = Button::Set(Panel::Chat, SetOp::Page(SettingsPage::Main));
        // A settings panel's press on the battle message or a lobby: forged.
        assert!(!on(chat_panel, &battle));
        assert!(!on(chat_panel, &lobby));
        assert!(on(chat_panel, &panel));
        assert!(on(Button::AiLevel(engine::ai::Level::Hard), &panel));
        // A lobby's buttons, its panel's included, fit its own lobby, not another game's.
        assert!(on(Button::Start(g, 0), &lobby));
        assert!(on(
            Button::Set(Panel::Lobby(g, 0), SetOp::Done),
            &lobby[..1]
        ));
        assert!(!on(Button::Start(other, 0), &lobby));
        assert!(!on(Button::Join(g, 0), &battle));
        assert!(!on(Button::Rematch(g), &battle));
        assert!(!on(Button::Lang(crate::game::lang::Lang::En), &panel));
        // The labels fit anywhere, and give no kind to a keyboard.
        assert!(on(Button::Noop, &[]));
        assert!(!on(chat_panel, &[Button::Noop.to_string()]));
        // The grids' buttons are the ones whose keyboard is cut out before parsing.
        assert!(Button::Fire(g, 2, 1, 5).of_a_grid());
        assert!(Button::Edit(g, EditOp::Undo).of_a_grid());
        assert!(!chat_panel.of_a_grid());
        assert!(!Button::RigaTap(g, 1).of_a_grid());
    }

    #[test]
    fn every_button_round_trips_and_the_longest_fits_in_64_bytes() {
        let g = GameId(u64::MAX);
        let all = [
            Button::Join(g, u32::MAX),
            Button::Start(g, u32::MAX),
            Button::Cancel(g, u32::MAX),
            Button::Bot(g, u32::MAX),
            Button::Fire(g, u32::MAX, u8::MAX, u16::MAX),
            Button::View(g, u32::MAX, u8::MAX),
            Button::Target(g, u32::MAX, u8::MAX),
            Button::Salvo(g, u32::MAX, u8::MAX),
            Button::GiveUp(g, u64::MAX, u16::MAX),
            Button::Rematch(g),
            Button::OwnField(g),
            Button::Cell(g, u16::MAX),
            Button::Block(g, u8::MAX),
            Button::Edit(g, EditOp::Perelman),
            Button::Edit(g, EditOp::Confirm),
            Button::Edit(g, EditOp::Mines),
            Button::Edit(g, EditOp::Border),
            Button::Edit(g, EditOp::RandomBorder),
            Button::Lang(crate::game::lang::Lang::Bg),
            Button::Alphabet(engine::Alphabet::RussianYo),
            Button::AiLevel(engine::ai::Level::Normal),
            Button::RigaTap(g, 11),
            Button::RigaShuffle(g),
            Button::RigaLock(g),
            Button::RigaMove(g, u32::MAX, riga::Move::Forward(23)),
            Button::RigaMove(g, u32::MAX, riga::Move::Left(0)),
            Button::RigaMove(g, u32::MAX, riga::Move::Right(9)),
            Button::RigaMove(g, u32::MAX, riga::Move::Lay(12)),
            Button::RigaMove(g, u32::MAX, riga::Move::Pass),
            Button::RigaToggle(g, u32::MAX),
            Button::Replay(g, u16::MAX),
            Button::Card(u64::MAX, GameKind::SeaBattle),
            Button::Arm(g, u32::MAX, engine::Weapon::AirStrike),
            Button::Arm(g, u32::MAX, engine::Weapon::Radar),
            Button::Arm(g, u32::MAX, engine::Weapon::Torpedo),
            Button::Heading(g, u32::MAX, engine::Heading::East),
            Button::Heading(g, u32::MAX, engine::Heading::North),
            Button::Card(u64::MAX, GameKind::Riga),
            Button::Tour(u64::MAX, TourOp::Join),
            Button::Find(true),
            Button::Find(false),
            Button::React(g, u8::MAX),
            Button::BlockPlayer(g),
            Button::Tour(u64::MAX, TourOp::Leave),
            Button::Tour(u64::MAX, TourOp::Start),
            Button::Tour(u64::MAX, TourOp::Cancel),
            Button::Tour(u64::MAX, TourOp::Format(Format::RoundRobin)),
            Button::Tour(u64::MAX, TourOp::Format(Format::Swiss)),
            Button::Tour(u64::MAX, TourOp::Format(Format::Elimination)),
            Button::Noop,
        ];
        for b in all {
            let data = b.to_string();
            assert!(
                !data.is_empty() && data.len() <= MAX_LEN,
                "{data} is {} bytes",
                data.len()
            );
            assert_eq!(Button::parse(&data), Some(b));
        }
    }

    /// Every settings op, each value of each option.
    pub(crate) fn every_set_op() -> Vec<SetOp> {
        let mut ops: Vec<SetOp> = SettingsPage::ALL.into_iter().map(SetOp::Page).collect();
        ops.extend([Touching::None, Touching::Corners, Touching::Any].map(SetOp::Touching));
        ops.extend([Shapes::Straight, Shapes::Bent, Shapes::Free].map(SetOp::Shapes));
        ops.extend(
            [
                FieldChoice::Classic,
                FieldChoice::Big,
                FieldChoice::LandSeaAir,
                FieldChoice::Custom,
            ]
            .map(SetOp::Field),
        );
        for up in [false, true] {
            ops.extend([SetOp::Width(up), SetOp::Height(up), SetOp::SalvoStep(up)]);
        }
        ops.extend((1..=26).map(SetOp::AddShip));
        ops.push(SetOp::RemoveShip);
        ops.push(SetOp::Salvo(None));
        ops.extend((1..=10).map(|n| SetOp::Salvo(Some(n))));
        ops.extend((0..=2).map(SetOp::Mines));
        ops.extend((0..=2).map(SetOp::Arsenal));
        ops.extend(
            [
                Players::Duel,
                Players::FreeForAll(3),
                Players::FreeForAll(4),
                Players::Teams,
            ]
            .map(SetOp::Players),
        );
        ops.extend(
            [
                TurnTimer::Off,
                TurnTimer::OneMinute,
                TurnTimer::ThreeMinutes,
                TurnTimer::TenMinutes,
            ]
            .map(SetOp::Timer),
        );
        ops.extend(engine::Alphabet::ALL.map(SetOp::Alphabet));
        ops.extend(engine::ai::Level::ALL.map(SetOp::Level));
        ops.extend(crate::game::record::Board::ALL.map(SetOp::Board));
        ops.extend((0..3).map(SetOp::Swap));
        ops.push(SetOp::Done);
        ops
    }

    #[test]
    fn every_settings_button_round_trips_within_64_bytes() {
        let g = GameId(u64::MAX);
        for op in every_set_op() {
            for panel in [Panel::Chat, Panel::Lobby(g, u32::MAX)] {
                let b = Button::Set(panel, op);
                let data = b.to_string();
                assert!(data.len() <= MAX_LEN, "{data} is {} bytes", data.len());
                assert_eq!(Button::parse(&data), Some(b), "{data}");
            }
        }
    }

    #[test]
    fn forged_settings_data_is_not_misread() {
        for data in [
            "o:",
            "o:pq",
            "o:z9x",
            "o:t3",
            "o:w",
            "o:w*",
            "o:ax",
            "o:rr",
            "o:c2",
            "o:Aklingon",
            "o:Lgod",
            "o:kk",
            "o:1:2",
            "o:x:1:t0",
            "o:1:2:3:t0",
        ] {
            assert_eq!(Button::parse(data), None, "{data}");
        }
    }

    #[test]
    fn forged_or_foreign_data_is_not_misread() {
        for data in [
            "",
            "f:1:2:3",
            "f:x:1:1:1",
            "pe:1:z",
            "q:1",
            "j:1:2:3",
            "al:genius",
            "b:1",
            "t:1:2",
            "sv:1:2:300",
            "g:1:-5:3",
            "g:1:2:70000",
            &"j:1:".repeat(30),
        ] {
            assert_eq!(Button::parse(data), None, "{data}");
        }
    }

    #[test]
    fn the_join_payload_round_trips() {
        assert_eq!(
            parse_join_payload(&join_payload(GameId(77))),
            Some(GameId(77))
        );
        assert_eq!(parse_join_payload("x77"), None);
    }
}
