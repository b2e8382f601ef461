//! Multi-turn episodes over HTTP: each environment end to end, the transcript in the database,
//! and every way a step can be wrong (unknown, ended, expired, foreign, oversized, hostile), each
//! a clear error that leaves other episodes alone.

use referee_tests::{Backend, TestServer};
use serde_json::{Value, json};

async fn start(server: &TestServer, environment: &str, options: Value) -> anyhow::Result<(String, Value)> {
    let (status, body) = server.post("/v1/episodes", &json!({"environment": environment, "options": options})).await?;
    anyhow::ensure!(status == 201, "start {environment}: {status} {body}");
    let id = body["episode_id"].as_str().unwrap_or_default().to_owned();
    Ok((id, body["observation"].clone()))
}

async fn step(server: &TestServer, id: &str, action: Value) -> anyhow::Result<(u16, Value)> {
    server.post(&format!("/v1/episodes/{id}/step"), &json!({"action": action})).await
}

async fn np_feedback(server: &TestServer) -> anyhow::Result<()> {
    // The reference answer of the same instance, from the instance generator.
    let (_, generated) = server.post("/v1/environments/tsp/instances", &json!({"level": 1, "seed": 7})).await?;
    let instance = &generated["instances"][0];
    let answer = instance["reference"]["answer"].as_str().unwrap_or_default().to_owned();
    let options = json!({"task": "tsp", "level": 1, "seed": 7, "max_turns": 3, "turn_penalty": 0.1});
    let (id, first) = start(server, "np-feedback", options).await?;
    assert_eq!(first["prompt"], instance["prompt"], "the first observation is the instance's prompt");

    let (status, infeasible) = step(server, &id, json!({"response": "Answer: [0, 0, 0]"})).await?;
    assert_eq!(status, 200, "{infeasible}");
    let observation = &infeasible["observation"];
    assert_eq!((infeasible["done"].as_bool(), infeasible["reward"].as_f64()), (Some(false), Some(0.0)));
    assert_eq!(observation["feasible"], false);
    assert!(observation["error"]["kind"].is_string(), "the violation is named: {observation}");
    assert!(observation["feedback"].as_str().unwrap_or_default().contains("2 turns left"), "{observation}");

    let response = format!("Answer: {answer}");
    let (status, feasible) = step(server, &id, json!({"response": response})).await?;
    assert_eq!(status, 200, "{feasible}");
    // The reward is the np verifier's score of the same answer, less one turn's penalty.
    let item =
        json!({"id": "x", "verifier": "np", "input": {"task": "tsp", "level": 1, "seed": 7, "response": response}});
    let (_, scored) = server.post("/v1/score", &json!({"items": [item]})).await?;
    let expected = scored["results"][0]["score"].as_f64().unwrap_or(f64::NAN) - 0.1;
    let reward = feasible["reward"].as_f64().unwrap_or(f64::NAN);
    assert!((reward - expected).abs() < 1e-9, "{reward} vs {expected}");
    assert_eq!((feasible["done"].as_bool(), feasible["status"].as_str()), (Some(true), Some("done")));

    let (status, late) = step(server, &id, json!({"response": response})).await?;
    assert_eq!((status, late["code"].as_str()), (409, Some("episode_ended")), "{late}");

    let (status, transcript) = server.get(&format!("/v1/episodes/{id}")).await?;
    assert_eq!(status, 200, "{transcript}");
    assert_eq!((transcript["status"].as_str(), transcript["turns"].as_u64()), (Some("done"), Some(2)));
    let steps = transcript["steps"].as_array().cloned().unwrap_or_default();
    assert_eq!(steps.len(), 3, "turn 0 and two actions: {transcript}");
    assert_eq!(steps[0]["action"], Value::Null);
    assert_eq!(steps[1]["action"]["response"], "Answer: [0, 0, 0]");
    assert_eq!(steps[2]["reward"], feasible["reward"]);
    Ok(())
}

async fn python_tool(server: &TestServer) -> anyhow::Result<()> {
    let options = json!({
        "prompt": "What is 6 * 7?",
        "answer_check": {"verifier": "math", "input": {"reference": "42"}},
        "max_calls": 6,
        "fuel": 500_000_000,
    });
    let (id, first) = start(server, "python-tool", options).await?;
    assert_eq!(first["prompt"], "What is 6 * 7?");

    let (status, cell) =
        step(server, &id, json!({"code": "import math\nx = 6\ndef f(n):\n    return n * x\nprint('ready')"})).await?;
    assert_eq!(status, 200, "{cell}");
    assert_eq!(
        (cell["observation"]["status"].as_str(), cell["observation"]["stdout"].as_str()),
        (Some("ok"), Some("ready\n"))
    );
    let (_, cell) = step(server, &id, json!({"code": "f(7)"})).await?;
    assert_eq!(cell["observation"]["value"], "42", "state persists: {cell}");
    let (_, cell) = step(server, &id, json!({"code": "1 / 0"})).await?;
    assert_eq!(cell["observation"]["exception"]["type"], "ZeroDivisionError", "{cell}");
    assert_eq!(cell["observation"]["status"], "error");

    // A hostile cell ends the interpreter, not the episode; the next cell starts a fresh one.
    let (_, cell) = step(server, &id, json!({"code": "while True:\n    pass"})).await?;
    let observation = &cell["observation"];
    assert_eq!(
        (observation["status"].as_str(), observation["interpreter_lost"].as_bool()),
        (Some("time_limit"), Some(true)),
        "{cell}"
    );
    let (_, cell) = step(server, &id, json!({"code": "'x' in dir()"})).await?;
    assert_eq!(
        (cell["observation"]["restarted"].as_bool(), cell["observation"]["value"].as_str()),
        (Some(true), Some("False")),
        "{cell}"
    );

    // A malformed action changes nothing and is not a turn.
    let (status, refused) = step(server, &id, json!({"code": "1", "answer": "2"})).await?;
    assert_eq!((status, refused["code"].as_str()), (422, Some("invalid_action")), "{refused}");
    let (_, state) = server.get(&format!("/v1/episodes/{id}/state")).await?;
    assert_eq!(state["turn"], 5, "{state}");

    let (status, answered) = step(server, &id, json!({"answer": "The answer is \\boxed{42}."})).await?;
    assert_eq!(status, 200, "{answered}");
    assert_eq!((answered["reward"].as_f64(), answered["done"].as_bool()), (Some(1.0), Some(true)), "{answered}");
    assert_eq!(answered["observation"]["status"], "correct");
    Ok(())
}

async fn code_repair(server: &TestServer) -> anyhow::Result<()> {
    let options = json!({
        "language": "python",
        "prompt": "Print the sum of two integers.",
        "program": "a, b = map(int, input().split())\nprint(a - b)",
        "tests": [{"stdin": "1 2", "expected_stdout": "3"}, {"stdin": "5 5", "expected_stdout": "10"}],
        "hidden_tests": [{"stdin": "100 23", "expected_stdout": "123"}, {"stdin": "-4 4", "expected_stdout": "0"}],
        "max_attempts": 3,
        "attempt_penalty": 0.25,
    });
    let (id, first) = start(server, "code-repair", options).await?;
    assert_eq!(first["hidden_tests"], 2, "hidden tests are counted, never shown: {first}");
    assert!(!first.to_string().contains("100 23"));

    let (status, wrong) =
        step(server, &id, json!({"program": "a, b = map(int, input().split())\nprint(a - b)"})).await?;
    assert_eq!(status, 200, "{wrong}");
    let failure = &wrong["observation"]["first_failure"];
    assert_eq!((failure["test"].as_u64(), failure["verdict"].as_str()), (Some(0), Some("wrong_answer")), "{wrong}");
    assert_eq!((failure["stdin"].as_str(), failure["expected_stdout"].as_str()), (Some("1 2"), Some("3")));
    assert_eq!(failure["output"], "-1\n", "the actual output is shown");
    assert_eq!(wrong["observation"]["tests"], json!(["wrong_answer", "wrong_answer"]));
    assert_eq!((wrong["done"].as_bool(), wrong["reward"].as_f64()), (Some(false), Some(0.0)));

    let fixed = "Fixed:\n```python\na, b = map(int, input().split())\nprint(a + b)\n```";
    let (status, right) = step(server, &id, json!({"response": fixed})).await?;
    assert_eq!(status, 200, "{right}");
    assert_eq!(right["observation"]["final"]["on"], "hidden_tests");
    assert_eq!(right["observation"]["final"]["passed"], 2);
    assert_eq!((right["done"].as_bool(), right["reward"].as_f64()), (Some(true), Some(0.75)), "{right}");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_environment_end_to_end_on_sqlite() -> anyhow::Result<()> {
    let server = TestServer::start(Backend::Sqlite).await?;
    let (status, listing) = server.get("/v1/episode-environments").await?;
    assert_eq!(status, 200, "{listing}");
    let ids: Vec<&str> =
        listing["environments"].as_array().into_iter().flatten().filter_map(|e| e["id"].as_str()).collect();
    assert_eq!(ids, ["code-repair", "np-feedback", "python-tool"]);
    for environment in listing["environments"].as_array().into_iter().flatten() {
        assert!(environment["options_schema"].is_object() && environment["action_schema"].is_object(), "{environment}");
    }
    np_feedback(&server).await?;
    python_tool(&server).await?;
    code_repair(&server).await?;
    server.finish().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn episodes_on_postgres_and_across_replicas() -> anyhow::Result<()> {
    let first = TestServer::start_with(Backend::Postgres, |c| c.episodes.replica_id = Some("first".into())).await?;
    let second = first.replica(|c| c.episodes.replica_id = Some("second".into())).await?;
    np_feedback(&first).await?;

    let (id, _) = start(&first, "np-feedback", json!({"task": "tsp", "level": 1, "seed": 1})).await?;
    assert!(id.starts_with("ep_first_"), "{id}");
    // A step that reaches another replica is refused, never a silent new episode.
    let (status, misdirected) = step(&second, &id, json!({"response": "Answer: [0]"})).await?;
    assert_eq!((status, misdirected["code"].as_str()), (421, Some("wrong_replica")), "{misdirected}");
    assert!(misdirected["message"].as_str().unwrap_or_default().contains("`first`"), "{misdirected}");
    // Its transcript is readable from any replica.
    let (status, transcript) = second.get(&format!("/v1/episodes/{id}")).await?;
    assert_eq!((status, transcript["status"].as_str()), (200, Some("live")), "{transcript}");
    let (status, _) = step(&first, &id, json!({"response": "Answer: [0]"})).await?;
    assert_eq!(status, 200);

    // Closing ends it; closing again says how it ended.
    assert_eq!(first.delete(&format!("/v1/episodes/{id}")).await?, 200);
    let (status, late) = step(&first, &id, json!({"response": "Answer: [0]"})).await?;
    assert_eq!((status, late["code"].as_str()), (409, Some("episode_ended")), "{late}");
    let (status, transcript) = second.get(&format!("/v1/episodes/{id}")).await?;
    assert_eq!((status, transcript["status"].as_str(), transcript["turns"].as_u64()), (200, Some("closed"), Some(1)));
    assert_eq!(first.delete(&format!("/v1/episodes/{id}")).await?, 200);
    second.finish().await?;
    first.finish().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_steps_are_clear_errors_and_leave_other_episodes_alone() -> anyhow::Result<()> {
    let server = TestServer::start_with(Backend::Sqlite, |c| {
        c.episodes.idle_timeout_ms = 1500;
        c.episodes.max_action_bytes = 4096;
    })
    .await?;
    let (status, body) = server.post("/v1/episodes", &json!({"environment": "chess", "options": {}})).await?;
    assert_eq!((status, body["code"].as_str()), (404, Some("unknown_environment")), "{body}");
    let (status, body) =
        server.post("/v1/episodes", &json!({"environment": "np-feedback", "options": {"task": "tsp"}})).await?;
    assert_eq!((status, body["code"].as_str()), (422, Some("invalid_options")), "{body}");
    let bad_check = json!({"answer_check": {"verifier": "nope", "input": {}}});
    let (status, body) =
        server.post("/v1/episodes", &json!({"environment": "python-tool", "options": bad_check})).await?;
    assert_eq!((status, body["code"].as_str()), (422, Some("invalid_options")), "{body}");

    let (status, body) = step(&server, "ep_nowhere_00", json!({})).await?;
    assert_eq!((status, body["code"].as_str()), (421, Some("wrong_replica")), "{body}");
    let (status, body) = step(&server, "not-an-episode", json!({})).await?;
    assert_eq!((status, body["code"].as_str()), (404, Some("unknown_episode")), "{body}");

    let (tool, _) = start(&server, "python-tool", json!({"fuel": 5_000_000_000u64, "memory_mb": 128})).await?;
    let (other, _) = start(&server, "python-tool", json!({})).await?;
    let (_, set) = step(&server, &other, json!({"code": "kept = 'still here'"})).await?;
    assert_eq!(set["observation"]["status"], "ok", "{set}");
    let (status, body) = step(&server, &tool, json!({"code": "x".repeat(5000)})).await?;
    assert_eq!((status, body["code"].as_str()), (413, Some("action_too_large")), "{body}");
    // Hostile cells: a memory bomb, an output flood, the host's files; clean observations each.
    for (code, status) in [
        ("b = []\nwhile True:\n    b.append(bytearray(1 << 24))", "memory_limit"),
        ("while True:\n    print('y' * 1000)", "output_limit"),
        ("open('/etc/passwd').read()", "error"),
        ("import socket\nsocket.create_connection(('127.0.0.1', 5432))", "error"),
    ] {
        let (code_status, body) = step(&server, &tool, json!({"code": code})).await?;
        assert_eq!(code_status, 200, "{code}: {body}");
        assert_eq!(body["observation"]["status"], status, "{code}: {body}");
    }
    let (_, kept) = step(&server, &other, json!({"code": "kept"})).await?;
    assert_eq!(kept["observation"]["value"], "'still here'", "the other episode is untouched: {kept}");

    // An episode left idle past the timeout ends (its record says so; reading it is no step);
    // a late step says so too.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let (status, episode) = server.get(&format!("/v1/episodes/{other}")).await?;
        assert_eq!(status, 200, "{episode}");
        if episode["status"] != "live" {
            assert_eq!(episode["status"], "expired", "{episode}");
            break;
        }
        anyhow::ensure!(std::time::Instant::now() < deadline, "the idle episode never ended: {episode}");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let (status, late) = step(&server, &other, json!({"code": "kept"})).await?;
    assert_eq!((status, late["code"].as_str()), (409, Some("episode_ended")), "{late}");
    assert!(late["message"].as_str().unwrap_or_default().contains("expired"), "{late}");
    server.finish().await
}
