//! SVG charts of the [`Figure`]s, drawn with plotters (SVG backend only): grouped bars, one
//! group per program and one bar per mode, then the geometric means; a title, labelled axes,
//! a dashed line at the baseline (1.0 for ratios), error bars where a time ratio was measured
//! in several rounds (its smallest and largest round), and a legend with one entry and one
//! colour per mode, to the right of the plot so that it covers no bar.

use plotters::prelude::*;

use super::figures::Figure;

/// Bar colours, one per series in order: Kelly's colours of maximum contrast (without white
/// and black), so that up to 20 modes each get a colour of their own; more series than that
/// repeat them.
const PALETTE: [RGBColor; 20] = [
    RGBColor(0x00, 0x67, 0xa5),
    RGBColor(0xf3, 0x84, 0x00),
    RGBColor(0xbe, 0x00, 0x32),
    RGBColor(0x00, 0x88, 0x56),
    RGBColor(0x87, 0x56, 0x92),
    RGBColor(0xf3, 0xc3, 0x00),
    RGBColor(0xa1, 0xca, 0xf1),
    RGBColor(0x84, 0x84, 0x82),
    RGBColor(0xe6, 0x8f, 0xac),
    RGBColor(0x88, 0x2d, 0x17),
    RGBColor(0x8d, 0xb6, 0x00),
    RGBColor(0x60, 0x4e, 0x97),
    RGBColor(0xc2, 0xb2, 0x80),
    RGBColor(0xf9, 0x93, 0x79),
    RGBColor(0xb3, 0x44, 0x6c),
    RGBColor(0x2b, 0x3d, 0x26),
    RGBColor(0xdc, 0xd3, 0x00),
    RGBColor(0x65, 0x45, 0x22),
    RGBColor(0xe2, 0x58, 0x22),
    RGBColor(0xf6, 0xa6, 0x00),
];

/// The width of the legend column to the right of the plot, in pixels.
fn legend_width(figure: &Figure) -> u32 {
    let longest = figure
        .series
        .iter()
        .map(|s| s.name.len())
        .max()
        .unwrap_or(4) as u32;
    40 + longest * 9
}

/// The SVG text of `figure`.
pub fn render(figure: &Figure) -> Result<String, String> {
    let mut svg = String::new();
    let groups = figure.categories.len().max(1);
    let bars = figure.series.len().max(1);
    let legend = legend_width(figure);
    let width = (140 + groups * (bars * 9 + 14)).clamp(900, 4000) as u32 + legend;
    let height = 560u32;
    {
        let whole = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        whole.fill(&WHITE).map_err(|e| e.to_string())?;
        let (root, key) = whole.split_horizontally(width - legend);
        draw_legend(&key, figure)?;
        let values = figure
            .series
            .iter()
            .flat_map(|s| {
                let tops = s.ranges.iter().flatten().map(|(_, hi)| *hi);
                s.values.iter().flatten().copied().chain(tops)
            })
            .filter(|v| v.is_finite());
        if figure.log_y {
            let positive: Vec<f64> = values.filter(|v| *v > 0.0).collect();
            let lo = positive.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = positive.iter().copied().fold(0.0, f64::max);
            let (lo, hi) = if positive.is_empty() {
                (0.1, 10.0)
            } else {
                let hi = hi.max(figure.baseline.unwrap_or(0.0));
                let lo = lo.min(figure.baseline.unwrap_or(f64::INFINITY));
                (lo / 2.0, hi * 2.0)
            };
            draw(&root, figure, (lo..hi).log_scale(), lo)?;
        } else {
            let hi = values.fold(figure.baseline.unwrap_or(0.0), f64::max);
            let hi = if hi > 0.0 { hi * 1.08 } else { 1.0 };
            draw(&root, figure, 0.0..hi, 0.0)?;
        }
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

/// Draws the chart on `root` with the y coordinate `y` (linear or logarithmic), bars rising
/// from `floor`.
fn draw<Y>(
    root: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    figure: &Figure,
    y: Y,
    floor: f64,
) -> Result<(), String>
where
    Y: plotters::coord::ranged1d::AsRangedCoord<Value = f64>,
    Y::CoordDescType: plotters::coord::ranged1d::ValueFormatter<f64>,
{
    let groups = figure.categories.len();
    let label_room = figure.categories.iter().map(|c| c.len()).max().unwrap_or(4) as u32 * 7 + 20;
    // Group `i` spans x in [i, i + 1]; its label sits under its centre, drawn below.
    let x = 0.0..groups as f64;
    let mut chart = ChartBuilder::on(root)
        .caption(&figure.title, ("sans-serif", 22))
        .margin(14)
        .x_label_area_size(label_room)
        .y_label_area_size(70)
        .build_cartesian_2d(x, y)
        .map_err(|e| e.to_string())?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .light_line_style(TRANSPARENT)
        .x_labels(0)
        .y_label_formatter(&|v| tick(*v))
        .x_desc("program")
        .y_desc(&figure.y_label)
        .draw()
        .map_err(|e| e.to_string())?;

    let bars = figure.series.len().max(1) as f64;
    for (j, series) in figure.series.iter().enumerate() {
        let color = PALETTE[j % PALETTE.len()];
        let rects = series.values.iter().enumerate().filter_map(|(i, v)| {
            let v = (*v).filter(|v| v.is_finite() && *v > floor)?;
            let left = slot(i, j, bars, 0.08);
            let right = slot(i, j, bars, 0.92);
            Some(Rectangle::new([(left, v), (right, floor)], color.filled()))
        });
        chart.draw_series(rects).map_err(|e| e.to_string())?;
        // The range over the rounds: a vertical line at the bar's centre with short caps.
        let bars_of_ranges = series.values.iter().zip(&series.ranges).enumerate();
        for (i, (value, range)) in bars_of_ranges {
            let (Some(_), Some((lo, hi))) = (value, range) else {
                continue;
            };
            if !(lo.is_finite() && hi.is_finite() && *lo > floor) {
                continue;
            }
            let (left, mid, right) = (
                slot(i, j, bars, 0.25),
                slot(i, j, bars, 0.5),
                slot(i, j, bars, 0.75),
            );
            let style = BLACK.stroke_width(1);
            for line in [
                vec![(mid, *lo), (mid, *hi)],
                vec![(left, *lo), (right, *lo)],
                vec![(left, *hi), (right, *hi)],
            ] {
                chart
                    .draw_series(std::iter::once(PathElement::new(line, style)))
                    .map_err(|e| e.to_string())?;
            }
        }
    }
    if let Some(base) = figure.baseline {
        let line = DashedLineSeries::new(
            [(0.0, base), (groups as f64, base)],
            6,
            4,
            BLACK.stroke_width(1),
        );
        chart.draw_series(line).map_err(|e| e.to_string())?;
    }
    // A thin separator before the means.
    if figure.programs < groups {
        let x = figure.programs as f64;
        let y = chart.y_range();
        chart
            .draw_series(LineSeries::new([(x, y.start), (x, y.end)], BLACK.mix(0.4)))
            .map_err(|e| e.to_string())?;
    }
    // The program names, rotated, under the centre of each group.
    let axis = chart.y_range().start;
    let style = ("sans-serif", 14)
        .into_font()
        .transform(FontTransform::Rotate90)
        .color(&BLACK);
    for (i, name) in figure.categories.iter().enumerate() {
        let (px, py) = chart.backend_coord(&(i as f64 + 0.5, axis));
        root.draw(&Text::new(name.clone(), (px + 4, py + 6), style.clone()))
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// The legend, in its own column right of the plot: one coloured square and name per mode,
/// and what the error bars mean when there are any.
fn draw_legend(
    area: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    figure: &Figure,
) -> Result<(), String> {
    let font = ("sans-serif", 14).into_font().color(&BLACK);
    let top = 60;
    for (j, series) in figure.series.iter().enumerate() {
        let color = PALETTE[j % PALETTE.len()];
        let y = top + 22 * j as i32;
        area.draw(&Rectangle::new([(8, y - 6), (20, y + 6)], color.filled()))
            .map_err(|e| e.to_string())?;
        area.draw(&Text::new(series.name.clone(), (28, y - 7), font.clone()))
            .map_err(|e| e.to_string())?;
    }
    if figure
        .series
        .iter()
        .any(|s| s.ranges.iter().any(Option::is_some))
    {
        let y = top + 22 * figure.series.len() as i32 + 12;
        let small = ("sans-serif", 12).into_font().color(&BLACK.mix(0.7));
        for (k, line) in ["bars: range over", "the timed rounds"].iter().enumerate() {
            area.draw(&Text::new(
                line.to_string(),
                (8, y + 15 * k as i32),
                small.clone(),
            ))
            .map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

/// A y tick label: short decimals (`0.25`, `1.5`, `120`), powers of ten beyond (`1e4`).
fn tick(v: f64) -> String {
    if v != 0.0 && (v.abs() >= 1e4 || v.abs() < 1e-3) {
        let exponent = v.abs().log10().floor();
        let mantissa = v / 10f64.powf(exponent);
        if (mantissa - mantissa.round()).abs() < 1e-6 {
            format!("{}e{exponent}", mantissa.round())
        } else {
            format!("{mantissa:.1}e{exponent}")
        }
    } else {
        let text = format!("{v:.3}");
        let text = text.trim_end_matches('0').trim_end_matches('.');
        if text.is_empty() || text == "-" {
            "0".into()
        } else {
            text.to_string()
        }
    }
}

/// The x position of the fraction `at` (0..1) across slot `j` of `bars` in group `i`, the
/// slots filling the middle 80% of the group.
fn slot(i: usize, j: usize, bars: f64, at: f64) -> f64 {
    i as f64 + 0.1 + 0.8 * (j as f64 + at) / bars
}

#[cfg(test)]
mod tests {
    use super::super::figures::figures;
    use super::super::results::tests::example;
    use super::*;

    #[test]
    fn tick_labels_are_short() {
        assert_eq!(tick(0.5), "0.5");
        assert_eq!(tick(0.30000000000000004), "0.3");
        assert_eq!(tick(120.0), "120");
        assert_eq!(tick(10_000.0), "1e4");
        assert_eq!(tick(0.0), "0");
        assert_eq!(tick(1_000_000.0), "1e6");
        assert_eq!(tick(2.5e-5), "2.5e-5");
    }

    /// The texts of an SVG document, which must parse as XML.
    fn texts(svg: &str) -> Vec<String> {
        let doc = roxmltree::Document::parse(svg).expect("the SVG parses as XML");
        assert_eq!(doc.root_element().tag_name().name(), "svg");
        doc.descendants()
            .filter(|n| n.has_tag_name("text"))
            .filter_map(|n| n.text().map(|t| t.trim().to_string()))
            .collect()
    }

    #[test]
    fn every_mode_of_the_default_list_gets_a_colour_of_its_own() {
        let modes = super::super::DEFAULT_MODES.split(',').count();
        assert!(modes <= PALETTE.len());
        let mut colours: Vec<_> = PALETTE.iter().map(|c| (c.0, c.1, c.2)).collect();
        colours.sort_unstable();
        colours.dedup();
        assert_eq!(colours.len(), PALETTE.len(), "the palette repeats a colour");
    }

    #[test]
    fn the_legend_is_right_of_the_plot_and_error_bars_are_drawn() {
        let results = example();
        let figs = figures(&results);
        let overhead = figs
            .iter()
            .find(|f| f.file == "overhead-vs-none.svg")
            .expect("the overhead figure");
        assert!(
            overhead
                .series
                .iter()
                .any(|s| s.ranges.iter().any(Option::is_some)),
            "the example's time ratios have several rounds"
        );
        let svg = render(overhead).unwrap();
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let width: f64 = doc
            .root_element()
            .attribute("width")
            .unwrap()
            .parse()
            .unwrap();
        let plot_right = width - f64::from(legend_width(overhead));
        for s in &overhead.series {
            let label = doc
                .descendants()
                .find(|n| n.has_tag_name("text") && n.text().map(str::trim) == Some(&s.name))
                .expect("a legend entry");
            let x: f64 = label.attribute("x").unwrap().parse().unwrap();
            assert!(
                x >= plot_right,
                "{}: legend at x {x}, plot ends at {plot_right}",
                s.name
            );
        }
        assert!(
            svg.contains("range over"),
            "the legend says what the bars are"
        );
    }

    #[test]
    fn every_chart_parses_and_has_a_title_axes_a_legend_entry_per_mode_and_means() {
        let results = example();
        let figs = figures(&results);
        assert!(!figs.is_empty());
        for f in &figs {
            let svg = render(f).unwrap();
            let texts = texts(&svg);
            assert!(texts.contains(&f.title), "{}: title", f.file);
            assert!(texts.contains(&f.y_label), "{}: y label", f.file);
            assert!(texts.iter().any(|t| t == "program"), "{}: x label", f.file);
            for s in &f.series {
                let entries = texts.iter().filter(|t| **t == s.name).count();
                assert_eq!(entries, 1, "{}: one legend entry for {}", f.file, s.name);
            }
            let legend = texts
                .iter()
                .filter(|t| f.series.iter().any(|s| &s.name == *t))
                .count();
            assert_eq!(legend, f.series.len(), "{}: one series per mode", f.file);
            for name in ["loops", "calls", "geomean", "geomean loop-heavy"] {
                assert!(texts.iter().any(|t| t == name), "{}: label {name}", f.file);
            }
        }
    }
}
