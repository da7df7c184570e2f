//! The web app's frame: every page's document (its stylesheet and script by URL, never
//! inline, so the server's policy allows neither inline script nor inline style), the bar
//! with its navigation and logout, the login and error pages, and the links between pages.

use maud::{DOCTYPE, Markup, html};

/// Where the app is served.
pub const ROOT: &str = "/ui";
/// The stylesheet's URL: [`super::document::STYLE`].
pub const STYLE_URL: &str = "/ui/assets/style.css";
/// The script's URL: [`SCRIPT`].
pub const SCRIPT_URL: &str = "/ui/assets/app.js";
/// The app's one script: the annotate page's keys, and a page that refreshes itself.
pub const SCRIPT: &str = include_str!("app.js");

/// The policy every page of the app is served with: its own stylesheet and script only,
/// no inline script or style, no frame around it, forms to itself; images from the app and
/// from `https:` URLs in states (an image runs nothing).
pub const POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
     img-src 'self' data: https:; form-action 'self'; frame-ancestors 'none'; \
     base-uri 'none'";

/// Which part of the app a page is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tab {
    Models,
    Jobs,
    Model,
    Examples,
    Annotate,
}

/// The model a page is about, for the bar's links.
#[derive(Debug, Clone, Copy)]
pub struct ModelNav<'a> {
    /// Its `modelId`, as the app's URLs name it.
    pub id: &'a str,
    /// `<owner>/<model>`.
    pub path: &'a str,
}

/// Around a page: its title, who is logged in (with the form token of their logout), and
/// the model it is about.
#[derive(Debug, Clone, Copy)]
pub struct Frame<'a> {
    pub title: &'a str,
    pub tab: Tab,
    pub viewer: &'a str,
    pub csrf: &'a str,
    pub model: Option<ModelNav<'a>>,
    /// Seconds after which the page loads itself again (a running job's progress).
    pub refresh: Option<u32>,
}

/// A model's page `suffix` (empty: the model page).
pub fn model_url(model_id: &str, suffix: &str) -> String {
    if suffix.is_empty() {
        format!("{ROOT}/models/{model_id}")
    } else {
        format!("{ROOT}/models/{model_id}/{suffix}")
    }
}

/// `base` with `pairs` as its query (each value encoded).
pub fn with_query<'a>(base: &str, pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let query = url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs(pairs)
        .finish();
    if query.is_empty() {
        base.to_owned()
    } else {
        format!("{base}?{query}")
    }
}

/// The hidden field that carries a session's form token: every form that writes has it.
pub fn csrf_field(csrf: &str) -> Markup {
    html! { input type="hidden" name="csrf" value=(csrf); }
}

fn head(title: &str, refresh: Option<u32>) -> Markup {
    html! {
        head {
            meta charset="utf-8";
            meta name="viewport" content="width=device-width, initial-scale=1";
            meta name="referrer" content="no-referrer";
            title { (title) }
            // No icon to fetch (a browser asks for /favicon.ico otherwise).
            link rel="icon" href="data:,";
            link rel="stylesheet" href=(STYLE_URL);
            script src=(SCRIPT_URL) defer {}
            @if let Some(seconds) = refresh {
                meta name="arbiter-refresh" content=(seconds);
            }
        }
    }
}

/// A whole page of the app.
pub fn document(frame: &Frame<'_>, body: &Markup) -> String {
    let tab = |tab: Tab| if frame.tab == tab { "here" } else { "" };
    html! {
        (DOCTYPE)
        html lang="en" {
            (head(frame.title, frame.refresh))
            body {
                header.bar {
                    nav {
                        a.brand href={ (ROOT) "/" } { "Arbiter" }
                        a class=(tab(Tab::Models)) href={ (ROOT) "/" } { "Models" }
                        a class=(tab(Tab::Jobs)) href={ (ROOT) "/jobs" } { "Jobs" }
                        @if let Some(model) = frame.model {
                            span.model { (model.path) }
                            a class=(tab(Tab::Model)) href=(model_url(model.id, "")) { "Model" }
                            a class=(tab(Tab::Examples)) href=(model_url(model.id, "examples")) { "Examples" }
                            a class=(tab(Tab::Annotate)) href=(model_url(model.id, "annotate")) { "Annotate" }
                        }
                    }
                    form.logout method="post" action={ (ROOT) "/logout" } {
                        span.muted { (frame.viewer) }
                        (csrf_field(frame.csrf))
                        button type="submit" { "Log out" }
                    }
                }
                main { (body) }
            }
        }
    }
    .into_string()
}

/// The login page: an API token in a password field; `message` says why the last try
/// failed; `next` is where a login leads.
pub fn login(message: Option<&str>, next: &str) -> String {
    html! {
        (DOCTYPE)
        html lang="en" {
            (head("arbiter: log in", None))
            body {
                main.narrow {
                    h1 { "Log in to Arbiter" }
                    p.muted { "With an API token (" code { "arbiter tokens create" } "). It is sent once; the session that it opens is kept by the server." }
                    @if let Some(message) = message {
                        p.fail #login-error { (message) }
                    }
                    form method="post" action={ (ROOT) "/login" } {
                        input type="hidden" name="next" value=(next);
                        label for="token" { "Token" }
                        input #token type="password" name="token" autocomplete="off" autofocus required;
                        button type="submit" { "Log in" }
                    }
                }
            }
        }
    }
    .into_string()
}

/// A page for a request refused or failed: its status, title and what went wrong.
pub fn error(status: u16, title: &str, detail: &str) -> String {
    html! {
        (DOCTYPE)
        html lang="en" {
            (head(&format!("arbiter: {title}"), None))
            body {
                main.narrow {
                    h1 { (status) " " (title) }
                    p #problem { (detail) }
                    p { a href={ (ROOT) "/" } { "Back to the models" } }
                }
            }
        }
    }
    .into_string()
}

/// A moment as people read it: `2026-12-07 09:38:50 UTC`.
pub fn when(at: impl Into<chrono::DateTime<chrono::Utc>>) -> String {
    at.into().format("%Y-%m-%d %H:%M:%S UTC").to_string()
}
