//! The outcomes of a choice or a score as events, so that splitting or merging them keeps
//! every event's mass (the parts sum to the whole):
//!
//! - an outcome `Either: a; or: b` is the union of `a` and `b`: its weight is the sum of
//!   theirs;
//! - outcomes that refine one event share that event's weight: copies of one text (split
//!   evenly), an outcome worded after another one's text (`Even more extreme than: X`,
//!   `Essentially the same as this: X`, which refine `X`), and outcomes `D, and X` /
//!   `D, and Y` (which refine `D`), split by their own similarities;
//! - any other outcome is one event.
//!
//! An event's weight is `exp(similarity / temperature)`, and the probabilities are the
//! weights normalized: with no unions or refinements, the softmax of the similarities.

use regex::Regex;
use std::collections::HashMap;
use std::sync::LazyLock;

/// How each outcome's weight is made from the similarities of texts.
#[derive(Debug, Clone, PartialEq)]
pub struct Partition {
    outcomes: Vec<Weight>,
}

#[derive(Debug, Clone, PartialEq)]
enum Weight {
    /// The union of these texts' events (one text: a plain event).
    Union(Vec<String>),
    /// A share of `base`'s event, split among `members` (texts) by their similarities:
    /// this outcome is `members[member]`.
    Share {
        base: String,
        members: Vec<String>,
        member: usize,
    },
}

static EITHER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?is)^\s*either:\s*(.+)$").expect("valid"));
static EITHER_SEP: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i);\s*or:\s*").expect("valid"));
static WORDED_AFTER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?s)^[^:]{1,80}:\s*(.+)$").expect("valid"));
const AND: &str = ", and ";

impl Partition {
    /// The events of outcomes worded `texts` (a choice's descriptions, a score's levels).
    pub fn of(texts: &[String]) -> Self {
        let keys: Vec<String> = texts.iter().map(|t| key(t)).collect();
        let index_of = |k: &str| keys.iter().position(|other| other == k);
        let count = |k: &str| keys.iter().filter(|other| *other == k).count();
        // Each outcome's base event (its key), when it refines one.
        let base: Vec<Option<String>> = (0..texts.len())
            .map(|i| {
                if count(&keys[i]) > 1 {
                    return Some(keys[i].clone());
                }
                if let Some(after) = WORDED_AFTER.captures(&texts[i])
                    && let Some(j) = index_of(&key(&after[1]))
                    && j != i
                {
                    return Some(keys[j].clone());
                }
                let (head, _) = texts[i].split_once(AND)?;
                let head = key(head);
                let siblings = (0..texts.len()).filter(|&j| {
                    j != i
                        && (keys[j] == head
                            || texts[j]
                                .split_once(AND)
                                .is_some_and(|(h, _)| key(h) == head))
                });
                (siblings.count() > 0).then_some(head)
            })
            .collect();
        // An outcome whose own text is a base another one refines is a member of it too.
        let mut groups: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, b) in base.iter().enumerate() {
            if let Some(b) = b {
                groups.entry(b.clone()).or_default().push(i);
            }
        }
        for (i, k) in keys.iter().enumerate() {
            if base[i].is_none()
                && let Some(members) = groups.get_mut(k)
            {
                members.push(i);
                members.sort_unstable();
            }
        }
        let outcomes = (0..texts.len())
            .map(|i| {
                let group = base[i]
                    .as_ref()
                    .or_else(|| groups.contains_key(&keys[i]).then_some(&keys[i]));
                match group.and_then(|g| groups.get(g).map(|m| (g, m))) {
                    Some((g, members)) if members.len() > 1 => Weight::Share {
                        base: base_text(g, texts, &keys),
                        members: members
                            .iter()
                            .map(|&j| texts[j].trim().to_owned())
                            .collect(),
                        member: members.iter().position(|&j| j == i).unwrap_or(0),
                    },
                    _ => Weight::Union(union_parts(&texts[i])),
                }
            })
            .collect();
        Self { outcomes }
    }

    /// Every text whose similarity the weights read, each once, in order.
    pub fn texts(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for outcome in &self.outcomes {
            let texts: Vec<&str> = match outcome {
                Weight::Union(parts) => parts.iter().map(String::as_str).collect(),
                Weight::Share { base, members, .. } => std::iter::once(base.as_str())
                    .chain(members.iter().map(String::as_str))
                    .collect(),
            };
            for text in texts {
                if !out.contains(&text) {
                    out.push(text);
                }
            }
        }
        out
    }

    /// The probability of each outcome, given the similarity of each text to the state.
    pub fn probabilities(&self, similarity: &dyn Fn(&str) -> f64, temperature: f64) -> Vec<f64> {
        let logit = |t: &str| similarity(t) / temperature;
        let log_weights: Vec<f64> = self
            .outcomes
            .iter()
            .map(|outcome| match outcome {
                Weight::Union(parts) => {
                    log_sum_exp(&parts.iter().map(|p| logit(p)).collect::<Vec<_>>())
                }
                Weight::Share {
                    base,
                    members,
                    member,
                } => {
                    let member_logits: Vec<f64> = members.iter().map(|m| logit(m)).collect();
                    logit(base) + member_logits[*member] - log_sum_exp(&member_logits)
                }
            })
            .collect();
        let total = log_sum_exp(&log_weights);
        log_weights.iter().map(|w| (w - total).exp()).collect()
    }
}

/// The text of the base event keyed `key`: an outcome worded exactly so, or the head
/// `D` of outcomes `D, and …`.
fn base_text(base: &str, texts: &[String], keys: &[String]) -> String {
    if let Some(i) = keys.iter().position(|k| k == base) {
        return texts[i].trim().to_owned();
    }
    texts
        .iter()
        .find_map(|t| {
            let (head, _) = t.split_once(AND)?;
            (key(head) == base).then(|| head.trim().to_owned())
        })
        .unwrap_or_else(|| base.to_owned())
}

/// `Either: a; or: b` as `[a, b]`; any other text as itself.
fn union_parts(text: &str) -> Vec<String> {
    let text = text.trim();
    if let Some(caps) = EITHER.captures(text) {
        let mut parts: Vec<String> = Vec::new();
        for part in EITHER_SEP.split(&caps[1]) {
            let part = part.trim().to_owned();
            if !part.is_empty() && !parts.contains(&part) {
                parts.push(part);
            }
        }
        if parts.len() > 1 {
            return parts;
        }
    }
    vec![text.to_owned()]
}

/// Texts that name the same event compare equal: case, spacing and a final full stop aside.
fn key(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .trim_end_matches('.')
        .to_lowercase()
}

fn log_sum_exp(xs: &[f64]) -> f64 {
    let max = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !max.is_finite() {
        return max;
    }
    max + xs.iter().map(|x| (x - max).exp()).sum::<f64>().ln()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn texts(ts: &[&str]) -> Vec<String> {
        ts.iter().map(|t| (*t).to_owned()).collect()
    }

    fn similarity_from(pairs: Vec<(String, f64)>) -> impl Fn(&str) -> f64 {
        move |t: &str| pairs.iter().find(|(k, _)| k == t).map_or(0.0, |(_, v)| *v)
    }

    const T: f64 = 0.05;

    #[test]
    fn plain_outcomes_are_the_softmax() {
        let p = Partition::of(&texts(&["a", "b", "c"]));
        let sims = similarity_from(vec![
            ("a".into(), 0.3),
            ("b".into(), 0.2),
            ("c".into(), 0.1),
        ]);
        let ps = p.probabilities(&sims, T);
        let expected = crate::engine::builtin::scoring::softmax(&[0.3, 0.2, 0.1], T);
        for (a, b) in ps.iter().zip(&expected) {
            assert!((a - b).abs() < 1e-12);
        }
    }

    #[test]
    fn refinements_are_recognised() {
        let p = Partition::of(&texts(&["low", "high", "Even more extreme than: high"]));
        assert_eq!(p.outcomes[0], Weight::Union(vec!["low".into()]));
        assert!(matches!(&p.outcomes[1], Weight::Share { base, member: 0, .. } if base == "high"));
        assert!(matches!(&p.outcomes[2], Weight::Share { base, member: 1, .. } if base == "high"));
        let split = Partition::of(&texts(&["a, and X", "a, and not X", "b"]));
        assert!(matches!(&split.outcomes[0], Weight::Share { base, .. } if base == "a"));
        assert_eq!(split.outcomes[2], Weight::Union(vec!["b".into()]));
        // One `D, and X` alone is an event of its own, not a share of `D`.
        let alone = Partition::of(&texts(&["a, and X", "b"]));
        assert_eq!(alone.outcomes[0], Weight::Union(vec!["a, and X".into()]));
        let either = Partition::of(&texts(&["Either: a; or: b", "c"]));
        assert_eq!(
            either.outcomes[0],
            Weight::Union(vec!["a".into(), "b".into()])
        );
    }

    proptest! {
        // Merging, cloning, splitting and refining the top keep every original event's mass.
        #[test]
        fn parts_sum_to_the_whole(
            sims in proptest::collection::vec(-0.2f64..0.8, 3..6),
            extra in -0.2f64..0.8,
            i in 0usize..6,
            j in 0usize..6,
        ) {
            let n = sims.len();
            let (i, j) = (i % n, j % n);
            let names: Vec<String> = (0..n).map(|k| format!("outcome {k}")).collect();
            let mut known: Vec<(String, f64)> = names.iter().cloned().zip(sims.iter().copied()).collect();
            known.push(("extra".into(), extra));
            let base = Partition::of(&names).probabilities(&similarity_from(known.clone()), T);

            // A clone of i.
            let mut cloned = names.clone();
            cloned.insert(i + 1, names[i].clone());
            let mut ps = Partition::of(&cloned).probabilities(&similarity_from(known.clone()), T);
            prop_assert!((ps[i] - ps[i + 1]).abs() < 1e-9);
            let clone = ps.remove(i + 1);
            ps[i] += clone;
            for (a, b) in ps.iter().zip(&base) { prop_assert!((a - b).abs() < 1e-9); }

            // i refined by a newcomer worded after it (with its own similarity).
            let mut refined = names.clone();
            refined.push(format!("Even more extreme than: {}", names[i]));
            known.push((refined[n].clone(), extra));
            let mut ps = Partition::of(&refined).probabilities(&similarity_from(known.clone()), T);
            let newcomer = ps.pop().unwrap();
            ps[i] += newcomer;
            for (a, b) in ps.iter().zip(&base) { prop_assert!((a - b).abs() < 1e-9); }

            // i split in two parts.
            let mut split = names.clone();
            split[i] = format!("{}, and X", names[i]);
            split.insert(i + 1, format!("{}, and not X", names[i]));
            known.push((split[i].clone(), extra));
            let mut ps = Partition::of(&split).probabilities(&similarity_from(known.clone()), T);
            let part = ps.remove(i + 1);
            ps[i] += part;
            for (a, b) in ps.iter().zip(&base) { prop_assert!((a - b).abs() < 1e-9); }

            // i and j merged.
            if i != j {
                let (lo, hi) = (i.min(j), i.max(j));
                let mut merged = names.clone();
                merged[lo] = format!("Either: {}; or: {}", names[lo], names[hi]);
                merged.remove(hi);
                let ps = Partition::of(&merged).probabilities(&similarity_from(known), T);
                prop_assert!((ps[lo] - base[lo] - base[hi]).abs() < 1e-9);
            }
        }
    }
}
