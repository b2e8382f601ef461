//! The Grafana dashboard (deploy/grafana/referee.json) queries only series the server exports:
//! every metric name in its queries is a sample name of a live server's `/metrics`, and the
//! `_bucket` series it takes quantiles from belong to histograms (a series without configured
//! buckets is rendered as a summary, which has none).

use std::collections::{BTreeMap, BTreeSet};

use referee_tests::{Backend, TestServer, exact_item};
use serde_json::{Value, json};

/// The dashboard as checked in.
fn dashboard() -> anyhow::Result<Value> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../deploy/grafana/referee.json");
    Ok(serde_json::from_str(&std::fs::read_to_string(&path)?)?)
}

/// Every PromQL query of the dashboard: the panels' targets (rows' nested panels included) and
/// the template variables' queries.
fn queries(dashboard: &Value) -> Vec<String> {
    fn panel_queries(panels: &Value, out: &mut Vec<String>) {
        for panel in panels.as_array().into_iter().flatten() {
            for target in panel["targets"].as_array().into_iter().flatten() {
                if let Some(expr) = target["expr"].as_str() {
                    out.push(expr.to_owned());
                }
            }
            panel_queries(&panel["panels"], out);
        }
    }
    let mut out = Vec::new();
    panel_queries(&dashboard["panels"], &mut out);
    for variable in dashboard["templating"]["list"].as_array().into_iter().flatten() {
        if variable["type"] == "query" {
            let query = variable["query"]["query"].as_str().or_else(|| variable["query"].as_str());
            out.extend(query.map(str::to_owned));
        }
    }
    out
}

/// The metric names a PromQL query reads: identifiers starting `referee_`, outside quoted label
/// values (`{verifier="referee_x"}` names no metric).
fn metric_names(query: &str) -> BTreeSet<String> {
    let mut unquoted = String::new();
    let mut quote = None;
    for c in query.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '"' || c == '\'' || c == '`' => {
                quote = Some(c);
                unquoted.push(' ');
            }
            None => unquoted.push(c),
        }
    }
    unquoted
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
        .filter(|word| word.starts_with("referee_"))
        .map(str::to_owned)
        .collect()
}

/// The exposition's sample names, and each metric family's type from its `# TYPE` line.
fn exported(metrics: &str) -> (BTreeSet<String>, BTreeMap<String, String>) {
    let mut samples = BTreeSet::new();
    let mut types = BTreeMap::new();
    for line in metrics.lines() {
        if let Some(rest) = line.strip_prefix("# TYPE ") {
            let mut words = rest.split_whitespace();
            if let (Some(name), Some(kind)) = (words.next(), words.next()) {
                types.insert(name.to_owned(), kind.to_owned());
            }
        } else if !line.starts_with('#') && !line.trim().is_empty() {
            let end = line.find(['{', ' ']).unwrap_or(line.len());
            samples.insert(line[..end].to_owned());
        }
    }
    (samples, types)
}

/// Why `name` is not a series a query can read from this exposition, if it is not.
fn missing(name: &str, samples: &BTreeSet<String>, types: &BTreeMap<String, String>) -> Option<String> {
    if !samples.contains(name) {
        return Some(format!("{name}: no such sample in /metrics"));
    }
    let family = |suffix: &str| name.strip_suffix(suffix).and_then(|base| types.get(base).map(|kind| (base, kind)));
    if let Some((base, kind)) = family("_bucket")
        && kind.as_str() != "histogram"
    {
        return Some(format!("{name}: {base} is a {kind}, which has no buckets"));
    }
    None
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_metric_the_dashboard_queries_is_exported() -> anyhow::Result<()> {
    let server = TestServer::start_with(Backend::Sqlite, |config| {
        config.scoring_log.mode = referee_server::config::LogMode::All;
        config.cache.enabled = true;
    })
    .await?;
    // A scored batch: the request, verdict and verifier-time series exist from then on; the
    // rare-event counters and the gauges are registered at start-up.
    let items = json!({"items": [exact_item("a", "Paris", "Paris"), exact_item("b", "London", "Paris")]});
    let (status, body) = server.post("/v1/score", &items).await?;
    assert_eq!(status, 200, "{body}");
    let metrics = server.client.get(server.url("/metrics")).send().await?.text().await?;
    let (samples, types) = exported(&metrics);

    let dashboard = dashboard()?;
    let names: BTreeSet<String> = queries(&dashboard).iter().flat_map(|query| metric_names(query)).collect();
    // The dashboard covers requests, verdicts, queues, the scoring log, the database and jobs.
    assert!(names.len() >= 20, "the dashboard queries only {names:?}");
    let problems: Vec<String> = names.iter().filter_map(|name| missing(name, &samples, &types)).collect();
    assert!(problems.is_empty(), "{problems:#?}\n/metrics:\n{metrics}");

    // The check tells a missing series and a quantile over a family without buckets.
    assert!(missing("referee_no_such_series_total", &samples, &types).is_some());
    let summary = "# TYPE referee_x_seconds summary\nreferee_x_seconds_bucket 1\n";
    let (summary_samples, summary_types) = exported(summary);
    assert!(missing("referee_x_seconds_bucket", &summary_samples, &summary_types).is_some());
    server.finish().await
}

#[test]
fn metric_names_skip_label_values_and_functions() {
    let query = r#"histogram_quantile(0.99, sum by (le) (rate(referee_a_seconds_bucket{verifier="referee_b"}[$__rate_interval]))) / referee_c"#;
    let names: Vec<String> = metric_names(query).into_iter().collect();
    assert_eq!(names, ["referee_a_seconds_bucket", "referee_c"]);
}
