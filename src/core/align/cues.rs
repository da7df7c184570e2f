//! Discriminative cues: the words and two-word phrases that mark one outcome's annotated
//! examples against the others', as readable text.
//!
//! Each example is a document (its rendered state and its annotator's reasoning) reduced
//! to the set of its lower-cased words and word pairs. For an outcome, each phrase is
//! scored by its smoothed log-odds ratio between the outcome's documents and the rest,
//! divided by its standard error (the z-score of Monroe, Colaresi and Quinn's "fightin'
//! words"), so a phrase needs both a large difference and enough support to count.

use std::collections::HashMap;

/// Phrases kept per outcome.
pub(super) const MAX_CUES: usize = 8;
/// The least z-score of a kept phrase.
const MIN_Z: f64 = 2.5;
/// Prior pseudo-count, spread over phrases by their overall frequency.
const PRIOR: f64 = 10.0;

/// Words too common to be a cue on their own (a phrase of two of them is skipped too).
const STOP_WORDS: &[&str] = &[
    "a", "about", "after", "again", "all", "am", "an", "and", "any", "are", "as", "at", "be",
    "been", "but", "by", "can", "could", "did", "do", "does", "for", "from", "had", "has", "have",
    "he", "her", "here", "hi", "his", "how", "i", "i'm", "if", "in", "into", "is", "it", "it's",
    "its", "just", "me", "my", "no", "not", "of", "on", "or", "our", "please", "so", "that", "the",
    "their", "them", "then", "there", "this", "to", "up", "us", "was", "we", "were", "what",
    "when", "which", "will", "with", "would", "you", "your",
];

/// Documents as phrase-ID sets, with the phrases' text.
pub(super) struct Corpus {
    phrases: Vec<String>,
    documents: Vec<Vec<u32>>,
}

impl Corpus {
    /// Index `texts` (one per example).
    pub(super) fn new(texts: &[String]) -> Self {
        let mut ids: HashMap<String, u32> = HashMap::new();
        let mut phrases = Vec::new();
        let documents = texts
            .iter()
            .map(|text| {
                let mut doc: Vec<u32> = tokens_and_pairs(text)
                    .into_iter()
                    .map(|phrase| {
                        *ids.entry(phrase).or_insert_with_key(|p| {
                            phrases.push(p.clone());
                            u32::try_from(phrases.len() - 1).unwrap_or(u32::MAX)
                        })
                    })
                    .collect();
                doc.sort_unstable();
                doc.dedup();
                doc
            })
            .collect();
        Self { phrases, documents }
    }

    /// Up to [`MAX_CUES`] phrases per outcome, from the documents `members` (indexes into
    /// the corpus) with their outcome `labels`; best first, ties by text.
    pub(super) fn cues(
        &self,
        members: &[usize],
        labels: &[usize],
        outcomes: usize,
    ) -> Vec<Vec<String>> {
        let mut per_outcome = vec![HashMap::<u32, f64>::new(); outcomes];
        let mut all: HashMap<u32, f64> = HashMap::new();
        let mut docs = vec![0.0; outcomes];
        for (&m, &label) in members.iter().zip(labels) {
            if label >= outcomes {
                continue;
            }
            docs[label] += 1.0;
            for &p in &self.documents[m] {
                *per_outcome[label].entry(p).or_default() += 1.0;
                *all.entry(p).or_default() += 1.0;
            }
        }
        let total_docs: f64 = docs.iter().sum();
        let total_count: f64 = all.values().sum::<f64>().max(1.0);
        (0..outcomes)
            .map(|c| {
                let (n_in, n_out) = (docs[c], total_docs - docs[c]);
                if n_in < 2.0 || n_out < 2.0 {
                    return Vec::new();
                }
                let min_support = (0.05 * n_in).max(3.0);
                let mut scored: Vec<(f64, &str, u32)> = per_outcome[c]
                    .iter()
                    .filter(|(_, y)| **y >= min_support)
                    .map(|(&p, &y_in)| {
                        let y_out = all[&p] - y_in;
                        let alpha = PRIOR * all[&p] / total_count + 0.01;
                        let odds = |y: f64, n: f64| ((y + alpha) / (n - y + alpha).max(alpha)).ln();
                        let delta = odds(y_in, n_in) - odds(y_out, n_out);
                        let var = 1.0 / (y_in + alpha) + 1.0 / (y_out + alpha);
                        (delta / var.sqrt(), self.phrases[p as usize].as_str(), p)
                    })
                    .filter(|(z, _, _)| *z >= MIN_Z)
                    .collect();
                scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1)));
                let mut kept: Vec<String> = Vec::new();
                for (_, phrase, _) in scored {
                    // A word already inside a kept phrase (or the reverse) says nothing new.
                    let overlaps = kept
                        .iter()
                        .any(|k| contains_word(k, phrase) || contains_word(phrase, k));
                    if !overlaps {
                        kept.push(phrase.to_owned());
                    }
                    if kept.len() == MAX_CUES {
                        break;
                    }
                }
                kept
            })
            .collect()
    }
}

fn contains_word(phrase: &str, word: &str) -> bool {
    phrase.split(' ').any(|w| w == word) || phrase == word
}

/// Lower-cased words (letters, digits, inner apostrophes) and adjacent word pairs; words
/// of fewer than 3 characters, numbers and stop words are not phrases on their own.
fn tokens_and_pairs(text: &str) -> Vec<String> {
    let words: Vec<String> = text
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .map(|w| w.trim_matches('\'').to_lowercase())
        .filter(|w| !w.is_empty())
        .collect();
    let is_stop = |w: &str| STOP_WORDS.contains(&w);
    let mut out = Vec::with_capacity(words.len() * 2);
    for (i, word) in words.iter().enumerate() {
        let numeric = word.chars().all(|c| c.is_ascii_digit());
        if word.chars().count() >= 3 && !numeric && !is_stop(word) {
            out.push(word.clone());
        }
        if let Some(next) = words.get(i + 1) {
            let next_numeric = next.chars().all(|c| c.is_ascii_digit());
            if !(numeric || next_numeric || (is_stop(word) && is_stop(next))) {
                out.push(format!("{word} {next}"));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// When the state's keys alone tell the outcomes apart (a capture that records each
    /// channel under its own key), the cues are still the content: documents are the
    /// states' string values, never their keys, as the rendered state would have it.
    #[test]
    fn keys_that_split_the_outcomes_never_become_cues() {
        let topics = [
            "my parcel never arrived",
            "the app crashes",
            "I cannot log in",
        ];
        let states: Vec<serde_json::Value> = (0..40)
            .map(|i| {
                let text = format!("ticket {i}: {}", topics[i % 3]);
                if i % 2 == 0 {
                    serde_json::json!({"complaint_email": format!("{text}, I want my money back")})
                } else {
                    serde_json::json!({"chat_note": format!("{text}, what can be done")})
                }
            })
            .collect();
        let labels: Vec<usize> = (0..40).map(|i| i % 2).collect();
        let members: Vec<usize> = (0..40).collect();
        let words = |cues: &[Vec<String>]| -> Vec<String> {
            cues.iter()
                .flatten()
                .flat_map(|cue| cue.split(' ').map(str::to_owned).collect::<Vec<_>>())
                .collect()
        };
        let documents: Vec<String> = states.iter().map(super::super::cue_document).collect();
        let cues = Corpus::new(&documents).cues(&members, &labels, 2);
        let found = words(&cues);
        assert!(found.iter().any(|w| w == "money"), "{cues:?}");
        assert!(
            !found
                .iter()
                .any(|w| w.contains("complaint") || w.contains("chat_note")),
            "{cues:?}"
        );
        // The rendered state, keys included, would have made the keys cues.
        let rendered: Vec<String> = states
            .iter()
            .map(crate::engine::builtin::aligned::exemplar_text)
            .collect();
        let from_keys = words(&Corpus::new(&rendered).cues(&members, &labels, 2));
        assert!(
            from_keys
                .iter()
                .any(|w| w.contains("complaint") || w.contains("chat_note")),
            "{from_keys:?}"
        );
    }

    #[test]
    fn marking_phrases_are_found_per_outcome() {
        let mut texts = Vec::new();
        let mut labels = Vec::new();
        for i in 0..40 {
            if i % 2 == 0 {
                texts.push(format!(
                    "Ticket {i}: I want my money back for the order, it was wrong."
                ));
                labels.push(0);
            } else {
                texts.push(format!(
                    "Ticket {i}: the app keeps crashing on the order page, wrong screen."
                ));
                labels.push(1);
            }
        }
        let corpus = Corpus::new(&texts);
        let members: Vec<usize> = (0..40).collect();
        let cues = corpus.cues(&members, &labels, 3);
        assert!(cues[0].iter().any(|c| c.contains("money")), "{cues:?}");
        assert!(cues[1].iter().any(|c| c.contains("crashing")), "{cues:?}");
        // Words both share mark nothing; an outcome with no documents gets no cues.
        assert!(
            cues.iter()
                .flatten()
                .all(|c| c != "order" && c != "wrong" && c != "ticket"),
            "{cues:?}"
        );
        assert!(cues[2].is_empty());
        assert!(cues[0].len() <= MAX_CUES);
        // Deterministic.
        assert_eq!(cues, corpus.cues(&members, &labels, 3));
    }

    #[test]
    fn stop_words_and_numbers_are_not_phrases() {
        let phrases = tokens_and_pairs("I am at 42 Main St, it's broken!");
        assert!(!phrases.contains(&"i".to_owned()));
        assert!(!phrases.contains(&"42".to_owned()));
        assert!(phrases.contains(&"broken".to_owned()));
        assert!(phrases.contains(&"it's broken".to_owned()));
        assert!(!phrases.iter().any(|p| p == "i am"));
    }
}
