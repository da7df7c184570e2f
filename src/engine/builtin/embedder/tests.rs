use super::*;
use sha2::{Digest, Sha256};
use std::fmt::Write as _;

fn dot(a: &[f32], b: &[f32]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| f64::from(*x) * f64::from(*y))
        .sum()
}

#[test]
fn the_paired_encoders_cosine_is_the_mean_of_both_models_cosines() {
    let paired = Embedder::with(Encoders::L3WithL6);
    let l3 = Embedder::new();
    let (a, b) = ("my parcel never arrived", "where is my delivery?");
    let (pa, pb) = (paired.embed(a).unwrap(), paired.embed(b).unwrap());
    assert_eq!(pa.len(), 768);
    assert!((dot(&pa, &pa) - 1.0).abs() < 1e-5, "a unit vector");
    let three = dot(&l3.embed(a).unwrap(), &l3.embed(b).unwrap());
    let six = paired
        .l6()
        .unwrap()
        .embed_many(paired.tokenizer().unwrap(), &[a, b], MAX_TOKENS)
        .unwrap();
    let six = dot(&six[0], &six[1]);
    assert!((three - six).abs() > 1e-3, "two models: {three} vs {six}");
    assert!((dot(&pa, &pb) - f64::midpoint(three, six)).abs() < 1e-5);
    assert_ne!(paired.identity(), l3.identity(), "their vectors never mix");
}

#[test]
fn bundled_tokenizer_is_the_encoders() {
    let ours = hex::encode(Sha256::digest(TOKENIZER_JSON));
    assert_eq!(ours, pocket_encoder::model_info().tokenizer_sha256);
    assert_eq!(pocket_encoder::model_info().max_tokens, MAX_TOKENS);
}

#[test]
fn windows_cover_the_text_with_overlap() {
    let embedder = Embedder::new();
    let text = (0..400).fold(String::new(), |mut out, i| {
        write!(out, "word{i} ").unwrap();
        out
    });
    let tokens = embedder.count_tokens(&text).unwrap();
    let windows = embedder.all_windows(&text).unwrap();
    assert!(windows.len() >= 2, "{tokens} tokens");
    assert!(windows.iter().all(|w| w.tokens as usize <= MAX_TOKENS));
    assert!(text.starts_with(&windows[0].text));
    assert!(text.trim_end().ends_with(&windows.last().unwrap().text));
    let first = embedder.first_window(&text).unwrap().unwrap();
    assert_eq!(first, windows[0]);
    assert_eq!(first.tokens as usize, MAX_TOKENS);
}

/// A word longer than the tokenizer reads is one `[UNK]` however long: a window holding
/// a 70 KB one is written as its tokens, and a text past the bound is read from its first
/// window, so no text reaches an encoder that it cannot read (it was a 500, `text
/// exceeds 64 KiB`, on the whole-state models).
#[test]
fn long_words_and_long_texts_reach_the_encoders_within_their_bound() {
    let embedder = Embedder::with(Encoders::L3WithL6);
    let text = format!("my parcel {} never arrived", "x".repeat(70_000));
    let windows = embedder.all_windows(&text).unwrap();
    assert_eq!(windows.len(), 1);
    assert_eq!(windows[0].text, "my parcel [UNK] never arrived");
    assert_eq!(windows[0].tokens, 5 + 2);
    let read = embedder.embed(&text).unwrap();
    assert_eq!(read, embedder.embed(&windows[0].text).unwrap());
    let prefix = embedder.first_window(&text).unwrap().unwrap();
    assert!(prefix.text.len() <= MAX_ENCODED_BYTES);
    embedder.embed(&prefix.text).unwrap();
    // Pieces of a word are joined again; ordinary windows are the text itself.
    assert_eq!(
        spelled(&["un".into(), "##bel".into(), "[UNK]".into(), ",".into()]),
        "unbel [UNK] ,"
    );
    let ordinary = "the parcel never arrived, ".repeat(10);
    assert_eq!(
        embedder.all_windows(&ordinary).unwrap()[0].text,
        ordinary.trim_end()
    );
    // A long text of ordinary words is read from its first window.
    let long = "the parcel never arrived ".repeat(3_000);
    let first = embedder.all_windows(&long).unwrap().remove(0);
    assert_eq!(
        embedder.embed(&long).unwrap(),
        embedder.embed(&first.text).unwrap()
    );
}

#[test]
fn blank_text_has_no_window() {
    let embedder = Embedder::new();
    assert_eq!(embedder.first_window("   ").unwrap(), None);
    assert!(embedder.all_windows("").unwrap().is_empty());
}

#[test]
fn cached_embedding_equals_fresh_one() {
    let embedder = Embedder::new();
    let a = embedder
        .embed_cached("refund: the customer wants money back")
        .unwrap();
    let b = embedder
        .embed_cached("refund: the customer wants money back")
        .unwrap();
    assert!(Arc::ptr_eq(&a, &b));
    assert_eq!(
        a.vector,
        embedder
            .embed("refund: the customer wants money back")
            .unwrap()
    );
    assert_eq!(a.vector.len(), 384);
}

/// A text read a piece at a time gives exactly the tokens and offsets of reading it
/// whole: words, punctuation, accents, CJK, emoji, literal special tokens, control
/// characters, words longer than the tokenizer reads, and runs with no place to cut.
#[test]
fn a_text_read_in_pieces_reads_as_a_whole() {
    let embedder = Embedder::new();
    let parts = [
        "the parcel never arrived, ",
        "Ünïcödé café naïve ",
        "退款请求 ",
        "🙂🙂 ",
        "[UNK] [CLS]x[SEP] ",
        "a\u{0301}\u{0327}b ",
        "tab\tcr\r\nline\u{000B}ctl\u{0085} ",
        "https://example.com/a?b=c&d=e ",
        "(x)[y]{z} ",
    ];
    let mut text = String::new();
    let mut seed = 7_u64;
    while text.len() < 5 * PIECE_BYTES {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        let pick = (seed >> 33) as usize % (parts.len() + 2);
        match pick {
            // A word longer than the tokenizer reads, and one longer than a piece.
            p if p == parts.len() => text.push_str(&"y".repeat(150 + (seed % 7) as usize)),
            p if p == parts.len() + 1 && seed.is_multiple_of(5) => {
                text.push_str(&"z".repeat(PIECE_BYTES + 10));
            }
            p => text.push_str(parts[p % parts.len()]),
        }
    }
    let whole = embedder
        .tokenizer()
        .unwrap()
        .encode(text.as_str(), false)
        .unwrap();
    let read = embedder
        .tokens_of(&text, usize::MAX, &AtomicBool::new(false))
        .unwrap();
    assert!(read.whole);
    assert_eq!(read.tokens, whole.get_tokens());
    assert_eq!(read.offsets, whole.get_offsets());
    // Read only as far as needed: the first pieces, no more.
    let some = embedder
        .tokens_of(&text, 1_000, &AtomicBool::new(false))
        .unwrap();
    assert!(!some.whole && some.tokens.len() >= 1_000);
    assert!(some.tokens.len() < whole.len());
    assert_eq!(some.tokens[..], whole.get_tokens()[..some.tokens.len()]);
    // Abandoned: nothing is read.
    assert!(
        embedder
            .tokens_of(&text, usize::MAX, &AtomicBool::new(true))
            .is_err()
    );
}
