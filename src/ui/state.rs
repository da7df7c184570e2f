//! A state as a person reads it: messages as a conversation, fields as a list, long text
//! wrapped, an image by its `https:` URL. Every value is text to maud (escaped); a URL
//! becomes a link or an image only when it is `http:` or `https:`, so a `javascript:` URL
//! stays text.

use maud::{Markup, html};
use serde_json::Value;

/// How deep a state is drawn; deeper values are shown as JSON text.
const DEPTH: usize = 12;

/// The state.
pub fn render(state: &Value) -> Markup {
    html! { div.state { (value(state, 0)) } }
}

fn value(value_: &Value, depth: usize) -> Markup {
    if depth >= DEPTH {
        return html! { code { (value_.to_string()) } };
    }
    match value_ {
        Value::String(text) => string(text),
        Value::Array(items) if !items.is_empty() && items.iter().all(is_message) => {
            conversation(items)
        }
        Value::Array(items) => html! {
            ol.items { @for item in items { li { (value(item, depth + 1)) } } }
        },
        Value::Object(fields) => html! {
            dl.fields {
                @for (key, field) in fields {
                    dt { (key) }
                    dd { (value(field, depth + 1)) }
                }
            }
        },
        other => html! { code { (other.to_string()) } },
    }
}

/// A message of a conversation: an object with a text `content` and a `role` (or
/// `author`, `from`).
fn is_message(item: &Value) -> bool {
    item.get("content").is_some_and(Value::is_string) && speaker(item).is_some()
}

fn speaker(item: &Value) -> Option<&str> {
    ["role", "author", "from"]
        .iter()
        .find_map(|key| item.get(*key).and_then(Value::as_str))
}

fn conversation(messages: &[Value]) -> Markup {
    html! {
        ol.conversation {
            @for message in messages {
                @let role = speaker(message).unwrap_or("");
                li.message data-role=(role) {
                    span.role { (role) }
                    (string(message.get("content").and_then(Value::as_str).unwrap_or("")))
                }
            }
        }
    }
}

/// An `http:` or `https:` URL, else `None`.
fn web_url(text: &str) -> Option<url::Url> {
    let trimmed = text.trim();
    if trimmed.contains(char::is_whitespace) {
        return None;
    }
    url::Url::parse(trimmed)
        .ok()
        .filter(|url| matches!(url.scheme(), "http" | "https"))
}

fn is_image(url: &url::Url) -> bool {
    let path = url.path().to_ascii_lowercase();
    [".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg"]
        .iter()
        .any(|ext| path.ends_with(ext))
}

fn string(text: &str) -> Markup {
    match web_url(text) {
        Some(url) if url.scheme() == "https" && is_image(&url) => html! {
            figure.image {
                img src=(url.as_str()) alt=(url.as_str()) loading="lazy" referrerpolicy="no-referrer";
                figcaption { a href=(url.as_str()) rel="noreferrer noopener nofollow" { (url.as_str()) } }
            }
        },
        Some(url) => html! {
            a href=(url.as_str()) rel="noreferrer noopener nofollow" { (text) }
        },
        None => html! { span.text { (text) } },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn messages_read_as_a_conversation_and_urls_only_of_the_web_become_links() {
        let state = json!({
            "messages": [
                {"role": "customer", "content": "<script>alert(1)</script>"},
                {"role": "agent", "content": "javascript:alert(2)"}
            ],
            "photo": "https://example.com/a.png",
            "page": "http://example.com/a",
            "count": 3
        });
        let html = render(&state).into_string();
        assert!(html.contains("<ol class=\"conversation\">"), "{html}");
        assert!(
            html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
            "{html}"
        );
        assert!(!html.contains("href=\"javascript:"), "{html}");
        assert!(
            html.contains("<img src=\"https://example.com/a.png\""),
            "{html}"
        );
        assert!(html.contains("<a href=\"http://example.com/a\""), "{html}");
        assert!(!html.contains("<img src=\"http://"), "{html}");
        assert!(
            html.contains("<dt>count</dt><dd><code>3</code></dd>"),
            "{html}"
        );
    }

    #[test]
    fn a_deep_state_is_drawn_to_a_depth_then_shown_as_json() {
        let mut state = json!("leaf");
        for _ in 0..40 {
            state = json!([state]);
        }
        let html = render(&state).into_string();
        assert!(
            html.contains("<code>[[[[["),
            "{}",
            &html[..200.min(html.len())]
        );
    }
}
