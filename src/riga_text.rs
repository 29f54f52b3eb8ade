//! TEMPORARY STUB (replaced by the helper's version).
use crate::lang::Lang;
use riga::{Game, Kind, Move, Point, Side};
pub fn ship_name(_lang: Lang, kind: Kind) -> String {
    format!("{kind:?}")
}
pub fn ship_abbr(_lang: Lang, kind: Kind) -> String {
    format!("{kind:?}")[..1].to_string()
}
pub fn point(lang: Lang, p: Point) -> String {
    riga::notation::format_point(p, lang != Lang::En)
}
pub fn side_name(_lang: Lang, side: Side) -> String {
    format!("{side:?}")
}
pub fn board(_lang: Lang, _game: &Game, _last: Option<(Point, Point)>) -> String {
    "board".into()
}
pub fn legend(_lang: Lang) -> String {
    "legend".into()
}
pub fn move_line(_lang: Lang, _before: &Game, mv: Move, lost: &[usize]) -> String {
    format!("{mv:?} {lost:?}")
}
pub fn outcome_line(_lang: Lang, game: &Game) -> Option<String> {
    game.outcome().map(|o| format!("{o:?}"))
}
