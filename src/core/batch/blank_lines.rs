//! Where a JSON Lines batch's items were in its input: the blank lines it skipped.

use serde_json::Value;

/// The blank lines a JSON Lines input skipped, so that an item's index maps back to its
/// line: `[index, skipped]` for each item that blank lines came before, `skipped` being how
/// many since the previous item. One pair per run, so a million blank lines cost one.
#[derive(Debug, Default)]
pub(super) struct BlankRuns {
    pub(super) runs: Vec<[u64; 2]>,
    pending: u64,
}

impl BlankRuns {
    pub(super) fn skip(&mut self) {
        self.pending += 1;
    }

    /// Item `index` is the next line.
    pub(super) fn item(&mut self, index: u64) {
        if self.pending > 0 {
            self.runs.push([index, self.pending]);
            self.pending = 0;
        }
    }
}

/// Item index → 1-based line of a JSON Lines input, from its stored [`BlankRuns`].
#[derive(Debug, Default)]
pub(super) struct LineMap {
    /// `(index, blank lines before it and every earlier item)`, by index.
    skipped: Vec<(u64, u64)>,
}

impl LineMap {
    /// The map of a job's stored source description: `None` unless the items were lines
    /// (and the job recorded its blank lines, as every job since they are recorded does).
    pub(super) fn of(source: &Value) -> Option<Self> {
        let runs: Vec<[u64; 2]> = serde_json::from_value(source.get("blank")?.clone()).ok()?;
        let mut total: u64 = 0;
        let skipped = runs
            .into_iter()
            .map(|[index, skipped]| {
                // Saturating: a hand-edited job record must not make this panic.
                total = u64::saturating_add(total, skipped);
                (index, total)
            })
            .collect();
        Some(Self { skipped })
    }

    /// The line item `index` was read from, counting from 1.
    pub(super) fn line(&self, index: u64) -> u64 {
        let before = self.skipped.partition_point(|(at, _)| *at <= index);
        let skipped = before.checked_sub(1).map_or(0, |i| self.skipped[i].1);
        index.saturating_add(1).saturating_add(skipped)
    }
}
