//! The zero-shot answer corrected without annotations: the prior an alignment starts from
//! where the model has captured states, and `align --unsupervised`.

#[allow(clippy::wildcard_imports)]
use super::*;
use crate::wire::QuestionKind;

/// The zero-shot answer corrected without annotations ([`unsupervised`]): each outcome's
/// pull over the model's captured states removed.
pub(super) struct Correction {
    /// The question as it answers corrected.
    pub(super) question: Question,
    /// The file that keeps the correction (`aligned/<id>.yaml`).
    file: AlignedInstructions,
    /// Captured states it was estimated on.
    pub(super) states: u64,
}

impl Correction {
    /// The correction of `base` over the `captured` states, or why there is none.
    pub(super) fn of(
        engine: &BuiltinEngine,
        base: &Question,
        captured: &[EmbeddedState],
        seed: u64,
    ) -> Result<std::result::Result<Self, unsupervised::NotCorrected>> {
        if matches!(base.kind, QuestionKind::Noul { .. }) {
            return Ok(Err(unsupervised::NotCorrected::Noul));
        }
        let similarities = captured
            .iter()
            .map(|state| engine.similarities(state, base))
            .collect::<Result<Vec<_>>>()?;
        let mut calibration = match unsupervised::correction(base, &similarities, MIN_EXAMPLES) {
            Ok(calibration) => calibration,
            Err(not) => return Ok(Err(not)),
        };
        calibration.seed = Some(seed);
        calibration
            .weights
            .values_mut()
            .for_each(|w| *w = round(*w));
        calibration.bias.values_mut().for_each(|b| *b = round(*b));
        let file = AlignedInstructions {
            task: None,
            examples: Vec::new(),
            cues: IndexMap::new(),
            arbiter_alignment: calibration,
        };
        let question = Question {
            instructions: Some(
                AlignedInstructions {
                    task: base.instructions.clone(),
                    ..file.clone()
                }
                .to_value(),
            ),
            kind: base.kind.clone(),
        };
        Ok(Ok(Self {
            question,
            file,
            states: captured.iter().filter(|s| !s.is_blank()).count() as u64,
        }))
    }

    /// What the checkpoint keeps of it for question `id`.
    pub(super) fn learned(&self, id: &str) -> Learned {
        Learned {
            file: Some(self.file.file_text(id)),
            head: None,
            fit_id: None,
            fitted: Vec::new(),
            documents: Vec::new(),
            instructions: None,
        }
    }
}

/// Correct a question without annotations ([`unsupervised`]) from the `captured` states,
/// given its current alignment (as [`align_question`] parsed it) and its base question;
/// `why` says why it was not aligned on annotations instead (when it was not asked for).
pub(super) fn correct_unsupervised(
    engine: &BuiltinEngine,
    id: &str,
    (current, base): (Option<&aligned::Alignment>, &Question),
    has_head: bool,
    captured: &[EmbeddedState],
    settings: &Settings,
    mut report: QuestionReport,
) -> Result<Aligned> {
    // An alignment learned from annotations is worth more than a correction without them.
    if has_head
        || current.is_some_and(|alignment| {
            !alignment.exemplars.is_empty() || alignment.cues.iter().any(Option::is_some)
        })
    {
        report.reason = Some("aligned on annotated examples already; left as it is".to_owned());
        return Ok((report, None));
    }
    let correction = match Correction::of(engine, base, captured, settings.seed)? {
        Ok(correction) => correction,
        Err(not) => {
            report.reason = Some(not.to_string());
            return Ok((report, None));
        }
    };
    report.improved = true;
    report.candidate = Some(unsupervised::METHOD.to_owned());
    report.states = Some(correction.states);
    Ok((report, Some(correction.learned(id))))
}
