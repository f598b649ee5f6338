//! SVG charts of the [`Figure`]s, drawn with plotters (SVG backend only): grouped bars, one
//! group per program and one bar per mode, then the geometric means; a title, labelled axes,
//! a legend with one entry per mode, and a dashed line at the baseline (1.0 for ratios).

use plotters::prelude::*;

use super::figures::Figure;

/// Bar colours, one per series in order (Tableau 10), repeated if there are more series.
const PALETTE: [RGBColor; 10] = [
    RGBColor(78, 121, 167),
    RGBColor(242, 142, 43),
    RGBColor(225, 87, 89),
    RGBColor(118, 183, 178),
    RGBColor(89, 161, 79),
    RGBColor(237, 201, 72),
    RGBColor(176, 122, 161),
    RGBColor(255, 157, 167),
    RGBColor(156, 117, 95),
    RGBColor(186, 176, 172),
];

/// The SVG text of `figure`.
pub fn render(figure: &Figure) -> Result<String, String> {
    let mut svg = String::new();
    let groups = figure.categories.len().max(1);
    let bars = figure.series.len().max(1);
    let width = (140 + groups * (bars * 9 + 14)).clamp(900, 4000) as u32;
    let height = 560u32;
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let values = figure
            .series
            .iter()
            .flat_map(|s| s.values.iter().flatten().copied())
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
                // Room above the tallest bar for the legend (a quarter of the axis).
                (lo / 2.0, hi * (hi / lo * 4.0).powf(0.25).max(2.0))
            };
            draw(&root, figure, (lo..hi).log_scale(), lo)?;
        } else {
            let hi = values.fold(figure.baseline.unwrap_or(0.0), f64::max);
            // Room above the tallest bar for the legend.
            let hi = if hi > 0.0 { hi * 1.3 } else { 1.0 };
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
        chart
            .draw_series(rects)
            .map_err(|e| e.to_string())?
            .label(series.name.clone())
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], color.filled()));
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
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.5))
        .draw()
        .map_err(|e| e.to_string())?;
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
