//! Charts as inline SVG, drawn on the server: a learning curve, a reliability diagram and a
//! confusion matrix. They need no script and no network, and every label in them is text
//! maud escapes. Colours and lines come from the stylesheet's classes.

use crate::wire::align::{CurvePoint, ReliabilityBin};
use maud::{Markup, html};

/// The plotting area of the two line charts, inside their margins.
const WIDTH: f64 = 200.0;
const HEIGHT: f64 = 150.0;
const LEFT: f64 = 40.0;
const TOP: f64 = 12.0;
const BOTTOM: f64 = 36.0;
/// Labels longer than this are cut in a chart (the whole label is its tooltip).
const LABEL: usize = 14;

/// Accuracy against annotated examples (a log scale: the curve doubles them), with the 95%
/// intervals as a band when every point has one.
pub fn curve(points: &[CurvePoint]) -> Markup {
    let (Some(first), Some(last)) = (points.first(), points.last()) else {
        return html! {};
    };
    let (low, high) = (
        (first.examples.max(1) as f64).log2(),
        (last.examples.max(1) as f64).log2(),
    );
    let x = |examples: u64| {
        let at = (examples.max(1) as f64).log2();
        if high > low {
            LEFT + (at - low) / (high - low) * WIDTH
        } else {
            LEFT + WIDTH / 2.0
        }
    };
    let y = |share: f64| TOP + (1.0 - share.clamp(0.0, 1.0)) * HEIGHT;
    let line = polyline(points.iter().map(|p| (x(p.examples), y(p.accuracy))));
    let band = points
        .iter()
        .map(|p| {
            p.interval
                .map(|[low, high]| (x(p.examples), y(low), y(high)))
        })
        .collect::<Option<Vec<_>>>()
        .map(|band| {
            let upper = band.iter().map(|&(x, _, high)| (x, high));
            let lower = band.iter().rev().map(|&(x, low, _)| (x, low));
            polyline(upper.chain(lower))
        });
    html! {
        svg class="chart" viewBox=(view_box()) width=(total_width()) height=(total_height())
            role="img" aria-label="learning curve" {
            (accuracy_axis(&y))
            @if let Some(band) = band {
                polygon class="band" points=(band) {}
            }
            polyline class="line" points=(line) {}
            @for p in points {
                circle class="dot" cx=(fixed(x(p.examples))) cy=(fixed(y(p.accuracy))) r="3" {
                    title { (p.examples) " annotated: accuracy " (fixed3(p.accuracy)) }
                }
                text x=(fixed(x(p.examples))) y=(fixed(TOP + HEIGHT + 14.0)) text-anchor="middle" {
                    (p.examples)
                }
            }
            text x=(fixed(LEFT + WIDTH / 2.0)) y=(fixed(TOP + HEIGHT + 30.0)) text-anchor="middle" {
                "annotated examples"
            }
        }
    }
}

/// Accuracy against the most likely outcome's probability, per bin: a bar for each bin's
/// accuracy over its range, a dot at its mean probability, and the diagonal a calibrated
/// model would follow.
pub fn reliability(bins: &[ReliabilityBin]) -> Markup {
    let x = |p: f64| LEFT + p.clamp(0.0, 1.0) * WIDTH;
    let y = |share: f64| TOP + (1.0 - share.clamp(0.0, 1.0)) * HEIGHT;
    html! {
        svg class="chart" viewBox=(view_box()) width=(total_width()) height=(total_height())
            role="img" aria-label="reliability diagram" {
            (accuracy_axis(&y))
            line class="ideal" x1=(fixed(x(0.0))) y1=(fixed(y(0.0))) x2=(fixed(x(1.0))) y2=(fixed(y(1.0))) {}
            @for bin in bins {
                rect class="bar" x=(fixed(x(bin.low))) y=(fixed(y(bin.accuracy)))
                    width=(fixed(x(bin.high) - x(bin.low) - 1.0))
                    height=(fixed(y(0.0) - y(bin.accuracy))) {
                    title {
                        (fixed3(bin.low)) "–" (fixed3(bin.high)) ": " (bin.examples)
                        " examples, mean probability " (fixed3(bin.confidence))
                        ", accuracy " (fixed3(bin.accuracy))
                    }
                }
                circle class="dot" cx=(fixed(x(bin.confidence))) cy=(fixed(y(bin.accuracy))) r="3" {}
            }
            @for tick in [0.0, 0.5, 1.0] {
                text x=(fixed(x(tick))) y=(fixed(TOP + HEIGHT + 14.0)) text-anchor="middle" { (tick) }
            }
            text x=(fixed(LEFT + WIDTH / 2.0)) y=(fixed(TOP + HEIGHT + 30.0)) text-anchor="middle" {
                "probability of the most likely outcome"
            }
        }
    }
}

/// `matrix[label][predicted]` as a grid, each cell shaded by its share of its row (of the
/// examples annotated with that outcome, how many got each answer).
pub fn confusion(outcomes: &[String], matrix: &[Vec<u64>]) -> Markup {
    let n = matrix.len().max(1);
    let cell = (150.0 / n as f64).clamp(12.0, 32.0);
    let (left, top) = (100.0, 100.0);
    let size = cell * n as f64;
    let name = |i: usize| outcomes.get(i).map_or("?", String::as_str);
    html! {
        svg class="chart" viewBox=(format!("0 0 {} {}", fixed(left + size + 60.0), fixed(top + size + 24.0)))
            width=(fixed(left + size + 60.0)) height=(fixed(top + size + 24.0))
            role="img" aria-label="confusion matrix" {
            @for (i, row) in matrix.iter().enumerate() {
                @let total = row.iter().sum::<u64>().max(1) as f64;
                text x=(fixed(left - 6.0)) y=(fixed(top + (i as f64 + 0.5) * cell + 4.0)) text-anchor="end" {
                    title { (name(i)) } (short(name(i)))
                }
                @for (j, count) in row.iter().enumerate() {
                    @let (cx, cy) = (left + j as f64 * cell, top + i as f64 * cell);
                    rect class="cell" x=(fixed(cx)) y=(fixed(cy)) width=(fixed(cell)) height=(fixed(cell))
                        fill-opacity=(fixed3(*count as f64 / total)) {
                        title { "annotated " (name(i)) ", answered " (name(j)) ": " (count) }
                    }
                    rect class="cell-frame" x=(fixed(cx)) y=(fixed(cy)) width=(fixed(cell)) height=(fixed(cell)) {}
                    @if cell >= 20.0 {
                        text x=(fixed(cx + cell / 2.0)) y=(fixed(cy + cell / 2.0 + 4.0)) text-anchor="middle" { (count) }
                    }
                }
            }
            @for j in 0..matrix.len() {
                @let (cx, cy) = (left + (j as f64 + 0.5) * cell + 4.0, top - 6.0);
                text x=(fixed(cx)) y=(fixed(cy)) transform=(format!("rotate(-60 {} {})", fixed(cx), fixed(cy))) {
                    title { (name(j)) } (short(name(j)))
                }
            }
            text x=(fixed(left + size / 2.0)) y=(fixed(top + size + 16.0)) text-anchor="middle" {
                "rows: annotated · columns: answered"
            }
        }
    }
}

/// The y axis from 0 to 1 with its grid.
fn accuracy_axis(y: &dyn Fn(f64) -> f64) -> Markup {
    html! {
        @for tick in [0.0, 0.25, 0.5, 0.75, 1.0] {
            line class="grid" x1=(fixed(LEFT)) y1=(fixed(y(tick))) x2=(fixed(LEFT + WIDTH)) y2=(fixed(y(tick))) {}
            text x=(fixed(LEFT - 6.0)) y=(fixed(y(tick) + 4.0)) text-anchor="end" { (tick) }
        }
        line class="axis" x1=(fixed(LEFT)) y1=(fixed(TOP)) x2=(fixed(LEFT)) y2=(fixed(TOP + HEIGHT)) {}
        text x="10" y=(fixed(TOP + HEIGHT / 2.0)) text-anchor="middle"
            transform=(format!("rotate(-90 10 {})", fixed(TOP + HEIGHT / 2.0))) { "accuracy" }
    }
}

fn polyline(points: impl Iterator<Item = (f64, f64)>) -> String {
    points
        .map(|(x, y)| format!("{},{}", fixed(x), fixed(y)))
        .collect::<Vec<_>>()
        .join(" ")
}

fn view_box() -> String {
    format!("0 0 {} {}", total_width(), total_height())
}

fn total_width() -> String {
    fixed(LEFT + WIDTH + 16.0)
}

fn total_height() -> String {
    fixed(TOP + HEIGHT + BOTTOM)
}

/// A coordinate, to a tenth of a pixel.
fn fixed(value: f64) -> String {
    format!("{value:.1}")
}

/// A figure as the report's tables show it.
pub fn fixed3(value: f64) -> String {
    format!("{value:.3}")
}

/// A label cut to fit a chart.
fn short(label: &str) -> String {
    if label.chars().count() <= LABEL {
        label.to_owned()
    } else {
        label.chars().take(LABEL - 1).chain(['…']).collect()
    }
}
