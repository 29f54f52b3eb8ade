//! The hard AI's posterior cover: how often each cell holds a ship or a mine over the layouts
//! sampled within a [`Budget`], drawn from the models of `mixture.rs` (each one's layouts by the
//! sampler of `sampler.rs`) and mixed by their weights, the answers to earlier salvoes
//! ([`SalvoReport`]) weighing each layout, and the radar readings of the field
//! ([`Scan`](crate::Scan), docs/rules.md §3.8) keeping only the layouts with exactly as many
//! ship cells in each scanned square as the radar saw there.

use crate::bits::{words_for, Bits};
use crate::budget::{Budget, MIN_SAMPLES};
use crate::mixture::sources;
use crate::report::SalvoReport;
use crate::sampler::Problem;
use crate::view::{FieldView, View};
use crate::weapon::square;
use rand::Rng;

/// How much a layout that misses a radar reading by one ship cell still weighs, when no
/// layout drawn fits every reading (the fallback, as for salvo answers no layout explains).
const SCAN_SLACK: f64 = 0.05;

/// One sampled layout of a field, for the arsenal's choices: what each cell holds (0 water,
/// 1 ship, 2 mine, by cell index) and its share of the posterior (the shares add up to 1).
pub(crate) struct Layout {
    /// What each cell holds.
    pub cells: Vec<u8>,
    /// Its posterior weight.
    pub weight: f64,
}

/// How often each cell was covered by a ship and by a mine, over the weighted layouts.
pub(crate) struct Heat {
    /// Ship cover weights, by cell index.
    pub ship: Vec<f64>,
    /// Mine cover weights, by cell index.
    pub mine: Vec<f64>,
    /// The total weight of the layouts sampled.
    pub samples: f64,
}

/// Cover weights of `field` over sampled layouts within `budget`, weighed by the answers to
/// earlier salvoes at it (see `ai_salvo.rs`); `None` if no layout was found.
pub(crate) fn heat(
    view: &View,
    field: &FieldView,
    budget: &Budget,
    reports: &[&SalvoReport],
    rng: &mut impl Rng,
) -> Option<Heat> {
    heat_kept(view, field, budget, reports, rng, None)
}

/// The weighted layouts behind [`heat`] of `field` (no salvo answers: the arsenal is not
/// played with salvoes); empty if none was found.
pub(crate) fn layouts(
    view: &View,
    field: &FieldView,
    budget: &Budget,
    rng: &mut impl Rng,
) -> Vec<Layout> {
    let mut kept = Vec::new();
    heat_kept(view, field, budget, &[], rng, Some(&mut kept));
    kept
}

fn heat_kept(
    view: &View,
    field: &FieldView,
    budget: &Budget,
    reports: &[&SalvoReport],
    rng: &mut impl Rng,
    keep: Option<&mut Vec<Layout>>,
) -> Option<Heat> {
    match words_for(field.size.area()) {
        2 => heat_in::<2>(view, field, budget, reports, rng, keep),
        4 => heat_in::<4>(view, field, budget, reports, rng, keep),
        6 => heat_in::<6>(view, field, budget, reports, rng, keep),
        _ => heat_in::<11>(view, field, budget, reports, rng, keep),
    }
}

/// How many ship cells a layout's ships afloat miss the radar readings by, in all: each
/// reading a square's cells and the ship cells afloat it must hold.
fn scan_misfit<const W: usize>(ships: &Bits<W>, scans: &[(Bits<W>, u32)]) -> u32 {
    scans
        .iter()
        .map(|(cells, want)| (*ships & *cells).count().abs_diff(*want))
        .sum()
}

/// The weight of a layout given the salvo answers: 0 if its ships or mines cover more cells of
/// a salvo than it hit, else a quarter for each hit it does not explain.
fn weight<const W: usize>(ships: &Bits<W>, mines: &Bits<W>, answers: &[(Bits<W>, u8, u8)]) -> f64 {
    let mut unexplained = 0;
    for (cells, hits, found) in answers {
        let (s, m) = ((*ships & *cells).count(), (*mines & *cells).count());
        if s > u32::from(*hits) || m > u32::from(*found) {
            return 0.0;
        }
        unexplained += u32::from(*hits) - s + u32::from(*found) - m;
    }
    0.25f64.powi(unexplained as i32)
}

fn heat_in<const W: usize>(
    view: &View,
    field: &FieldView,
    budget: &Budget,
    reports: &[&SalvoReport],
    rng: &mut impl Rng,
    keep: Option<&mut Vec<Layout>>,
) -> Option<Heat> {
    let problem = Problem::<W>::new(view, field);
    let size = field.size;
    // The radar readings whose square still has an unknown cell (the others every layout
    // fits): the square, and its ship cells less those of sunk ships (the layouts hold the
    // ships afloat, hit cells included).
    let scans: Vec<(Bits<W>, u32)> = field
        .scans
        .iter()
        .filter(|s| size.contains(s.center))
        .filter_map(|s| {
            let cells = square(s.center, size);
            if cells.iter().all(|&c| field.mark(c).is_known()) {
                return None;
            }
            let mut bits = Bits::<W>::EMPTY;
            cells.iter().for_each(|&c| bits.set(size.index(c)));
            let sunk = (problem.sunk & bits).count();
            Some((bits, u32::from(s.ships).saturating_sub(sunk)))
        })
        .collect();
    // Readings reject layouts: draw more so that about as many count.
    let total = if scans.is_empty() {
        budget.samples
    } else {
        budget.samples * 3
    };
    let answers: Vec<(Bits<W>, u8, u8)> = reports
        .iter()
        .map(|r| {
            let mut cells = Bits::EMPTY;
            for &c in r.cells.iter().filter(|&&c| size.contains(c)) {
                cells.set(size.index(c));
            }
            (cells, r.hits, r.mines)
        })
        .collect();
    let area = size.area();
    let empty = || Heat {
        ship: vec![0.0; area],
        mine: vec![0.0; area],
        samples: 0.0,
    };
    // Per source (the uniform model, the Perelman model, the learned layouts): weighed by
    // importance and by the salvo answers, and by importance alone (for when no layout
    // explains the answers).
    let mut buf = Vec::new();
    let habits = budget.habits_for(field.seat);
    let sources = sources(view, field, &problem, habits, rng, &mut buf);
    let mut heat: Vec<Heat> = sources.iter().map(|_| empty()).collect();
    let mut plain: Vec<Heat> = sources.iter().map(|_| empty()).collect();
    let salvo = view.ruleset.salvo.is_some();
    // Layouts from each source in turn: source `j` (from the second on) draws the layouts
    // numbered from `ends[j - 2]` (or 0) below `ends[j - 1]`; the first source the rest.
    let mut ends = Vec::with_capacity(sources.len());
    let mut upto = 0usize;
    for src in sources.iter().skip(1) {
        upto += (src.weight * total as f64).round() as usize;
        ends.push(upto);
    }
    let mut drawn_layouts: Vec<(usize, f64, f64, Bits<W>, Bits<W>)> = Vec::new();
    for s in 0..total {
        if s % 16 == 15
            && s >= MIN_SAMPLES
            && budget
                .deadline
                .is_some_and(|d| std::time::Instant::now() >= d)
        {
            break;
        }
        let source = ends.iter().position(|&e| s < e).map_or(0, |j| j + 1);
        let Some((ships, mines, importance)) = sources[source].sample(&problem, rng, &mut buf)
        else {
            continue;
        };
        // In salvo games the answers weigh the layouts; importance weights on top leave too
        // few layouts that count (the hard level hit less with them).
        let importance = if salvo { 1.0 } else { importance };
        let misfit = scan_misfit(&ships, &scans);
        let w = weight(&ships, &mines, &answers) * if misfit == 0 { 1.0 } else { 0.0 };
        let loose = importance * SCAN_SLACK.powi(misfit as i32);
        if keep.is_some() {
            drawn_layouts.push((source, w * importance, loose, ships, mines));
        }
        for (h, w) in [
            (&mut heat[source], w * importance),
            (&mut plain[source], loose),
        ] {
            if w > 0.0 {
                h.samples += w;
                ships.ones().for_each(|i| h.ship[i] += w);
                mines.ones().for_each(|i| h.mine[i] += w);
            }
        }
    }
    // Answers no layout explains (a ship sunk since, unseen) are better ignored than obeyed.
    // A model none of whose layouts fits the radar readings is left out while another's do.
    let fits = !scans.is_empty() && heat.iter().any(|h| h.samples > 0.0);
    let none = empty();
    let picked: Vec<&Heat> = (0..sources.len())
        .map(|i| {
            if heat[i].samples > 0.0 {
                &heat[i]
            } else if fits {
                &none
            } else {
                &plain[i]
            }
        })
        .collect();
    // The models mixed by their weights, shared out among those that drew layouts (all to
    // one that has layouts when the others have none).
    let with_layouts = picked.iter().filter(|h| h.samples > 0.0).count();
    if with_layouts == 0 {
        return None;
    }
    let drawn: f64 = picked
        .iter()
        .zip(&sources)
        .filter(|(h, _)| h.samples > 0.0)
        .map(|(_, s)| s.weight)
        .sum();
    let mut out = empty();
    out.samples = 1.0;
    let parts: Vec<f64> = picked
        .iter()
        .zip(&sources)
        .map(|(h, src)| match (h.samples > 0.0, drawn > 0.0) {
            (false, _) => 0.0,
            (true, true) => src.weight / drawn,
            (true, false) => 1.0 / with_layouts as f64,
        })
        .collect();
    if let Some(kept) = keep {
        for (source, w, loose, ships, mines) in drawn_layouts {
            if parts[source] <= 0.0 {
                continue;
            }
            let exact = heat[source].samples > 0.0;
            let w = if exact { w } else { loose };
            let weight = parts[source] * w / picked[source].samples;
            if weight > 0.0 {
                let mut cells = vec![0u8; area];
                ships.ones().for_each(|i| cells[i] = 1);
                mines.ones().for_each(|i| cells[i] = 2);
                kept.push(Layout { cells, weight });
            }
        }
    }
    for (h, &part) in picked.iter().zip(&parts) {
        if part > 0.0 {
            for i in 0..area {
                out.ship[i] += part * h.ship[i] / h.samples;
                out.mine[i] += part * h.mine[i] / h.samples;
            }
        }
    }
    let heat = out;
    (heat.samples > 0.0).then_some(heat)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::{Action, PlayerId, SeatId};
    use crate::game::Game;
    use crate::generate::random_fleet;
    use crate::ruleset::{Ruleset, Touching};
    use crate::weapon::Scan;
    use crate::Coord;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    /// A battle of `r` just begun, seat 0 to shoot at seat 1.
    fn begun(r: &Ruleset, rng: &mut StdRng) -> Game {
        let mut game = Game::new(r.clone());
        for p in [1, 2] {
            game.apply(Action::Join(PlayerId(p)), 0, rng).unwrap();
        }
        game.apply(Action::Start, 0, rng).unwrap();
        for s in 0..2 {
            let fleet = random_fleet(r, rng).unwrap();
            game.apply(Action::Ready(SeatId(s), fleet), 0, rng).unwrap();
        }
        game
    }

    /// The posterior's expected ship cells in the square around `center`, and the share of
    /// the layouts' weight that holds exactly `want` there.
    fn expected(view: &View, seat: SeatId, center: Coord, want: usize) -> (f64, f64) {
        let field = view.field(seat);
        let mut rng = StdRng::seed_from_u64(3);
        let kept = layouts(view, field, &Budget::default(), &mut rng);
        let total: f64 = kept.iter().map(|l| l.weight).sum();
        assert!(total > 0.0, "no layout");
        let cells: Vec<usize> = square(center, field.size)
            .into_iter()
            .map(|c| field.size.index(c))
            .collect();
        let (mut mean, mut exact) = (0.0, 0.0);
        for l in &kept {
            let n = cells.iter().filter(|&&i| l.cells[i] == 1).count();
            mean += l.weight * n as f64;
            if n == want {
                exact += l.weight;
            }
        }
        (mean / total, exact / total)
    }

    #[test]
    fn a_deadline_passed_before_the_sampling_still_leaves_the_floor_of_layouts() {
        let r = Ruleset::default();
        let mut rng = StdRng::seed_from_u64(5);
        let game = begun(&r, &mut rng);
        let view = game.view_for(SeatId(0));
        let late = Budget {
            deadline: Some(std::time::Instant::now() - std::time::Duration::from_secs(1)),
            ..Budget::default()
        };
        let kept = layouts(&view, view.field(SeatId(1)), &late, &mut rng);
        assert!(
            kept.len() >= MIN_SAMPLES && kept.len() < Budget::default().samples,
            "{} layouts",
            kept.len()
        );
    }

    #[test]
    fn a_radar_reading_weighs_the_layouts_to_its_count() {
        let r = Ruleset {
            arsenal: 2,
            ..Ruleset::default()
        };
        let (mut zeros, mut counted) = (0, 0);
        for seed in 0..30 {
            let mut rng = StdRng::seed_from_u64(seed);
            let mut game = begun(&r, &mut rng);
            let (shooter, target) = (game.turn(), SeatId(1 - game.turn().0));
            let center = Coord::new(rng.gen_range(1..9), rng.gen_range(1..9));
            game.apply(Action::Radar(shooter, target, center), 0, &mut rng)
                .unwrap();
            let scan = *game.scans(target).last().unwrap();
            let view = game.view_for(shooter);
            let want = usize::from(scan.ships);
            let (mean, exact) = expected(&view, target, center, want);
            assert!(
                (mean - want as f64).abs() < 0.05,
                "seed {seed}: {mean} ship cells expected, the radar saw {want}"
            );
            assert!(exact > 0.99, "seed {seed}: {exact} of the weight fits");
            if want == 0 {
                zeros += 1;
            } else {
                counted += 1;
            }
        }
        assert!(zeros > 0 && counted > 0, "{zeros} zeros, {counted} counts");
    }

    #[test]
    fn a_full_square_reading_is_respected() {
        // Ships may touch: a 3×3 square can hold nine ship cells.
        let r = Ruleset {
            arsenal: 1,
            touching: Touching::Any,
            ..Ruleset::default()
        };
        let mut rng = StdRng::seed_from_u64(1);
        let game = begun(&r, &mut rng);
        let mut view = game.view_for(SeatId(0));
        let center = Coord::new(4, 4);
        view.fields[1].scans.push(Scan {
            center,
            count: 9,
            ships: 9,
        });
        let (mean, exact) = expected(&view, SeatId(1), center, 9);
        assert!(mean > 8.95, "{mean} ship cells expected of 9");
        assert!(exact > 0.99);
    }
}
