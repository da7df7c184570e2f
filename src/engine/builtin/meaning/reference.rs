//! Nouls that ask about other questions of the same request, and the polarity of a
//! statement's wording.
//!
//! - A noul that restates a choice's or a score's instructions and names one of its options
//!   or levels asks about that question's outcome: "is it this option" (the option's
//!   probability), "anything other than it" / "the wrong answer" (the rest), "this level or
//!   higher" / "at least" (the upper tail), "or lower" / "at most" (the lower tail).
//! - Two nouls that say nearly the same thing with opposite polarity ("has a workaround" /
//!   "lacks a workaround") are a statement and its negation: the engine decides the pair once.

use regex::Regex;
use std::sync::LazyLock;

/// What a noul asks about an outcome of another question.
#[derive(Debug, Clone, PartialEq)]
pub struct Reference {
    /// The outcomes whose mass answers it, in the other question's order.
    pub outcomes: Vec<usize>,
    /// It asks for the rest: one minus that mass.
    pub negated: bool,
}

static HIGHER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(?:or higher|or above|or more|at least|or greater)\b").expect("valid")
});
static LOWER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(?:or lower|or below|or less|at most|or fewer)\b").expect("valid")
});
static OTHER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(?:other than|wrong|incorrect|not|false)\b|n't\b").expect("valid")
});

/// A choice or a score a noul may ask about, its words normalized once per request.
#[derive(Debug, Clone)]
pub struct Target {
    instructions: String,
    names: Vec<String>,
    ordered: bool,
}

impl Target {
    /// A question whose instructions are `instructions` and whose outcomes are worded
    /// `outcomes`; `ordered`: they are levels of a score, so "or higher" and "or lower" mean
    /// tails.
    pub fn new(instructions: &str, outcomes: &[String], ordered: bool) -> Self {
        Self {
            instructions: normalize(instructions),
            names: outcomes.iter().map(|o| normalize(o)).collect(),
            ordered,
        }
    }

    /// How much of a statement ([`normalized`]) it explains: the length of the instructions
    /// restated, and whether every outcome is named (a listed scale).
    pub fn rank(&self, statement: &str) -> (usize, bool) {
        let all = self.names.iter().all(|n| statement.contains(n.as_str()));
        (self.instructions.len(), all)
    }

    /// What `statement` ([`normalized`]) asks about this question, if it restates its
    /// instructions and names exactly one outcome (quoted, or else the longest named).
    pub fn reference(&self, statement: &str) -> Option<Reference> {
        reference_in(statement, &self.instructions, &self.names, self.ordered)
    }
}

/// What `statement` asks about a question whose instructions are `instructions` and whose
/// outcomes are worded `outcomes` ([`Target::reference`], normalizing everything).
pub fn reference(
    statement: &str,
    instructions: &str,
    outcomes: &[String],
    ordered: bool,
) -> Option<Reference> {
    Target::new(instructions, outcomes, ordered).reference(&normalized(statement))
}

/// A statement as [`Target`] compares it.
pub fn normalized(statement: &str) -> String {
    normalize(statement)
}

fn reference_in(
    statement: &str,
    instructions: &str,
    names: &[String],
    ordered: bool,
) -> Option<Reference> {
    if instructions.len() < 8 {
        return None;
    }
    let at = statement.find(instructions)?;
    let rest = format!(
        "{} {}",
        &statement[..at],
        &statement[at + instructions.len()..]
    );
    let quoted = |name: &String| {
        !name.is_empty()
            && (rest.contains(&format!("'{name}'")) || rest.contains(&format!("\"{name}\"")))
    };
    let mentioned = |name: &String| !name.is_empty() && rest.contains(name.as_str());
    let pick = |matches: &dyn Fn(&String) -> bool| -> Option<usize> {
        let longest = names.iter().filter(|n| matches(n)).map(String::len).max()?;
        let mut found = names
            .iter()
            .enumerate()
            .filter(|(_, n)| matches(n) && n.len() == longest);
        let (index, _) = found.next()?;
        // Two outcomes worded alike: which one is meant is not said.
        found.next().is_none().then_some(index)
    };
    let index = if names.iter().any(quoted) {
        pick(&quoted)?
    } else {
        pick(&mentioned)?
    };
    // The frame's own words, without any outcome's (a listed scale says "not" or "more").
    let mut frame = rest.clone();
    let mut by_length: Vec<&String> = names.iter().filter(|n| !n.is_empty()).collect();
    by_length.sort_by_key(|n| std::cmp::Reverse(n.len()));
    for name in by_length {
        frame = without_word(&frame, name);
    }
    let outcomes = match (ordered, HIGHER.is_match(&frame), LOWER.is_match(&frame)) {
        (true, true, false) => (index..names.len()).collect(),
        (true, false, true) => (0..=index).collect(),
        _ => vec![index],
    };
    Some(Reference {
        outcomes,
        negated: OTHER.is_match(&frame),
    })
}

/// `text` with every occurrence of `words` that stands as whole words ("high" in
/// "'high' or higher", not in "higher") blanked out.
fn without_word(text: &str, words: &str) -> String {
    let is_word = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(words) {
        let before = rest[..at]
            .chars()
            .next_back()
            .or_else(|| out.chars().next_back());
        let after = rest[at + words.len()..].chars().next();
        if is_word(before) || is_word(after) {
            let step = at + rest[at..].chars().next().map_or(1, char::len_utf8);
            out.push_str(&rest[..step]);
            rest = &rest[step..];
        } else {
            out.push_str(&rest[..at]);
            out.push(' ');
            rest = &rest[at + words.len()..];
        }
    }
    out.push_str(rest);
    out
}

static NEGATIVE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"\b(?:not|no|never|none|nothing|nobody|neither|nor|without|cannot|",
        r"lacks?|lacking|lacked|omits?|omitted|omitting|fails? to|failed to|",
        r"unrelated|unable|unaware|unavailable|unresolved|unpaid|unhappy|unsuccessful|",
        r"other than|different|fewer|less|at most|absent|non)\b|n't\b"
    ))
    .expect("valid")
});

/// How many words of negative polarity `statement` has ("not", "lacks", "or fewer", …):
/// two statements about the same thing whose counts differ in parity say opposite things.
pub fn negative_words(statement: &str) -> usize {
    NEGATIVE.find_iter(&normalize(statement)).count()
}

/// The numbers `statement` states, digits or words ("10,000", "ten"), each once, in order
/// of value.
pub fn quantities(statement: &str) -> Vec<u64> {
    const WORDS: [&str; 21] = [
        "zero",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
        "twenty",
    ];
    static NUMBER: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"\d[\d,]*|\b[a-z]+\b").expect("valid"));
    let text = normalize(statement);
    let mut numbers: Vec<u64> = NUMBER
        .find_iter(&text)
        .filter_map(|m| {
            let token = m.as_str();
            if token.starts_with(|c: char| c.is_ascii_digit()) {
                token.replace(',', "").parse().ok()
            } else {
                WORDS
                    .iter()
                    .position(|w| *w == token)
                    .and_then(|n| u64::try_from(n).ok())
            }
        })
        .collect();
    numbers.sort_unstable();
    numbers.dedup();
    numbers
}

/// Lower case, curly quotes and non-breaking hyphens as plain ones, runs of white space as
/// one space, no final `?` or `.`.
fn normalize(text: &str) -> String {
    let text: String = text
        .chars()
        .map(|c| match c {
            '\u{2018}' | '\u{2019}' => '\'',
            '\u{201c}' | '\u{201d}' => '"',
            '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2013}' => '-',
            c => c,
        })
        .collect();
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
        .trim_end_matches(['?', '.'])
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn levels() -> Vec<String> {
        [
            "No sign of leaving",
            "Some dissatisfaction",
            "Considering leaving",
            "Has decided to cancel",
        ]
        .map(String::from)
        .to_vec()
    }

    const HOW: &str = "How likely is this customer to leave?";
    const SCALE: &str = "1) No sign of leaving; 2) Some dissatisfaction; 3) Considering leaving; 4) Has decided to cancel";

    #[test]
    fn score_probes_name_a_level_and_a_tail() {
        let r = |s: &str| reference(s, HOW, &levels(), true);
        assert_eq!(
            r(&format!(
                "Question: {HOW} The levels, from lowest to highest, are: {SCALE}. Is the correct level 'Considering leaving' or higher?"
            )),
            Some(Reference {
                outcomes: vec![2, 3],
                negated: false
            })
        );
        assert_eq!(
            r(&format!(
                "Question: {HOW} On the scale {SCALE}, is the correct level at least 'Some dissatisfaction'?"
            )),
            Some(Reference {
                outcomes: vec![1, 2, 3],
                negated: false
            })
        );
        assert_eq!(
            r(&format!(
                "Question: {HOW} The levels are: {SCALE}. Is the correct level anything other than 'No sign of leaving'?"
            )),
            Some(Reference {
                outcomes: vec![0],
                negated: true
            })
        );
        assert_eq!(
            r(&format!(
                "{HOW} Scale: {SCALE}. Would it be wrong to choose the level 'Considering leaving'?"
            )),
            Some(Reference {
                outcomes: vec![2],
                negated: true
            })
        );
        assert_eq!(
            r("How likely is rain tomorrow? Is it 'Some dissatisfaction'?"),
            None
        );
        // Level names inside the frame's words ("high" in "higher") leave them whole.
        let severity = ["Low", "Medium", "High"].map(String::from).to_vec();
        let how = "How severe is this incident?";
        assert_eq!(
            reference(
                &format!(
                    "Question: {how} The levels, from lowest to highest, are: 1) Low; 2) Medium; 3) High. Is the correct level 'Low' or higher?"
                ),
                how,
                &severity,
                true
            ),
            Some(Reference {
                outcomes: vec![0, 1, 2],
                negated: false
            })
        );
    }

    #[test]
    fn choice_probes_name_an_option() {
        let options = [
            "Handles charges, invoices and refunds",
            "Fixes broken product functionality",
        ]
        .map(String::from)
        .to_vec();
        let which = "Which team should own this request?";
        let r = |s: &str| reference(s, which, &options, false);
        assert_eq!(
            r(&format!(
                "Question: {which} Is the correct answer the following option? Option: Fixes broken product functionality"
            )),
            Some(Reference {
                outcomes: vec![1],
                negated: false
            })
        );
        assert_eq!(
            r(&format!(
                "{which} Would it be incorrect to choose this option: Handles charges, invoices and refunds?"
            )),
            Some(Reference {
                outcomes: vec![0],
                negated: true
            })
        );
        assert_eq!(r(&format!("{which} Is it someone else?")), None);
    }

    #[test]
    fn quantities_read_digits_and_words() {
        assert_eq!(
            quantities("Did the email reach more than 10 employees?"),
            [10]
        );
        assert_eq!(
            quantities("Did the email reach ten or fewer employees?"),
            [10]
        );
        assert_eq!(
            quantities("Has the post been viewed 10,000 times, one by one?"),
            [1, 10_000]
        );
        assert_ne!(
            quantities("Was the claim denied within the last 30 days?"),
            quantities("Was the claim denied 90 days ago or less?")
        );
    }

    #[test]
    fn polarity_counts_negative_words() {
        for (positive, negative) in [
            (
                "Does the customer have a temporary workaround that works?",
                "Does the customer lack a temporary workaround that works?",
            ),
            (
                "Did the email reach more than 10 employees?",
                "Did the email reach ten or fewer employees?",
            ),
            (
                "Was the claim denied 90 days ago or less?",
                "Was the claim denied more than 90 days ago?",
            ),
            (
                "Is the assessment an essay?",
                "Is the assessment a non\u{2011}essay format?",
            ),
            (
                "Do the two payments carry the same invoice number?",
                "Do the two payments have different invoice numbers?",
            ),
        ] {
            assert_ne!(
                negative_words(positive) % 2,
                negative_words(negative) % 2,
                "{positive} / {negative}"
            );
        }
    }
}
