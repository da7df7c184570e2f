//! `--ids` and `--exclude`: which examples the annotation flow may show (`arbiter
//! annotate`, `examples annotate --interactive`).

use anyhow::{Context as _, Result};
use clap::Args;
use std::path::PathBuf;

/// Which examples may be shown at all.
#[derive(Debug, Default, Args)]
pub struct ChoiceArgs {
    /// Only these examples (comma-separated whole IDs, or the option given again); an ID that names no example of the model is an error
    #[arg(long, value_name = "IDS", value_delimiter = ',')]
    pub ids: Option<Vec<String>>,
    /// Never these examples, a held-out set: a file of example IDs, one a line (blank lines are skipped; an ID that names no example is ignored)
    #[arg(long, value_name = "FILE")]
    pub exclude: Option<PathBuf>,
}

impl ChoiceArgs {
    /// Whether either option was given.
    pub(crate) fn given(&self) -> bool {
        self.ids.is_some() || self.exclude.is_some()
    }

    /// The IDs of `--exclude`'s file.
    pub(crate) fn excluded(&self) -> Result<Vec<String>> {
        let Some(path) = &self.exclude else {
            return Ok(Vec::new());
        };
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("--exclude: cannot read {}", path.display()))?;
        Ok(id_lines(&text))
    }
}

/// A file's IDs: one a line, trimmed, blank lines skipped.
fn id_lines(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_one_id_a_line_trimmed_with_blank_lines_skipped() {
        assert_eq!(id_lines("a\n\n  b \r\nc"), ["a", "b", "c"]);
        assert!(id_lines("").is_empty());
    }
}
