//! Scoped API keys over real sockets: roles per route group, jobs visible only to the key that
//! submitted them, per-key rate limits and daily item quotas, plain keys, and no keys at all.

use referee_server::config::{Config, ScopedKeyConfig};
use referee_server::http::auth::Role;
use referee_tests::{Backend, TestServer, api_on_both_backends, exact_item, on_both_backends};
use serde_json::{Value, json};

const SCORER: &str = "scorer-key-0123456789";
const ALICE: &str = "alice-jobs-key-0123456789";
const BOB: &str = "bob-jobs-key-0123456789";
const ADMIN: &str = "admin-key-0123456789";

fn key(name: &str, key: &str, roles: &[Role]) -> ScopedKeyConfig {
    ScopedKeyConfig { name: name.to_owned(), key: Some(key.to_owned()), roles: roles.to_vec(), ..Default::default() }
}

/// A scorer, two job submitters and an administrator.
fn four_keys(config: &mut Config) {
    config.auth.keys = vec![
        key("scorer", SCORER, &[Role::Score]),
        key("alice", ALICE, &[Role::Jobs]),
        key("bob", BOB, &[Role::Jobs]),
        ScopedKeyConfig {
            digest: Some(referee_server::http::auth::digest_form(ADMIN)),
            key: None,
            ..key("admin", "", &[Role::Admin])
        },
    ];
    config.jobs.poll_interval_ms = 50;
}

/// One response: status, `Retry-After`, and the JSON body (Null when it is not JSON).
struct Answer {
    status: u16,
    retry_after: Option<u64>,
    body: Value,
}

async fn call(
    server: &TestServer,
    method: &str,
    path: &str,
    key: Option<&str>,
    body: Option<&Value>,
) -> anyhow::Result<Answer> {
    let method = reqwest::Method::from_bytes(method.as_bytes())?;
    let mut request = server.client.request(method, server.url(path));
    if let Some(key) = key {
        request = request.bearer_auth(key);
    }
    if let Some(body) = body {
        request = request.json(body);
    }
    let response = request.send().await?;
    let status = response.status().as_u16();
    let retry_after = response.headers().get("retry-after").and_then(|v| v.to_str().ok()?.parse().ok());
    let text = response.text().await?;
    Ok(Answer { status, retry_after, body: serde_json::from_str(&text).unwrap_or(Value::Null) })
}

async fn submit(server: &TestServer, key: Option<&str>, items: usize) -> anyhow::Result<Answer> {
    let lines: Vec<String> = (0..items).map(|i| exact_item(&i.to_string(), "a", "a").to_string()).collect();
    let mut request = server.client.post(server.url("/v1/jobs")).header("content-type", "application/x-ndjson");
    if let Some(key) = key {
        request = request.bearer_auth(key);
    }
    let response = request.body(lines.join("\n")).send().await?;
    let status = response.status().as_u16();
    let retry_after = response.headers().get("retry-after").and_then(|v| v.to_str().ok()?.parse().ok());
    Ok(Answer { status, retry_after, body: response.json().await? })
}

fn score_body(items: usize) -> Value {
    json!({"items": (0..items).map(|i| exact_item(&i.to_string(), "a", "a")).collect::<Vec<_>>()})
}

/// Asserts a 403 `forbidden` that names the role.
fn forbidden(answer: &Answer, role: &str) {
    assert_eq!((answer.status, answer.body["code"].as_str()), (403, Some("forbidden")), "{}", answer.body);
    let message = answer.body["message"].as_str().unwrap_or("");
    assert!(message.contains(&format!("`{role}`")), "{message}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn roles_are_enforced_per_route_group() -> anyhow::Result<()> {
    let server = TestServer::start_with(Backend::Sqlite, four_keys).await?;
    let noise = json!({"configured": {"rho0": 0.05, "rho1": 0.2}});
    let reload = json!({"model_dir": "/nowhere"});

    // A score key scores, lists and reads, and takes a training run's steps ...
    assert_eq!(call(&server, "POST", "/v1/score", Some(SCORER), Some(&score_body(2))).await?.status, 200);
    assert_eq!(call(&server, "GET", "/v1/verifiers", Some(SCORER), None).await?.status, 200);
    assert_eq!(call(&server, "GET", "/v1/noise", Some(SCORER), None).await?.status, 200);
    let reward = json!({"query": ["a"], "labels": ["a"]});
    assert_eq!(
        call(&server, "POST", "/get_reward?verifier=exact-match", Some(SCORER), Some(&reward)).await?.status,
        200
    );
    // ... but cannot change a noise model, reload RLPR, submit or cancel jobs.
    forbidden(&call(&server, "PUT", "/v1/noise/exact-match", Some(SCORER), Some(&noise)).await?, "admin");
    forbidden(&call(&server, "DELETE", "/v1/noise/exact-match", Some(SCORER), None).await?, "admin");
    forbidden(&call(&server, "POST", "/v1/reward-models/rlpr/reload", Some(SCORER), Some(&reload)).await?, "admin");
    forbidden(&call(&server, "DELETE", "/v1/reward-models/rlpr/runs/r1", Some(SCORER), None).await?, "admin");
    forbidden(&call(&server, "POST", "/v1/rubrics", Some(SCORER), Some(&json!({}))).await?, "admin");
    forbidden(&submit(&server, Some(SCORER), 2).await?, "jobs");

    // A jobs key submits, but does not score.
    let job = submit(&server, Some(ALICE), 3).await?;
    assert_eq!(job.status, 201, "{}", job.body);
    let id = job.body["id"].as_str().unwrap_or_default().to_owned();
    forbidden(&call(&server, "DELETE", &format!("/v1/jobs/{id}"), Some(SCORER), None).await?, "jobs");
    forbidden(&call(&server, "POST", "/v1/score", Some(ALICE), Some(&score_body(1))).await?, "score");
    forbidden(&call(&server, "POST", "/get_reward?verifier=exact-match", Some(ALICE), Some(&reward)).await?, "score");

    // The admin key reaches all of it: the reload fails only because no local model is set.
    let put = call(&server, "PUT", "/v1/noise/exact-match", Some(ADMIN), Some(&noise)).await?;
    assert_eq!(put.status, 200, "{}", put.body);
    let reloaded = call(&server, "POST", "/v1/reward-models/rlpr/reload", Some(ADMIN), Some(&reload)).await?;
    assert_eq!((reloaded.status, reloaded.body["code"].as_str()), (409, Some("not_reloadable")), "{}", reloaded.body);
    assert_eq!(call(&server, "GET", &format!("/v1/jobs/{id}"), Some(ADMIN), None).await?.status, 200);
    assert_eq!(call(&server, "DELETE", &format!("/v1/jobs/{id}"), Some(ADMIN), None).await?.status, 200);
    assert_eq!(call(&server, "POST", "/v1/score", Some(ADMIN), Some(&score_body(1))).await?.status, 200);

    // Refusals are counted by reason and key name; no key appears in the metrics.
    let metrics = server.client.get(server.url("/metrics")).send().await?.text().await?;
    let forbidden_lines: Vec<&str> = metrics
        .lines()
        .filter(|l| l.starts_with("referee_auth_refusals_total") && l.contains(r#"reason="forbidden""#))
        .collect();
    assert!(forbidden_lines.iter().any(|l| l.contains(r#"key="scorer""#)), "{metrics}");
    assert!(forbidden_lines.iter().any(|l| l.contains(r#"key="alice""#)), "{metrics}");
    for secret in [SCORER, ALICE, BOB, ADMIN] {
        assert!(!metrics.contains(secret));
    }
    server.finish().await
}

on_both_backends!(a_key_sees_only_its_own_jobs, |backend| async move {
    let server = TestServer::start_with(backend, four_keys).await?;
    let job = submit(&server, Some(ALICE), 4).await?;
    assert_eq!(job.status, 201, "{}", job.body);
    let id = job.body["id"].as_str().unwrap_or_default().to_owned();
    assert_eq!(server.query_i64("SELECT COUNT(*) FROM jobs WHERE owner = 'alice'").await?, 1);

    // Another jobs key gets exactly what an unknown id gets.
    let unknown = call(&server, "GET", "/v1/jobs/job_0000000000000000", Some(BOB), None).await?;
    assert_eq!((unknown.status, unknown.body["code"].as_str()), (404, Some("unknown_job")));
    for (method, path) in [
        ("GET", format!("/v1/jobs/{id}")),
        ("GET", format!("/v1/jobs/{id}/results")),
        ("DELETE", format!("/v1/jobs/{id}")),
    ] {
        let answer = call(&server, method, &path, Some(BOB), None).await?;
        assert_eq!((answer.status, answer.body["code"].as_str()), (404, Some("unknown_job")), "{method} {path}");
    }
    // Listings: each jobs key sees its own jobs, newest first, a page at a time; admin sees all.
    let second = submit(&server, Some(ALICE), 2).await?;
    let second_id = second.body["id"].as_str().unwrap_or_default().to_owned();
    let bobs = submit(&server, Some(BOB), 3).await?;
    let bobs_id = bobs.body["id"].as_str().unwrap_or_default().to_owned();
    let listed = |answer: &Answer| -> Vec<String> {
        answer.body["jobs"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|j| j["id"].as_str().map(str::to_owned))
            .collect()
    };
    let alices = call(&server, "GET", "/v1/jobs", Some(ALICE), None).await?;
    assert_eq!(alices.status, 200, "{}", alices.body);
    assert_eq!(listed(&alices).len(), 2);
    assert!(listed(&alices).contains(&id) && listed(&alices).contains(&second_id), "{}", alices.body);
    assert!(alices.body["jobs"][0]["total_items"].as_u64().is_some(), "{}", alices.body);
    assert_eq!(listed(&call(&server, "GET", "/v1/jobs", Some(BOB), None).await?), vec![bobs_id.clone()]);
    let first_page = call(&server, "GET", "/v1/jobs?limit=2", Some(ADMIN), None).await?;
    assert_eq!(
        (listed(&first_page).len(), first_page.body["next_offset"].as_u64()),
        (2, Some(2)),
        "{}",
        first_page.body
    );
    let last_page = call(&server, "GET", "/v1/jobs?limit=2&offset=2", Some(ADMIN), None).await?;
    assert_eq!((listed(&last_page).len(), last_page.body["next_offset"].as_u64()), (1, None), "{}", last_page.body);
    let mut all = [listed(&first_page), listed(&last_page)].concat();
    let created: Vec<i64> = [&first_page, &last_page]
        .iter()
        .flat_map(|page| page.body["jobs"].as_array().into_iter().flatten().filter_map(|j| j["created_at_ms"].as_i64()))
        .collect();
    assert!(created.windows(2).all(|w| w[0] >= w[1]), "newest first: {created:?}");
    all.sort();
    let mut submitted = vec![id.clone(), second_id, bobs_id];
    submitted.sort();
    assert_eq!(all, submitted);
    let refused = call(&server, "GET", "/v1/jobs?limit=0", Some(ADMIN), None).await?;
    assert_eq!((refused.status, refused.body["code"].as_str()), (422, Some("invalid_query")));
    assert_eq!(call(&server, "GET", "/v1/jobs", Some(SCORER), None).await?.status, 403);

    // Bob's cancel did nothing; Alice reads and cancels her own job.
    let mine = call(&server, "GET", &format!("/v1/jobs/{id}"), Some(ALICE), None).await?;
    assert_eq!(mine.status, 200, "{}", mine.body);
    assert_ne!(mine.body["state"], "cancelled");
    assert_eq!(call(&server, "GET", &format!("/v1/jobs/{id}/results"), Some(ALICE), None).await?.status, 200);
    let cancelled = call(&server, "DELETE", &format!("/v1/jobs/{id}"), Some(ALICE), None).await?;
    assert_eq!(cancelled.status, 200, "{}", cancelled.body);

    // A job without an owner (stored before keys had names) is seen by admin keys only.
    assert_eq!(server.execute("UPDATE jobs SET owner = NULL WHERE owner = 'alice'").await?, 2);
    assert_eq!(call(&server, "GET", &format!("/v1/jobs/{id}"), Some(ALICE), None).await?.status, 404);
    assert_eq!(call(&server, "GET", &format!("/v1/jobs/{id}"), Some(ADMIN), None).await?.status, 200);
    server.finish().await
});

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spent_request_rate_is_429_with_retry_after() -> anyhow::Result<()> {
    let server = TestServer::start_with(Backend::Sqlite, |config| {
        config.auth.keys = vec![
            // One token per 100 s: the bucket cannot refill while the test runs.
            ScopedKeyConfig { requests_per_second: Some(0.01), burst: Some(2), ..key("slow", SCORER, &[Role::Score]) },
            key("other", ADMIN, &[Role::Score]),
        ];
    })
    .await?;
    for _ in 0..2 {
        assert_eq!(call(&server, "GET", "/v1/verifiers", Some(SCORER), None).await?.status, 200);
    }
    let limited = call(&server, "POST", "/v1/score", Some(SCORER), Some(&score_body(1))).await?;
    assert_eq!((limited.status, limited.body["code"].as_str()), (429, Some("rate_limited")), "{}", limited.body);
    assert!(limited.retry_after.is_some_and(|secs| (1..=100).contains(&secs)), "{:?}", limited.retry_after);
    // The bucket is the key's own.
    assert_eq!(call(&server, "GET", "/v1/verifiers", Some(ADMIN), None).await?.status, 200);
    server.finish().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_daily_quota_counts_scored_items() -> anyhow::Result<()> {
    let server = TestServer::start_with(Backend::Sqlite, |config| {
        config.auth.keys = vec![
            ScopedKeyConfig { max_items_per_day: Some(5), ..key("scorer", SCORER, &[Role::Score]) },
            ScopedKeyConfig { max_items_per_day: Some(2), ..key("trainer", ADMIN, &[Role::Score]) },
            ScopedKeyConfig { max_items_per_day: Some(3), ..key("alice", ALICE, &[Role::Jobs]) },
        ];
    })
    .await?;
    // A refused request is not charged: 4 items in a body the handler refuses ...
    let mut bad = score_body(4);
    bad["timeout_ms"] = json!(0);
    assert_eq!(call(&server, "POST", "/v1/score", Some(SCORER), Some(&bad)).await?.status, 422);
    // ... so 3 of 5 fit, then 3 more do not, and 2 do.
    assert_eq!(call(&server, "POST", "/v1/score", Some(SCORER), Some(&score_body(3))).await?.status, 200);
    let over = call(&server, "POST", "/v1/verifiers/exact-match/score", Some(SCORER), Some(&score_body(3))).await?;
    assert_eq!((over.status, over.body["code"].as_str()), (429, Some("quota_exceeded")), "{}", over.body);
    assert!(over.retry_after.is_some_and(|secs| (1..=86_400).contains(&secs)), "{:?}", over.retry_after);
    assert_eq!(call(&server, "POST", "/v1/score", Some(SCORER), Some(&score_body(2))).await?.status, 200);
    let spent = call(&server, "POST", "/v1/score", Some(SCORER), Some(&score_body(0))).await?;
    assert_eq!(spent.body["code"].as_str(), Some("quota_exceeded"));
    // Listing is not charged.
    assert_eq!(call(&server, "GET", "/v1/verifiers", Some(SCORER), None).await?.status, 200);

    // OpenRLHF queries count as items.
    let reward = json!({"query": ["a", "b", "c"], "labels": ["a", "b", "c"]});
    let over = call(&server, "POST", "/get_reward?verifier=exact-match", Some(ADMIN), Some(&reward)).await?;
    assert_eq!(over.body["code"].as_str(), Some("quota_exceeded"), "{}", over.body);

    // A job over the quota is refused and not stored; one within it is.
    let over = submit(&server, Some(ALICE), 4).await?;
    assert_eq!((over.status, over.body["code"].as_str()), (429, Some("quota_exceeded")), "{}", over.body);
    assert_eq!(server.query_i64("SELECT COUNT(*) FROM jobs").await?, 0);
    assert_eq!(submit(&server, Some(ALICE), 3).await?.status, 201);
    assert_eq!(submit(&server, Some(ALICE), 1).await?.body["code"].as_str(), Some("quota_exceeded"));

    let metrics = server.client.get(server.url("/metrics")).send().await?.text().await?;
    assert!(metrics.lines().any(|l| l.starts_with("referee_auth_refusals_total")
        && l.contains(r#"reason="quota_exceeded""#)
        && l.contains(r#"key="scorer""#)));
    server.finish().await
}

/// The quota is counted in the database: a second replica on the same database and a restarted
/// server charge the same day's count, and concurrent charges through both replicas never pass
/// the limit together.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_daily_quota_holds_across_replicas_and_restarts() -> anyhow::Result<()> {
    let keys = |config: &mut Config| {
        config.auth.keys =
            vec![ScopedKeyConfig { max_items_per_day: Some(20), ..key("scorer", SCORER, &[Role::Score]) }];
    };
    let mut first = TestServer::start_with(Backend::Postgres, keys).await?;
    let second = first.replica(keys).await?;
    assert_eq!(call(&first, "POST", "/v1/score", Some(SCORER), Some(&score_body(8))).await?.status, 200);
    let over = call(&second, "POST", "/v1/score", Some(SCORER), Some(&score_body(13))).await?;
    assert_eq!((over.status, over.body["code"].as_str()), (429, Some("quota_exceeded")), "8 + 13 > 20: {}", over.body);
    assert_eq!(call(&second, "POST", "/v1/score", Some(SCORER), Some(&score_body(4))).await?.status, 200);
    // 12 of 20 charged. 16 one-item requests at once, half through each replica: exactly 8 fit.
    let one = score_body(1);
    let requests = (0..16).map(|i| {
        let server = if i % 2 == 0 { &first } else { &second };
        call(server, "POST", "/v1/score", Some(SCORER), Some(&one))
    });
    let answers = futures::future::try_join_all(requests).await?;
    let served = answers.iter().filter(|a| a.status == 200).count();
    let refused = answers.iter().filter(|a| a.body["code"].as_str() == Some("quota_exceeded")).count();
    assert_eq!((served, refused), (8, 8), "{:?}", answers.iter().map(|a| a.status).collect::<Vec<_>>());
    assert_eq!(first.query_i64("SELECT items FROM key_usage WHERE key_name = 'scorer'").await?, 20);
    // A restart keeps the day's count.
    first.stop().await?;
    let restarted = second.replica(keys).await?;
    let spent = call(&restarted, "POST", "/v1/score", Some(SCORER), Some(&score_body(0))).await?;
    assert_eq!(spent.body["code"].as_str(), Some("quota_exceeded"), "{}", spent.body);
    restarted.finish().await?;
    second.finish().await?;
    first.finish().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plain_keys_score_and_submit_jobs_but_do_not_administer() -> anyhow::Result<()> {
    let server = TestServer::start_with(Backend::Sqlite, |config| {
        config.auth.api_keys = vec![SCORER.to_owned(), referee_server::http::auth::digest_form(ALICE)];
    })
    .await?;
    for plain in [SCORER, ALICE] {
        assert_eq!(call(&server, "POST", "/v1/score", Some(plain), Some(&score_body(1))).await?.status, 200);
        let job = submit(&server, Some(plain), 2).await?;
        assert_eq!(job.status, 201, "{}", job.body);
        let id = job.body["id"].as_str().unwrap_or_default();
        assert_eq!(call(&server, "GET", &format!("/v1/jobs/{id}"), Some(plain), None).await?.status, 200);
        let noise = json!({"configured": {"rho0": 0.05, "rho1": 0.2}});
        forbidden(&call(&server, "PUT", "/v1/noise/exact-match", Some(plain), Some(&noise)).await?, "admin");
    }
    // Each plain key owns its jobs under a name derived from its digest.
    assert_eq!(server.query_i64("SELECT COUNT(DISTINCT owner) FROM jobs WHERE owner LIKE 'key-%'").await?, 2);
    assert_eq!(call(&server, "POST", "/v1/score", None, Some(&score_body(1))).await?.status, 401);
    server.finish().await
}

api_on_both_backends!(without_keys_everything_is_open, |backend| async move {
    let server = TestServer::start_with(backend, |config| config.jobs.poll_interval_ms = 50).await?;
    let noise = json!({"configured": {"rho0": 0.05, "rho1": 0.2}});
    assert_eq!(call(&server, "PUT", "/v1/noise/exact-match", None, Some(&noise)).await?.status, 200);
    assert_eq!(call(&server, "POST", "/v1/score", None, Some(&score_body(1))).await?.status, 200);
    let job = submit(&server, None, 2).await?;
    assert_eq!(job.status, 201, "{}", job.body);
    let id = job.body["id"].as_str().unwrap_or_default();
    assert_eq!(call(&server, "GET", &format!("/v1/jobs/{id}"), None, None).await?.status, 200);
    assert_eq!(call(&server, "DELETE", &format!("/v1/jobs/{id}"), None, None).await?.status, 200);
    assert_eq!(server.query_i64("SELECT COUNT(*) FROM jobs WHERE owner IS NULL").await?, 1);
    server.finish().await
});

/// The console's page and assets load without a key (they hold no data); what the page shows
/// comes from `/v1`, which still needs one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_console_loads_without_a_key_and_its_data_needs_one() -> anyhow::Result<()> {
    let server = TestServer::start_with(Backend::Sqlite, four_keys).await?;
    for (path, content_type) in [
        ("/console", "text/html; charset=utf-8"),
        ("/console/console.js", "text/javascript; charset=utf-8"),
        ("/console/console.css", "text/css; charset=utf-8"),
    ] {
        let response = server.client.get(server.url(path)).send().await?;
        assert_eq!(response.status().as_u16(), 200, "{path}");
        let headers = response.headers();
        assert_eq!(headers.get("content-type").and_then(|v| v.to_str().ok()), Some(content_type), "{path}");
        let policy = headers.get("content-security-policy").and_then(|v| v.to_str().ok()).unwrap_or_default();
        assert!(policy.contains("script-src 'self'") && policy.contains("connect-src 'self'"), "{policy}");
        assert!(!response.bytes().await?.is_empty(), "{path}");
    }
    let page = server.client.get(server.url("/console")).send().await?.text().await?;
    assert!(page.contains(r#"<script src="/console/console.js">"#), "{page}");
    let redirect = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()?
        .get(server.url("/console/"))
        .send()
        .await?;
    assert_eq!(redirect.status().as_u16(), 308);
    assert_eq!(redirect.headers().get("location").and_then(|v| v.to_str().ok()), Some("/console"));

    assert_eq!(call(&server, "GET", "/v1/runs", None, None).await?.status, 401);
    assert_eq!(call(&server, "GET", "/v1/runs", Some(SCORER), None).await?.status, 200);
    assert_eq!(call(&server, "GET", "/console/missing.js", None, None).await?.body["code"], "not_found");
    Ok(())
}
