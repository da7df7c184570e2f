//! Any OpenAI-compatible chat endpoint that returns logprobs (vLLM, llama.cpp's server,
//! OpenAI, OpenRouter, ...) as an engine: `POST {url}/chat/completions`.
//!
//! Each question is one request. Its outcomes are offered as the letters A, B, C, ... (a
//! noul is A = true, B = false; score levels are lettered in level order), and the model is
//! asked for the letter only (`max_tokens: 1`). The distribution is read from
//! `top_logprobs` at the answer position: the softmax of the offered letters' logprobs,
//! i.e. their probabilities renormalised over the letters. A letter that is not among the
//! `top_logprobs` gets the smallest logprob that is (an upper bound on its true
//! probability, so a missing letter never counts as impossible). The share of the whole
//! vocabulary's probability that fell on offered letters is reported as `x_option_mass`.
//!
//! For a `-reasoning` base model the model may think first (`reasoning_max_tokens`) and
//! ends with a line `Answer: X`; the letter's logprobs are read at that position.

use super::upstream::{Upstream, response_loc};
use super::{Engine, EngineOutput, EngineRequest};
use crate::config::EngineSettings;
use crate::error::{Error, Result};
use crate::wire::answer::Distribution;
use crate::wire::validate::json_type;
use crate::wire::validate::{FieldError, Loc};
use crate::wire::{Answer, Answers, Question, QuestionKind, Usage};
use serde_json::{Value, json};
use std::fmt::Write as _;

/// The letters offered as options, in order.
const LETTERS: &[u8; 26] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// At most this many options (or levels) per question.
pub const MAX_OPTIONS: usize = LETTERS.len();

const SYSTEM: &str = "You judge a JSON state against one question. The options are labelled \
with capital letters. Reply with the letter of the best option and nothing else.";

const SYSTEM_REASONING: &str = "You judge a JSON state against one question. The options are \
labelled with capital letters. Think it through briefly, then end your reply with a last line \
of the form `Answer: X`, where X is the letter of the best option.";

/// A chat model with logprobs as an engine.
pub struct ChatLogprobsEngine {
    upstream: Upstream,
    model: String,
    top_logprobs: u32,
    reasoning_max_tokens: u32,
}

impl ChatLogprobsEngine {
    pub fn new(settings: &EngineSettings) -> Result<Self> {
        Ok(Self {
            upstream: Upstream::new(settings, "/chat/completions")?,
            model: settings.model.clone(),
            top_logprobs: settings.top_logprobs,
            reasoning_max_tokens: settings.reasoning_max_tokens,
        })
    }

    /// The request body for one question.
    fn body(&self, prompt: &str, reasoning: bool) -> Value {
        json!({
            "model": self.model,
            "messages": [
                {"role": "system", "content": if reasoning { SYSTEM_REASONING } else { SYSTEM }},
                {"role": "user", "content": prompt},
            ],
            "max_tokens": if reasoning { self.reasoning_max_tokens } else { 1 },
            "temperature": 0,
            "n": 1,
            "stream": false,
            "logprobs": true,
            "top_logprobs": self.top_logprobs,
        })
    }

    async fn answer(
        &self,
        id: &str,
        question: &Question,
        state: &str,
        reasoning: bool,
    ) -> Result<(Answer, Usage)> {
        let count = outcome_count(question);
        if count < 2 {
            // Nothing to choose between: no request.
            let answer =
                Answer::from_distribution(question, &Distribution::Outcomes(vec![1.0; count]));
            return Ok((answer, Usage::default()));
        }
        let prompt = render_prompt(state, question);
        let response = self.upstream.post(&self.body(&prompt, reasoning)).await?;
        let loc = response_loc().key(id);
        let read = read_completion(&response, count, reasoning, &loc).map_err(|details| {
            Error::ProviderResponse {
                engine: self.upstream.name().to_owned(),
                details,
            }
        })?;
        let answer =
            Answer::from_distribution(question, &Distribution::Outcomes(read.probabilities))
                .with_option_mass(read.option_mass);
        Ok((answer, read.usage))
    }
}

#[async_trait::async_trait]
impl Engine for ChatLogprobsEngine {
    fn release_date(&self) -> Option<&str> {
        self.upstream.release_date()
    }

    fn describe(&self) -> String {
        format!(
            "{}: chat-logprobs {} at {}",
            self.upstream.name(),
            self.model,
            self.upstream.base_url()
        )
    }

    fn max_in_flight(&self) -> usize {
        self.upstream.max_in_flight()
    }

    async fn decide(&self, request: EngineRequest<'_>) -> Result<EngineOutput> {
        let span = super::pass_span("chat", self.upstream.name(), &request);
        super::traced_pass(span, self.decide_remotely(request)).await
    }
}

impl ChatLogprobsEngine {
    async fn decide_remotely(&self, request: EngineRequest<'_>) -> Result<EngineOutput> {
        let too_many: Vec<FieldError> = request
            .questions
            .iter()
            .filter(|(_, q)| outcome_count(q) > MAX_OPTIONS)
            .map(|(id, q)| {
                FieldError::new(
                    Loc::body().key("questions").key(id).key("criteria"),
                    format!(
                        "this question has {} options; engine `{}` offers options as the \
                         letters A to Z, so at most {MAX_OPTIONS}",
                        outcome_count(q),
                        self.upstream.name()
                    ),
                    "too_many_options",
                )
            })
            .collect();
        if !too_many.is_empty() {
            return Err(Error::Validation(too_many));
        }
        let reasoning = request.model.ends_with("-reasoning");
        let state = serde_json::to_string_pretty(request.state)
            .map_err(|e| Error::internal("rendering the state", e))?;
        // One request per question, all at once: the engine's semaphore keeps the limit.
        let answered = futures_util::future::try_join_all(
            request
                .questions
                .iter()
                .map(|(id, question)| self.answer(id, question, &state, reasoning)),
        )
        .await?;
        let mut usage = Usage::default();
        let mut answers = Answers::with_capacity(answered.len());
        for ((id, _), (answer, used)) in request.questions.iter().zip(answered) {
            usage.input_tokens += used.input_tokens;
            usage.output_tokens += used.output_tokens;
            answers.insert(id.clone(), answer);
        }
        Ok(EngineOutput { answers, usage })
    }
}

/// How many letters a question needs.
fn outcome_count(question: &Question) -> usize {
    match &question.kind {
        QuestionKind::Noul { .. } => 2,
        QuestionKind::Choice { options } => options.len(),
        QuestionKind::Score { levels } => levels.len(),
    }
}

/// A description or instructions as prompt text: strings as they are, other JSON compact.
fn text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The user message for one question: the state, the question, the lettered options.
pub fn render_prompt(state: &str, question: &Question) -> String {
    let instructions = question.instructions().map(text);
    let (heading, options): (String, Vec<String>) = match &question.kind {
        QuestionKind::Noul {
            when_true,
            when_false,
        } => {
            let side = |label: &str, description: &Value| {
                if description.is_null() {
                    label.to_owned()
                } else {
                    format!("{label}: {}", text(description))
                }
            };
            (
                instructions.map_or_else(
                    || "Does the statement hold for this state?".to_owned(),
                    |s| format!("Is this true of the state? {s}"),
                ),
                vec![side("True", when_true), side("False", when_false)],
            )
        }
        QuestionKind::Choice { options } => (
            instructions.unwrap_or_else(|| "Which option fits the state best?".to_owned()),
            options
                .iter()
                .map(|(key, description)| {
                    if description.is_null() {
                        key.clone()
                    } else {
                        format!("{key}: {}", text(description))
                    }
                })
                .collect(),
        ),
        QuestionKind::Score { levels } => (
            instructions
                .unwrap_or_else(|| "Which level of the rubric fits the state best?".to_owned()),
            levels
                .iter()
                .enumerate()
                .map(|(i, description)| format!("Level {i}: {}", text(description)))
                .collect(),
        ),
    };
    let mut prompt = format!("State:\n{state}\n\nQuestion: {heading}\n\nOptions:\n");
    for (letter, option) in LETTERS.iter().zip(&options) {
        let _ = writeln!(prompt, "{}. {option}", char::from(*letter));
    }
    prompt
}

/// What one chat completion says about one question.
#[derive(Debug, Clone, PartialEq)]
pub struct Completion {
    /// One probability per offered letter, summing to 1.
    pub probabilities: Vec<f64>,
    /// The share of all probability at the answer position that fell on offered letters.
    pub option_mass: f64,
    pub usage: Usage,
}

/// Read the letter distribution of a chat completion with logprobs; problems are located
/// under `loc` (`provider_response.<question ID>`).
pub fn read_completion(
    response: &Value,
    count: usize,
    reasoning: bool,
    loc: &Loc,
) -> std::result::Result<Completion, Vec<FieldError>> {
    let fail = |loc: Loc, msg: String, kind: &str| vec![FieldError::new(loc, msg, kind)];
    let Value::Object(body) = response else {
        return Err(fail(
            loc.clone(),
            format!("expected a JSON object, not {}", json_type(response)),
            "object_expected",
        ));
    };
    let usage = read_usage(body.get("usage"), &loc.key("usage"))?;
    let choice_loc = loc.key("choices").index(0);
    let Some(choice) = body
        .get("choices")
        .and_then(Value::as_array)
        .and_then(|c| c.first())
    else {
        return Err(fail(
            loc.key("choices"),
            "choices are missing or empty".into(),
            "missing",
        ));
    };
    let logprobs_loc = choice_loc.key("logprobs");
    let content_loc = logprobs_loc.key("content");
    let Some(content) = choice
        .get("logprobs")
        .and_then(|l| l.get("content"))
        .and_then(Value::as_array)
        .filter(|c| !c.is_empty())
    else {
        return Err(fail(
            content_loc,
            "no token logprobs: the endpoint must support `logprobs` and `top_logprobs`".into(),
            "missing_logprobs",
        ));
    };
    let tokens: Vec<&str> = content
        .iter()
        .map(|t| t.get("token").and_then(Value::as_str).unwrap_or(""))
        .collect();
    let position = if reasoning {
        answer_position(&tokens, count)
    } else {
        tokens.iter().position(|t| !t.trim().is_empty())
    };
    let Some(position) = position else {
        return Err(fail(
            content_loc,
            if reasoning {
                "the model's output has no final `Answer: <letter>` line".into()
            } else {
                "the model's output has no token to read".into()
            },
            "no_answer",
        ));
    };
    let candidates = alternatives(&content[position], &content_loc.index(position))?;
    let (probabilities, option_mass) = letter_distribution(&candidates, count);
    Ok(Completion {
        probabilities,
        option_mass,
        usage,
    })
}

/// The alternatives at the answer position (`entry`): each token with its logprob, and the
/// sampled token too when they leave it out.
fn alternatives<'a>(
    entry: &'a Value,
    entry_loc: &Loc,
) -> std::result::Result<Vec<(&'a str, f64)>, Vec<FieldError>> {
    let Some(top) = entry.get("top_logprobs").and_then(Value::as_array) else {
        return Err(vec![FieldError::new(
            entry_loc.key("top_logprobs"),
            "top_logprobs are missing at the answer position",
            "missing_logprobs",
        )]);
    };
    // Token → logprob: the alternatives, and the sampled token if they leave it out.
    let mut candidates: Vec<(&str, f64)> = Vec::with_capacity(top.len() + 1);
    let mut errors = Vec::new();
    for (i, alternative) in top.iter().enumerate() {
        let token = alternative.get("token").and_then(Value::as_str);
        let logprob = alternative.get("logprob").and_then(Value::as_f64);
        match (token, logprob) {
            (Some(token), Some(logprob)) if !logprob.is_nan() && logprob <= 1e-6 => {
                candidates.push((token, logprob.min(0.0)));
            }
            _ => errors.push(FieldError::new(
                entry_loc.key("top_logprobs").index(i),
                "an alternative needs a string `token` and a `logprob` of at most 0",
                "bad_logprob",
            )),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    if let (Some(token), Some(logprob)) = (
        entry.get("token").and_then(Value::as_str),
        entry.get("logprob").and_then(Value::as_f64),
    ) && !logprob.is_nan()
        && logprob <= 1e-6
        && !candidates.iter().any(|(t, _)| *t == token)
    {
        candidates.push((token, logprob.min(0.0)));
    }
    if candidates.is_empty() {
        return Err(vec![FieldError::new(
            entry_loc.key("top_logprobs"),
            "top_logprobs are empty at the answer position",
            "missing_logprobs",
        )]);
    }
    Ok(candidates)
}

/// The letter a token stands for among the first `count`: `A`, ` A`, `A.`, `A)`.
fn letter_index(token: &str, count: usize) -> Option<usize> {
    let trimmed = token.trim().trim_end_matches(['.', ')', ':']);
    let [byte] = trimmed.as_bytes() else {
        return None;
    };
    LETTERS[..count].iter().position(|l| l == byte)
}

/// The position of the letter after the last `Answer:` in the output.
fn answer_position(tokens: &[&str], count: usize) -> Option<usize> {
    let mut text = String::new();
    let mut found = None;
    for (i, token) in tokens.iter().enumerate() {
        if letter_index(token, count).is_some() {
            let before = text.trim_end().trim_end_matches('*').to_ascii_lowercase();
            if before.ends_with("answer:") {
                found = Some(i);
            }
        }
        text.push_str(token);
    }
    found
}

/// The softmax over the offered letters of their logprobs, and the mass they hold.
/// Alternatives that spell the same letter (`A`, ` A`) are added together; a letter that
/// is not among them gets the smallest logprob that is.
pub fn letter_distribution(candidates: &[(&str, f64)], count: usize) -> (Vec<f64>, f64) {
    let mut letters: Vec<Option<f64>> = vec![None; count];
    for (token, logprob) in candidates {
        if let Some(i) = letter_index(token, count) {
            letters[i] = Some(match letters[i] {
                Some(seen) => log_add(seen, *logprob),
                None => *logprob,
            });
        }
    }
    let mass: f64 = letters.iter().flatten().map(|lp| lp.exp()).sum();
    let floor = candidates
        .iter()
        .map(|(_, lp)| *lp)
        .fold(f64::INFINITY, f64::min);
    let filled: Vec<f64> = letters.iter().map(|lp| lp.unwrap_or(floor)).collect();
    let max = filled.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !max.is_finite() {
        return (vec![1.0 / count as f64; count], mass.clamp(0.0, 1.0));
    }
    let weights: Vec<f64> = filled.iter().map(|lp| (lp - max).exp()).collect();
    let total: f64 = weights.iter().sum();
    (
        weights.iter().map(|w| w / total).collect(),
        mass.clamp(0.0, 1.0),
    )
}

/// `ln(eᵃ + eᵇ)` without overflow.
fn log_add(a: f64, b: f64) -> f64 {
    let (hi, lo) = if a >= b { (a, b) } else { (b, a) };
    if hi == f64::NEG_INFINITY {
        return hi;
    }
    hi + (lo - hi).exp().ln_1p()
}

/// `prompt_tokens` and `completion_tokens`; absent is zero.
fn read_usage(value: Option<&Value>, loc: &Loc) -> std::result::Result<Usage, Vec<FieldError>> {
    let mut usage = Usage::default();
    let Some(Value::Object(object)) = value.filter(|v| !v.is_null()) else {
        return match value {
            None | Some(Value::Null) => Ok(usage),
            Some(other) => Err(vec![FieldError::new(
                loc.clone(),
                format!("usage must be an object, not {}", json_type(other)),
                "object_expected",
            )]),
        };
    };
    for (name, slot) in [
        ("prompt_tokens", &mut usage.input_tokens),
        ("completion_tokens", &mut usage.output_tokens),
    ] {
        match object.get(name) {
            None | Some(Value::Null) => {}
            Some(n) if n.as_u64().is_some() => *slot = n.as_u64().unwrap_or(0),
            Some(other) => {
                return Err(vec![FieldError::new(
                    loc.key(name),
                    format!("{name} must be a non-negative integer, not {other}"),
                    "integer_expected",
                )]);
            }
        }
    }
    Ok(usage)
}

#[cfg(test)]
mod tests;
