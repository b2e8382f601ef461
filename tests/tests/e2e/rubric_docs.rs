//! The examples of `docs/verifiers/rubric.md`, read from the page itself and scored over real
//! HTTP, so the page and the code cannot drift apart.
//!
//! The page marks what is checked with HTML comments:
//! - `<!-- rubric-example: NAME -->` before a fenced JSON block: a rubric (`...-rubric`) or a
//!   response (`...-response...`, a JSON string), scored with the rubric of the same prefix;
//! - `<!-- judge-answers NAME {...} -->`: the judge's answers for that response, by criterion
//!   name (a principle's value is its P(yes), answered with log-probs);
//! - `<!-- expect NAME SCORE STATUS -->` and `<!-- expect-criteria NAME {...} -->`: the stated
//!   score, status and criterion scores;
//! - the `| response | ... | score |` table: each row's criterion scores, score and status;
//! - every ```toml block: a configuration file the server loads (templates checked).

use std::collections::HashMap;

use referee_tests::judge::FakeJudge;
use referee_tests::{Backend, TestServer};
use serde_json::{Value, json};

const PAGE: &str = include_str!("../../../docs/verifiers/rubric.md");

/// What the page states.
#[derive(Debug, Default)]
struct Page {
    /// `rubric-example` blocks by name.
    examples: HashMap<String, Value>,
    /// `judge-answers` by response name.
    answers: HashMap<String, Value>,
    /// `expect`: response name, score, status.
    expected: Vec<(String, f64, String)>,
    /// `expect-criteria` and table rows: response name, criterion scores.
    criteria: Vec<(String, Vec<(String, f64)>)>,
    /// Table rows: response name, score, status.
    table: Vec<(String, f64, String)>,
}

/// The text of `<!-- KEYWORD rest -->` comments, each `rest`.
fn comments<'a>(text: &'a str, keyword: &str) -> Vec<&'a str> {
    let open = format!("<!-- {keyword} ");
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = text[from..].find(&open) {
        let start = from + at + open.len();
        let Some(end) = text[start..].find("-->") else { break };
        found.push(text[start..start + end].trim());
        from = start + end;
    }
    found
}

fn read_page(text: &str) -> anyhow::Result<Page> {
    let mut page = Page::default();
    for marker in comments(text, "rubric-example:") {
        let after = text.find(&format!("<!-- rubric-example: {marker} -->")).map(|at| &text[at..]).unwrap_or_default();
        let block = after
            .split_once("```json\n")
            .and_then(|(_, rest)| rest.split_once("\n```"))
            .map(|(body, _)| body)
            .ok_or_else(|| anyhow::anyhow!("rubric-example `{marker}` has no ```json block after it"))?;
        let value: Value = serde_json::from_str(block)
            .map_err(|e| anyhow::anyhow!("rubric-example `{marker}` is not JSON: {e}\n{block}"))?;
        anyhow::ensure!(page.examples.insert(marker.to_owned(), value).is_none(), "`{marker}` is named twice");
    }
    for comment in comments(text, "judge-answers") {
        let (name, answers) = comment.split_once(' ').ok_or_else(|| anyhow::anyhow!("bad judge-answers: {comment}"))?;
        page.answers.insert(name.to_owned(), serde_json::from_str(answers)?);
    }
    for comment in comments(text, "expect") {
        let parts: Vec<&str> = comment.split_whitespace().collect();
        let [name, score, status] = parts[..] else { anyhow::bail!("bad expect comment: {comment}") };
        page.expected.push((name.to_owned(), score.parse()?, status.to_owned()));
    }
    for comment in comments(text, "expect-criteria") {
        let (name, scores) =
            comment.split_once(' ').ok_or_else(|| anyhow::anyhow!("bad expect-criteria: {comment}"))?;
        let scores: serde_json::Map<String, Value> = serde_json::from_str(scores)?;
        let scores = scores.into_iter().map(|(k, v)| (k, v.as_f64().unwrap_or(f64::NAN))).collect();
        page.criteria.push((name.to_owned(), scores));
    }
    read_table(text, &mut page)?;
    Ok(page)
}

/// The `| response | criterion... | score |` table: row `A` is `instructions-response-a`.
fn read_table(text: &str, page: &mut Page) -> anyhow::Result<()> {
    let mut lines = text.lines().skip_while(|line| !line.starts_with("| response |"));
    let cells = |line: &str| -> Vec<String> {
        line.trim().trim_matches('|').split('|').map(|cell| cell.trim().to_owned()).collect()
    };
    let Some(header) = lines.next() else { anyhow::bail!("the page has no `| response |` table") };
    let header = cells(header);
    anyhow::ensure!(header.last().map(String::as_str) == Some("score"), "the table ends with `score`: {header:?}");
    let names = &header[1..header.len() - 1];
    for row in lines.skip(1).take_while(|line| line.starts_with('|')) {
        let row = cells(row);
        anyhow::ensure!(row.len() == header.len(), "a table row has {} cells: {row:?}", row.len());
        let name = format!("instructions-response-{}", row[0].to_lowercase());
        let mut scores = Vec::new();
        for (criterion, cell) in names.iter().zip(&row[1..]) {
            scores.push((criterion.clone(), cell.parse::<f64>()?));
        }
        page.criteria.push((name.clone(), scores));
        // `**0.6667** (`partial`)`: the bold number (rounded to 4 places) and the status.
        let last = &row[row.len() - 1];
        let score = last.split("**").nth(1).ok_or_else(|| anyhow::anyhow!("no bold score in {last}"))?.parse()?;
        let status = last.split('`').nth(1).ok_or_else(|| anyhow::anyhow!("no status in {last}"))?;
        page.table.push((name, score, status.to_owned()));
    }
    Ok(())
}

/// The rubric of a response example: `writing-response` → `writing-rubric`.
fn rubric_of<'a>(page: &'a Page, response: &str) -> anyhow::Result<&'a Value> {
    let prefix = response.split("-response").next().unwrap_or_default();
    page.examples.get(&format!("{prefix}-rubric")).ok_or_else(|| anyhow::anyhow!("no rubric for `{response}`"))
}

fn criterion_score(result: &Value, name: &str) -> Option<f64> {
    result["details"]["criteria"].as_array()?.iter().find(|c| c["name"] == name)?["score"].as_f64()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rubric_page_examples_score_as_stated() -> anyhow::Result<()> {
    let page = read_page(PAGE)?;
    assert!(page.examples.contains_key("writing-rubric") && page.examples.contains_key("instructions-rubric"));
    assert!(page.expected.len() >= 4, "{:?}", page.expected);
    assert_eq!(page.table.len(), 3, "{:?}", page.table);

    let judge = FakeJudge::start().await?;
    // Script the judge with the answers the page states, by criterion name (a rubric call) or
    // by principle text (a principle call).
    {
        let Ok(mut scripted) = judge.state.scripted.lock() else { anyhow::bail!("the judge's script is poisoned") };
        for (response, answers) in &page.answers {
            let rubric = rubric_of(&page, response)?;
            for (name, answer) in answers.as_object().into_iter().flatten() {
                let criterion = rubric["criteria"]
                    .as_array()
                    .and_then(|list| list.iter().find(|c| c["name"] == *name))
                    .ok_or_else(|| anyhow::anyhow!("judge-answers name `{name}`, which `{response}`'s rubric lacks"))?;
                let key = match criterion["kind"]["type"].as_str() {
                    Some("principle") => criterion["description"].as_str().unwrap_or_default().to_owned(),
                    _ => name.clone(),
                };
                scripted.insert(key, answer.clone());
            }
        }
    }
    let server = TestServer::start_with(Backend::Sqlite, |c| {
        c.judge.base_url = Some(judge.base_url.clone());
        c.judge.model = "docs-judge".to_owned();
        c.judge.cache = false;
    })
    .await?;

    let mut names: Vec<&String> = page.examples.keys().filter(|name| name.contains("-response")).collect();
    names.sort();
    let mut items = Vec::new();
    for name in &names {
        let response = page.examples[*name].as_str().ok_or_else(|| anyhow::anyhow!("`{name}` is not a string"))?;
        items.push(json!({"id": name, "verifier": "rubric",
            "input": {"response": response, "rubric": rubric_of(&page, name)?}}));
    }
    // The veto variant of the essay: "As an AI, I think" added to its first paragraph.
    let essay = page.examples.get("writing-response").and_then(Value::as_str).unwrap_or_default();
    let disclaimer = essay.replacen("\n\nEvery summer", "\n\nAs an AI, I think every summer", 1);
    assert_ne!(disclaimer, essay, "the essay's first paragraph starts with `Every summer`");
    items.push(json!({"id": "writing-disclaimer", "verifier": "rubric",
        "input": {"response": disclaimer, "rubric": rubric_of(&page, "writing-response")?}}));

    let (status, body) = server.post("/v1/score", &json!({"items": items})).await?;
    assert_eq!(status, 200, "{body}");
    let results: HashMap<String, Value> = body["results"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| Some((r["id"].as_str()?.to_owned(), r.clone())))
        .collect();
    let result = |name: &str| results.get(name).cloned().unwrap_or(Value::Null);

    for (name, score, status) in &page.expected {
        let got = result(name);
        assert_eq!(got["status"].as_str(), Some(status.as_str()), "{name}: {got}");
        let value = got["score"].as_f64().unwrap_or(f64::NAN);
        assert!((value - score).abs() < 1e-9, "{name}: the page says {score}, scored {value}: {got}");
    }
    for (name, score, status) in &page.table {
        let got = result(name);
        assert_eq!(got["status"].as_str(), Some(status.as_str()), "{name}: {got}");
        let value = got["score"].as_f64().unwrap_or(f64::NAN);
        assert!((value - score).abs() < 5e-5, "{name}: the table says {score}, scored {value}: {got}");
    }
    for (name, scores) in &page.criteria {
        let got = result(name);
        for (criterion, score) in scores {
            let value = criterion_score(&got, criterion).unwrap_or(f64::NAN);
            assert!((value - score).abs() < 1e-9, "{name}: `{criterion}` stated {score}, scored {value}: {got}");
        }
    }
    let judged = result("writing-response");
    let calls = judged["details"]["judge_calls"].as_array().map_or(0, Vec::len);
    assert_eq!(calls, 2, "one call for argument, evidence and tone, one for the principle: {judged}");
    assert_eq!(judged["details"]["vetoed"], json!([]));

    let vetoed = result("writing-disclaimer");
    assert_eq!((vetoed["status"].as_str(), vetoed["score"].as_f64()), (Some("incorrect"), Some(0.0)), "{vetoed}");
    assert_eq!(vetoed["details"]["vetoed"], json!(["no_disclaimer"]));
    server.finish().await
}

/// The bodies of the page's ```toml blocks.
fn toml_blocks(text: &str) -> Vec<&str> {
    text.split("```toml\n").skip(1).filter_map(|rest| rest.split_once("\n```")).map(|(body, _)| body).collect()
}

#[test]
fn the_configuration_examples_load() -> anyhow::Result<()> {
    let blocks = toml_blocks(PAGE);
    assert_eq!(blocks.len(), 2, "the templates example and RLBFF's form");
    let dir = tempfile::tempdir()?;
    let mut loaded = Vec::new();
    for (i, block) in blocks.iter().enumerate() {
        let path = dir.path().join(format!("example-{i}.toml"));
        std::fs::write(&path, block)?;
        let config = referee_server::Config::load(Some(&path), &referee_server::config::Overrides::default())
            .map_err(|e| anyhow::anyhow!("block {i} does not load: {e}\n{block}"))?;
        loaded.push(serde_json::to_value(&config.judge)?);
    }
    assert_eq!(loaded[0]["rubric_messages"][0]["role"], "system");
    assert!(loaded[0]["rubric_messages"][1]["content"].as_str().unwrap_or("").contains("{criteria}"));
    assert_eq!(loaded[1]["principle_format"], "rlbff");
    Ok(())
}

#[test]
fn the_page_reader_refuses_what_it_cannot_check() {
    let broken = "<!-- rubric-example: x-rubric -->\n```json\n{not json\n```\n";
    assert!(read_page(broken).is_err());
    let missing = "<!-- rubric-example: x-rubric -->\nno block\n";
    assert!(read_page(missing).is_err());
    let table = "| response | a | score |\n|---|---|---|\n| A | 1 | **1** (`correct`) |\n";
    let page = read_page(table).unwrap_or_default();
    assert_eq!(page.table, [("instructions-response-a".to_owned(), 1.0, "correct".to_owned())]);
    assert!(read_page("| response | a | score |\n|---|---|---|\n| A | yes | **1** (`correct`) |\n").is_err());
}
