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
    };
    ctx.store()?
        .for_each_example(&loaded.model_id, &filter, &mut |example| {
            let mut used = false;
            for id in &settings.questions {
                if let Some(annotation) = example.annotations.get(id) {
                    all.entry(id.clone()).or_default().push((
                        example.example_id.clone(),
                        annotation.answer.clone(),
                        annotation.reasoning.clone(),
                    ));
                    used = true;
                }
            }
            if used {
                states.insert(example.example_id.clone(), example.state);
            }
            Ok(())
        })?;
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut examples = Examples {
        ids: Vec::new(),
        states: Vec::new(),
        items: HashMap::new(),
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
        for (example_id, answer, _) in annotated {
            let at = *index.entry(example_id.clone()).or_insert_with(|| {
                examples.ids.push(example_id.clone());
                examples
                    .states
                    .push(states.get(&example_id).cloned().unwrap_or(Value::Null));
                examples.ids.len() - 1
            });
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
/// `max_examples`, in a stable order.
pub(super) fn read_captured(
    ctx: &Context,
    loaded: &Loaded,
    settings: &Settings,
) -> Result<Vec<Value>> {
    let mut all: Vec<(String, Value)> = Vec::new();
    ctx.store()?.for_each_example(
        &loaded.model_id,
        &ExampleFilter::default(),
        &mut |example| {
            all.push((example.example_id.clone(), example.state));
            Ok(())
        },
    )?;
    if all.len() > settings.max_examples {
        all.sort_by_key(|(example_id, _)| folds::key(settings.seed, "sample", example_id));
        all.truncate(settings.max_examples);
    }
    all.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(all.into_iter().map(|(_, state)| state).collect())
}

pub(super) fn examples_count(examples: &Examples, id: &str) -> usize {
    examples.items.get(id).map_or(0, |(items, _)| items.len())
}
