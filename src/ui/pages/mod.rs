//! The app's pages, each from the contract's types as core's operations return them: the
//! server fetches, these draw.

pub mod annotate;
pub mod examples;
pub mod home;
pub mod jobs;
pub mod model;

use maud::{Markup, html};

/// A probability as a bar and its figure.
pub(crate) fn probability(p: f64) -> Markup {
    let shown = p.clamp(0.0, 1.0);
    html! {
        span.probability {
            meter min="0" max="1" value=(format!("{shown:.3}")) {}
            span.num { (format!("{p:.3}")) }
        }
    }
}

/// A commit, short, with its whole SHA as the title.
pub(crate) fn commit(sha: &str) -> Markup {
    html! { code title=(sha) { (crate::wire::decision::short_commit(sha)) } }
}
