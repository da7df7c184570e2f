//! The first page: the repository models the viewer can see.

use crate::ui::app::model_url;
use crate::wire::models::{ModelKind, ModelList};
use maud::{Markup, html};

pub fn page(list: &ModelList) -> Markup {
    let repositories: Vec<_> = list
        .models
        .iter()
        .filter(|m| m.kind == ModelKind::Repository)
        .collect();
    html! {
        h1 { "Models" }
        @if repositories.is_empty() {
            p.muted { "No repository model this token can see. " code { "arbiter models create" } " makes one." }
        } @else {
            table #models {
                thead { tr { th { "Model" } th { "Base" } th {} } }
                tbody {
                    @for model in &repositories {
                        @let id = model.model_id.as_ref().map(ToString::to_string).unwrap_or_default();
                        tr {
                            td { a href=(model_url(&id, "")) { (model.path.as_deref().unwrap_or(&model.name)) } }
                            td { code { (model.base.as_deref().unwrap_or("")) } }
                            td {
                                a href=(model_url(&id, "examples")) { "examples" } " · "
                                a href=(model_url(&id, "annotate")) { "annotate" }
                            }
                        }
                    }
                }
            }
        }
    }
}
