//! A whole HTML document around a page's body.

use maud::{DOCTYPE, Markup, PreEscaped, html};

/// The stylesheet of every page. No element carries a `style` attribute, so a page's policy
/// never has to allow inline style for anything but this sheet.
pub const STYLE: &str = include_str!("style.css");

/// The policy of a self-contained document: it loads nothing, runs no script and submits
/// nowhere; its one stylesheet is inline.
pub const STANDALONE_POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'; \
     img-src data:; base-uri 'none'; form-action 'none'";

/// `body` as one self-contained document: no network access is needed to open it, and it
/// can run nothing even if a value it shows were markup.
pub fn standalone(title: &str, body: &Markup) -> String {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta http-equiv="Content-Security-Policy" content=(STANDALONE_POLICY);
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="generator" content=(concat!("arbiter ", env!("CARGO_PKG_VERSION")));
                title { (title) }
                style { (PreEscaped(STYLE)) }
            }
            body {
                main { (body) }
            }
        }
    }
    .into_string()
}
