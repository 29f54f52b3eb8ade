//! The PNG: the pixels as palette indices, then deflated; and plain RGB for benches and tests.

use super::*;
use std::hash::{BuildHasherDefault, Hasher};

/// The pixmap's pixels without alpha: every pixel is opaque, so premultiplied is plain.
pub(super) fn rgb(pixmap: &Pixmap) -> Vec<u8> {
    let mut out = Vec::with_capacity(pixmap.data().len() / 4 * 3);
    for px in pixmap.data().chunks_exact(4) {
        out.extend_from_slice(&px[..3]);
    }
    out
}

/// The pixels as palette indices: flat colours and the few shades that anti-aliasing makes
/// fit in 256, a third of the bytes of RGB to compress. Should a picture ever hold more
/// colours, the rarest (edge pixels) take the nearest of the 256 commonest.
pub(super) fn indexed(pixmap: &Pixmap) -> (Vec<u8>, Vec<u8>) {
    let pixels = || {
        pixmap
            .data()
            .chunks_exact(4)
            .map(|p| u32::from_le_bytes([p[0], p[1], p[2], p[3]]))
    };
    let rgb = |c: u32| {
        let [r, g, b, _] = c.to_le_bytes();
        [r, g, b]
    };
    // The usual case, in one pass: each new colour gets the next number; runs of one colour
    // (most of a picture) cost one look-up.
    let mut numbers: HashMap<u32, u8, PixelHash> = HashMap::default();
    let mut palette: Vec<u8> = Vec::with_capacity(256 * 3);
    let mut out: Vec<u8> = vec![0; pixmap.data().len() / 4];
    let mut run = (u32::MAX, 0u8);
    let mut overflow = false;
    for (slot, p) in out.iter_mut().zip(pixels()) {
        if p != run.0 {
            let n = match numbers.get(&p) {
                Some(&n) => n,
                None if numbers.len() < 256 => {
                    let n = numbers.len() as u8;
                    numbers.insert(p, n);
                    palette.extend_from_slice(&rgb(p));
                    n
                }
                None => {
                    overflow = true;
                    break;
                }
            };
            run = (p, n);
        }
        *slot = run.1;
    }
    if !overflow {
        return (palette, out);
    }
    // Count every colour.
    let mut counts: HashMap<u32, u32, PixelHash> = HashMap::default();
    let mut run = (u32::MAX, 0u32);
    for p in pixels() {
        if p == run.0 {
            run.1 += 1;
        } else {
            if run.1 > 0 {
                *counts.entry(run.0).or_default() += run.1;
            }
            run = (p, 1);
        }
    }
    *counts.entry(run.0).or_default() += run.1;
    let mut colours: Vec<(u32, u32)> = counts.into_iter().collect();
    // Too many: keep the 256 commonest, give each other colour the nearest kept one.
    colours.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let (kept, rest) = colours.split_at(256);
    let mut index: HashMap<u32, u8, PixelHash> = HashMap::default();
    for (i, &(c, _)) in kept.iter().enumerate() {
        index.insert(c, i as u8);
    }
    for &(c, _) in rest {
        let [r, g, b] = rgb(c);
        let distance = |k: u32| {
            let [kr, kg, kb] = rgb(k);
            let d = |a: u8, b: u8| (i32::from(a) - i32::from(b)).pow(2);
            d(r, kr) + d(g, kg) + d(b, kb)
        };
        let nearest = (0..256).min_by_key(|&i| distance(kept[i].0)).unwrap_or(0);
        index.insert(c, nearest as u8);
    }
    let palette = kept.iter().flat_map(|&(c, _)| rgb(c)).collect();
    let mut out = vec![0; pixmap.data().len() / 4];
    let mut run = (u32::MAX, 0u8);
    for (slot, p) in out.iter_mut().zip(pixels()) {
        if p != run.0 {
            run = (p, index.get(&p).copied().unwrap_or(0));
        }
        *slot = run.1;
    }
    (palette, out)
}

/// A hash for 24-bit colours: one multiplication, high bits folded down.
#[derive(Clone, Copy, Default)]
struct PixelHasher(u64);

impl Hasher for PixelHasher {
    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 29)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u32(u32::from(b));
        }
    }

    fn write_u32(&mut self, n: u32) {
        self.0 = (self.0 ^ u64::from(n)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

type PixelHash = BuildHasherDefault<PixelHasher>;

pub(super) fn encode(pixmap: &Pixmap, packing: Packing) -> Vec<u8> {
    let (palette, indices) = indexed(pixmap);
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    encoder.set_color(png::ColorType::Indexed);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_palette(palette);
    // Up turns the rows inside a band of cells, the same as the row above, into zeros.
    encoder.set_filter(png::Filter::Up);
    // Measured on a classic duel (benches/picture.rs): level 1 is 20 % quicker and 25 % larger
    // than 2; level 3 is 10 % smaller and 10 % slower; fdeflate's ultra-fast mode, over twice
    // the size.
    encoder.set_deflate_compression(png::DeflateCompression::Level(match packing {
        Packing::Fast => 1,
        Packing::Small => 2,
    }));
    let mut writer = encoder
        .write_header()
        .expect("a PNG header writes to memory");
    writer
        .write_image_data(&indices)
        .expect("PNG data writes to memory");
    writer.finish().expect("a PNG ends in memory");
    out
}
