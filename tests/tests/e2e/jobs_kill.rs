//! Jobs survive their workers: a replica killed with SIGKILL in the middle of a chunk, or a
//! single process killed and restarted, leaves every item scored exactly once. Another node
//! takes the dead worker's chunks over when their leases expire; the same node, restarted,
//! takes them back at once. The scoring log holds exactly one row per item: none lost with the
//! killed process, none added by a chunk scored again.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use referee_tests::{create_postgres_database, drop_postgres_database, referee_binary};
use serde_json::{Value, json};
use sqlx::Connection as _;

/// A `referee serve` process and its address.
struct Replica {
    child: Child,
    base: String,
}

impl Replica {
    /// Starts a replica on `database_url` as node `node`, with chunk leases of `lease_ms`.
    fn start(database_url: &str, node: &str, lease_ms: u64) -> anyhow::Result<Replica> {
        let mut child = Command::new(referee_binary()?)
            .args(["serve", "--listen", "127.0.0.1:0", "--database-url", database_url])
            .env("REFEREE__JOBS__LEASE_MS", lease_ms.to_string())
            .env("REFEREE__JOBS__NODE_ID", node)
            .env("REFEREE__JOBS__POLL_INTERVAL_MS", "100")
            .env("REFEREE__JOBS__WORKERS", "2")
            .env("REFEREE__LOG__FILTER", "info")
            .env("REFEREE__SCORING_LOG__MODE", "all")
            .env("REFEREE__SANDBOX__CHECK_AT_START", "false")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let stdout = child.stdout.take().ok_or_else(|| anyhow::anyhow!("no stdout"))?;
        let mut lines = BufReader::new(stdout).lines();
        let first = lines.next().transpose()?.unwrap_or_default();
        let addr = first.split("http://").nth(1).map(str::trim).unwrap_or_default().to_owned();
        anyhow::ensure!(!addr.is_empty(), "no address in {first:?}");
        for line in lines.by_ref() {
            if line?.contains("ready to serve") {
                break;
            }
        }
        // Keep draining the log so the process never blocks on a full pipe.
        std::thread::spawn(move || for _ in lines {});
        Ok(Replica { child, base: format!("http://{addr}") })
    }

    fn kill(&mut self) -> anyhow::Result<()> {
        self.child.kill()?;
        self.child.wait()?;
        Ok(())
    }
}

impl Drop for Replica {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `count` items mixing cheap and slower verifiers, so chunks take a while.
fn upload(count: usize) -> String {
    let mut text = String::new();
    for i in 0..count {
        let item = if i % 10 == 0 {
            json!({"id": i.to_string(), "verifier": "math", "input": {"response": format!("\\boxed{{\\frac{{{i}}}{{2}}}}"), "reference": format!("{}", i as f64 / 2.0)}})
        } else {
            json!({"id": i.to_string(), "verifier": "exact-match", "input": {"response": (i % 3).to_string(), "reference": "0"}})
        };
        text.push_str(&item.to_string());
        text.push('\n');
    }
    text
}

async fn submit(client: &reqwest::Client, base: &str, body: String, chunk_size: usize) -> anyhow::Result<String> {
    let response = client
        .post(format!("{base}/v1/jobs?chunk_size={chunk_size}"))
        .header("content-type", "application/x-ndjson")
        .body(body)
        .send()
        .await?;
    anyhow::ensure!(response.status().as_u16() == 201, "submit: {}", response.status());
    let job: Value = response.json().await?;
    Ok(job["id"].as_str().unwrap_or_default().to_owned())
}

async fn wait_done(client: &reqwest::Client, base: &str, id: &str, limit: Duration) -> anyhow::Result<Value> {
    let started = Instant::now();
    while started.elapsed() < limit {
        let job: Value = client.get(format!("{base}/v1/jobs/{id}")).send().await?.json().await?;
        if job["state"] == "done" {
            return Ok(job);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    anyhow::bail!("job {id} did not finish within {limit:?}")
}

/// Every item has exactly one result and one scoring-log row, the stream is complete and in
/// order, and some chunk was taken over from the killed worker.
async fn check_exactly_once(
    client: &reqwest::Client,
    base: &str,
    database_url: &str,
    id: &str,
    count: i64,
) -> anyhow::Result<()> {
    sqlx::any::install_default_drivers();
    let mut conn = sqlx::AnyConnection::connect(database_url).await?;
    let rows: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM job_results").fetch_one(&mut conn).await?;
    let distinct: i64 =
        sqlx::query_scalar("SELECT COUNT(DISTINCT item_index) FROM job_results").fetch_one(&mut conn).await?;
    let retried: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM job_chunks WHERE attempts > 1").fetch_one(&mut conn).await?;
    let (log_rows, log_keys): (i64, i64) =
        sqlx::query_as("SELECT COUNT(*), COUNT(DISTINCT row_key) FROM scoring_log WHERE request_id LIKE $1")
            .bind(format!("{id}:%"))
            .fetch_one(&mut conn)
            .await?;
    conn.close().await?;
    assert_eq!((rows, distinct), (count, count));
    assert_eq!((log_rows, log_keys), (count, count), "one scoring-log row per item");
    assert!(retried >= 1, "the killed worker's chunk was taken over");

    let text = client.get(format!("{base}/v1/jobs/{id}/results")).send().await?.text().await?;
    let mut seen = 0i64;
    for line in text.lines() {
        let result: Value = serde_json::from_str(line)?;
        assert_eq!(result["index"].as_i64(), Some(seen));
        assert_eq!(result["id"].as_str(), Some(seen.to_string().as_str()));
        assert_eq!(result["status"], if seen % 10 == 0 || seen % 3 == 0 { "correct" } else { "incorrect" }, "{result}");
        seen += 1;
    }
    assert_eq!(seen, count);
    Ok(())
}

/// Chunks held by a worker of process `pid`.
async fn held_by(conn: &mut sqlx::AnyConnection, pid: u32) -> anyhow::Result<i64> {
    let pattern = format!("{pid}-%");
    Ok(sqlx::query_scalar("SELECT COUNT(*) FROM job_chunks WHERE state = 'running' AND lease_owner LIKE $1")
        .bind(&pattern)
        .fetch_one(conn)
        .await?)
}

/// Sends `signal` (`STOP`, `CONT`) to process `pid`.
fn signal(pid: u32, signal: &str) -> anyhow::Result<()> {
    let status = Command::new("kill").arg(format!("-{signal}")).arg(pid.to_string()).status()?;
    anyhow::ensure!(status.success(), "kill -{signal} {pid} failed");
    Ok(())
}

/// Kills `replica` with SIGKILL provably in the middle of a chunk: the process is frozen with
/// SIGSTOP, and killed only if, frozen, it still holds a chunk it has not committed (a frozen
/// process cannot finish it; a commit in flight lands before the freeze or never). Otherwise it
/// is thawed and tried again once it holds the next one.
async fn kill_mid_chunk(database_url: &str, replica: &mut Replica) -> anyhow::Result<()> {
    sqlx::any::install_default_drivers();
    let mut conn = sqlx::AnyConnection::connect(database_url).await?;
    let pid = replica.child.id();
    let started = Instant::now();
    loop {
        anyhow::ensure!(started.elapsed() < Duration::from_secs(120), "process {pid} never held a chunk");
        if held_by(&mut conn, pid).await? == 0 {
            tokio::time::sleep(Duration::from_millis(5)).await;
            continue;
        }
        signal(pid, "STOP")?;
        if held_by(&mut conn, pid).await? > 0 {
            replica.kill()?;
            conn.close().await?;
            return Ok(());
        }
        signal(pid, "CONT")?;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killing_one_of_two_postgres_replicas_loses_nothing() -> anyhow::Result<()> {
    const ITEMS: i64 = 100_000;
    let (name, url) = create_postgres_database().await?;
    let client = reqwest::Client::builder().timeout(Duration::from_secs(120)).build()?;
    // Two nodes: the survivor takes the victim's chunks over once their leases expire.
    let survivor = Replica::start(&url, "node-a", 2000)?;
    let mut victim = Replica::start(&url, "node-b", 2000)?;
    let id = submit(&client, &survivor.base, upload(ITEMS as usize), 500).await?;
    kill_mid_chunk(&url, &mut victim).await?;
    let job = wait_done(&client, &survivor.base, &id, Duration::from_secs(600)).await?;
    assert_eq!(job["scored_items"], ITEMS);
    check_exactly_once(&client, &survivor.base, &url, &id, ITEMS).await?;
    drop(survivor);
    drop_postgres_database(&name).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_sqlite_process_resumes_after_restart() -> anyhow::Result<()> {
    const ITEMS: i64 = 30_000;
    // An hour-long lease: the job can finish within the wait below only if the restarted node
    // takes its dead predecessor's chunks back at once.
    const LEASE_MS: u64 = 3_600_000;
    let dir = tempfile::tempdir()?;
    let url = format!("sqlite://{}", dir.path().join("referee.db").display());
    let client = reqwest::Client::builder().timeout(Duration::from_secs(120)).build()?;
    let mut first = Replica::start(&url, "node-a", LEASE_MS)?;
    let id = submit(&client, &first.base, upload(ITEMS as usize), 250).await?;
    kill_mid_chunk(&url, &mut first).await?;
    let second = Replica::start(&url, "node-a", LEASE_MS)?;
    let job = wait_done(&client, &second.base, &id, Duration::from_secs(600)).await?;
    assert_eq!(job["scored_items"], ITEMS);
    check_exactly_once(&client, &second.base, &url, &id, ITEMS).await
}
