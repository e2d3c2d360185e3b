//! The report's plots, written as SVG text by hand: stacked bars and line
//! charts are a few rectangles, polylines and `<text>` elements, so no
//! plotting crate, font file or rasteriser is needed (a viewer renders the
//! text with its own fonts). Every mark carries `data-*` attributes with the
//! number it shows, so tests (and scripts) can check a plot against the
//! numbers it came from.

use std::fmt::Write;

/// Canvas and plot-area geometry, in SVG user units (px).
const WIDTH: f64 = 820.0;
const HEIGHT: f64 = 440.0;
const LEFT: f64 = 80.0;
const RIGHT: f64 = 220.0;
const TOP: f64 = 50.0;
const BOTTOM: f64 = 70.0;

/// Colours of series by their index (protocols keep the registry's order
/// in every plot, so a protocol has the same colour everywhere).
pub const SERIES_COLOURS: [&str; 10] = [
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf",
];

/// Colours of the stacked phases (setup, independent, dependent, online).
pub const PHASE_COLOURS: [&str; 4] = ["#b0b0b0", "#4e79a7", "#f28e2b", "#e15759"];

fn plot_w() -> f64 {
    WIDTH - LEFT - RIGHT
}

fn plot_h() -> f64 {
    HEIGHT - TOP - BOTTOM
}

/// Escapes text for an SVG text node or a double-quoted attribute.
pub fn escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&apos;"),
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => {}
            c => o.push(c),
        }
    }
    o
}

/// A number as a tick or value label: up to three significant digits,
/// without trailing zeros.
pub fn label(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return "0".into();
    }
    let digits = v.abs().log10().floor() as i32;
    let decimals = (2 - digits).clamp(0, 6) as usize;
    let s = format!("{v:.decimals$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// A value axis mapped onto a pixel interval.
#[derive(Clone, Copy, Debug)]
struct Scale {
    lo: f64,
    hi: f64,
    log: bool,
    px0: f64,
    px1: f64,
}

impl Scale {
    fn map(&self, v: f64) -> f64 {
        let t = if self.log {
            (v.log10() - self.lo.log10()) / (self.hi.log10() - self.lo.log10())
        } else {
            (v - self.lo) / (self.hi - self.lo)
        };
        self.px0 + t * (self.px1 - self.px0)
    }

    /// A linear axis from 0 to a "nice" bound above `max`, with its ticks.
    fn linear(max: f64, px0: f64, px1: f64) -> (Scale, Vec<f64>) {
        let max = if max > 0.0 && max.is_finite() {
            max
        } else {
            1.0
        };
        let step = nice_step(max / 5.0);
        let n = (max / step).ceil().max(1.0) as usize;
        let ticks: Vec<f64> = (0..=n).map(|i| i as f64 * step).collect();
        let hi = n as f64 * step;
        (
            Scale {
                lo: 0.0,
                hi,
                log: false,
                px0,
                px1,
            },
            ticks,
        )
    }

    /// A linear axis over [min, max] of the data (from 0 when all data are
    /// non-negative), with ticks.
    fn linear_range(min: f64, max: f64, px0: f64, px1: f64) -> (Scale, Vec<f64>) {
        if min >= 0.0 {
            return Scale::linear(max, px0, px1);
        }
        let step = nice_step((max - min).max(1e-9) / 5.0);
        let lo = (min / step).floor() * step;
        let hi = (max / step).ceil() * step;
        let n = ((hi - lo) / step).round() as usize;
        let ticks = (0..=n).map(|i| lo + i as f64 * step).collect();
        (
            Scale {
                lo,
                hi,
                log: false,
                px0,
                px1,
            },
            ticks,
        )
    }

    /// A log axis over [min / pad, max · pad] (min, max > 0), with ticks
    /// at 1, 2 and 5 times the powers of ten inside it, or at the powers
    /// of ten alone when those would be more than ten.
    fn log(min: f64, max: f64, pad: f64, px0: f64, px1: f64) -> (Scale, Vec<f64>) {
        let (min, max) = if min > 0.0 && max >= min {
            (min, max)
        } else {
            (1.0, 10.0)
        };
        let (mut lo, mut hi) = (min / pad, max * pad);
        if hi / lo < 2.0 {
            // One value (or nearly): an axis of a factor 4 around it.
            let mid = (lo * hi).sqrt();
            (lo, hi) = (mid / 2.0, mid * 2.0);
        }
        let inside = |v: &f64| *v >= lo * (1.0 - 1e-9) && *v <= hi * (1.0 + 1e-9);
        let mut ticks = Vec::new();
        for e in lo.log10().floor() as i32..=hi.log10().ceil() as i32 {
            for m in [1.0, 2.0, 5.0] {
                ticks.push(m * 10f64.powi(e));
            }
        }
        ticks.retain(inside);
        if ticks.len() > 10 {
            ticks.retain(|t| (t.log10() - t.log10().round()).abs() < 1e-9);
        }
        (
            Scale {
                lo,
                hi,
                log: true,
                px0,
                px1,
            },
            ticks,
        )
    }
}

/// The smallest of 1, 2, 5 × 10^k at least `raw`.
fn nice_step(raw: f64) -> f64 {
    let raw = if raw > 0.0 && raw.is_finite() {
        raw
    } else {
        1.0
    };
    let p = 10f64.powf(raw.log10().floor());
    for m in [1.0, 2.0, 5.0, 10.0] {
        if m * p >= raw * (1.0 - 1e-12) {
            return m * p;
        }
    }
    10.0 * p
}

fn header(out: &mut String, title: &str) {
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" \
         viewBox=\"0 0 {WIDTH} {HEIGHT}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <title>{t}</title>\n\
         <rect x=\"0\" y=\"0\" width=\"{WIDTH}\" height=\"{HEIGHT}\" fill=\"white\"/>\n\
         <text x=\"{cx}\" y=\"28\" text-anchor=\"middle\" font-size=\"15\" font-weight=\"bold\">{t}</text>\n",
        t = escape(title),
        cx = LEFT + plot_w() / 2.0,
    );
}

/// The y axis: grid lines, tick labels and the axis title.
fn y_axis(out: &mut String, s: &Scale, ticks: &[f64], title: &str) {
    for &t in ticks {
        let y = s.map(t);
        let _ = writeln!(
            out,
            "<line x1=\"{LEFT}\" y1=\"{y:.2}\" x2=\"{x2}\" y2=\"{y:.2}\" stroke=\"#e0e0e0\"/>\
             <text x=\"{lx}\" y=\"{ty:.2}\" text-anchor=\"end\">{l}</text>",
            x2 = LEFT + plot_w(),
            lx = LEFT - 6.0,
            ty = y + 4.0,
            l = escape(&label(t)),
        );
    }
    let _ = writeln!(
        out,
        "<line x1=\"{LEFT}\" y1=\"{TOP}\" x2=\"{LEFT}\" y2=\"{b}\" stroke=\"black\"/>\
         <text x=\"18\" y=\"{cy}\" text-anchor=\"middle\" transform=\"rotate(-90 18 {cy})\">{t}</text>",
        b = TOP + plot_h(),
        cy = TOP + plot_h() / 2.0,
        t = escape(title),
    );
}

fn x_axis_line(out: &mut String) {
    let y = TOP + plot_h();
    let _ = writeln!(
        out,
        "<line x1=\"{LEFT}\" y1=\"{y}\" x2=\"{x2}\" y2=\"{y}\" stroke=\"black\"/>",
        x2 = LEFT + plot_w()
    );
}

/// A legend entry per (name, colour, dashed) on the right of the plot.
fn legend(out: &mut String, entries: &[(String, &str, bool)], swatch_box: bool) {
    let x = LEFT + plot_w() + 16.0;
    for (i, (name, colour, dashed)) in entries.iter().enumerate() {
        let y = TOP + 10.0 + 20.0 * i as f64;
        if swatch_box {
            let _ = write!(
                out,
                "<rect x=\"{x}\" y=\"{ry}\" width=\"14\" height=\"12\" fill=\"{colour}\"/>",
                ry = y - 10.0
            );
        } else {
            let _ = write!(
                out,
                "<line x1=\"{x}\" y1=\"{ly}\" x2=\"{x2}\" y2=\"{ly}\" stroke=\"{colour}\" stroke-width=\"2.5\"{d}/>",
                ly = y - 4.0,
                x2 = x + 18.0,
                d = if *dashed {
                    " stroke-dasharray=\"6 4\""
                } else {
                    ""
                },
            );
        }
        let _ = writeln!(
            out,
            "<text x=\"{tx}\" y=\"{y}\">{n}</text>",
            tx = x + 24.0,
            n = escape(name)
        );
    }
}

/// Stacked bars: one bar per category (e.g. protocol), one stacked
/// segment per stack (e.g. phase), heights proportional to the values on a
/// linear axis from 0 (a stack's share of the total stays visible).
pub struct StackedBars {
    /// Plot title.
    pub title: String,
    /// Title of the value axis (with its unit).
    pub y_label: String,
    /// Names of the stacked segments, bottom first.
    pub stacks: Vec<String>,
    /// Colour of each stack.
    pub colours: Vec<&'static str>,
    /// One bar per category: its name and its stack values (`None`: no
    /// number for this category, drawn as a labelled gap).
    pub bars: Vec<(String, Option<Vec<f64>>)>,
    /// Text drawn in place of a missing bar.
    pub missing: String,
}

impl StackedBars {
    /// The plot as an SVG document.
    pub fn render(&self) -> String {
        let total = |v: &[f64]| v.iter().map(|x| x.max(0.0)).sum::<f64>();
        let max = self
            .bars
            .iter()
            .filter_map(|(_, v)| v.as_deref().map(total))
            .fold(0.0, f64::max);
        let (ys, ticks) = Scale::linear(max, TOP + plot_h(), TOP);
        let mut out = String::new();
        header(&mut out, &self.title);
        y_axis(&mut out, &ys, &ticks, &self.y_label);
        let slot = plot_w() / self.bars.len().max(1) as f64;
        let bw = (slot * 0.6).min(70.0);
        for (i, (name, values)) in self.bars.iter().enumerate() {
            let cx = LEFT + slot * (i as f64 + 0.5);
            let x = cx - bw / 2.0;
            let _ = writeln!(
                out,
                "<g class=\"bar-group\" data-category=\"{n}\">",
                n = escape(name)
            );
            match values {
                Some(v) => {
                    let mut acc = 0.0;
                    for (k, &val) in v.iter().enumerate() {
                        let val = val.max(0.0);
                        let y_top = ys.map(acc + val);
                        let y_bot = ys.map(acc);
                        let stack = self.stacks.get(k).map(String::as_str).unwrap_or("");
                        let _ = writeln!(
                            out,
                            "<rect class=\"bar\" data-category=\"{c}\" data-series=\"{s}\" data-value=\"{val}\" \
                             x=\"{x:.3}\" y=\"{y_top:.3}\" width=\"{bw:.3}\" height=\"{h:.3}\" fill=\"{f}\">\
                             <title>{c} {s}: {l}</title></rect>",
                            c = escape(name),
                            s = escape(stack),
                            h = y_bot - y_top,
                            f = self.colours.get(k).copied().unwrap_or("#888888"),
                            l = escape(&label(val)),
                        );
                        acc += val;
                    }
                    let _ = writeln!(
                        out,
                        "<text class=\"total\" x=\"{cx:.3}\" y=\"{y:.3}\" text-anchor=\"middle\" font-size=\"11\">{l}</text>",
                        y = ys.map(acc) - 5.0,
                        l = escape(&label(acc)),
                    );
                }
                None => {
                    let _ = writeln!(
                        out,
                        "<text class=\"missing\" x=\"{cx:.3}\" y=\"{y:.3}\" text-anchor=\"middle\" font-size=\"11\" fill=\"#777777\">{m}</text>",
                        y = TOP + plot_h() - 8.0,
                        m = escape(&self.missing),
                    );
                }
            }
            let _ = writeln!(
                out,
                "<text x=\"{cx:.3}\" y=\"{y}\" text-anchor=\"middle\">{n}</text></g>",
                y = TOP + plot_h() + 18.0,
                n = escape(name),
            );
        }
        x_axis_line(&mut out);
        let entries: Vec<(String, &str, bool)> = self
            .stacks
            .iter()
            .zip(&self.colours)
            .map(|(s, c)| (s.clone(), *c, false))
            .collect();
        legend(&mut out, &entries, true);
        out.push_str("</svg>\n");
        out
    }
}

/// One line of a [`LineChart`].
pub struct Series {
    /// Legend name.
    pub name: String,
    /// `(x, y)` points, drawn in the order given.
    pub points: Vec<(f64, f64)>,
    /// Line colour.
    pub colour: &'static str,
    /// Dashed line (e.g. a second measure of the same protocol).
    pub dashed: bool,
}

/// Lines over a numeric x axis, each axis linear or logarithmic. On a log
/// axis, points with a value ≤ 0 cannot be drawn: they are left out and
/// counted in a `data-dropped` attribute of their series.
pub struct LineChart {
    /// Plot title.
    pub title: String,
    /// Title of the x axis (with its unit).
    pub x_label: String,
    /// Title of the y axis (with its unit).
    pub y_label: String,
    /// Logarithmic x axis.
    pub x_log: bool,
    /// Logarithmic y axis.
    pub y_log: bool,
    /// Ticks of the x axis (e.g. the values a sweep measured); `None`:
    /// chosen from the range.
    pub x_ticks: Option<Vec<f64>>,
    /// The lines.
    pub series: Vec<Series>,
}

impl LineChart {
    fn drawable(&self, p: (f64, f64)) -> bool {
        p.0.is_finite()
            && p.1.is_finite()
            && (!self.x_log || p.0 > 0.0)
            && (!self.y_log || p.1 > 0.0)
    }

    /// The plot as an SVG document.
    pub fn render(&self) -> String {
        let pts: Vec<(f64, f64)> = self
            .series
            .iter()
            .flat_map(|s| s.points.iter().copied())
            .filter(|&p| self.drawable(p))
            .collect();
        let fold = |f: fn(f64, f64) -> f64, init: f64, sel: fn(&(f64, f64)) -> f64| {
            pts.iter().map(sel).fold(init, f)
        };
        let (x_min, x_max) = (
            fold(f64::min, f64::INFINITY, |p| p.0),
            fold(f64::max, f64::NEG_INFINITY, |p| p.0),
        );
        let (y_min, y_max) = (
            fold(f64::min, f64::INFINITY, |p| p.1),
            fold(f64::max, f64::NEG_INFINITY, |p| p.1),
        );
        let (px0, px1) = (LEFT + 10.0, LEFT + plot_w() - 10.0);
        let (xs, mut xticks) = if pts.is_empty() {
            Scale::linear(1.0, px0, px1)
        } else if self.x_log {
            Scale::log(x_min, x_max, 1.0, px0, px1)
        } else {
            Scale::linear_range(x_min, x_max, px0, px1)
        };
        let (ys, yticks) = if pts.is_empty() {
            Scale::linear(1.0, TOP + plot_h(), TOP)
        } else if self.y_log {
            Scale::log(y_min, y_max, 1.3, TOP + plot_h(), TOP)
        } else {
            Scale::linear_range(y_min, y_max, TOP + plot_h(), TOP)
        };
        if let Some(t) = &self.x_ticks {
            xticks = t
                .iter()
                .copied()
                .filter(|&v| self.drawable((v, 1.0)) && v >= xs.lo && v <= xs.hi)
                .collect();
        }
        let mut out = String::new();
        header(&mut out, &self.title);
        y_axis(&mut out, &ys, &yticks, &self.y_label);
        x_axis_line(&mut out);
        for &t in &xticks {
            let x = xs.map(t);
            let _ = writeln!(
                out,
                "<line x1=\"{x:.2}\" y1=\"{y0}\" x2=\"{x:.2}\" y2=\"{y1}\" stroke=\"black\"/>\
                 <text x=\"{x:.2}\" y=\"{ty}\" text-anchor=\"middle\">{l}</text>",
                y0 = TOP + plot_h(),
                y1 = TOP + plot_h() + 5.0,
                ty = TOP + plot_h() + 18.0,
                l = escape(&label(t)),
            );
        }
        let _ = writeln!(
            out,
            "<text x=\"{cx}\" y=\"{y}\" text-anchor=\"middle\">{t}</text>",
            cx = LEFT + plot_w() / 2.0,
            y = HEIGHT - 22.0,
            t = escape(&self.x_label),
        );
        for s in &self.series {
            let shown: Vec<(f64, f64)> = s
                .points
                .iter()
                .copied()
                .filter(|&p| self.drawable(p))
                .collect();
            let dropped = s.points.len() - shown.len();
            let _ = writeln!(
                out,
                "<g class=\"series\" data-series=\"{n}\" data-dropped=\"{dropped}\">",
                n = escape(&s.name)
            );
            let coords: Vec<String> = shown
                .iter()
                .map(|&(x, y)| format!("{:.3},{:.3}", xs.map(x), ys.map(y)))
                .collect();
            let _ = writeln!(
                out,
                "<polyline points=\"{p}\" fill=\"none\" stroke=\"{c}\" stroke-width=\"2.5\"{d}/>",
                p = coords.join(" "),
                c = s.colour,
                d = if s.dashed {
                    " stroke-dasharray=\"6 4\""
                } else {
                    ""
                },
            );
            for &(x, y) in &shown {
                let _ = writeln!(
                    out,
                    "<circle class=\"point\" data-x=\"{x}\" data-y=\"{y}\" cx=\"{cx:.3}\" cy=\"{cy:.3}\" r=\"3.5\" fill=\"{c}\">\
                     <title>{n}: {lx}, {ly}</title></circle>",
                    cx = xs.map(x),
                    cy = ys.map(y),
                    c = s.colour,
                    n = escape(&s.name),
                    lx = escape(&label(x)),
                    ly = escape(&label(y)),
                );
            }
            out.push_str("</g>\n");
        }
        let entries: Vec<(String, &str, bool)> = self
            .series
            .iter()
            .map(|s| (s.name.clone(), s.colour, s.dashed))
            .collect();
        legend(&mut out, &entries, false);
        out.push_str("</svg>\n");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The value of attribute `name` in each element of `class` (in order).
    fn attrs(svg: &str, class: &str, name: &str) -> Vec<String> {
        svg.split(&format!("class=\"{class}\""))
            .skip(1)
            .map(|rest| {
                let tag_end = rest.find('>').unwrap();
                let tag = &rest[..tag_end];
                let key = format!(" {name}=\"");
                let at = tag.find(&key).unwrap_or_else(|| panic!("{name} in {tag}"));
                let v = &tag[at + key.len()..];
                v[..v.find('"').unwrap()].to_string()
            })
            .collect()
    }

    fn nums(svg: &str, class: &str, name: &str) -> Vec<f64> {
        attrs(svg, class, name)
            .iter()
            .map(|s| s.parse().unwrap())
            .collect()
    }

    /// Open and close tags balance (a small well-formedness check:
    /// self-closing tags, `<title>` children, no stray `<` in text).
    fn balanced(svg: &str) -> bool {
        let mut stack: Vec<&str> = Vec::new();
        let mut rest = svg;
        while let Some(i) = rest.find('<') {
            let Some(j) = rest[i..].find('>') else {
                return false;
            };
            let tag = &rest[i + 1..i + j];
            rest = &rest[i + j + 1..];
            if let Some(name) = tag.strip_prefix('/') {
                if stack.pop() != Some(name.trim()) {
                    return false;
                }
            } else if !tag.ends_with('/') {
                let name = tag.split_whitespace().next().unwrap_or("");
                if name.is_empty() || tag.contains('<') {
                    return false;
                }
                stack.push(name);
            }
        }
        stack.is_empty()
    }

    fn bars() -> StackedBars {
        StackedBars {
            title: "phases <A&B>".into(),
            y_label: "ms".into(),
            stacks: vec!["setup".into(), "online".into()],
            colours: vec![PHASE_COLOURS[0], PHASE_COLOURS[3]],
            bars: vec![
                ("yao".into(), Some(vec![10.0, 2.0])),
                ("lego".into(), Some(vec![40.0, 8.0])),
                ("sbox".into(), None),
                ("tiny".into(), Some(vec![0.0, 23.5])),
            ],
            missing: "n/a".into(),
        }
    }

    #[test]
    fn bar_heights_are_proportional_to_values() {
        let svg = bars().render();
        let v = nums(&svg, "bar", "data-value");
        let h = nums(&svg, "bar", "height");
        assert_eq!(v, [10.0, 2.0, 40.0, 8.0, 0.0, 23.5]);
        let k = h[0] / v[0];
        assert!(k > 0.0);
        for (hv, vv) in h.iter().zip(&v) {
            assert!(
                (hv - k * vv).abs() < 0.01,
                "height {hv} for value {vv}, px per unit {k}"
            );
        }
        // The tallest bar (48) fits under the axis top and fills most of it.
        let plot = plot_h();
        assert!(k * 48.0 <= plot + 1e-9 && k * 48.0 > 0.75 * plot, "{k}");
    }

    #[test]
    fn segments_stack_without_gaps_and_totals_are_labelled() {
        let svg = bars().render();
        let y = nums(&svg, "bar", "y");
        let h = nums(&svg, "bar", "height");
        // The second segment of each bar sits on top of the first.
        for b in [0, 2, 4] {
            assert!((y[b + 1] + h[b + 1] - y[b]).abs() < 0.01, "{y:?} {h:?}");
        }
        assert!(svg.contains(">12</text>") && svg.contains(">48</text>"));
        assert!(svg.contains(">23.5</text>"));
        // The missing category is drawn as a label, not a bar.
        assert_eq!(attrs(&svg, "missing", "x").len(), 1);
        assert!(!attrs(&svg, "bar", "data-category").contains(&"sbox".to_string()));
    }

    #[test]
    fn text_is_escaped_and_the_document_balances() {
        let svg = bars().render();
        assert!(svg.contains("phases &lt;A&amp;B&gt;"));
        assert!(!svg.contains("<A&B>"));
        assert!(svg.starts_with("<svg ") && svg.trim_end().ends_with("</svg>"));
        assert!(balanced(&svg));
        assert!(!balanced("<svg><g></svg>"));
    }

    fn lines(x_log: bool, y_log: bool) -> LineChart {
        LineChart {
            title: "t".into(),
            x_label: "executions".into(),
            y_label: "ms".into(),
            x_log,
            y_log,
            x_ticks: None,
            series: vec![
                Series {
                    name: "a".into(),
                    points: vec![(1.0, 100.0), (4.0, 25.0), (16.0, 6.25), (64.0, 0.0)],
                    colour: SERIES_COLOURS[0],
                    dashed: false,
                },
                Series {
                    name: "b".into(),
                    points: vec![(1.0, 1.0), (64.0, 2.0)],
                    colour: SERIES_COLOURS[1],
                    dashed: true,
                },
            ],
        }
    }

    #[test]
    fn log_axes_space_equal_ratios_equally_and_drop_nonpositive_points() {
        let svg = lines(true, true).render();
        assert!(balanced(&svg));
        let cx = nums(&svg, "point", "cx");
        let cy = nums(&svg, "point", "cy");
        // Series a: x = 1, 4, 16 (64 has y = 0: dropped on a log y axis).
        assert_eq!(nums(&svg, "series", "data-dropped"), [1.0, 0.0]);
        assert_eq!(cx.len(), 5);
        let (d1, d2) = (cx[1] - cx[0], cx[2] - cx[1]);
        assert!(d1 > 0.0 && (d1 - d2).abs() < 0.01, "{cx:?}");
        // y falls by 4x per step: equal pixel steps downward (SVG y grows down).
        let (e1, e2) = (cy[1] - cy[0], cy[2] - cy[1]);
        assert!(e1 > 0.0 && (e1 - e2).abs() < 0.01, "{cy:?}");
        // Series b spans x = 1..64: its last point is 3 steps right of its first.
        assert!((cx[4] - cx[3] - 3.0 * d1).abs() < 0.01);
        assert!(svg.contains("stroke-dasharray"));
    }

    #[test]
    fn linear_axes_map_values_proportionally() {
        let svg = lines(false, false).render();
        let cx = nums(&svg, "point", "cx");
        let cy = nums(&svg, "point", "cy");
        assert_eq!(nums(&svg, "series", "data-dropped"), [0.0, 0.0]);
        // x = 1, 4, 16: pixel gaps in ratio 3 : 12.
        assert!(((cx[2] - cx[1]) / (cx[1] - cx[0]) - 4.0).abs() < 1e-3);
        // y = 100, 25, 6.25: pixel gaps in ratio 75 : 18.75.
        let r = (cy[1] - cy[0]) / (cy[2] - cy[1]);
        assert!((r - 75.0 / 18.75).abs() < 1e-3, "{r}");
    }

    #[test]
    fn ticks_and_labels() {
        assert_eq!(nice_step(17.4), 20.0);
        assert_eq!(nice_step(0.3), 0.5);
        assert_eq!(nice_step(100.0), 100.0);
        let (s, t) = Scale::linear(87.0, 0.0, 100.0);
        assert_eq!(t, [0.0, 20.0, 40.0, 60.0, 80.0, 100.0]);
        assert_eq!(s.hi, 100.0);
        let (s, t) = Scale::log(0.3, 4000.0, 1.0, 0.0, 100.0);
        assert_eq!((s.lo, s.hi), (0.3, 4000.0));
        assert_eq!(t, [1.0, 10.0, 100.0, 1000.0]);
        let (s, t) = Scale::log(1.0, 64.0, 1.0, 0.0, 100.0);
        assert_eq!((s.lo, s.hi), (1.0, 64.0));
        assert_eq!(t, [1.0, 2.0, 5.0, 10.0, 20.0, 50.0]);
        assert!((s.map(8.0) - 50.0).abs() < 1e-9);
        assert_eq!(label(0.1234), "0.123");
        assert_eq!(label(1234.6), "1235");
        assert_eq!(label(20.0), "20");
        assert_eq!(label(2.5), "2.5");
        assert_eq!(label(0.0), "0");
    }
}
