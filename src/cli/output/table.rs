//! Tables that fit the terminal: every command's table is declared here as columns that
//! say how they may give way, and laid out to a width before comfy-table draws it.
//!
//! No cell is ever wrapped across lines. IDs, numbers and short words are shown whole or
//! not at all; free text is cut with `…`. When the natural widths do not fit, the least
//! important text column is cut first (down to its minimum), then the next; when even
//! that is not enough, the least important column is hidden and the layout starts again.
//! Ties go to the rightmost column. Without a width (a pipe), nothing is cut.

use comfy_table::{CellAlignment, ContentArrangement, presets};

/// How a column gives way when the table is too wide.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Whole or hidden, left aligned: IDs, names, short words.
    Whole,
    /// A timestamp: whole or hidden, written in the one format of every table
    /// ([`timestamp`]).
    Time,
    /// Whole or hidden, right aligned: figures.
    Number,
    /// Cut with `…`, but not below this many columns (or the header's width).
    Text { min: usize },
}

/// A column of a [`Table`]: its header (Title case, the one style), how it gives way and
/// how important it is.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Column {
    header: &'static str,
    kind: Kind,
    /// Higher is kept longer; [`Column::always`] is never hidden.
    priority: u8,
}

/// The priority of a column that is never hidden.
const ALWAYS: u8 = u8::MAX;

/// The narrowest a text column is cut to, unless its header is wider.
const TEXT_MIN: usize = 12;

impl Column {
    /// An ID, name or word: shown whole, or hidden.
    pub(crate) const fn whole(header: &'static str) -> Self {
        Self {
            header,
            kind: Kind::Whole,
            priority: 1,
        }
    }

    /// A moment, its cell written by [`timestamp`]: shown whole, or hidden.
    pub(crate) const fn time(header: &'static str) -> Self {
        Self {
            header,
            kind: Kind::Time,
            priority: 1,
        }
    }

    /// A figure: shown whole, right aligned, or hidden.
    pub(crate) const fn number(header: &'static str) -> Self {
        Self {
            header,
            kind: Kind::Number,
            priority: 1,
        }
    }

    /// Free text: cut with `…` to fit.
    pub(crate) const fn text(header: &'static str) -> Self {
        Self {
            header,
            kind: Kind::Text { min: TEXT_MIN },
            priority: 1,
        }
    }

    /// How long the column is kept: the lowest priority gives way first (default 1).
    pub(crate) const fn priority(mut self, priority: u8) -> Self {
        self.priority = priority;
        self
    }

    /// Never hidden (the row's key), however narrow the terminal.
    pub(crate) const fn always(self) -> Self {
        self.priority(ALWAYS)
    }
}

/// Rows under [`Column`]s, laid out to a width by [`Table::render`].
#[derive(Debug)]
pub(crate) struct Table {
    columns: Vec<Column>,
    rows: Vec<Vec<String>>,
}

/// A table laid out to a width.
#[derive(Debug)]
pub(crate) struct Rendered {
    pub(crate) text: String,
    /// The headers of the columns hidden to fit.
    pub(crate) hidden: Vec<&'static str>,
}

impl Table {
    /// A table under these columns; with every header empty it draws no header row.
    pub(crate) fn new(columns: Vec<Column>) -> Self {
        Self {
            columns,
            rows: Vec::new(),
        }
    }

    /// Add a row: one cell per column (missing cells are empty, extra ones dropped). Line
    /// breaks and tabs become spaces: a cell is one line.
    pub(crate) fn row(&mut self, cells: Vec<String>) {
        let mut cells: Vec<String> = cells
            .into_iter()
            .zip(&self.columns)
            .map(|(cell, _)| one_line(&cell))
            .collect();
        cells.resize(self.columns.len(), String::new());
        self.rows.push(cells);
    }

    /// The table drawn to fit `width` columns (`None`: as wide as its content). A width
    /// that even the columns that are always shown cannot fit gets them anyway.
    pub(crate) fn render(&self, width: Option<usize>) -> Rendered {
        let natural: Vec<usize> = (0..self.columns.len())
            .map(|i| {
                self.rows
                    .iter()
                    .map(|row| display_width(&row[i]))
                    .chain(std::iter::once(display_width(self.columns[i].header)))
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let widths = match width {
            Some(width) => layout(&self.columns, &natural, width),
            None => natural.iter().copied().map(Some).collect(),
        };
        let shown: Vec<usize> = (0..self.columns.len())
            .filter(|&i| widths[i].is_some())
            .collect();
        let mut table = comfy_table::Table::new();
        table
            .load_style(presets::UTF8_HORIZONTAL_ONLY)
            // Cells are cut to fit here, so comfy-table must not wrap them.
            .set_content_arrangement(ContentArrangement::Disabled);
        if self.columns.iter().any(|c| !c.header.is_empty()) {
            table.set_header(shown.iter().map(|&i| self.columns[i].header));
        }
        for row in &self.rows {
            table.add_row(shown.iter().map(|&i| {
                let width = widths[i].unwrap_or(0);
                console::truncate_str(&row[i], width, "…").into_owned()
            }));
        }
        for (position, &i) in shown.iter().enumerate() {
            if self.columns[i].kind == Kind::Number
                && let Some(column) = table.column_mut(position)
            {
                column.set_cell_alignment(CellAlignment::Right);
            }
        }
        Rendered {
            text: table.to_string(),
            hidden: (0..self.columns.len())
                .filter(|&i| widths[i].is_none())
                .map(|i| self.columns[i].header)
                .collect(),
        }
    }
}

/// Each column's width, or `None` where it is hidden, to fit `width`.
fn layout(columns: &[Column], natural: &[usize], width: usize) -> Vec<Option<usize>> {
    // Least important first; among equals, the rightmost.
    let mut order: Vec<usize> = (0..columns.len()).collect();
    order.sort_by_key(|&i| (columns[i].priority, std::cmp::Reverse(i)));
    let mut shown = vec![true; columns.len()];
    // Hide the least important until the rest fit, with text cut as far as it may be.
    while let Some(i) = order
        .iter()
        .copied()
        .find(|&i| shown[i] && columns[i].priority != ALWAYS)
    {
        if total(&cut(columns, &order, natural, &shown, width), &shown) <= width {
            break;
        }
        shown[i] = false;
    }
    // Room that nothing shown wants goes to hidden columns, the most important first.
    let mut widths = cut(columns, &order, natural, &shown, width);
    let hidden: Vec<usize> = order.iter().rev().copied().filter(|&i| !shown[i]).collect();
    for i in hidden {
        shown[i] = true;
        shown[i] = total(&widths, &shown) <= width;
    }
    widths = cut(columns, &order, natural, &shown, width);
    (0..columns.len())
        .map(|i| shown[i].then_some(widths[i]))
        .collect()
}

/// The widths of the `shown` columns, their text cut (least important first, each down to
/// its minimum) until they fit `width`, or as far as they may be cut.
fn cut(
    columns: &[Column],
    order: &[usize],
    natural: &[usize],
    shown: &[bool],
    width: usize,
) -> Vec<usize> {
    let mut widths = natural.to_vec();
    let mut excess = total(&widths, shown).saturating_sub(width);
    for &i in order.iter().filter(|&&i| shown[i]) {
        if let Kind::Text { min } = columns[i].kind {
            let floor = min.max(display_width(columns[i].header)).min(natural[i]);
            let by = excess.min(widths[i] - floor);
            widths[i] -= by;
            excess -= by;
        }
    }
    widths
}

/// The width of the `shown` columns drawn: each cell has a space either side, and columns
/// are one character apart.
fn total(widths: &[usize], shown: &[bool]) -> usize {
    let visible: Vec<usize> = (0..widths.len()).filter(|&i| shown[i]).collect();
    visible.iter().map(|&i| widths[i] + 2).sum::<usize>() + visible.len().saturating_sub(1)
}

/// A moment as every table shows it: UTC to the second, `2026-11-27 06:47:48`, whatever
/// precision the contract writes it to (the JSON keeps it whole).
pub(crate) fn timestamp(at: impl Into<chrono::DateTime<chrono::Utc>>) -> String {
    at.into().format("%Y-%m-%d %H:%M:%S").to_string()
}

/// How many terminal columns `text` takes.
pub(crate) fn display_width(text: &str) -> usize {
    console::measure_text_width(text)
}

/// A cell's text on one line.
fn one_line(text: &str) -> String {
    let spaced = if text.contains(['\n', '\r', '\t']) {
        text.replace(['\n', '\r', '\t'], " ")
    } else {
        text.to_owned()
    };
    super::escape_controls(&spaced).into_owned()
}

/// Unique prefixes of `ids`, at least `min` characters long (git's rule): where two IDs
/// share the first `min` characters, both grow until they differ. IDs are ASCII.
pub(crate) fn short_ids(ids: &[String], min: usize) -> Vec<String> {
    ids.iter()
        .map(|id| {
            let needed = ids
                .iter()
                .filter(|other| *other != id)
                .map(|other| common_prefix(id, other) + 1)
                .max()
                .unwrap_or(0)
                .max(min);
            id.get(..needed.min(id.len()))
                .unwrap_or(id.as_str())
                .to_owned()
        })
        .collect()
}

fn common_prefix(a: &str, b: &str) -> usize {
    a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cell_shows_control_characters_and_never_sends_them() {
        // An example ID a `decisions` token stored: clear the screen, set the window title.
        let hostile = "r\u{1b}[2J\u{1b}]0;HIJACK\u{7}\u{9b}x";
        let mut table = Table::new(vec![Column::whole("Example").always()]);
        table.row(vec![hostile.to_owned()]);
        let text = table.render(Some(80)).text;
        assert!(
            !text.chars().any(|c| c.is_control() && c != '\n'),
            "{text:?}"
        );
        assert!(
            text.contains(r"r\u{1b}[2J\u{1b}]0;HIJACK\u{7}\u{9b}x"),
            "{text}"
        );
        assert_eq!(super::super::escape_controls("a\tb\nc"), "a\tb\nc");
        assert_eq!(super::super::escape_controls("a\rb"), r"a\u{d}b");
    }

    #[test]
    fn a_timestamp_is_written_one_way_whatever_its_precision_or_offset() {
        for text in [
            "2026-11-27T06:47:48Z",
            "2026-11-27T06:47:48.715Z",
            "2026-11-27T07:47:48.715+01:00",
        ] {
            let at: crate::wire::time::Recorded = text.parse().unwrap();
            assert_eq!(timestamp(at), "2026-11-27 06:47:48", "{text}");
        }
    }

    /// An evaluation-like table: many figures, a key, a name that may be cut.
    fn wide() -> Table {
        let mut table = Table::new(vec![
            Column::whole("Question").always(),
            Column::text("Checkpoint").priority(3),
            Column::number("Examples").priority(4),
            Column::whole("Metric").priority(2),
            Column::number("Loss").priority(6),
            Column::number("Accuracy").priority(7),
            Column::number("Macro-F1").priority(3),
            Column::number("Kappa").priority(2),
            Column::number("Brier").priority(3),
            Column::number("ECE").priority(5),
            Column::number("MAE").priority(1),
        ]);
        for (question, checkpoint) in [
            ("urgency", "main"),
            (
                "sentiment_of_the_customer",
                "align/2026-11-02-experiment-with-a-long-name",
            ),
            ("overall", "main"),
        ] {
            table.row(vec![
                question.into(),
                checkpoint.into(),
                "1200 (3 failed)".into(),
                "log_loss".into(),
                "0.512".into(),
                "0.768".into(),
                "0.701".into(),
                "0.642".into(),
                "0.171".into(),
                "0.043".into(),
                "-".into(),
            ]);
        }
        table
    }

    /// A job list: IDs and dates whole, a model path that may be cut.
    fn jobs() -> Table {
        let mut table = Table::new(vec![
            Column::whole("Job").always(),
            Column::text("Model").priority(5),
            Column::whole("Kind").priority(3),
            Column::whole("Status").priority(6),
            Column::whole("Progress").priority(4),
            Column::whole("Created").priority(2),
        ]);
        for i in 0..4 {
            table.row(vec![
                format!("3f2a9c1e-7b4{i}"),
                "acme-corporation/customer-support-triage".into(),
                "evaluation".into(),
                "completed".into(),
                "1200/1200 (3 failed)".into(),
                "2026-11-02T10:15:42.123Z".into(),
            ]);
        }
        table
    }

    /// Every line fits, and every cell's value is on one line: whole, or a prefix and `…`.
    fn assert_fits(table: &Table, width: usize) {
        let rendered = table.render(Some(width));
        let lines: Vec<&str> = rendered.text.lines().collect();
        for line in &lines {
            assert!(
                display_width(line) <= width,
                "a line of {} columns at {width}:\n{}",
                display_width(line),
                rendered.text
            );
        }
        for (i, column) in table.columns.iter().enumerate() {
            let hidden = rendered.hidden.contains(&column.header);
            for row in &table.rows {
                let cell = &row[i];
                if hidden || cell.is_empty() {
                    continue;
                }
                let whole = lines.iter().any(|line| line.contains(cell.as_str()));
                // Cut: some line holds a prefix of the cell and then `…`.
                let cut = matches!(column.kind, Kind::Text { .. })
                    && cell.char_indices().skip(1).any(|(end, _)| {
                        let shown = format!("{}…", &cell[..end]);
                        lines.iter().any(|line| line.contains(&shown))
                    });
                assert!(
                    whole || cut,
                    "{:?} of {} is split at {width}:\n{}",
                    cell,
                    column.header,
                    rendered.text
                );
            }
            if !hidden {
                assert!(
                    lines.iter().any(|line| line.contains(column.header)),
                    "header {} split at {width}:\n{}",
                    column.header,
                    rendered.text
                );
            }
        }
    }

    #[test]
    fn tables_fit_80_120_and_200_columns_without_splitting_a_cell() {
        for width in [80, 120, 200] {
            assert_fits(&wide(), width);
            assert_fits(&jobs(), width);
        }
    }

    #[test]
    fn text_is_cut_before_any_column_is_hidden() {
        let rendered = jobs().render(Some(120));
        assert!(rendered.hidden.is_empty(), "{:?}", rendered.hidden);
        assert!(rendered.text.contains("acme-corporat"), "{}", rendered.text);
        assert!(rendered.text.contains('…'), "{}", rendered.text);
    }

    #[test]
    fn the_least_important_columns_are_hidden_first_and_the_key_never() {
        let rendered = wide().render(Some(80));
        assert!(rendered.hidden.contains(&"MAE"), "{rendered:?}");
        for kept in ["Loss", "Accuracy", "ECE"] {
            assert!(!rendered.hidden.contains(&kept), "{rendered:?}");
        }
        // The room hiding left holds the most important hidden column that fits.
        assert!(!rendered.hidden.contains(&"Brier"), "{rendered:?}");
        assert!(rendered.hidden.contains(&"Macro-F1"), "{rendered:?}");
        let narrow = wide().render(Some(10));
        assert!(narrow.text.contains("sentiment_of_the_customer"));
        assert_eq!(narrow.hidden.len(), 10);
    }

    #[test]
    fn without_a_width_nothing_is_cut_or_hidden() {
        let rendered = wide().render(None);
        assert!(rendered.hidden.is_empty());
        assert!(
            rendered
                .text
                .contains("align/2026-11-02-experiment-with-a-long-name")
        );
        assert!(!rendered.text.contains('…'));
    }

    #[test]
    fn numbers_are_right_aligned_and_cells_are_one_line() {
        let mut table = Table::new(vec![Column::whole("Name"), Column::number("Count")]);
        table.row(vec!["a\nb".into(), "7".into()]);
        table.row(vec!["c".into(), "1234".into()]);
        let text = table.render(None).text;
        assert!(text.contains(" a b        7 "), "{text}");
        assert!(text.contains(" c       1234 "), "{text}");
    }

    #[test]
    fn empty_headers_draw_no_header_row() {
        let mut table = Table::new(vec![Column::whole(""), Column::text("")]);
        table.row(vec!["path".into(), "acme/support".into()]);
        let text = table.render(Some(80)).text;
        assert!(!text.contains('═'), "{text}");
        assert_eq!(text.lines().count(), 3, "{text}");
    }

    #[test]
    fn short_ids_are_unique_prefixes_of_at_least_the_minimum() {
        let ids: Vec<String> = [
            "3f2a9c1e-7b4d-4e1a-9c2b-000000000001",
            "3f2a9c1e-7b4d-4e1a-9c2b-000000000002",
            "9d0c1b2a-0000-4000-8000-000000000000",
        ]
        .map(String::from)
        .to_vec();
        let short = short_ids(&ids, 12);
        assert_eq!(short[0], ids[0]);
        assert_eq!(short[1], ids[1]);
        assert_eq!(short[2], "9d0c1b2a-000");
        assert!(short_ids(&[], 12).is_empty());
        assert_eq!(short_ids(&["ab".into()], 12), vec!["ab".to_owned()]);
    }
}
