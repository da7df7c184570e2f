//! Line mode, when stdout is not a terminal: each question is one line on stdout, each
//! answer one line of stdin, read as the screen's keys (an empty line accepts the guess,
//! `r TEXT` keeps a reason for the next answer). An example's state is printed as the
//! screen shows it, as text ([`state::lines`], not wrapped), under a `state:` line and
//! indented two columns. What happens is said on a line of its own (`error: …` when
//! refused). It ends at `q`, at the end of stdin, or when nothing is left.

use super::Session;
use super::flow::{self, Flow, Key, Message};
use super::state;
use std::io::{BufRead, Write};

/// Run the flow on stdin and stdout until it is left.
pub(super) async fn run(session: &mut Session<'_>, flow: &mut Flow) -> anyhow::Result<()> {
    let mut shown: Option<(crate::ids::ExampleId, usize)> = None;
    let mut stdin = std::io::stdin().lock();
    loop {
        show(session, flow, &mut shown)?;
        if flow.finished {
            break;
        }
        if flow.current.is_none() && flow.exhausted {
            // Nothing left: a script is done.
            if let Some(effect) = flow.key(Key::Char('q')) {
                session.drive(flow, effect).await;
            }
            continue;
        }
        let mut line = String::new();
        let keys = if stdin.read_line(&mut line)? == 0 {
            vec![Key::Interrupt]
        } else {
            match keys(line.trim_end_matches(['\n', '\r'])) {
                Ok(keys) => keys,
                Err(said) => {
                    flow.message = Some(Message::Error(said));
                    continue;
                }
            }
        };
        for key in keys {
            if let Some(effect) = flow.key(key) {
                session.drive(flow, effect).await;
            }
        }
    }
    say(&super::summary(flow))?;
    Ok(())
}

/// A line of stdin as keys: empty is Enter, one character its key, `r TEXT` a reason.
fn keys(line: &str) -> Result<Vec<Key>, String> {
    let trimmed = line.trim();
    if trimmed.is_empty() {
        return Ok(vec![Key::Enter]);
    }
    if let Some(reason) = trimmed.strip_prefix("r ") {
        let mut keys = vec![Key::Char('r')];
        keys.extend(reason.trim().chars().map(Key::Char));
        keys.push(Key::Enter);
        return Ok(keys);
    }
    let mut chars = trimmed.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Ok(vec![Key::Char(c)]),
        _ => Err(format!(
            "`{trimmed}` is not a key: one key a line, or r TEXT ({})",
            flow::KEYS
        )),
    }
}

fn say(text: &str) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{text}")?;
    out.flush()
}

/// What changed since the last call: the message, a new example, the question asked.
fn show(
    session: &Session<'_>,
    flow: &mut Flow,
    shown: &mut Option<(crate::ids::ExampleId, usize)>,
) -> std::io::Result<()> {
    let mut again = false;
    match flow.message.take() {
        Some(Message::Info(text)) => say(&text)?,
        Some(Message::Error(text)) => {
            say(&format!("error: {text}"))?;
            again = true;
        }
        None => {}
    }
    let Some(at) = &flow.current else {
        return Ok(());
    };
    let id = &at.example.example_id;
    let now = (id.clone(), at.index);
    if shown.as_ref() == Some(&now) && !again {
        return Ok(());
    }
    if shown.as_ref().is_none_or(|(before, _)| before != id) {
        let mut header = vec![
            format!("example {id} ({})", flow::why(&at.example)),
            format!("done {}", flow.answered),
            format!("left {}", flow.progress.left),
        ];
        if !session.agreement.is_empty() {
            header.push(session.agreement.clone());
        }
        header.push(flow::curve_verdict(&flow.progress.learning));
        say(&header.join(" · "))?;
        let mut text = vec!["state:".to_owned()];
        text.extend(
            state::lines(&at.example.state)
                .into_iter()
                .map(|line| format!("  {line}")),
        );
        say(&text.join("\n"))?;
    }
    let (question, answer) = at.question();
    let outcomes: Vec<String> = answer
        .outcomes()
        .into_iter()
        .map(|outcome| {
            let marker = if outcome.guess { "*" } else { "" };
            let key = outcome.key.as_deref().unwrap_or(" ");
            let label = if outcome.label.is_empty() {
                String::new()
            } else {
                format!(" {}", outcome.label)
            };
            format!("{key}{label} {:.3}{marker}", outcome.probability)
        })
        .collect();
    say(&format!(
        "{question} ({}): {}",
        flow::kind(answer),
        outcomes.join(" · ")
    ))?;
    *shown = Some(now);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_one_key_or_a_reason() {
        assert_eq!(keys(""), Ok(vec![Key::Enter]));
        assert_eq!(keys(" 2 "), Ok(vec![Key::Char('2')]));
        assert_eq!(
            keys("r it is"),
            Ok(vec![
                Key::Char('r'),
                Key::Char('i'),
                Key::Char('t'),
                Key::Char(' '),
                Key::Char('i'),
                Key::Char('s'),
                Key::Enter
            ])
        );
        assert!(keys("12").unwrap_err().contains("not a key"));
    }
}
