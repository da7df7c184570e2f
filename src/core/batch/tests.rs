use super::*;

/// Stage `text` as a JSON Lines input would be, and map every item back to its line.
fn lines_of(text: &str) -> (Value, Vec<u64>) {
    let mut blank = BlankRuns::default();
    let mut items = 0;
    for line in text.split('\n') {
        if line.trim().is_empty() {
            blank.skip();
        } else {
            blank.item(items);
            items += 1;
        }
    }
    let source = json!({"lines": items, "blank": blank.runs});
    let map = LineMap::of(&source).unwrap();
    (
        source["blank"].clone(),
        (0..items).map(|i| map.line(i)).collect(),
    )
}

#[test]
fn an_item_maps_back_to_its_line_blank_lines_counted() {
    assert_eq!(lines_of("a\nb\nc"), (json!([]), vec![1, 2, 3]));
    assert_eq!(
        lines_of("\na\n\n  \nb\nc\n\nd\n\n"),
        (json!([[0, 1], [1, 2], [3, 1]]), vec![2, 5, 6, 8])
    );
    // A run of blank lines, however long, is one pair.
    let many = format!("a{}b", "\n".repeat(1_000_001));
    assert_eq!(
        lines_of(&many),
        (json!([[1, 1_000_000]]), vec![1, 1_000_002])
    );
    // Items given as an array, or stored examples, have no lines.
    assert!(LineMap::of(&json!({"items": 3})).is_none());
    assert!(LineMap::of(&json!({"examples": "all"})).is_none());
}
