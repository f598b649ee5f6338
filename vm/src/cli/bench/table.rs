//! A table of strings, written aligned for the terminal or as Markdown for `report.md`. The
//! first column is left-aligned (names), the others right-aligned (numbers).

/// A header and rows of cells.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Table {
    /// The column titles.
    pub header: Vec<String>,
    /// The rows (each as long as the header).
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with these column titles and no rows.
    pub fn new(header: impl IntoIterator<Item = impl Into<String>>) -> Self {
        Table {
            header: header.into_iter().map(Into::into).collect(),
            rows: Vec::new(),
        }
    }

    /// Adds a row.
    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    fn widths(&self) -> Vec<usize> {
        (0..self.header.len())
            .map(|i| {
                std::iter::once(&self.header)
                    .chain(&self.rows)
                    .map(|r| r.get(i).map_or(0, |c| c.chars().count()))
                    .max()
                    .unwrap_or(0)
            })
            .collect()
    }

    /// The table aligned in columns two spaces apart, a rule under the header.
    pub fn text(&self) -> String {
        let widths = self.widths();
        let line = |cells: &[String]| {
            let mut out = String::new();
            for (i, w) in widths.iter().enumerate() {
                let cell = cells.get(i).map_or("", String::as_str);
                let pad = w.saturating_sub(cell.chars().count());
                if i == 0 {
                    out.push_str(cell);
                    out.push_str(&" ".repeat(pad));
                } else {
                    out.push_str("  ");
                    out.push_str(&" ".repeat(pad));
                    out.push_str(cell);
                }
            }
            out.trim_end().to_string() + "\n"
        };
        let mut out = line(&self.header);
        let total: usize = widths.iter().sum::<usize>() + 2 * widths.len().saturating_sub(1);
        out.push_str(&"-".repeat(total));
        out.push('\n');
        for r in &self.rows {
            out.push_str(&line(r));
        }
        out
    }

    /// The table in Markdown (GitHub tables; `|` in cells escaped).
    pub fn markdown(&self) -> String {
        let cells = |r: &[String]| {
            let escaped: Vec<String> = r.iter().map(|c| c.replace('|', "\\|")).collect();
            format!("| {} |\n", escaped.join(" | "))
        };
        let mut out = cells(&self.header);
        let rule: Vec<&str> = (0..self.header.len())
            .map(|i| if i == 0 { "---" } else { "---:" })
            .collect();
        out.push_str(&format!("|{}|\n", rule.join("|")));
        for r in &self.rows {
            out.push_str(&cells(r));
        }
        out
    }
}

/// `value` with `decimals` decimals, or `-` for none.
pub fn fixed(value: Option<f64>, decimals: usize) -> String {
    match value {
        Some(v) if v.is_finite() => format!("{v:.decimals$}"),
        _ => "-".to_string(),
    }
}

/// A count with thousands separators (`1,234,567`), or `-`.
pub fn count(value: Option<u64>) -> String {
    let Some(v) = value else {
        return "-".to_string();
    };
    let digits = v.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aligns_text_and_writes_markdown() {
        let mut t = Table::new(["program", "bl/none"]);
        t.row(vec!["crc".into(), "1.42".into()]);
        t.row(vec!["a|b".into(), "12.00".into()]);
        assert_eq!(
            t.text(),
            "program  bl/none\n----------------\ncrc         1.42\na|b        12.00\n"
        );
        assert_eq!(
            t.markdown(),
            "| program | bl/none |\n|---|---:|\n| crc | 1.42 |\n| a\\|b | 12.00 |\n"
        );
    }

    #[test]
    fn formats_numbers() {
        assert_eq!(fixed(Some(1.23456), 3), "1.235");
        assert_eq!(fixed(None, 2), "-");
        assert_eq!(fixed(Some(f64::NAN), 2), "-");
        assert_eq!(count(Some(1234567)), "1,234,567");
        assert_eq!(count(Some(12)), "12");
        assert_eq!(count(None), "-");
    }
}
