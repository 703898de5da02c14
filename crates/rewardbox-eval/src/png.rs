//! The report as a picture (1200 x 630 PNG, to paste into a chat, a pull request or a slide):
//! pass@k, the per-problem chart and the outcome breakdown. Drawn from rectangles and an 8x8
//! bitmap font, so it needs no fonts or browser and looks the same everywhere.

use crate::evaluation::Evaluation;
use crate::html::rate_rgb;
use crate::outcome::Outcome;
use crate::report::{RunInfo, percent};
use font8x8::UnicodeFonts;

/// The picture's width in pixels.
pub const WIDTH: u32 = 1200;
/// The picture's height in pixels.
pub const HEIGHT: u32 = 630;

const BACKGROUND: [u8; 3] = [0xf6, 0xf7, 0xf9];
const INK: [u8; 3] = [0x1d, 0x23, 0x30];
const MUTED: [u8; 3] = [0x5d, 0x66, 0x78];
const LINE: [u8; 3] = [0xe3, 0xe6, 0xec];
const WHITE: [u8; 3] = [0xff, 0xff, 0xff];

/// The report as PNG bytes.
pub fn render(evaluation: &Evaluation, run: &RunInfo) -> Vec<u8> {
    let mut canvas = Canvas::new(WIDTH, HEIGHT, BACKGROUND);
    canvas.text(40, 30, "rewardbox eval", 3, INK);
    canvas.text(40, 66, &fit(&run.title(), 70), 2, MUTED);

    // pass@k, up to four of them, then the samples passed.
    let mut x = 40;
    for (k, value) in evaluation.pass_at_k.iter().take(4) {
        canvas.rect(x, 100, 250, 100, WHITE);
        canvas.rect(x, 100, 250, 4, Outcome::Passed.color());
        canvas.text(x + 16, 118, &format!("pass@{k}"), 2, MUTED);
        canvas.text(x + 16, 150, &percent(*value), 4, INK);
        x += 270;
    }
    if x < 40 + 270 * 4 {
        canvas.rect(x, 100, 250, 100, WHITE);
        canvas.text(x + 16, 118, "passed", 2, MUTED);
        canvas.text(
            x + 16,
            150,
            &fit(
                &format!("{}/{}", evaluation.passed(), evaluation.scored()),
                9,
            ),
            3,
            INK,
        );
    }

    // One bar per problem: its pass rate.
    let (left, top, chart_width, chart_height) = (40u32, 230u32, 1120u32, 240u32);
    canvas.rect(left, top, chart_width, chart_height, WHITE);
    for fraction in [0.0, 0.5, 1.0] {
        let y = top + 10 + ((chart_height - 20) as f64 * (1.0 - fraction)) as u32;
        canvas.rect(left, y, chart_width, 1, LINE);
    }
    canvas.text(left + 10, top - 18, "pass rate per problem", 1, MUTED);
    let n = evaluation.problems.len().max(1) as f64;
    let slot = f64::from(chart_width - 20) / n;
    let bar = if slot >= 3.0 {
        slot.floor() as u32 - 1
    } else {
        slot.floor().max(1.0) as u32
    };
    for (i, problem) in evaluation.problems.iter().enumerate() {
        let rate = problem.passed as f64 / problem.samples.max(1) as f64;
        let height = (((chart_height - 20) as f64) * rate).round().max(2.0) as u32;
        let color = if problem.invalid.is_some() {
            Outcome::Invalid.color()
        } else {
            rate_rgb(rate)
        };
        let x = left + 10 + (i as f64 * slot) as u32;
        canvas.rect(x, top + chart_height - 10 - height, bar, height, color);
    }

    // The outcome breakdown, and its legend.
    let total = evaluation.samples.len().max(1) as f64;
    let mut x = 40u32;
    let outcomes: Vec<(Outcome, u64)> = Outcome::ALL
        .iter()
        .map(|o| (*o, evaluation.count(*o)))
        .filter(|(_, n)| *n > 0)
        .collect();
    for (i, (outcome, count)) in outcomes.iter().enumerate() {
        let width = if i + 1 == outcomes.len() {
            1160 - x
        } else {
            (1120.0 * *count as f64 / total).round() as u32
        };
        canvas.rect(x, 500, width, 28, outcome.color());
        x += width;
    }
    let mut x = 40u32;
    for (outcome, count) in outcomes.iter().take(6) {
        let label = format!(
            "{} {} ({})",
            outcome.name(),
            count,
            percent(*count as f64 / total)
        );
        canvas.rect(x, 548, 14, 14, outcome.color());
        canvas.text(x + 22, 548, &label, 2, INK);
        x += 22 + label.len() as u32 * 16 + 28;
        if x > 1100 {
            break;
        }
    }
    let footer = format!(
        "{} samples, {} problems, {:.0} samples/s on {} workers",
        evaluation.samples.len(),
        evaluation.problems.len(),
        run.rate(evaluation.scored()),
        run.jobs,
    );
    canvas.text(40, 590, &fit(&footer, 56), 2, MUTED);
    canvas.text(
        1160 - run.generated.len() as u32 * 8,
        596,
        &run.generated,
        1,
        MUTED,
    );
    canvas.encode()
}

/// `text` cut to `max` characters.
fn fit(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        let cut: String = text.chars().take(max - 3).collect();
        format!("{cut}...")
    }
}

/// An RGB picture.
struct Canvas {
    width: u32,
    height: u32,
    pixels: Vec<u8>,
}

impl Canvas {
    fn new(width: u32, height: u32, color: [u8; 3]) -> Canvas {
        let pixels = color.repeat((width * height) as usize);
        Canvas {
            width,
            height,
            pixels,
        }
    }

    /// Fills a rectangle, clipped to the picture.
    fn rect(&mut self, x: u32, y: u32, width: u32, height: u32, color: [u8; 3]) {
        for row in y..(y + height).min(self.height) {
            for col in x..(x + width).min(self.width) {
                let at = ((row * self.width + col) * 3) as usize;
                self.pixels[at..at + 3].copy_from_slice(&color);
            }
        }
    }

    /// Draws `text` with its top-left corner at (x, y), each font pixel `scale` pixels wide.
    fn text(&mut self, x: u32, y: u32, text: &str, scale: u32, color: [u8; 3]) {
        for (i, c) in text.chars().enumerate() {
            let glyph = font8x8::BASIC_FONTS
                .get(c)
                .or_else(|| font8x8::BASIC_FONTS.get('?'))
                .unwrap_or([0; 8]);
            let left = x + i as u32 * 8 * scale;
            for (row, bits) in glyph.iter().enumerate() {
                for col in 0..8 {
                    if bits & (1 << col) != 0 {
                        self.rect(
                            left + col * scale,
                            y + row as u32 * scale,
                            scale,
                            scale,
                            color,
                        );
                    }
                }
            }
        }
    }

    fn encode(&self) -> Vec<u8> {
        let mut bytes = Vec::new();
        let mut encoder = png::Encoder::new(&mut bytes, self.width, self.height);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().expect("writing into memory");
        writer
            .write_image_data(&self.pixels)
            .expect("writing into memory");
        writer.finish().expect("writing into memory");
        bytes
    }
}
