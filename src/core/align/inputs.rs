//! Alignment's inputs: the annotated examples (a seeded sample per question), their
//! embeddings, and the captured states an unsupervised correction reads.

#[allow(clippy::wildcard_imports)]
use super::*;

/// Every example annotated for one of the questions, with its items per question: a seeded
/// sample of at most `max_examples` per question.
pub(super) fn read_examples(
    ctx: &Context,
    loaded: &Loaded,
    settings: &Settings,
) -> Result<Examples> {
    let mut all: HashMap<String, Vec<(String, Value, Option<String>)>> = HashMap::new();
    let mut states: HashMap<String, Value> = HashMap::new();
    let filter = ExampleFilter {
        annotated: Some(true),
        question: None,
        ..Default::default()
    };
    ctx.store()?
        .for_each_example(&loaded.model_id, &filter, &mut |example| {
            let mut used = false;
            for id in &settings.questions {
                if let Some(annotation) = example.annotations.get(id) {
                    all.entry(id.clone()).or_default().push((
                        example.example_id.to_string(),
                        annotation.answer.clone(),
                        annotation.reasoning.clone(),
                    ));
                    used = true;
                }
            }
            if used {
                states.insert(example.example_id.to_string(), example.state);
            }
            Ok(())
        })?;
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut examples = Examples {
        ids: Vec::new(),
        states: Vec::new(),
        items: HashMap::new(),
        priors: None,
        reasons: HashMap::new(),
    };
    for id in &settings.questions {
        let kind = &loaded.questions[id].kind;
        let mut annotated = all.remove(id).unwrap_or_default();
        let mut skipped = 0u64;
        annotated.retain(|(_, answer, _)| {
            let named = answer_outcome(kind, answer).is_some();
            skipped += u64::from(!named);
            named
        });
        if annotated.len() > settings.max_examples {
            skipped += (annotated.len() - settings.max_examples) as u64;
            annotated
                .sort_by_key(|(example_id, _, _)| folds::key(settings.seed, "sample", example_id));
            annotated.truncate(settings.max_examples);
        }
        // A stable order, whatever the store's: by example ID.
        annotated.sort_by(|a, b| a.0.cmp(&b.0));
        let mut items = Vec::with_capacity(annotated.len());
        for (example_id, answer, reason) in annotated {
            let at = *index.entry(example_id.clone()).or_insert_with(|| {
                examples.ids.push(example_id.clone());
                examples
                    .states
                    .push(states.get(&example_id).cloned().unwrap_or(Value::Null));
                examples.ids.len() - 1
            });
            if let Some(reason) = reason.filter(|r| !r.trim().is_empty()) {
                examples.reasons.insert((at, id.clone()), reason);
            }
            let outcome = answer_outcome(kind, &answer).unwrap_or(0);
            items.push(Item {
                example: at,
                label: label_of(kind, &answer).unwrap_or_default(),
                outcome,
            });
        }
        examples.items.insert(id.clone(), (items, skipped));
    }
    Ok(examples)
}

/// Embed every state, on every core.
pub(super) fn embed(
    engine: &BuiltinEngine,
    states: &[Value],
    tracker: &Tracker,
) -> Result<Vec<EmbeddedState>> {
    let embedded = parallel_map(states.len(), tracker, |i| {
        let state = engine.embed_state(&states[i]);
        tracker.done.fetch_add(1, Ordering::Relaxed);
        state
    });
    tracker.check()?;
    embedded
        .into_iter()
        .map(|state| state.unwrap_or_else(|| Err(not_run("a state"))))
        .collect()
}

/// [`crate::parallel::map_on_all_cores`], taking no new index once the job is cancelled
/// (the caller checks `tracker`).
pub(super) fn parallel_map<R: Send>(
    n: usize,
    tracker: &Tracker,
    work: impl Fn(usize) -> R + Sync,
) -> Vec<Option<R>> {
    crate::parallel::map_on_all_cores(n, || tracker.cancelled(), work)
}

/// What a thread that panicked left undone.
pub(super) fn not_run(what: &str) -> Error {
    Error::bug(format!("{what} was not processed: a worker thread failed"))
}

/// The model's captured states, annotated or not: a seeded sample of at most
/// `max_examples`, in a stable order. Only the sample is held while the store is read.
pub(super) fn read_captured(
    ctx: &Context,
    loaded: &Loaded,
    settings: &Settings,
) -> Result<Vec<Value>> {
    // The `max_examples` least keys seen so far, the greatest on top to be let go.
    let mut sample: std::collections::BinaryHeap<(u64, String, SampledState)> =
        std::collections::BinaryHeap::new();
    ctx.store()?.for_each_example(
        &loaded.model_id,
        &ExampleFilter::default(),
        &mut |example| {
            let key = folds::key(settings.seed, "sample", example.example_id.as_str());
            if sample.len() < settings.max_examples
                || sample.peek().is_some_and(|(top, _, _)| key < *top)
            {
                sample.push((
                    key,
                    example.example_id.to_string(),
                    SampledState(example.state),
                ));
                if sample.len() > settings.max_examples {
                    sample.pop();
                }
            }
            Ok(())
        },
    )?;
    let mut all: Vec<(String, Value)> = sample
        .into_iter()
        .map(|(_, id, SampledState(state))| (id, state))
        .collect();
    all.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(all.into_iter().map(|(_, state)| state).collect())
}

/// A state in the sample's heap, ordered by nothing (its key and ID order it).
struct SampledState(Value);

impl PartialEq for SampledState {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for SampledState {}

impl PartialOrd for SampledState {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for SampledState {
    fn cmp(&self, _: &Self) -> std::cmp::Ordering {
        std::cmp::Ordering::Equal
    }
}

pub(super) fn examples_count(examples: &Examples, id: &str) -> usize {
    examples.items.get(id).map_or(0, |(items, _)| items.len())
}
