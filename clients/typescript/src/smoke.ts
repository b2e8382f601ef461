// Scores a small batch against the server at REFEREE_URL with the typed helper and checks the
// verdicts; CI runs it against a live server (`npm run smoke`).
import { type ScoreRequest, RefereeError, isJudged, score } from "./index.js";

const baseUrl = process.env["REFEREE_URL"] ?? "http://127.0.0.1:8080";

const request: ScoreRequest = {
  items: [
    { id: "a", verifier: "math", input: { response: "so \\boxed{\\frac{1}{2}}", reference: "0.5" } },
    { id: "b", verifier: "exact-match", input: { response: "Lyon", reference: "Paris" } },
    { id: "c", verifier: "multiple-choice", input: { response: "(B)", reference: "B" } },
    { id: "d", verifier: "math", input: { response: "1", reference: "\\frac{" } },
  ],
  timeout_ms: 10_000,
};

function expect(condition: boolean, what: string): void {
  if (!condition) throw new Error(`smoke check failed: ${what}`);
}

const results = await score(baseUrl, request);
expect(results.length === 4, "one result per item");
expect(results.map((r) => r.id).join() === "a,b,c,d", "results in item order");
expect(results.map((r) => r.status).join() === "correct,incorrect,correct,invalid_input", "statuses");
expect(results.map(isJudged).join() === "true,true,true,false", "judged");

try {
  await score(baseUrl, { items: [], timeout_ms: 0 });
  expect(false, "timeout_ms 0 is refused");
} catch (error) {
  expect(error instanceof RefereeError && error.status === 422 && error.body.code === "invalid_body", `422: ${error}`);
}
console.log("smoke: 2 passed, 0 failed");
