//! A remote System One server (TypeSafe, Ollama, llama.cpp, LocalAI, another Arbiter):
//! `POST {url}/v1/systemone` with `{state, model, questions}`.
//!
//! The provider's answers are checked, not trusted: one per question, same IDs and types,
//! probabilities finite, non-negative, keyed exactly by the options (score: `"0".."N-1"`)
//! and summing to 1 within [`SUM_TOLERANCE`] (then renormalised), `noul` in `[0, 1]`.
//! The answers are then rebuilt with [`Answer::from_distribution`], so `choice`, `score`
//! and `confidence` follow Arbiter's definitions whatever the provider computed.

use super::upstream::{Upstream, response_loc};
use super::{Engine, EngineOutput, EngineRequest};
use crate::config::EngineSettings;
use crate::error::{Error, Result};
use crate::wire::answer::Distribution;
use crate::wire::validate::json_type;
use crate::wire::validate::{FieldError, Loc};
use crate::wire::{Answer, Answers, Question, QuestionKind, Questions, Usage};
use serde::Serialize;
use serde_json::{Map, Value};

/// How far from 1 a provider's probabilities may sum and still be renormalised.
pub const SUM_TOLERANCE: f64 = 1e-3;

/// A System One server as an engine.
pub struct SystemOneEngine {
    upstream: Upstream,
    model: String,
}

/// The request body: borrowed, so the state is never copied.
#[derive(Serialize)]
struct SystemOneRequest<'a> {
    state: &'a Value,
    model: &'a str,
    questions: &'a Questions,
}

impl SystemOneEngine {
    pub fn new(settings: &EngineSettings) -> Result<Self> {
        Ok(Self {
            upstream: Upstream::new(settings, "/v1/systemone")?,
            model: settings.model.clone(),
        })
    }
}

#[async_trait::async_trait]
impl Engine for SystemOneEngine {
    fn release_date(&self) -> Option<&str> {
        self.upstream.release_date()
    }

    fn describe(&self) -> String {
        format!(
            "{}: systemone {} at {}",
            self.upstream.name(),
            self.model,
            self.upstream.base_url()
        )
    }

    fn max_in_flight(&self) -> usize {
        self.upstream.max_in_flight()
    }

    async fn decide(&self, request: EngineRequest<'_>) -> Result<EngineOutput> {
        let span = super::pass_span("decide", self.upstream.name(), &request);
        super::traced_pass(span, self.decide_remotely(request)).await
    }
}

impl SystemOneEngine {
    async fn decide_remotely(&self, request: EngineRequest<'_>) -> Result<EngineOutput> {
        let body = SystemOneRequest {
            state: request.state,
            model: &self.model,
            questions: request.questions,
        };
        let response = self.upstream.post(&body).await?;
        parse_response(&response, request.questions).map_err(|details| Error::ProviderResponse {
            engine: self.upstream.name().to_owned(),
            details,
        })
    }
}

/// Check a System One response against the questions asked and rebuild its answers;
/// every problem is reported, located in the response.
pub fn parse_response(
    response: &Value,
    questions: &Questions,
) -> std::result::Result<EngineOutput, Vec<FieldError>> {
    let root = response_loc();
    let mut errors = Vec::new();
    let Value::Object(body) = response else {
        return Err(vec![FieldError::new(
            root,
            format!("expected a JSON object, not {}", json_type(response)),
            "object_expected",
        )]);
    };
    let usage = parse_usage(body.get("usage"), &root.key("usage"), &mut errors);
    let answers_loc = root.key("answers");
    let Some(Value::Object(given)) = body.get("answers") else {
        errors.push(FieldError::new(
            answers_loc,
            match body.get("answers") {
                None => "answers are missing".to_owned(),
                Some(other) => format!(
                    "answers must be an object of question ID to answer, not {}",
                    json_type(other)
                ),
            },
            "missing",
        ));
        return Err(errors);
    };
    let mut answers = Answers::with_capacity(questions.len());
    for (id, question) in questions {
        let loc = answers_loc.key(id);
        match given.get(id) {
            None => errors.push(FieldError::new(
                loc,
                format!("no answer for question {id:?}"),
                "missing_answer",
            )),
            Some(answer) => {
                if let Some(answer) = parse_answer(answer, question, &loc, &mut errors) {
                    answers.insert(id.clone(), answer);
                }
            }
        }
    }
    for id in given.keys().filter(|id| !questions.contains_key(*id)) {
        errors.push(FieldError::new(
            answers_loc.key(id),
            format!("an answer for {id:?}, which was not asked"),
            "unexpected_answer",
        ));
    }
    if errors.is_empty() {
        Ok(EngineOutput { answers, usage })
    } else {
        Err(errors)
    }
}

fn parse_usage(value: Option<&Value>, loc: &Loc, errors: &mut Vec<FieldError>) -> Usage {
    let mut usage = Usage::default();
    let Some(value) = value.filter(|v| !v.is_null()) else {
        return usage;
    };
    let Value::Object(object) = value else {
        errors.push(FieldError::new(
            loc.clone(),
            format!("usage must be an object, not {}", json_type(value)),
            "object_expected",
        ));
        return usage;
    };
    for (name, slot) in [
        ("input_tokens", &mut usage.input_tokens),
        ("output_tokens", &mut usage.output_tokens),
    ] {
        match object.get(name) {
            None | Some(Value::Null) => {}
            Some(Value::Number(n)) if n.as_u64().is_some() => *slot = n.as_u64().unwrap_or(0),
            Some(other) => errors.push(FieldError::new(
                loc.key(name),
                format!("{name} must be a non-negative integer, not {other}"),
                "integer_expected",
            )),
        }
    }
    usage
}

fn parse_answer(
    value: &Value,
    question: &Question,
    loc: &Loc,
    errors: &mut Vec<FieldError>,
) -> Option<Answer> {
    let Value::Object(answer) = value else {
        errors.push(FieldError::new(
            loc.clone(),
            format!("an answer must be an object, not {}", json_type(value)),
            "object_expected",
        ));
        return None;
    };
    let expected = question.kind.type_name();
    match answer.get("type") {
        Some(Value::String(t)) if t == expected => {}
        Some(other) => {
            errors.push(FieldError::new(
                loc.key("type"),
                format!("the answer's type is {other}; the question's is \"{expected}\""),
                "type_mismatch",
            ));
            return None;
        }
        None => {
            errors.push(FieldError::new(
                loc.key("type"),
                format!("type is missing; the question's is \"{expected}\""),
                "missing",
            ));
            return None;
        }
    }
    let distribution = match &question.kind {
        QuestionKind::Noul { .. } => {
            let loc = loc.key("noul");
            match answer.get("noul").and_then(Value::as_f64) {
                Some(p) if p.is_finite() && (0.0..=1.0).contains(&p) => Distribution::Noul(p),
                Some(p) => {
                    errors.push(FieldError::new(
                        loc,
                        format!("noul is {p}: a probability from 0 to 1"),
                        "out_of_range",
                    ));
                    return None;
                }
                None => {
                    errors.push(FieldError::new(
                        loc,
                        "noul is missing or not a number",
                        "number_expected",
                    ));
                    return None;
                }
            }
        }
        QuestionKind::Choice { options } => {
            let keys: Vec<&str> = options.iter().map(|(k, _)| k.as_str()).collect();
            Distribution::Outcomes(parse_probabilities(answer, &keys, loc, errors)?)
        }
        QuestionKind::Score { levels } => {
            let keys: Vec<String> = (0..levels.len()).map(|i| i.to_string()).collect();
            let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
            Distribution::Outcomes(parse_probabilities(answer, &keys, loc, errors)?)
        }
    };
    Some(Answer::from_distribution(question, &distribution))
}

/// The probabilities of `keys`, in their order, renormalised; `None` after reporting.
fn parse_probabilities(
    answer: &Map<String, Value>,
    keys: &[&str],
    loc: &Loc,
    errors: &mut Vec<FieldError>,
) -> Option<Vec<f64>> {
    let loc = loc.key("probabilities");
    let Some(Value::Object(given)) = answer.get("probabilities") else {
        errors.push(FieldError::new(
            loc,
            "probabilities are missing or not an object",
            "object_expected",
        ));
        return None;
    };
    let before = errors.len();
    let mut ps = Vec::with_capacity(keys.len());
    for key in keys {
        match given.get(*key).map(|v| (v, v.as_f64())) {
            None => errors.push(FieldError::new(
                loc.key(key),
                format!("no probability for {key:?}"),
                "missing",
            )),
            Some((_, Some(p))) if p.is_finite() && p >= 0.0 => ps.push(p),
            Some((raw, _)) => errors.push(FieldError::new(
                loc.key(key),
                format!("{raw} is not a probability (a finite number, at least 0)"),
                "out_of_range",
            )),
        }
    }
    for key in given.keys().filter(|k| !keys.contains(&k.as_str())) {
        errors.push(FieldError::new(
            loc.key(key),
            format!("{key:?} is not an option of the question"),
            "unknown_option",
        ));
    }
    if errors.len() > before {
        return None;
    }
    if keys.is_empty() {
        return Some(ps);
    }
    let total: f64 = ps.iter().sum();
    // Finite, non-negative terms: the sum is finite or +inf, never NaN.
    if (total - 1.0).abs() > SUM_TOLERANCE {
        errors.push(FieldError::new(
            loc,
            format!("the probabilities sum to {total}, not 1 (tolerance {SUM_TOLERANCE})"),
            "bad_sum",
        ));
        return None;
    }
    Some(ps.into_iter().map(|p| p / total).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::question::parse_questions;
    use serde_json::json;

    fn questions() -> Questions {
        let mut errors = Vec::new();
        let parsed = parse_questions(
            &json!({
                "intent": {"type": "choice", "criteria": {"refund": null, "bug": "broken"}},
                "urgency": {"type": "score", "criteria": ["low", "mid", "high"]},
                "": {"type": "noul", "instructions": {"any": ["json"]}}
            }),
            &Loc::body(),
            &mut errors,
        );
        assert!(errors.is_empty());
        parsed
    }

    fn good() -> Value {
        json!({
            "model": "m",
            "answers": {
                "": {"type": "noul", "noul": 0.25},
                "urgency": {"type": "score", "score": 9, "probabilities": {"0": 0.2, "1": 0.3, "2": 0.5}, "confidence": 7},
                "intent": {"type": "choice", "choice": "bug", "probabilities": {"refund": 0.7, "bug": 0.3004}}
            },
            "usage": {"input_tokens": 12, "output_tokens": 3}
        })
    }

    fn locs(errors: &[FieldError]) -> Vec<String> {
        errors
            .iter()
            .map(|e| format!("{} [{}]", e.loc, e.kind))
            .collect()
    }

    #[test]
    fn a_valid_response_is_rebuilt_in_question_order() {
        let output = parse_response(&good(), &questions()).unwrap();
        assert_eq!(
            output.answers.keys().collect::<Vec<_>>(),
            ["intent", "urgency", ""]
        );
        assert_eq!(output.usage.input_tokens, 12);
        assert_eq!(output.usage.output_tokens, 3);
        // The provider's choice, score and confidence are recomputed, and the sum within
        // tolerance is renormalised.
        let Answer::Choice {
            choice,
            probabilities,
            ..
        } = &output.answers["intent"]
        else {
            panic!()
        };
        assert_eq!(choice.as_deref(), Some("refund"));
        assert!((probabilities.values().sum::<f64>() - 1.0).abs() < 1e-12);
        let Answer::Score { score, .. } = output.answers["urgency"] else {
            panic!()
        };
        assert!((score - 1.3).abs() < 1e-12);
    }

    #[test]
    fn every_fault_is_located_in_the_provider_response() {
        let bad = json!({
            "answers": {
                "": {"type": "choice", "noul": 0.2},
                "urgency": {"type": "score", "probabilities": {"0": 0.2, "1": "x", "3": 0.5}},
                "intent": {"type": "choice", "probabilities": {"refund": 0.5, "bug": 0.2}},
                "extra": {"type": "noul", "noul": 1}
            },
            "usage": {"input_tokens": -1}
        });
        let errors = parse_response(&bad, &questions()).unwrap_err();
        assert_eq!(
            locs(&errors),
            [
                "provider_response.usage.input_tokens [integer_expected]",
                "provider_response.answers.intent.probabilities [bad_sum]",
                "provider_response.answers.urgency.probabilities.1 [out_of_range]",
                "provider_response.answers.urgency.probabilities.2 [missing]",
                "provider_response.answers.urgency.probabilities.3 [unknown_option]",
                r#"provider_response.answers[""].type [type_mismatch]"#,
                "provider_response.answers.extra [unexpected_answer]",
            ]
        );
        assert_eq!(
            serde_json::to_value(&errors[1].loc).unwrap(),
            json!(["provider_response", "answers", "intent", "probabilities"])
        );
    }

    #[test]
    fn missing_answers_nan_and_non_objects() {
        let q = questions();
        let errors = parse_response(&json!([1]), &q).unwrap_err();
        assert_eq!(locs(&errors), ["provider_response [object_expected]"]);
        let errors = parse_response(&json!({"answers": {}}), &q).unwrap_err();
        assert_eq!(errors.len(), 3);
        assert!(errors.iter().all(|e| e.kind == "missing_answer"));
        let mut nan = good();
        nan["answers"][""]["noul"] = json!(1.5);
        let errors = parse_response(&nan, &q).unwrap_err();
        assert_eq!(
            locs(&errors),
            [r#"provider_response.answers[""].noul [out_of_range]"#]
        );
        // Usage may be absent: zero.
        let mut no_usage = good();
        no_usage.as_object_mut().unwrap().remove("usage");
        assert_eq!(
            parse_response(&no_usage, &q).unwrap().usage,
            Usage::default()
        );
    }

    #[test]
    fn a_choice_without_options_takes_an_empty_map() {
        let mut errors = Vec::new();
        let q = parse_questions(
            &json!({"none": {"type": "choice", "criteria": {}}}),
            &Loc::body(),
            &mut errors,
        );
        let output = parse_response(
            &json!({"answers": {"none": {"type": "choice", "choice": null, "probabilities": {}}}}),
            &q,
        )
        .unwrap();
        assert!(matches!(
            &output.answers["none"],
            Answer::Choice { choice: None, .. }
        ));
    }
}
