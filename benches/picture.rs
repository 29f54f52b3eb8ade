//! The battle picture's cost: a classic duel (two 10×10 fields) and the largest picture (four
//! 20×15 land-sea-air fields), drawn and PNG-encoded, drawn only, and with the faster packing.
//! Prints each picture's PNG size first. Goal (issue 14): ≤ 2 ms a field on one core,
//! ≤ 60 KB a picture. Run `cargo bench --bench picture`.

#[path = "../tests/picture_games/mod.rs"]
mod picture_games;

use criterion::{criterion_group, criterion_main, Criterion};
use engine::{Alphabet, Coord, FieldView};
use morskoy_boy::view::picture::{render_png_with, render_rgb, Packing, Panel, Style};
use std::hint::black_box;
use std::time::Duration;

fn panels<'a>(views: &'a [FieldView], last: &'a [Coord], names: &'a [&'a str]) -> Vec<Panel<'a>> {
    views
        .iter()
        .zip(names)
        .enumerate()
        .map(|(i, (view, title))| Panel {
            view,
            title,
            alphabet: Alphabet::Russian,
            last: if i == 1 { last } else { &[] },
            active: i == 1,
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let (duel, duel_last) = picture_games::classic(7, 70);
    let (big, big_last) = picture_games::free_for_all_land_sea_air(5, 260);
    let duel_views = duel.public_view().fields;
    let big_views = big.public_view().fields;
    let duel_last: Vec<Coord> = duel_last.map(|(_, c)| c).into_iter().collect();
    let big_last: Vec<Coord> = big_last.map(|(_, c)| c).into_iter().collect();
    let names = ["Алёша", "Ярослава Кузнецова", "Калин", "Radost"];
    let cases = [
        ("duel 2×10×10", panels(&duel_views, &duel_last, &names)),
        ("ffa 4×20×15", panels(&big_views, &big_last, &names)),
    ];
    let small = Style::default();
    let fast = Style {
        packing: Packing::Fast,
        ..Style::default()
    };
    for (name, panels) in &cases {
        let (w, h, _) = render_rgb(panels, &small);
        println!(
            "{name}: {w}×{h} px, PNG {} bytes (small), {} bytes (fast)",
            render_png_with(panels, &small).len(),
            render_png_with(panels, &fast).len()
        );
    }
    let mut group = c.benchmark_group("picture");
    group
        .sample_size(30)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    for (name, panels) in &cases {
        group.bench_function(format!("{name} png"), |b| {
            b.iter(|| render_png_with(black_box(panels), &small))
        });
        group.bench_function(format!("{name} png fast"), |b| {
            b.iter(|| render_png_with(black_box(panels), &fast))
        });
        group.bench_function(format!("{name} draw only"), |b| {
            b.iter(|| render_rgb(black_box(panels), &small))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
