//! The state's own words as a learned head reads them: word 1- and 2-grams, hashed into
//! buckets, weighted by TF-IDF over the examples a head was fitted on.
//!
//! Words are what scikit-learn's `TfidfVectorizer` takes by default: lowercased runs of
//! two or more word characters. A bucket is the first 4 bytes of FNV-1a 64 of the n-gram
//! (words joined by one space), modulo [`BUCKETS`]: stable across builds and machines, so
//! a head fitted on one reads the same buckets on another.

/// Hash buckets: enough that two n-grams of one model's vocabulary rarely share one.
pub const BUCKETS: u32 = 1 << 20;
/// The most bytes of a state's text read for words (a state over the budget is cut anyway).
const MOST_BYTES: usize = 1 << 20;

/// A state's bucket counts, sorted by bucket, each bucket once.
pub type Counts = Vec<(u32, f32)>;

/// The word 1- and 2-gram bucket counts of `text`.
pub fn counts(text: &str) -> Counts {
    let mut text = text;
    if text.len() > MOST_BYTES {
        let mut end = MOST_BYTES;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text = &text[..end];
    }
    let lowered = text.to_lowercase();
    let words: Vec<&str> = lowered
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| w.chars().nth(1).is_some())
        .collect();
    let mut buckets: Vec<u32> = Vec::with_capacity(words.len() * 2);
    for (i, word) in words.iter().enumerate() {
        buckets.push(bucket(&[word]));
        if let Some(next) = words.get(i + 1) {
            buckets.push(bucket(&[word, next]));
        }
    }
    buckets.sort_unstable();
    let mut counts: Counts = Vec::new();
    for b in buckets {
        match counts.last_mut() {
            Some((last, n)) if *last == b => *n += 1.0,
            _ => counts.push((b, 1.0)),
        }
    }
    // Kept with the state in caches: no room beyond what it holds.
    counts.shrink_to_fit();
    counts
}

fn bucket(words: &[&str]) -> u32 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0100_0000_01b3;
    let mut hash = OFFSET;
    for (i, word) in words.iter().enumerate() {
        if i > 0 {
            hash = (hash ^ u64::from(b' ')).wrapping_mul(PRIME);
        }
        for byte in word.bytes() {
            hash = (hash ^ u64::from(byte)).wrapping_mul(PRIME);
        }
    }
    // The high half mixes every byte; the low bits of FNV alone are weaker.
    ((hash >> 32) ^ hash) as u32 % BUCKETS
}

/// How a term's count in a document weighs before its IDF.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TermWeight {
    /// `1 + ln(count)` (scikit-learn's `sublinear_tf`): a word said five times is not five
    /// times the evidence. What every fit now uses.
    #[default]
    Sublinear,
    /// The count itself: what heads fitted before sublinear weighting read, kept so that
    /// their checkpoints answer as they did.
    Raw,
}

impl TermWeight {
    /// The features' name in a checkpoint's manifest.
    pub fn features(self) -> &'static str {
        match self {
            Self::Sublinear => "word-1-2-grams-hashed-sublinear-tfidf",
            Self::Raw => "word-1-2-grams-hashed-tfidf",
        }
    }

    /// The weighting a manifest's features name, if it is one of these.
    pub fn of_features(name: &str) -> Option<Self> {
        [Self::Sublinear, Self::Raw]
            .into_iter()
            .find(|w| w.features() == name)
    }

    fn weigh(self, count: f32) -> f32 {
        match self {
            Self::Sublinear => 1.0 + count.ln(),
            Self::Raw => count,
        }
    }
}

/// The vocabulary of a fit: the buckets its examples use, sorted, with their smoothed
/// inverse document frequency `ln((1 + n) / (1 + df)) + 1` (scikit-learn's), and how a
/// count weighs.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Vocabulary {
    pub buckets: Vec<u32>,
    pub idf: Vec<f32>,
    pub weight: TermWeight,
}

impl Vocabulary {
    /// The vocabulary of `documents`, with [`TermWeight::Sublinear`] counts.
    pub fn of<'a>(documents: impl IntoIterator<Item = &'a Counts>) -> Self {
        let mut df: std::collections::BTreeMap<u32, u32> = std::collections::BTreeMap::new();
        let mut n = 0u32;
        for counts in documents {
            n += 1;
            for (b, _) in counts {
                *df.entry(*b).or_default() += 1;
            }
        }
        let (buckets, idf) = df
            .into_iter()
            .map(|(b, d)| {
                let idf = ((1.0 + f64::from(n)) / (1.0 + f64::from(d))).ln() + 1.0;
                (b, idf as f32)
            })
            .unzip();
        Self {
            buckets,
            idf,
            weight: TermWeight::Sublinear,
        }
    }

    pub fn len(&self) -> usize {
        self.buckets.len()
    }

    pub fn is_empty(&self) -> bool {
        self.buckets.is_empty()
    }

    /// A document's TF-IDF vector over this vocabulary, as (index in the vocabulary,
    /// weight), unit length (empty when it shares no word with it). Counts are at least 1,
    /// so a sublinear weight is too.
    pub fn tf_idf(&self, counts: &Counts) -> Vec<(u32, f32)> {
        let mut out: Vec<(u32, f32)> = counts
            .iter()
            .filter_map(|(b, c)| {
                let at = self.buckets.binary_search(b).ok()?;
                Some((at as u32, self.weight.weigh(*c) * self.idf[at]))
            })
            .collect();
        let norm = out.iter().map(|(_, w)| w * w).sum::<f32>().sqrt();
        if norm > 0.0 {
            out.iter_mut().for_each(|(_, w)| *w /= norm);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_pairs_of_two_or_more_characters_lowercased() {
        let a = counts("The refund, the REFUND; a x");
        // the ×2, refund ×2, "the refund" ×2, "refund the" ×1 (a and x are too short)
        let total: f32 = a.iter().map(|(_, c)| c).sum();
        assert_eq!(total, 7.0, "{a:?}");
        assert_eq!(a.len(), 4);
        assert_eq!(counts("refund"), counts("REFUND"));
        assert_eq!(counts(""), Vec::new());
    }

    #[test]
    fn tf_idf_rows_are_unit_and_unknown_words_are_dropped() {
        let docs = [
            counts("late parcel"),
            counts("refund please"),
            counts("late refund"),
        ];
        let vocabulary = Vocabulary::of(&docs);
        let row = vocabulary.tf_idf(&counts("late refund and more"));
        let norm: f32 = row.iter().map(|(_, w)| w * w).sum();
        assert!((norm - 1.0).abs() < 1e-5);
        assert_eq!(row.len(), 3, "late, refund, late refund");
        assert!(vocabulary.tf_idf(&counts("nothing shared")).is_empty());
    }

    #[test]
    fn a_repeated_word_weighs_one_plus_its_log_count_and_raw_heads_keep_their_count() {
        let docs = [counts("late late late late refund"), counts("refund")];
        let sublinear = Vocabulary::of(&docs);
        let raw = Vocabulary {
            weight: TermWeight::Raw,
            ..sublinear.clone()
        };
        // The row's heaviest term ("late", 4 times, in one document) over its lightest
        // ("refund", once, in both: IDF 1).
        let spread = |v: &Vocabulary| {
            let w: Vec<f32> = v.tf_idf(&docs[0]).into_iter().map(|(_, w)| w).collect();
            w.iter().copied().fold(0.0, f32::max) / w.iter().copied().fold(f32::MAX, f32::min)
        };
        let idf_late = (3.0f32 / 2.0).ln() + 1.0;
        assert!((spread(&sublinear) - (1.0 + 4f32.ln()) * idf_late).abs() < 1e-4);
        assert!((spread(&raw) - 4.0 * idf_late).abs() < 1e-4);
        for name in [TermWeight::Sublinear, TermWeight::Raw].map(TermWeight::features) {
            assert_eq!(
                TermWeight::of_features(name).map(TermWeight::features),
                Some(name)
            );
        }
        assert_eq!(TermWeight::of_features("word-3-grams"), None);
    }
}
