//! What people see, with no I/O: a record and a language in, words, keyboards and pictures out.

pub mod bot;
pub mod buttons;
pub mod editor;
pub mod group;
pub mod i18n;
pub mod keyboard;
pub mod live;
pub mod mine;
pub mod own_field;
pub mod panel;
pub mod picture;
pub mod refusal;
pub mod render;
pub mod replay;
pub mod reveal;
pub mod riga;
pub mod riga_text;
pub mod tournament;
pub mod webapp;
