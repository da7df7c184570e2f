//! The full-screen view (ratatui on crossterm): a header with the progress, the state
//! (as text, [`super::state`]: wrapped, scrolled with the arrows, what is below the box
//! counted on its last row), the question with the model's guess
//! and a probability per outcome, the last message, and the keys. It fits 80×24; colours
//! are left out under `NO_COLOR`.

use super::Session;
use super::flow::{self, At, Flow, Key, Message};
use super::state;
use crate::cli::output::escape_controls;
use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use crossterm::terminal::{EnterAlternateScreen, LeaveAlternateScreen};
use ratatui::Frame;
use ratatui::backend::CrosstermBackend;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::{Block, Borders, Paragraph};
use std::io::Write;

/// The terminal in raw mode on the alternate screen, given back as it was when dropped
/// (also on an error or a panic on the way out).
struct Raw;

impl Raw {
    fn enter() -> std::io::Result<Self> {
        crossterm::terminal::enable_raw_mode()?;
        let raw = Self;
        crossterm::execute!(
            std::io::stdout(),
            EnterAlternateScreen,
            crossterm::cursor::Hide
        )?;
        Ok(raw)
    }
}

impl Drop for Raw {
    fn drop(&mut self) {
        let _ = crossterm::execute!(
            std::io::stdout(),
            LeaveAlternateScreen,
            crossterm::cursor::Show
        );
        let _ = crossterm::terminal::disable_raw_mode();
        let _ = std::io::stdout().flush();
    }
}

/// Run the flow on the screen until it is left.
pub(super) async fn run(session: &mut Session<'_>, flow: &mut Flow) -> anyhow::Result<()> {
    let _raw = Raw::enter()?;
    let mut terminal = ratatui::Terminal::new(CrosstermBackend::new(std::io::stdout()))?;
    let color = !no_color();
    while !flow.finished {
        let mut furthest = 0;
        terminal.draw(|frame| {
            furthest = draw(frame, &session.path, &session.agreement, flow, color);
        })?;
        // Scrolled past the end, the first key back up shows a row more at once.
        flow.scroll = flow.scroll.min(furthest);
        let Some(key) = read_key()? else {
            continue;
        };
        if let Some(effect) = flow.key(key) {
            if matches!(effect, flow::Effect::Next { .. }) {
                flow.message = Some(Message::Info("looking for the next example…".to_owned()));
                terminal.draw(|frame| {
                    draw(frame, &session.path, &session.agreement, flow, color);
                })?;
            }
            session.drive(flow, effect).await;
        }
    }
    Ok(())
}

/// The next key pressed; `None` for anything else (a resize redraws).
fn read_key() -> std::io::Result<Option<Key>> {
    let Event::Key(KeyEvent {
        code,
        modifiers,
        kind,
        ..
    }) = crossterm::event::read()?
    else {
        return Ok(None);
    };
    if kind == KeyEventKind::Release {
        return Ok(None);
    }
    Ok(Some(match code {
        KeyCode::Char('c') if modifiers.contains(KeyModifiers::CONTROL) => Key::Interrupt,
        KeyCode::Char(c) => Key::Char(c),
        KeyCode::Enter => Key::Enter,
        KeyCode::Esc => Key::Esc,
        KeyCode::Backspace => Key::Backspace,
        KeyCode::Up => Key::Up,
        KeyCode::Down => Key::Down,
        KeyCode::PageUp => Key::PageUp,
        KeyCode::PageDown => Key::PageDown,
        _ => return Ok(None),
    }))
}

/// `NO_COLOR` set and not empty (no-color.org).
fn no_color() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}

/// Styles, or none at all without colour.
struct Paint {
    color: bool,
}

impl Paint {
    fn fg(&self, color: Color) -> Style {
        if self.color {
            Style::default().fg(color)
        } else {
            Style::default()
        }
    }

    /// Bold is not a colour: kept under `NO_COLOR`.
    fn bold() -> Style {
        Style::default().add_modifier(Modifier::BOLD)
    }
}

/// Draw the screen; the furthest the state can scroll is returned.
fn draw(frame: &mut Frame, path: &str, agreement: &str, flow: &Flow, color: bool) -> u16 {
    let paint = Paint { color };
    let question_height = flow
        .current
        .as_ref()
        .map_or(3, |at| at.question().1.outcomes().len() + 3)
        .min(13);
    let [header, progress, state, question, message, keys] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(2),
        Constraint::Min(3),
        Constraint::Length(u16::try_from(question_height).unwrap_or(13)),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(frame.area());
    frame.render_widget(Paragraph::new(header_line(path, flow)), header);
    frame.render_widget(Paragraph::new(progress_lines(agreement, flow)), progress);
    let furthest = draw_state(frame, state, flow);
    draw_question(frame, question, flow, &paint);
    let shown = match (&flow.typing, &flow.message) {
        (Some(text), _) => Line::from(vec![
            Span::styled("reason: ", Paint::bold()),
            Span::raw(format!("{text}▏ (Enter keeps it, Esc drops it)")),
        ]),
        (None, Some(Message::Error(text))) => Line::from(Span::styled(
            text.clone(),
            paint.fg(Color::Red).add_modifier(Modifier::BOLD),
        )),
        (None, Some(Message::Info(text))) => {
            Line::from(Span::styled(text.clone(), paint.fg(Color::Green)))
        }
        (None, None) => Line::default(),
    };
    frame.render_widget(Paragraph::new(shown), message);
    frame.render_widget(
        Paragraph::new(Span::styled(flow::KEYS, paint.fg(Color::DarkGray))),
        keys,
    );
    furthest
}

fn header_line(path: &str, flow: &Flow) -> Line<'static> {
    let mut spans = vec![Span::styled(format!("annotate {path}"), Paint::bold())];
    if let Some(at) = &flow.current {
        spans.push(Span::raw(format!(
            " · {} · {} · question {}/{}",
            escape_controls(at.example.example_id.as_str()),
            flow::why(&at.example),
            at.index + 1,
            at.example.answers.len()
        )));
    }
    Line::from(spans)
}

/// What is done and left, the agreement so far; then what the curve says.
fn progress_lines(agreement: &str, flow: &Flow) -> Vec<Line<'static>> {
    let mut parts = vec![
        format!("done {}", flow.answered),
        format!("left {}", flow.progress.left),
    ];
    if flow.progress.claimed_by_others > 0 {
        parts.push(format!(
            "{} held by others",
            flow.progress.claimed_by_others
        ));
    }
    if !agreement.is_empty() {
        parts.push(agreement.to_owned());
    }
    vec![
        Line::from(parts.join(" · ")),
        Line::from(flow::curve_verdict(&flow.progress.learning)),
    ]
}

/// The state as text ([`state::rows`]), scrolled by the flow; when more follows, the last
/// row says how much. The furthest it can scroll is returned (the flow is held to it).
fn draw_state(frame: &mut Frame, area: Rect, flow: &Flow) -> u16 {
    let block = Block::default()
        .borders(Borders::ALL)
        .title(" state (↑↓ PgUp PgDn scroll) ");
    let Some(at) = &flow.current else {
        let text = if flow.exhausted {
            "Nothing left to annotate for you."
        } else {
            ""
        };
        frame.render_widget(Paragraph::new(text).block(block), area);
        return 0;
    };
    let rows = state::rows(&at.example.state, usize::from(area.width.saturating_sub(2)));
    let (shown, furthest) = visible(
        &rows,
        usize::from(area.height.saturating_sub(2)),
        flow.scroll,
    );
    frame.render_widget(Paragraph::new(Text::from(shown)).block(block), area);
    furthest
}

/// The rows that fit `height` from `scroll` on (held to the furthest scroll, where the
/// last row is at the bottom), the last one saying how many more follow when some do; and
/// the furthest scroll.
fn visible(rows: &[state::Row], height: usize, scroll: u16) -> (Vec<Line<'static>>, u16) {
    let furthest = rows.len().saturating_sub(height);
    let from = usize::from(scroll).min(furthest);
    let mut shown: Vec<Line<'static>> = rows
        .iter()
        .skip(from)
        .take(height)
        .map(|row| {
            let style = if row.heading {
                Paint::bold()
            } else {
                Style::default()
            };
            Line::from(vec![
                Span::raw(" ".repeat(row.indent)),
                Span::styled(row.text.clone(), style),
            ])
        })
        .collect();
    let after = rows.len().saturating_sub(from + height);
    if after > 0
        && let Some(last) = shown.last_mut()
    {
        *last = Line::from(Span::styled(
            format!("… {} more lines (↓ PgDn)", after + 1),
            Paint::bold(),
        ));
    }
    (shown, u16::try_from(furthest).unwrap_or(u16::MAX))
}

fn draw_question(frame: &mut Frame, area: Rect, flow: &Flow, paint: &Paint) {
    let Some(at) = &flow.current else {
        frame.render_widget(Block::default().borders(Borders::ALL), area);
        return;
    };
    let (question, answer) = at.question();
    let title = format!(" {question} · {} ", flow::kind(answer));
    let block = Block::default()
        .borders(Borders::ALL)
        .title(Span::styled(title, Paint::bold()));
    let width = usize::from(area.width.saturating_sub(2));
    frame.render_widget(
        Paragraph::new(outcome_lines(at, flow, paint, width)).block(block),
        area,
    );
}

/// One line per outcome: its key, label, probability and a bar; the guess marked.
fn outcome_lines(at: &At, flow: &Flow, paint: &Paint, width: usize) -> Vec<Line<'static>> {
    let (_, answer) = at.question();
    let outcomes = answer.outcomes();
    let label_width = outcomes
        .iter()
        .map(|outcome| console::measure_text_width(&outcome.label))
        .max()
        .unwrap_or(0)
        .min(width.saturating_sub(26).max(8));
    let bar_width = width.saturating_sub(label_width + 18).min(30);
    let mut lines: Vec<Line<'static>> = outcomes
        .into_iter()
        .map(|outcome| {
            let (key, p, guess) = (
                outcome.key.unwrap_or_else(|| " ".to_owned()),
                outcome.probability,
                outcome.guess,
            );
            let label = console::truncate_str(&outcome.label, label_width, "…");
            let marker = if guess { "▸" } else { " " };
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            let filled = ((p.clamp(0.0, 1.0) * bar_width as f64).round() as usize).min(bar_width);
            let style = if guess {
                Paint::bold()
            } else {
                Style::default()
            };
            Line::from(vec![
                Span::styled(format!("{marker} {key} "), style),
                Span::styled(format!("{label:<label_width$} "), style),
                Span::raw(format!("{p:.3} ")),
                Span::styled("█".repeat(filled), paint.fg(Color::Cyan)),
            ])
        })
        .collect();
    if let Some(reason) = &flow.reason {
        lines.push(Line::from(format!("  reason: {reason}")));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::answer::Answer;
    use crate::wire::claims::ClaimedExample;
    use crate::wire::to_annotate::Why;
    use ratatui::backend::TestBackend;
    use serde_json::json;
    use std::sync::Arc;

    #[test]
    fn the_screen_fits_80_by_24_with_the_guess_and_its_probabilities() {
        let example = ClaimedExample {
            example_id: "e-01".into(),
            why: Why::Uncertain,
            annotator: "ann".into(),
            expires_at: None,
            answers: [(
                "intent".to_owned(),
                Answer::Choice {
                    choice: Some("refund".into()),
                    probabilities: [("refund".to_owned(), 0.6), ("billing".to_owned(), 0.4)]
                        .into_iter()
                        .collect(),
                    confidence: 0.2,
                    x_option_mass: None,
                    x_abstain: None,
                },
            )]
            .into_iter()
            .collect(),
            state: json!({"messages": [{"role": "user", "content": "word ".repeat(100)}]}),
        };
        let mut flow = Flow::default();
        flow.current = Some(At {
            example: Arc::new(example),
            index: 0,
        });
        flow.progress.left = 7;
        let mut terminal = ratatui::Terminal::new(TestBackend::new(80, 24)).unwrap();
        terminal
            .draw(|frame| {
                draw(frame, "acme/support", "agreement κ 0.50", &flow, false);
            })
            .unwrap();
        let screen: String = terminal
            .backend()
            .buffer()
            .content()
            .chunks(80)
            .map(|row| {
                row.iter()
                    .map(ratatui::buffer::Cell::symbol)
                    .collect::<String>()
                    + "\n"
            })
            .collect();
        assert!(
            screen.contains("annotate acme/support · e-01 · uncertain · question 1/1"),
            "{screen}"
        );
        assert!(
            screen.contains("done 0 · left 7 · agreement κ 0.50"),
            "{screen}"
        );
        assert!(screen.contains("▸ 1 refund  0.600"), "{screen}");
        assert!(screen.contains("  2 billing 0.400"), "{screen}");
        assert!(
            screen.contains("last align --curve: none recorded yet"),
            "{screen}"
        );
        assert!(screen.contains("Enter/a accept"), "{screen}");
        assert!(screen.lines().all(|l| l.chars().count() <= 80), "{screen}");
        // The long message is wrapped inside the state's box.
        assert!(
            screen.lines().filter(|l| l.contains("word word")).count() > 2,
            "{screen}"
        );
    }

    #[test]
    fn what_is_below_the_box_is_counted_on_its_last_row_until_scrolled_to() {
        let rows: Vec<state::Row> = (0..10)
            .map(|i| state::Row {
                indent: 0,
                text: format!("row {i}"),
                heading: false,
            })
            .collect();
        let text = |lines: Vec<Line<'static>>| -> Vec<String> {
            lines.iter().map(ToString::to_string).collect()
        };
        let (shown, furthest) = visible(&rows, 4, 0);
        assert_eq!(furthest, 6);
        assert_eq!(
            text(shown),
            ["row 0", "row 1", "row 2", "… 7 more lines (↓ PgDn)"]
        );
        // Scrolled past the end: held to the last rows, nothing more to count.
        let (shown, _) = visible(&rows, 4, 50);
        assert_eq!(text(shown), ["row 6", "row 7", "row 8", "row 9"]);
        let (shown, _) = visible(&rows[..3], 4, 0);
        assert_eq!(text(shown), ["row 0", "row 1", "row 2"]);
    }
}
