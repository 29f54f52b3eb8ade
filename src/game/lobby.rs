//! The lobby's transitions: a new lobby, joining it, seating the bot, the Riga switch,
//! Start, Cancel, Rematch, and a game against the bot that starts at once.

use super::id::GameId;
use super::placement::place_bot_fleets;
use super::record::{ai_player, Board, ChatSettings, GameKind, GameRecord, Play, SeaBattle};
use super::refused::Refused;
use super::riga::RigaPlay;
use super::{delivery::Effect, lang::Lang};
use engine::ai::Level;
use engine::{Action, Alphabet, Event, Game, Phase, PlayerId, Ruleset};
use rand::rngs::StdRng;

/// How a new game is set up: the chat's choices, or the old game's for a rematch.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The chat the game belongs to.
    pub chat: i64,
    /// Its forum topic, if any (see [`GameRecord::topic`]).
    pub topic: Option<i32>,
    /// The topic was made for the game (see [`GameRecord::own_topic`]).
    pub own_topic: bool,
    /// The inline message the game lives in (see [`GameRecord::inline`]).
    pub inline: Option<String>,
    /// Who creates it (may start and cancel it).
    pub creator: u64,
    /// The game's language.
    pub lang: Lang,
    /// The column letters.
    pub alphabet: Alphabet,
    /// How the fields are shown.
    pub board: Board,
    /// How well the bot plays its seats.
    pub ai_level: Level,
    /// Sea Battle's rules (for a Riga game: its seats and turn timer).
    pub ruleset: Ruleset,
    /// Which game.
    pub kind: GameKind,
}

impl Setup {
    /// A new game in `chat` by `creator` (speaking `lang`) from the chat's settings: their
    /// language, column letters, board (else `default_board`) and the bot's level; no topic,
    /// no inline message.
    pub fn from_settings(
        settings: &ChatSettings,
        (chat, creator, lang): (i64, u64, Lang),
        default_board: Board,
        ruleset: Ruleset,
        kind: GameKind,
    ) -> Setup {
        let lang = settings.lang.unwrap_or(lang);
        Setup {
            chat,
            topic: None,
            own_topic: false,
            inline: None,
            creator,
            lang,
            alphabet: settings.alphabet.unwrap_or_else(|| lang.alphabet()),
            board: settings.board.unwrap_or(default_board),
            ai_level: settings.ai_level,
            ruleset,
            kind,
        }
    }
}

/// The ruleset a Riga lobby keeps: two players, the chat's turn timer.
pub fn riga_duel(r: &Ruleset) -> Ruleset {
    Ruleset {
        players: engine::Players::Duel,
        timer: r.timer,
        ..Ruleset::default()
    }
}

/// A record of a new game in its lobby, nothing sent yet.
fn record(setup: &Setup, now: u64) -> GameRecord {
    let ruleset = match setup.kind {
        GameKind::SeaBattle => setup.ruleset.clone(),
        GameKind::Riga => riga_duel(&setup.ruleset),
    };
    let mut rec = GameRecord::new(Game::new(ruleset), setup.chat, now);
    rec.topic = setup.topic;
    rec.own_topic = setup.own_topic && setup.topic.is_some();
    rec.inline.clone_from(&setup.inline);
    rec.lang = setup.lang;
    rec.alphabet = setup.alphabet;
    // An inline message is edited in place, and an edit cannot upload a picture: text.
    rec.board = if setup.inline.is_some() {
        Board::Text
    } else {
        setup.board
    };
    rec.ai_level = setup.ai_level;
    rec.creator = setup.creator;
    rec.play = setup.kind.new_play();
    rec
}

/// How the bot's seats are named: the game's language, the level, the seat's player.
pub type BotName = dyn Fn(Lang, Level, PlayerId) -> String;

/// Who sits in a new lobby from the start.
pub struct Seated<'a> {
    /// The creator's name, when they take the first seat (they have opened the bot, so it
    /// may write to them, and play no other game).
    pub creator: Option<&'a str>,
    /// The bot's level, when it takes the next seat (`/play` in a group), and how its seats
    /// are named.
    pub bot: Option<(Level, &'a BotName)>,
}

/// A new lobby with its first seats taken, its message in the outbox: the message is drawn
/// from the record as stored, so it shows them from its first version.
pub fn open(setup: &Setup, seated: &Seated<'_>, now: u64) -> GameRecord {
    let mut rec = record(setup, now);
    if let Some(name) = seated.creator {
        // A new lobby has every seat free: nothing to refuse.
        let _ = join(&mut rec, PlayerId(setup.creator), name, None, now);
    }
    if let Some((level, name)) = seated.bot {
        let _ = seat_bot(&mut rec, None, level, name, now);
    }
    show(&mut rec);
    rec
}

/// A new lobby's message: sent (its id becomes the record's), or for a game in an inline
/// message, drawn on that message (it is there already: the card, or the game before).
fn show(rec: &mut GameRecord) {
    if rec.inline.is_some() {
        rec.delivery.message = Some(super::record::INLINE_MESSAGE);
    } else {
        rec.push_effect(Effect::LiveMessage);
    }
}

/// The engine refuses nothing of a lobby's seating for want of randomness: joining, leaving
/// and swapping draw nothing.
fn no_draws() -> StdRng {
    <StdRng as rand::SeedableRng>::seed_from_u64(0)
}

/// `player` takes the next seat under `name` (by the lobby's Join button of `generation`,
/// or by the deep link it leads to).
///
/// # Errors
/// [`Refused::AlreadySeated`], [`Refused::Full`], [`Refused::OutOfDate`] after the lobby or
/// for an older button, [`Refused::GameOver`].
pub fn join(
    rec: &mut GameRecord,
    player: PlayerId,
    name: &str,
    generation: Option<u32>,
    now: u64,
) -> Result<(), Refused> {
    if rec.is_finished() {
        return Err(Refused::GameOver);
    }
    if generation.is_some_and(|g| g != rec.delivery.generation) {
        return Err(Refused::OutOfDate);
    }
    rec.game
        .apply(Action::Join(player), now, &mut no_draws())
        .map_err(|e| match e {
            engine::ActionError::AlreadySeated | engine::ActionError::Full => Refused::from(e),
            _ => Refused::OutOfDate,
        })?;
    rec.names.push(name.to_owned());
    Ok(())
}

/// Whether `player` could take a seat now (by the Join button of `generation`): what
/// [`join`] would refuse, found without changing the record. The Join button asks this
/// before it sends someone who never opened the bot to the private chat, so a full lobby
/// is said at once rather than after the detour.
///
/// # Errors
/// As [`join`].
pub fn may_join(
    rec: &GameRecord,
    player: PlayerId,
    generation: Option<u32>,
    now: u64,
) -> Result<(), Refused> {
    join(&mut rec.clone(), player, "", generation, now)
}

/// The creator's checks of a lobby button: the game is in its lobby (or, for Start, at
/// least not over), the button of its message, pressed by the creator.
fn creators_lobby(rec: &GameRecord, by: u64, generation: u32) -> Result<(), Refused> {
    if rec.is_finished() {
        return Err(Refused::GameOver);
    }
    if generation != rec.delivery.generation || *rec.game.phase() != Phase::Lobby {
        return Err(Refused::OutOfDate);
    }
    if by != rec.creator {
        return Err(Refused::CreatorOnly);
    }
    Ok(())
}

/// The creator seats the bot at `level` in the next seat; `name` names a seat of the bot.
///
/// # Errors
/// As [`join`], and [`Refused::CreatorOnly`] for anyone else.
pub fn seat_bot(
    rec: &mut GameRecord,
    by: Option<(u64, u32)>,
    level: Level,
    name: &BotName,
    now: u64,
) -> Result<(), Refused> {
    if let Some((by, generation)) = by {
        creators_lobby(rec, by, generation)?;
    }
    let player = ai_player(rec.ai_seats().len() as u8);
    let words = name(rec.lang, level, player);
    join(rec, player, &words, None, now)?;
    rec.ai_level = level;
    Ok(())
}

/// The lobby's "Riga game" / "Sea Battle" button: the creator switches the lobby's game (a
/// Riga game takes two seats, seated again under its duel); `true` when it is now the Riga
/// game.
///
/// # Errors
/// [`Refused::TwoPlayersOnly`] with more than two seated, and the creator's checks.
pub fn switch_game(
    rec: &mut GameRecord,
    by: u64,
    generation: u32,
    now: u64,
) -> Result<bool, Refused> {
    creators_lobby(rec, by, generation)?;
    match rec.play {
        Play::Riga(_) => {
            rec.play = Play::SeaBattle(SeaBattle::default());
            Ok(false)
        }
        Play::SeaBattle(_) => {
            if rec.game.seats().len() > 2 {
                return Err(Refused::TwoPlayersOnly);
            }
            let mut game = Game::new(riga_duel(rec.game.ruleset()));
            for seat in rec.game.seats() {
                game.apply(Action::Join(seat.player), now, &mut no_draws())
                    .map_err(|_| Refused::OutOfDate)?;
            }
            rec.game = game;
            rec.panel = None;
            rec.play = Play::Riga(RigaPlay::default());
            Ok(true)
        }
    }
}

/// Start: placement begins. The bot's fleets are locked at once and each person gets their
/// editor in the private chat (in a Riga game, the set-up); when only the bot plays, the
/// battle begins.
///
/// # Errors
/// [`Refused::NotFull`] with a seat free, the creator's checks.
pub fn start(
    rec: &mut GameRecord,
    by: Option<(u64, u32)>,
    now: u64,
    rng: &mut StdRng,
) -> Result<Vec<Event>, Refused> {
    if let Some((by, generation)) = by {
        creators_lobby(rec, by, generation)?;
    }
    rec.game
        .apply(Action::Start, now, rng)
        .map_err(|e| match e {
            engine::ActionError::NotFull => Refused::NotFull(rec.game.ruleset().seats()),
            _ => Refused::OutOfDate,
        })?;
    rec.delivery.dms = vec![None; rec.game.seats().len()];
    let events = match rec.play {
        Play::Riga(_) => {
            super::riga::begin_setup(rec, now, rng);
            Vec::new()
        }
        Play::SeaBattle(_) => place_bot_fleets(rec, now, rng)?,
    };
    for seat in rec.human_seats() {
        rec.push_effect(Effect::Dm { seat: seat.0 });
    }
    Ok(events)
}

/// The creator calls the game off before the battle (`/cancel`, or the lobby's Cancel of
/// `generation`).
///
/// # Errors
/// [`Refused::CreatorOnly`], [`Refused::InBattle`], [`Refused::GameOver`],
/// [`Refused::OutOfDate`] for an older button.
pub fn cancel(
    rec: &mut GameRecord,
    by: u64,
    generation: Option<u32>,
    now: u64,
) -> Result<(), Refused> {
    if rec.is_finished() {
        return Err(Refused::GameOver);
    }
    if generation.is_some_and(|g| g != rec.delivery.generation) {
        return Err(Refused::OutOfDate);
    }
    if by != rec.creator {
        return Err(Refused::CreatorOnly);
    }
    if rec.in_battle() {
        return Err(Refused::InBattle);
    }
    rec.game
        .apply(Action::Cancel, now, &mut no_draws())
        .map_err(|_| Refused::OutOfDate)?;
    Ok(())
}

/// The first step of a Rematch of a finished game: the id of the game it makes, kept in the
/// old game so that a press repeated (after a crash) makes the same one.
///
/// # Errors
/// [`Refused::OutOfDate`] while the game is on, [`Refused::NotAPlayer`].
pub fn rematch_id(rec: &mut GameRecord, by: u64, reserved: GameId) -> Result<GameId, Refused> {
    if !rec.is_finished() {
        return Err(Refused::OutOfDate);
    }
    if rec.game.seat_of(PlayerId(by)).is_none() {
        return Err(Refused::NotAPlayer);
    }
    Ok(GameId(*rec.rematch.get_or_insert(reserved.0)))
}

/// The game a Rematch of `old` makes in a group: every seat of the old game taken again, in
/// the same order, under the same rules; its lobby message in its outbox.
pub fn rematch(old: &GameRecord, setup: &Setup, now: u64) -> GameRecord {
    let mut rec = record(setup, now);
    for (seat, name) in old.game.seats().iter().zip(&old.names) {
        // A seat the new rules have no room for stays empty.
        let _ = join(&mut rec, seat.player, name, None, now);
    }
    show(&mut rec);
    rec
}

/// A duel against the bot in the user's private chat, begun at once: both seats taken, the
/// bot's fleet locked, `notice` (already in words) told, the user's editor (or the Riga
/// set-up) in the outbox.
///
/// # Errors
/// [`Refused::OutOfDate`] should the rules give no layout for the bot.
pub fn against_bot(
    setup: &Setup,
    user_name: &str,
    bot_name: &str,
    notice: String,
    now: u64,
    rng: &mut StdRng,
) -> Result<GameRecord, Refused> {
    let mut rec = record(setup, now);
    join(&mut rec, PlayerId(setup.creator), user_name, None, now)?;
    join(&mut rec, ai_player(0), bot_name, None, now)?;
    rec.push_effect(Effect::Notice {
        chat: setup.chat,
        text: notice,
    });
    start(&mut rec, None, now, rng)?;
    Ok(rec)
}

/// A duel arranged by the bot (a tournament's match, a quick match) between `players`
/// (user, name): the set-up's Sea Battle rules as a duel with a turn timer (three minutes
/// when they have none, so an absent player loses rather than stalls), the first player its
/// creator, both seated; `made` marks what it is and queues what is said before the start
/// (its lobby's message, words); then it starts, so each is asked for a fleet at once.
fn arranged_duel(
    setup: &Setup,
    players: [(u64, &str); 2],
    now: u64,
    rng: &mut StdRng,
    made: impl FnOnce(&mut GameRecord),
) -> Result<GameRecord, Refused> {
    let mut ruleset = Ruleset {
        players: engine::Players::Duel,
        ..setup.ruleset.clone()
    };
    if ruleset.timer.seconds().is_none() {
        ruleset.timer = engine::TurnTimer::ThreeMinutes;
    }
    let setup = Setup {
        creator: players[0].0,
        kind: GameKind::SeaBattle,
        ruleset,
        ..setup.clone()
    };
    let mut rec = record(&setup, now);
    for (user, name) in players {
        join(&mut rec, PlayerId(user), name, None, now)?;
    }
    made(&mut rec);
    start(&mut rec, None, now, rng)?;
    Ok(rec)
}

/// A tournament's match between `players` (user, name): an [`arranged_duel`] on the group's
/// board, its lobby's message first, then `announced` (the words, made by the caller) said
/// in the chat. Its end is the match's result (see [`GameRecord::tournament`]).
///
/// # Errors
/// What [`start`] refuses (nothing, for two people on a fresh lobby).
pub fn tournament_match(
    setup: &Setup,
    players: [(u64, &str); 2],
    (tournament, announced): (u64, String),
    now: u64,
    rng: &mut StdRng,
) -> Result<GameRecord, Refused> {
    let mut rec = arranged_duel(setup, players, now, rng, |rec| {
        rec.tournament = Some(tournament);
        show(rec);
    })?;
    rec.push_effect(Effect::Notice {
        chat: setup.chat,
        text: announced,
    });
    Ok(rec)
}

/// A quick match between two strangers (user, name): an [`arranged_duel`] with no shared
/// message, as words (each private board is edited on every move), each `told` their words
/// first (who they play). See [`GameRecord::quick`].
///
/// # Errors
/// What [`start`] refuses (nothing, for two people on a fresh lobby).
pub fn quick_match(
    setup: &Setup,
    players: [(u64, &str); 2],
    told: [String; 2],
    now: u64,
    rng: &mut StdRng,
) -> Result<GameRecord, Refused> {
    let setup = Setup {
        board: Board::Text,
        ..setup.clone()
    };
    arranged_duel(&setup, players, now, rng, |rec| {
        rec.quick = true;
        for ((user, _), text) in players.into_iter().zip(told) {
            rec.push_effect(Effect::Notice {
                chat: user as i64,
                text,
            });
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn setup(kind: GameKind) -> Setup {
        Setup {
            chat: -100,
            topic: None,
            own_topic: false,
            inline: None,
            creator: 7,
            lang: Lang::En,
            alphabet: Lang::En.alphabet(),
            board: Board::Text,
            ai_level: Level::Easy,
            ruleset: Ruleset::default(),
            kind,
        }
    }

    fn bot_name(_: Lang, _: Level, _: PlayerId) -> String {
        "Bot".into()
    }

    #[test]
    fn a_new_lobby_is_stored_with_its_first_seats_taken_before_its_message_is_drawn() {
        let seated = Seated {
            creator: Some("Alice"),
            bot: Some((Level::Hard, &bot_name)),
        };
        let rec = open(&setup(GameKind::SeaBattle), &seated, 0);
        assert_eq!(rec.names, ["Alice", "Bot"]);
        assert_eq!(rec.game.seats()[0].player, PlayerId(7));
        assert_eq!(rec.ai_level, Level::Hard);
        assert_eq!(rec.delivery.outbox.len(), 1);
        assert_eq!(rec.delivery.outbox[0].effect, Effect::LiveMessage);
        let empty = open(
            &setup(GameKind::Riga),
            &Seated {
                creator: None,
                bot: None,
            },
            0,
        );
        assert!(empty.game.seats().is_empty());
    }

    #[test]
    fn a_join_of_a_full_lobby_is_refused_before_anyone_is_sent_anywhere() {
        let seated = Seated {
            creator: Some("Alice"),
            bot: None,
        };
        let mut rec = open(&setup(GameKind::SeaBattle), &seated, 0);
        let g = rec.delivery.generation;
        assert_eq!(may_join(&rec, PlayerId(8), Some(g), 0), Ok(()));
        assert_eq!(
            may_join(&rec, PlayerId(7), Some(g), 0),
            Err(Refused::AlreadySeated)
        );
        join(&mut rec, PlayerId(8), "Bob", Some(g), 0).unwrap();
        let before = rec.clone();
        assert_eq!(may_join(&rec, PlayerId(9), Some(g), 0), Err(Refused::Full));
        assert_eq!(rec, before, "asking changes nothing");
    }

    #[test]
    fn a_game_against_the_bot_tells_its_notice_before_the_keyboard_it_points_to() {
        for kind in [GameKind::SeaBattle, GameKind::Riga] {
            let mut rng = StdRng::seed_from_u64(1);
            let mut s = setup(kind);
            s.chat = 7;
            let rec = against_bot(&s, "Alice", "Bot", "below".into(), 0, &mut rng).unwrap();
            let effects: Vec<&Effect> = rec.delivery.outbox.iter().map(|o| &o.effect).collect();
            assert!(
                matches!(
                    effects.as_slice(),
                    [Effect::Notice { .. }, Effect::Dm { seat: 0 }]
                ),
                "{kind:?}: {effects:?}"
            );
        }
    }
}
