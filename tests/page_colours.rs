//! The Mini App's cell colours (issue 42): the table in `assets/webapp/index.html`
//! (`<style id="cells">`, light and dark) must tell water, miss, hit, sunk and halo (and a
//! ship of one's own) apart without the marks drawn on them.
//!
//! What is demanded, and why not "3:1 between every pair":
//!
//! - WCAG's contrast ratio of two colours is `(L1 + 0.05) / (L2 + 0.05)` of their relative
//!   luminances, at most 21 (black on white). Five colours that are pairwise ≥ 3:1 would be
//!   a chain of five luminances each ≥ 3 times (plus the 0.05) the one below, a span of
//!   3⁴ = 81 > 21: impossible. So the literal "each pair ≥ 3:1" cannot hold.
//! - **≥ 3:1** (WCAG 1.4.11, non-text contrast) where it matters most and the arithmetic
//!   allows it: every state against water (what was shot, or is known, stands out of the
//!   sea), hit against sunk (a ship still afloat or not), and each mark against its own cell.
//!   In the dark table also miss against halo (a shot against a cell known by the rules).
//!   The light table cannot have that one as well: against light water every state is darker
//!   than about L 0.23, and a pair 3:1 apart below that needs one colour near black (L ≤
//!   0.044), which sunk already is, and a black miss or halo would read as sunk.
//! - **ΔE₀₀ ≥ 20** (CIEDE2000, the CIE's colour difference for small to large differences;
//!   2 is about what one notices, 10 and more reads as another colour) between *every* pair of
//!   the six, in both tables: the pairs of like lightness differ by hue (a teal miss, a grey
//!   halo, a red hit, a blue ship in the light table; pale miss and amber hit, grey halo and
//!   red sunk in the dark one).

use std::collections::BTreeMap;

/// The states a cell is drawn in.
const STATES: [&str; 6] = ["water", "miss", "hit", "sunk", "halo", "ship"];

/// The page, as the binary serves it.
const PAGE: &str = include_str!("../assets/webapp/index.html");

/// An sRGB colour, as `#rrggbb`.
#[derive(Clone, Copy, Debug)]
struct Rgb([u8; 3]);

impl Rgb {
    fn parse(s: &str) -> Rgb {
        let hex = s.strip_prefix('#').filter(|h| h.len() == 6);
        let hex = hex.unwrap_or_else(|| panic!("{s} is not #rrggbb"));
        let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).unwrap();
        Rgb([byte(0), byte(2), byte(4)])
    }

    /// The channels, linear.
    fn linear(self) -> [f64; 3] {
        self.0.map(|c| {
            let c = f64::from(c) / 255.0;
            if c <= 0.04045 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        })
    }

    /// WCAG 2's relative luminance.
    fn luminance(self) -> f64 {
        let [r, g, b] = self.linear();
        0.2126 * r + 0.7152 * g + 0.0722 * b
    }

    /// CIE L*a*b* (D65).
    fn lab(self) -> [f64; 3] {
        let [r, g, b] = self.linear();
        let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
        let y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
        let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
        let f = |t: f64| {
            if t > 216.0 / 24389.0 {
                t.cbrt()
            } else {
                (24389.0 / 27.0 * t + 16.0) / 116.0
            }
        };
        let (fx, fy, fz) = (f(x), f(y), f(z));
        [116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)]
    }
}

/// WCAG 2's contrast ratio.
fn contrast(a: Rgb, b: Rgb) -> f64 {
    let (x, y) = (a.luminance(), b.luminance());
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

/// CIEDE2000 (Sharma, Wu and Dalal, 2005) of two L*a*b* colours.
fn ciede2000([l1, a1, b1]: [f64; 3], [l2, a2, b2]: [f64; 3]) -> f64 {
    let deg = f64::to_radians;
    let pow7 = |c: f64| c.powi(7);
    let c_mean = (a1.hypot(b1) + a2.hypot(b2)) / 2.0;
    let g = 0.5 * (1.0 - (pow7(c_mean) / (pow7(c_mean) + pow7(25.0))).sqrt());
    let (a1, a2) = ((1.0 + g) * a1, (1.0 + g) * a2);
    let (c1, c2) = (a1.hypot(b1), a2.hypot(b2));
    let hue = |a: f64, b: f64| {
        if a == 0.0 && b == 0.0 {
            0.0
        } else {
            b.atan2(a).to_degrees().rem_euclid(360.0)
        }
    };
    let (h1, h2) = (hue(a1, b1), hue(a2, b2));
    let dl = l2 - l1;
    let dc = c2 - c1;
    let dh = if c1 * c2 == 0.0 {
        0.0
    } else if (h2 - h1).abs() <= 180.0 {
        h2 - h1
    } else if h2 - h1 > 180.0 {
        h2 - h1 - 360.0
    } else {
        h2 - h1 + 360.0
    };
    let dh = 2.0 * (c1 * c2).sqrt() * deg(dh / 2.0).sin();
    let l_mean = (l1 + l2) / 2.0;
    let c_mean = (c1 + c2) / 2.0;
    let h_mean = if c1 * c2 == 0.0 {
        h1 + h2
    } else if (h1 - h2).abs() <= 180.0 {
        (h1 + h2) / 2.0
    } else if h1 + h2 < 360.0 {
        (h1 + h2 + 360.0) / 2.0
    } else {
        (h1 + h2 - 360.0) / 2.0
    };
    let t = 1.0 - 0.17 * deg(h_mean - 30.0).cos()
        + 0.24 * deg(2.0 * h_mean).cos()
        + 0.32 * deg(3.0 * h_mean + 6.0).cos()
        - 0.20 * deg(4.0 * h_mean - 63.0).cos();
    let d_theta = 30.0 * (-((h_mean - 275.0) / 25.0).powi(2)).exp();
    let r_c = 2.0 * (pow7(c_mean) / (pow7(c_mean) + pow7(25.0))).sqrt();
    let s_l = 1.0 + 0.015 * (l_mean - 50.0).powi(2) / (20.0 + (l_mean - 50.0).powi(2)).sqrt();
    let s_c = 1.0 + 0.045 * c_mean;
    let s_h = 1.0 + 0.015 * c_mean * t;
    let r_t = -deg(2.0 * d_theta).sin() * r_c;
    let (l, c, h) = (dl / s_l, dc / s_c, dh / s_h);
    (l * l + c * c + h * h + r_t * c * h).sqrt()
}

/// The table: each scheme's (`light`, `dark`) colours by name (`water`, `hit-mark`, …).
fn table() -> BTreeMap<&'static str, BTreeMap<String, Rgb>> {
    let start = PAGE
        .find("<style id=\"cells\">")
        .expect("the cells' colour table");
    let block = &PAGE[start..];
    let block = &block[..block.find("</style>").unwrap()];
    let block = &block[block.find('>').unwrap() + 1..];
    let mut schemes = BTreeMap::new();
    for rule in block.split('}').filter(|r| r.contains('{')) {
        let (selector, body) = rule.split_once('{').unwrap();
        let scheme = match selector.trim() {
            ":root" => "light",
            ":root[data-scheme=\"dark\"]" => "dark",
            other => panic!("a rule of the table for {other:?}"),
        };
        let colours = body
            .split(';')
            .filter_map(|d| d.split_once(':'))
            .map(|(k, v)| {
                let name = k.trim().strip_prefix("--").expect("a variable");
                (name.to_owned(), Rgb::parse(v.trim()))
            })
            .collect();
        schemes.insert(scheme, colours);
    }
    schemes
}

#[test]
fn ciede2000_gives_sharma_wu_and_dalal_reference_differences() {
    let pairs = [
        ([50.0, 2.6772, -79.7751], [50.0, 0.0, -82.7485], 2.0425),
        ([50.0, 0.0, 0.0], [50.0, -1.0, 2.0], 2.3669),
        ([50.0, 2.5, 0.0], [73.0, 25.0, -18.0], 27.1492),
        ([50.0, 2.5, 0.0], [61.0, -5.0, 29.0], 22.8977),
        ([50.0, 2.5, 0.0], [56.0, -27.0, -3.0], 31.9030),
        ([50.0, 2.5, 0.0], [58.0, 24.0, 15.0], 19.4535),
        (
            [60.2574, -34.0099, 36.2677],
            [60.4626, -34.1751, 39.4387],
            1.2644,
        ),
    ];
    for (a, b, want) in pairs {
        let got = ciede2000(a, b);
        assert!((got - want).abs() < 5e-5, "{a:?} {b:?}: {got}, not {want}");
        assert!((ciede2000(b, a) - want).abs() < 5e-5, "symmetric");
    }
    assert!((contrast(Rgb::parse("#000000"), Rgb::parse("#ffffff")) - 21.0).abs() < 1e-9);
}

#[test]
fn the_cell_colours_tell_every_state_apart_without_its_mark_in_light_and_dark() {
    let schemes = table();
    assert_eq!(
        schemes.keys().copied().collect::<Vec<_>>(),
        ["dark", "light"]
    );
    let mut failures = Vec::new();
    for (scheme, colours) in &schemes {
        let colour = |name: &str| {
            *colours
                .get(name)
                .unwrap_or_else(|| panic!("{scheme} has no --{name}"))
        };
        // ≥ 3:1: against water, hit against sunk, each mark on its cell; miss against halo in
        // the dark table (see the file's doc for why not in the light one).
        let mut strong = vec![
            ("hit", "sunk"),
            ("miss", "miss-mark"),
            ("hit", "hit-mark"),
            ("sunk", "sunk-mark"),
        ];
        strong.extend(STATES[1..].iter().map(|&s| ("water", s)));
        if *scheme == "dark" {
            strong.push(("miss", "halo"));
        }
        for (a, b) in strong {
            let ratio = contrast(colour(a), colour(b));
            if ratio < 3.0 {
                failures.push(format!("{scheme}: {a} against {b} is {ratio:.2}:1"));
            }
        }
        for (i, a) in STATES.iter().enumerate() {
            for b in &STATES[i + 1..] {
                let de = ciede2000(colour(a).lab(), colour(b).lab());
                if de < 20.0 {
                    failures.push(format!("{scheme}: {a} and {b} differ by ΔE00 {de:.1}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn five_colours_pairwise_three_to_one_apart_cannot_exist() {
    // The lowest chain: black, then each colour exactly 3:1 above the one before.
    let mut luminance = 0.0_f64;
    for _ in 0..4 {
        luminance = 3.0 * (luminance + 0.05) - 0.05;
    }
    assert!(luminance > 1.0, "the fifth would need L {luminance:.2}");
}
