//! A statement's logical form: the negation of another statement, or a count of several
//! that hold ("both", "at least one", "at least two", "all"), down to plain statements the
//! encoder reads. An encoder places a statement and its negation side by side (their
//! embeddings barely differ), so the form is read from the wording, and each plain statement
//! is read once: `P(not A) = 1 − P(A)` by construction, not by the encoder's luck.
//!
//! The phrasings recognised are listed in [`NEGATIONS`] and [`QUANTIFIERS`]; anything else is
//! a plain statement.

use regex::Regex;
use std::sync::LazyLock;

/// How deep forms nest before the rest is read as a plain statement.
const MAX_DEPTH: usize = 4;

/// A statement as the engine reads it.
#[derive(Debug, Clone, PartialEq)]
pub enum Statement {
    /// A plain statement, read against the state as it is worded.
    Plain(String),
    /// It does not hold.
    Not(Box<Statement>),
    /// At least `k` of the statements hold (`k = n`: all of them; `k = 1`: at least one),
    /// read as independent of one another.
    AtLeast(usize, Vec<Statement>),
}

impl Statement {
    /// Its probability, given each plain statement's (in [`Self::plain_texts`] order, as
    /// `plain` is called).
    pub fn probability(&self, plain: &mut dyn FnMut(&str) -> f64) -> f64 {
        match self {
            Self::Plain(text) => plain(text),
            Self::Not(inner) => 1.0 - inner.probability(plain),
            Self::AtLeast(k, items) => {
                let ps: Vec<f64> = items.iter().map(|s| s.probability(plain)).collect();
                at_least(*k, &ps)
            }
        }
    }

    /// Every plain statement it is made of, in reading order (repeats included).
    pub fn plain_texts(&self) -> Vec<&str> {
        let mut out = Vec::new();
        self.collect(&mut out);
        out
    }

    fn collect<'a>(&'a self, out: &mut Vec<&'a str>) {
        match self {
            Self::Plain(text) => out.push(text),
            Self::Not(inner) => inner.collect(out),
            Self::AtLeast(_, items) => items.iter().for_each(|s| s.collect(out)),
        }
    }

    /// Whether it is a plain statement.
    pub fn is_plain(&self) -> bool {
        matches!(self, Self::Plain(_))
    }
}

/// The probability that at least `k` of independent events of probabilities `ps` happen
/// (the Poisson-binomial tail): 1 when `k` is 0, 0 when `k` exceeds their count.
pub fn at_least(k: usize, ps: &[f64]) -> f64 {
    // exactly[j]: the probability that exactly j of the events seen so far happened.
    let mut exactly = vec![0.0; ps.len() + 1];
    exactly[0] = 1.0;
    for (seen, p) in ps.iter().enumerate() {
        for j in (0..=seen + 1).rev() {
            let stays = exactly[j] * (1.0 - p);
            let rises = if j > 0 { exactly[j - 1] * p } else { 0.0 };
            exactly[j] = stays + rises;
        }
    }
    exactly.iter().skip(k).sum::<f64>().clamp(0.0, 1.0)
}

/// Read `text` into its logical form.
pub fn parse(text: &str) -> Statement {
    parse_at(text.trim(), 0)
}

fn parse_at(text: &str, depth: usize) -> Statement {
    if depth < MAX_DEPTH {
        let line = squeeze(text);
        if let Some(form) = negation(&line, depth).or_else(|| quantified(&line, depth)) {
            return form;
        }
    }
    Statement::Plain(text.to_owned())
}

/// Wordings that say the opposite of one statement, captured as `s`. The first is the
/// engine's own ([`super::super::outcomes`] words a one-sided noul's other side this way).
pub const NEGATIONS: &[&str] = &[
    r"it is not the case that (?P<s>.+)",
    r"answer yes if the correct answer to the following question is no,? and answer no if it is yes\.? question: (?P<s>.+)",
    r"is it false that the answer to the following question is yes\?? question: (?P<s>.+)",
    r"is it not true that the answer to the following question is yes\?? question: (?P<s>.+)",
    r"consider this question: (?P<s>.+?) would the correct answer be no\??",
    r"is it (?:false|not true) that (?P<s>[^()\[\]]+?)\??",
];

/// Wordings that count how many of several statements hold: a frame, then the statements
/// numbered `(1) … (2) …`, or two statements `First: … Second: …` or `[…] and/or […]`.
pub const QUANTIFIERS: &[&str] = &[
    r"(?P<frame>[^()]*?)\s*(?P<items>\(1\).+)",
    r"consider two questions\. first: (?P<a>.+?) second: (?P<b>.+?) (?P<frame>is the answer to (?:both questions|at least one of them|neither of them) (?:yes|no)\??)",
    r"(?P<frame>answer yes (?:only )?if (?:both|either|neither) of these (?:is|are) answered (?:yes|no)): \[(?P<a>[^\]]+)\] (?:and|or|nor) \[(?P<b>[^\]]+)\]\.?",
];

fn whole(pattern: &str) -> Regex {
    Regex::new(&format!("(?is)^(?:{pattern})$")).expect("a valid pattern")
}

static NEGATION_RES: LazyLock<Vec<Regex>> =
    LazyLock::new(|| NEGATIONS.iter().map(|p| whole(p)).collect());
static QUANTIFIER_RES: LazyLock<Vec<Regex>> =
    LazyLock::new(|| QUANTIFIERS.iter().map(|p| whole(p)).collect());
static ITEM_MARK: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\((\d+)\)\s*").expect("valid"));

/// `text` on one line ([`squeeze`]d).
fn negation(text: &str, depth: usize) -> Option<Statement> {
    NEGATION_RES.iter().find_map(|re| {
        let inner = re.captures(text)?.name("s")?.as_str().trim().to_owned();
        (!inner.is_empty()).then(|| Statement::Not(Box::new(parse_at(&inner, depth + 1))))
    })
}

/// `text` on one line ([`squeeze`]d).
fn quantified(text: &str, depth: usize) -> Option<Statement> {
    QUANTIFIER_RES.iter().find_map(|re| {
        let caps = re.captures(text)?;
        let items: Vec<String> = match caps.name("items") {
            Some(list) => numbered(list.as_str())?,
            None => vec![
                caps.name("a")?.as_str().trim().to_owned(),
                caps.name("b")?.as_str().trim().to_owned(),
            ],
        };
        if items.iter().any(|item| item.trim().is_empty()) {
            return None;
        }
        let frame = caps.name("frame")?.as_str().to_lowercase();
        let count = Count::of(&frame, items.len())?;
        let items: Vec<Statement> = items
            .iter()
            .map(|item| {
                let item = parse_at(item, depth + 1);
                if count.items_negated {
                    Statement::Not(Box::new(item))
                } else {
                    item
                }
            })
            .collect();
        let form = Statement::AtLeast(count.at_least, items);
        Some(if count.negated {
            Statement::Not(Box::new(form))
        } else {
            form
        })
    })
}

/// `(1) a (2) b …` as `[a, b, …]`: numbered from 1 in order, at least two, none blank.
fn numbered(list: &str) -> Option<Vec<String>> {
    let marks: Vec<_> = ITEM_MARK.captures_iter(list).collect();
    if marks.len() < 2 {
        return None;
    }
    let mut items = Vec::with_capacity(marks.len());
    for (i, mark) in marks.iter().enumerate() {
        let number: usize = mark[1].parse().ok()?;
        if number != i + 1 {
            return None;
        }
        let start = mark.get(0)?.end();
        let end = marks
            .get(i + 1)
            .map_or(list.len(), |m| m.get(0).map_or(0, |g| g.start()));
        let item = list.get(start..end)?.trim();
        if item.is_empty() {
            return None;
        }
        items.push(item.to_owned());
    }
    Some(items)
}

/// What a quantifier's frame says about its statements.
struct Count {
    at_least: usize,
    /// The whole count is denied ("is it false that both …").
    negated: bool,
    /// Each statement is counted when it does not hold ("is at least one … false").
    items_negated: bool,
}

impl Count {
    fn of(frame: &str, n: usize) -> Option<Self> {
        static AT_LEAST: LazyLock<Regex> = LazyLock::new(|| {
            Regex::new(r"\bat least (one|two|three|four|five|\d+)\b").expect("valid")
        });
        static WORDS: LazyLock<Vec<(&str, Regex)>> = LazyLock::new(|| {
            ["both", "all", "either", "any", "neither", "answered no"]
                .into_iter()
                .map(|w| (w, Regex::new(&format!(r"\b{w}\b")).expect("valid")))
                .collect()
        });
        let has = |word: &str| WORDS.iter().any(|(w, re)| *w == word && re.is_match(frame));
        let negated = frame.starts_with("is it false that")
            || frame.starts_with("is it not true that")
            || has("neither");
        let items_negated = !has("neither")
            && (frame.trim_end_matches('?').trim_end().ends_with("false")
                || frame.trim_end_matches('?').trim_end().ends_with(" no")
                || has("answered no"));
        let at_least = if let Some(caps) = AT_LEAST.captures(frame) {
            match &caps[1] {
                "one" => 1,
                "two" => 2,
                "three" => 3,
                "four" => 4,
                "five" => 5,
                number => number.parse().ok()?,
            }
        } else if has("both") || has("all") {
            n
        } else if has("either") || has("any") || has("neither") {
            1
        } else {
            return None;
        };
        (at_least <= n).then_some(Self {
            at_least,
            negated,
            items_negated,
        })
    }
}

/// `text` on one line, runs of white space as one space.
fn squeeze(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn plain(text: &str) -> Statement {
        Statement::Plain(text.to_owned())
    }

    fn not(s: Statement) -> Statement {
        Statement::Not(Box::new(s))
    }

    #[test]
    fn negation_wrappers_wrap_the_statement_they_quote() {
        let q = "Does the customer ask for a refund?";
        for text in [
            format!(
                "Answer yes if the correct answer to the following question is no, and answer \
                 no if it is yes. Question: {q}"
            ),
            format!("Is it false that the answer to the following question is yes? Question: {q}"),
            format!("Consider this question: {q} Would the correct answer be no?"),
            format!("It is not the case that {q}"),
        ] {
            assert_eq!(parse(&text), not(plain(q)), "{text}");
        }
        assert_eq!(
            parse("Is it false that the invoice is paid?"),
            not(plain("the invoice is paid"))
        );
        // Double negation reads back to the statement's own probability.
        let twice = parse(&format!(
            "It is not the case that It is not the case that {q}"
        ));
        assert_eq!(twice, not(not(plain(q))));
    }

    #[test]
    fn quantifiers_count_their_statements() {
        let (a, b, c) = ("Is A?", "Is B?", "Is C?");
        let all = |k| Statement::AtLeast(k, vec![plain(a), plain(b)]);
        assert_eq!(
            parse(&format!("Are both of the following true? (1) {a} (2) {b}")),
            all(2)
        );
        assert_eq!(
            parse(&format!(
                "Is at least one of the following true? (1) {a} (2) {b}"
            )),
            all(1)
        );
        assert_eq!(
            parse(&format!(
                "Is it false that both of the following are true? (1) {a} (2) {b}"
            )),
            not(all(2))
        );
        assert_eq!(
            parse(&format!(
                "Is at least one of the following false? (1) {a} (2) {b}"
            )),
            Statement::AtLeast(1, vec![not(plain(a)), not(plain(b))])
        );
        assert_eq!(
            parse(&format!(
                "Are at least two of the following true? (1) {a} (2) {b} (3) {c}"
            )),
            Statement::AtLeast(2, vec![plain(a), plain(b), plain(c)])
        );
        assert_eq!(
            parse(&format!(
                "Consider two questions. First: {a} Second: {b} Is the answer to both questions yes?"
            )),
            all(2)
        );
        assert_eq!(
            parse(&format!(
                "Answer yes if either of these is answered yes: [{a}] or [{b}]"
            )),
            all(1)
        );
        assert_eq!(
            parse(&format!(
                "Answer yes only if both of these are answered yes: [{a}] and [{b}]"
            )),
            all(2)
        );
    }

    #[test]
    fn anything_else_is_a_plain_statement() {
        for text in [
            "Does the customer ask for a refund?",
            "Is it (1) urgent?",
            "Which of the following (1) a (3) b",
            "The customer is not happy.",
            "Answer yes if either of these is answered yes: [ ] or [B]",
        ] {
            assert_eq!(parse(text), plain(text));
        }
    }

    #[test]
    fn at_least_is_the_poisson_binomial_tail() {
        let ps = [0.2, 0.5, 0.9];
        assert!((at_least(3, &ps) - 0.2 * 0.5 * 0.9).abs() < 1e-12);
        assert!((at_least(1, &ps) - (1.0 - 0.8 * 0.5 * 0.1)).abs() < 1e-12);
        assert!((at_least(0, &ps) - 1.0).abs() < 1e-12);
        assert!(at_least(4, &ps).abs() < 1e-12);
    }

    proptest! {
        // The laws jevbench checks, on the forms themselves: complement, inclusion-exclusion,
        // Fréchet and quantifier bounds, De Morgan.
        #[test]
        fn forms_obey_the_laws_of_probability(a in 0.0f64..=1.0, b in 0.0f64..=1.0, c in 0.0f64..=1.0) {
            let mut read = |text: &str| match text { "A" => a, "B" => b, _ => c };
            let p = |text: &str, read: &mut dyn FnMut(&str) -> f64| parse(text).probability(read);
            let and = p("Are both of the following true? (1) A (2) B", &mut read);
            let or = p("Is at least one of the following true? (1) A (2) B", &mut read);
            let nand = p("Is it false that both of the following are true? (1) A (2) B", &mut read);
            let or_not = p("Is at least one of the following false? (1) A (2) B", &mut read);
            let not_a = p("It is not the case that A", &mut read);
            prop_assert!((a + not_a - 1.0).abs() < 1e-12);
            prop_assert!((and + or - a - b).abs() < 1e-12);
            prop_assert!((and + nand - 1.0).abs() < 1e-12);
            prop_assert!((nand - or_not).abs() < 1e-12);
            prop_assert!(and <= a.min(b) + 1e-12 && or >= a.max(b) - 1e-12);
            let all = p("Are all of the following true? (1) A (2) B (3) C", &mut read);
            let two = p("Are at least two of the following true? (1) A (2) B (3) C", &mut read);
            let any = p("Is at least one of the following true? (1) A (2) B (3) C", &mut read);
            prop_assert!(all <= two + 1e-12 && two <= any + 1e-12);
            prop_assert!(two <= (a + b + c) / 2.0 + 1e-12);
            prop_assert!(two >= (a + b + c - 1.0) / 2.0 - 1e-12);
        }
    }
}
