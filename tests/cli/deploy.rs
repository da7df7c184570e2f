//! `deploy/`: the Prometheus rules pass `promtool check rules`, the Grafana dashboard is
//! JSON, and both name only metrics a real scrape has ([`check_names`], called with the
//! scrape of `metrics::each_family_moves_by_what_the_requests_did`).

use crate::common::repo_root;
use regex::Regex;
use serde_json::Value;
use std::collections::BTreeSet;

const RULES: &str = "deploy/prometheus/arbiter.rules.yml";
const DASHBOARD: &str = "deploy/grafana/arbiter.json";

/// Series Prometheus writes itself for every target, which no scrape has.
const PROMETHEUS_OWN: &[&str] = &["up"];

#[test]
fn the_rules_pass_promtool() {
    let path = repo_root().join(RULES);
    crate::metrics::promtool(&["check", "rules", path.to_str().unwrap()], "");
}

#[test]
fn the_dashboard_is_json_and_every_panel_queries() {
    let dashboard = dashboard();
    assert_eq!(dashboard["uid"], "arbiter");
    let panels = dashboard["panels"].as_array().unwrap();
    let graphs: Vec<&Value> = panels.iter().filter(|p| p["type"] != "row").collect();
    assert!(graphs.len() > 10, "{} panels", graphs.len());
    for panel in graphs {
        let targets = panel["targets"].as_array().unwrap();
        assert!(!targets.is_empty(), "{panel}");
        for target in targets {
            assert!(
                !metric_names(target["expr"].as_str().unwrap()).is_empty(),
                "{target}"
            );
        }
    }
}

fn dashboard() -> Value {
    let text = std::fs::read_to_string(repo_root().join(DASHBOARD)).unwrap();
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{DASHBOARD} is not JSON: {e}"))
}

/// Every PromQL expression of the rules and the dashboard (its queries and variables).
fn expressions() -> Vec<String> {
    let rules: serde_yaml::Value =
        serde_yaml::from_str(&std::fs::read_to_string(repo_root().join(RULES)).unwrap()).unwrap();
    let mut out: Vec<String> = rules["groups"]
        .as_sequence()
        .unwrap()
        .iter()
        .flat_map(|group| group["rules"].as_sequence().unwrap())
        .map(|rule| rule["expr"].as_str().unwrap().to_owned())
        .collect();
    let dashboard = dashboard();
    for panel in dashboard["panels"].as_array().unwrap() {
        for target in panel["targets"].as_array().into_iter().flatten() {
            out.push(target["expr"].as_str().unwrap().to_owned());
        }
    }
    // A variable's query is Grafana's `label_values(SELECTOR, LABEL)`: its selector.
    let label_values = Regex::new(r"^label_values\((.*),\s*\w+\)$").unwrap();
    for variable in dashboard["templating"]["list"].as_array().unwrap() {
        if variable["type"] == "query" {
            let query = variable["query"].as_str().unwrap();
            let selector = label_values
                .captures(query)
                .unwrap_or_else(|| panic!("not label_values(…): {query}"));
            out.push(selector[1].to_owned());
        }
    }
    out
}

/// The metric names `expr` reads: its identifiers that are no function, keyword, label
/// (inside `{…}` or a `by (…)`) or duration (inside `[…]`).
fn metric_names(expr: &str) -> BTreeSet<String> {
    let quiet = Regex::new(
        r#""[^"]*"|\{[^}]*\}|\[[^\]]*\]|\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)"#,
    )
    .unwrap();
    let stripped = quiet.replace_all(expr, " ");
    let identifier = Regex::new(r"([A-Za-z_:][A-Za-z0-9_:]*)(\s*\()?").unwrap();
    let keywords = ["and", "or", "unless", "bool", "offset"];
    identifier
        .captures_iter(&stripped)
        .filter(|c| c.get(2).is_none())
        .map(|c| c[1].to_owned())
        .filter(|name| !keywords.contains(&name.as_str()))
        .collect()
}

/// The sample names `scrape` has, a histogram's `_bucket`, `_count` and `_sum` included
/// whether or not it has samples yet.
fn scraped_names(scrape: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for line in scrape.lines() {
        if let Some(typed) = line.strip_prefix("# TYPE ") {
            let (name, kind) = typed.split_once(' ').unwrap();
            if kind == "histogram" {
                for suffix in ["_bucket", "_count", "_sum"] {
                    names.insert(format!("{name}{suffix}"));
                }
            } else {
                names.insert(name.to_owned());
            }
        } else if !line.starts_with('#') && !line.is_empty() {
            let end = line.find(['{', ' ']).unwrap_or(line.len());
            names.insert(line[..end].to_owned());
        }
    }
    names
}

/// Every metric the rules and the dashboard name is one `scrape` has.
pub(crate) fn check_names(scrape: &str) {
    let scraped = scraped_names(scrape);
    let mut named = BTreeSet::new();
    for expr in expressions() {
        named.extend(metric_names(&expr));
    }
    let unknown: Vec<&String> = named
        .iter()
        .filter(|name| !scraped.contains(*name) && !PROMETHEUS_OWN.contains(&name.as_str()))
        .collect();
    assert!(
        unknown.is_empty(),
        "{RULES} and {DASHBOARD} name metrics the scrape does not have: {unknown:?}\n{scrape}"
    );
    // The check sees names at all: the dashboard reads some of each area.
    for name in [
        "arbiter_http_requests_total",
        "arbiter_jobs",
        "arbiter_store_errors_total",
        "process_resident_memory_bytes",
    ] {
        assert!(named.contains(name), "{name} in {named:?}");
    }
}

#[test]
fn metric_names_are_read_from_promql() {
    let names = metric_names(
        "histogram_quantile(0.99, sum by (le, route) (rate(a_seconds_bucket{job=\"$job\",x=~\"y\"}[$__rate_interval]))) / b_total > 0 and on (instance) time() - c",
    );
    assert_eq!(
        names.into_iter().collect::<Vec<_>>(),
        ["a_seconds_bucket", "b_total", "c"]
    );
}
