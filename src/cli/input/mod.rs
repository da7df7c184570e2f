//! Reading the files a command names: JSON or YAML, from a path or `-` for stdin.

pub(crate) mod interrupt;
pub(super) mod values;

use anyhow::{Context as _, Result};
use serde_json::Value;
use std::io::Read;
use std::path::Path;

/// The text of `path`, or of stdin when `path` is `-`.
pub(crate) fn read_text(path: &Path) -> Result<String> {
    if path == Path::new("-") {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .context("reading stdin")?;
        Ok(text)
    } else {
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))
    }
}

/// A JSON document; nesting past the limit is refused before it is parsed.
pub(crate) fn read_json(path: &Path) -> Result<Value> {
    let text = read_text(path)?;
    crate::wire::validate::nesting::check_json(text.as_bytes())
        .map_err(anyhow::Error::msg)
        .and_then(|()| serde_json::from_str(&text).map_err(anyhow::Error::from))
        .with_context(|| format!("{} is not valid JSON", display(path)))
}

/// A YAML or JSON document (JSON is YAML).
pub(crate) fn read_yaml(path: &Path) -> Result<Value> {
    let text = read_text(path)?;
    crate::wire::value::parse_yaml(&text)
        .map_err(anyhow::Error::msg)
        .with_context(|| format!("{} is not valid YAML or JSON", display(path)))
}

fn display(path: &Path) -> String {
    if path == Path::new("-") {
        "stdin".to_owned()
    } else {
        path.display().to_string()
    }
}

/// A command-line value that may be JSON (`true`, `3`, `"x"`) or a bare string (`refund`).
pub(crate) fn read_json_value_arg(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_owned()))
}

/// A questions file that is not committed (`--questions-file`): question ID → question,
/// read by the one validation pass with every fault located in the file
/// (`draft.yaml.intent.criteria`), a validation error as a request's would be.
/// `None` without a path.
pub(crate) fn read_questions_file(path: Option<&Path>) -> Result<Option<crate::wire::Questions>> {
    path.map(read_questions_at).transpose()
}

fn read_questions_at(path: &Path) -> Result<crate::wire::Questions> {
    parse_questions_file(path, &read_text(path)?)
}

/// [`read_questions_file`] of `text`, already read from `path` (`eval --watch` reads it to
/// see whether it changed).
pub(crate) fn parse_questions_file(path: &Path, text: &str) -> Result<crate::wire::Questions> {
    use crate::error::Error;
    use crate::wire::validate::{FieldError, Loc, Segment};
    let root = Loc(vec![Segment::Key(display(path))]);
    let value = crate::wire::value::parse_yaml(text).map_err(|e| {
        Error::Validation(vec![FieldError::new(
            root.clone(),
            format!("not valid YAML: {e}"),
            "yaml",
        )])
    })?;
    Ok(crate::wire::question::read_questions(&value, &root).map_err(|e| Error::Validation(e.0))?)
}
