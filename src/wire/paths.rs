//! The HTTP API's routes, each written once: the server's route table and its `openapi.json`
//! take them from here, and the client fills them ([`fill`]). A `{name}` is one path
//! segment.

pub const DECISION: &str = "/v1/decision";
/// The decision route under the name System One clients use.
pub const DECISION_SYSTEMONE: &str = "/v1/systemone";
pub const MODELS: &str = "/v1/models";
pub const MODEL: &str = "/v1/models/{modelId}";
pub const CHECKPOINTS: &str = "/v1/models/{modelId}/checkpoints";
pub const HISTORY: &str = "/v1/models/{modelId}/history";
pub const DIFF: &str = "/v1/models/{modelId}/diff";
pub const BRANCH: &str = "/v1/models/{modelId}/branches/{branch}";
pub const PROMOTE: &str = "/v1/models/{modelId}/promote";
pub const ALIGNMENT_PLAN: &str = "/v1/models/{modelId}/alignment-plan";
pub const EXAMPLES: &str = "/v1/models/{modelId}/examples";
pub const EXAMPLE: &str = "/v1/models/{modelId}/examples/{exampleId}";
pub const EXAMPLE_ANNOTATIONS: &str = "/v1/models/{modelId}/examples/{exampleId}/annotations";
pub const ANNOTATION: &str = "/v1/models/{modelId}/examples/{exampleId}/annotations/{questionId}";
pub const ANNOTATIONS: &str = "/v1/models/{modelId}/annotations";
pub const EXAMPLES_TO_ANNOTATE: &str = "/v1/models/{modelId}/examples-to-annotate";
pub const ANNOTATION_CLAIMS: &str = "/v1/models/{modelId}/annotation-claims";
pub const ANNOTATION_CLAIM: &str = "/v1/models/{modelId}/annotation-claims/{exampleId}";
pub const ANNOTATION_AGREEMENT: &str = "/v1/models/{modelId}/annotation-agreement";
pub const JOBS: &str = "/v1/jobs";
pub const JOB: &str = "/v1/jobs/{jobId}";
pub const JOB_CANCEL: &str = "/v1/jobs/{jobId}/cancel";
pub const JOB_RESULTS: &str = "/v1/jobs/{jobId}/results";
pub const BATCH_RESULTS: &str = "/v1/models/{modelId}/batch-decisions/{jobId}/results";
pub const OPENAPI: &str = "/openapi.json";
pub const HEALTHZ: &str = "/healthz";
pub const PROBLEM: &str = "/problems/{code}";

/// A model's collection of jobs of one kind: its list (and create), one job, its cancel.
#[derive(Debug, Clone, Copy)]
pub struct Collection {
    pub list: &'static str,
    pub job: &'static str,
    pub cancel: &'static str,
}

macro_rules! collection {
    ($name:ident, $path:literal) => {
        pub const $name: Collection = Collection {
            list: $path,
            job: concat!($path, "/{jobId}"),
            cancel: concat!($path, "/{jobId}/cancel"),
        };
    };
}

collection!(BATCHES, "/v1/models/{modelId}/batch-decisions");
collection!(ALIGNMENTS, "/v1/models/{modelId}/alignments");
collection!(EVALUATIONS, "/v1/models/{modelId}/evaluations");

/// The segments of `route` with its `{name}`s filled by `values`, in order (each value one
/// segment, whatever it holds, for the client to percent-encode). `None` when the number of
/// values is not the number of `{name}`s.
pub fn fill<'a>(route: &'a str, values: &[&'a str]) -> Option<Vec<&'a str>> {
    let mut values = values.iter();
    let segments = route
        .split('/')
        .filter(|segment| !segment.is_empty())
        .map(|segment| {
            if segment.starts_with('{') && segment.ends_with('}') {
                values.next().copied()
            } else {
                Some(segment)
            }
        })
        .collect::<Option<Vec<_>>>()?;
    values.next().is_none().then_some(segments)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_route_is_filled_segment_by_segment_and_only_with_as_many_values_as_it_names() {
        assert_eq!(
            fill(EXAMPLE, &["acme/support", "ex 1"]),
            Some(vec!["v1", "models", "acme/support", "examples", "ex 1"])
        );
        assert_eq!(fill(JOBS, &[]), Some(vec!["v1", "jobs"]));
        assert_eq!(fill(EXAMPLE, &["acme/support"]), None);
        assert_eq!(fill(MODEL, &["a", "b"]), None);
        assert_eq!(
            fill(ALIGNMENTS.cancel, &["m", "j"]),
            Some(vec!["v1", "models", "m", "alignments", "j", "cancel"])
        );
    }
}
