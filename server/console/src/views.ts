// The console's pages, one function each: it fetches what it shows and returns the elements.

import { ApiError, get, segment, type Schemas } from "./api";
import { lineChart, type Series } from "./charts";
import { type Child, h, interval, link, num, percent, table, time } from "./dom";

type RunStats = Schemas["RunStats"];
type VerifierStep = Schemas["VerifierStep"];

export async function runs(): Promise<Node[]> {
  const list = await get<Schemas["RunList"]>("/v1/runs", { limit: 200 });
  if (list.runs.length === 0) {
    return [h("h2", {}, "Runs"), h("p", {}, "No runs yet: score items with a `run` and a `step` to see one here.")];
  }
  const rows = list.runs.map((run) => [
    link(`#/runs/${segment(run.run)}`, run.run),
    `${run.first_step} – ${run.last_step}`,
    run.items,
    time(run.updated_at_ms),
  ]);
  return [h("h2", {}, "Runs"), table("runs", ["Run", "Steps", "Items", "Updated"], rows)];
}

/** Each verifier's value of `pick` at every step of `stats` (null where it has no items). */
function perStep(stats: RunStats, verifier: string, pick: (v: VerifierStep) => number | null): (number | null)[] {
  return stats.steps.map((step) => {
    const cell = step.verifiers.find((v) => v.verifier === verifier);
    return cell ? pick(cell) : null;
  });
}

export async function run(name: string, params: URLSearchParams): Promise<Node[]> {
  const path = `/v1/runs/${segment(name)}`;
  const sort = params.get("sort") ?? "pass_rate";
  const range = { from_step: params.get("from_step") ?? undefined, to_step: params.get("to_step") ?? undefined };
  const [stats, prompts] = await Promise.all([
    // A range too large to summarise still shows the prompts, and the form to narrow it.
    get<RunStats>(`${path}/stats`, range).catch((error: unknown) =>
      error instanceof ApiError && error.code === "range_too_large" ? error : Promise.reject(error),
    ),
    get<Schemas["PromptList"]>(`${path}/prompts`, {
      sort,
      order: params.get("order") ?? "asc",
      min_pass_rate: params.get("min_pass_rate") ?? undefined,
      max_pass_rate: params.get("max_pass_rate") ?? undefined,
      limit: 200,
    }),
  ]);
  const nodes: Node[] = [
    h("h2", {}, `Run ${name}`),
    h("p", {}, link(`#/runs/${segment(name)}/samples`, "Verdicts kept with their text")),
    stepRange(name, params),
  ];
  if (stats instanceof ApiError) {
    nodes.push(h("p", { class: "error", "data-test": "error" }, `${stats.message} (the steps above).`));
  } else {
    nodes.push(...statistics(stats));
  }
  nodes.push(h("h3", {}, `Prompts (${prompts.total})`), promptFilter(name, params, sort));
  nodes.push(
    table(
      "prompts",
      ["Prompt", "Attempts", "Successes", "Pass rate", "Mean score", "Last step", "At last step"],
      prompts.prompts.map((p) => [
        p.prompt_id,
        p.attempts,
        p.successes,
        percent(p.pass_rate),
        num(p.mean_score),
        p.last_step,
        `${p.last_successes} / ${p.last_attempts}`,
      ]),
    ),
  );
  return nodes;
}

/** A run's statistics over its steps: the summary with intervals, the plots, the last step. */
function statistics(stats: RunStats): Node[] {
  const steps = stats.steps.map((s) => s.step);
  const verifiers = [...new Set(stats.steps.flatMap((s) => s.verifiers.map((v) => v.verifier)))].sort();
  const nodes: Node[] = [
    h("p", {}, `${stats.items} items, steps ${stats.first_step ?? "–"} to ${stats.last_step ?? "–"}`),
  ];

  nodes.push(
    h("h3", {}, "Across steps"),
    table(
      "summary",
      ["Verifier", "Unit", "Units", "Mean [95% CI]", "IQM [95% CI]", "Pass rate [95% CI]"],
      stats.summary.map((s) => [s.verifier, s.unit, s.units, interval(s.mean), interval(s.iqm), interval(s.pass_rate)]),
    ),
  );

  const charts = h("div", { class: "charts" });
  for (const verifier of verifiers) {
    charts.append(
      lineChart(`reward-${verifier}`, `${verifier}: reward and pass rate`, steps, [
        { label: "mean reward", values: perStep(stats, verifier, (v) => v.mean) },
        { label: "pass rate", values: perStep(stats, verifier, (v) => v.pass_rate ?? null), dashed: true },
      ]),
    );
    const statuses = [
      ...new Set(
        stats.steps
          .flatMap((s) => s.verifiers.filter((v) => v.verifier === verifier))
          .flatMap((v) => Object.keys(v.statuses)),
      ),
    ].sort();
    const mix: Series[] = statuses.map((status) => ({
      label: status,
      values: perStep(stats, verifier, (v) => (v.count > 0 ? (v.statuses[status] ?? 0) / v.count : null)),
    }));
    charts.append(lineChart(`statuses-${verifier}`, `${verifier}: status mix`, steps, mix));
    charts.append(
      lineChart(`latency-${verifier}`, `${verifier}: latency (ms)`, steps, [
        { label: "p50", values: perStep(stats, verifier, (v) => v.latency.p50_ms) },
        { label: "p95", values: perStep(stats, verifier, (v) => v.latency.p95_ms) },
      ]),
    );
  }
  const ks = [...new Set(stats.steps.flatMap((s) => s.groups?.pass_at_k.map((p) => p.k) ?? []))].sort((a, b) => a - b);
  if (ks.length > 0) {
    charts.append(
      lineChart(
        "pass-at-k",
        "pass@k by group",
        steps,
        ks.map((k) => ({
          label: `pass@${k}`,
          values: stats.steps.map((s) => s.groups?.pass_at_k.find((p) => p.k === k)?.value ?? null),
        })),
      ),
    );
  }
  nodes.push(h("h3", {}, "Over steps"), charts);

  const last = stats.steps[stats.steps.length - 1];
  if (last) {
    nodes.push(
      h("h3", {}, `Step ${last.step}`),
      table(
        "last-step",
        [
          "Verifier",
          "Items",
          "Mean",
          "Std",
          "p05",
          "p50",
          "p95",
          "Pass rate",
          "internal_error",
          "timeout",
          "unparseable",
          "p95 latency",
        ],
        last.verifiers.map((v) => [
          v.verifier,
          v.count,
          num(v.mean),
          num(v.std),
          num(v.quantiles.p05),
          num(v.quantiles.p50),
          num(v.quantiles.p95),
          percent(v.pass_rate),
          alarm(v.rates.internal_error),
          alarm(v.rates.timeout),
          alarm(v.rates.unparseable),
          `${num(v.latency.p95_ms, 1)} ms`,
        ]),
      ),
    );
  }
  return nodes;
}

/** A rate that signals a broken verifier or a format collapse stands out when it is not zero. */
function alarm(rate: number): HTMLElement {
  return h("span", rate > 0 ? { class: "alarm" } : {}, percent(rate));
}

/** A form over a page's query: submitting it goes to `page` with the other fields of `params`
 *  kept (and `offset` dropped: new filters start at the first page). */
function queryForm(page: string, params: URLSearchParams, test: string, ...children: Child[]): HTMLFormElement {
  const form = h("form", { class: "filter", "data-test": test }, ...children, h("button", { type: "submit" }, "Show"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const query = new URLSearchParams(params);
    query.delete("offset");
    for (const [field, value] of new FormData(form)) {
      if (typeof value === "string" && value) query.set(field, value);
      else query.delete(field);
    }
    location.hash = `${page}?${query}`;
  });
  return form;
}

function runForm(name: string, params: URLSearchParams, test: string, ...children: Child[]): HTMLFormElement {
  return queryForm(`#/runs/${segment(name)}`, params, test, ...children);
}

/** A `<select name>` of `options` with an empty first choice labelled `any`. */
function choice(params: URLSearchParams, name: string, options: string[]): HTMLSelectElement {
  const select = h("select", { name }, h("option", { value: "" }, "any"));
  for (const option of options) {
    select.append(
      h("option", option === params.get(name) ? { value: option, selected: "" } : { value: option }, option),
    );
  }
  return select;
}

function field(params: URLSearchParams, name: string, placeholder: string): HTMLInputElement {
  return h("input", { name, placeholder, size: "8", value: params.get(name) ?? "" });
}

function stepRange(name: string, params: URLSearchParams): HTMLFormElement {
  const from = field(params, "from_step", "first");
  return runForm(name, params, "step-range", "steps from ", from, " to ", field(params, "to_step", "last"));
}

function promptFilter(name: string, params: URLSearchParams, sort: string): HTMLFormElement {
  const select = h("select", { name: "sort" });
  for (const option of ["pass_rate", "attempts", "last_step", "prompt_id"]) {
    select.append(h("option", option === sort ? { value: option, selected: "" } : { value: option }, option));
  }
  return runForm(
    name,
    params,
    "prompt-filter",
    "pass rate from ",
    field(params, "min_pass_rate", "0"),
    " to ",
    field(params, "max_pass_rate", "1"),
    " sorted by ",
    select,
  );
}

const STATUSES: Schemas["Status"][] = [
  "correct",
  "partial",
  "incorrect",
  "unparseable",
  "timeout",
  "resource_limit",
  "invalid_input",
  "internal_error",
];
const ALARMS: Schemas["Status"][] = ["internal_error", "timeout", "unparseable"];
const SAMPLES_PER_PAGE = 50;

/** The verdict browser: a run's samples kept with their text, filtered by verifier, status and
 *  steps; a row opens the whole response, the extracted answer and the details. */
export async function samples(name: string, params: URLSearchParams): Promise<Node[]> {
  const page = `#/runs/${segment(name)}/samples`;
  const offset = Number(params.get("offset") ?? 0) || 0;
  const [list, verifiers] = await Promise.all([
    get<Schemas["SampleList"]>(`/v1/runs/${segment(name)}/samples`, {
      verifier: params.get("verifier") ?? undefined,
      status: params.get("status") ?? undefined,
      prompt_id: params.get("prompt_id") ?? undefined,
      from_step: params.get("from_step") ?? undefined,
      to_step: params.get("to_step") ?? undefined,
      limit: SAMPLES_PER_PAGE,
      offset,
    }),
    get<Schemas["VerifierList"]>("/v1/verifiers"),
  ]);
  const nodes: Node[] = [
    h("h2", {}, `Run ${name}: verdicts`),
    h("p", {}, link(`#/runs/${segment(name)}`, `Back to run ${name}`)),
    queryForm(
      page,
      params,
      "sample-filter",
      "verifier ",
      choice(
        params,
        "verifier",
        verifiers.verifiers.map((v) => v.id),
      ),
      " status ",
      choice(params, "status", STATUSES),
      " steps from ",
      field(params, "from_step", "first"),
      " to ",
      field(params, "to_step", "last"),
      " prompt ",
      field(params, "prompt_id", "any"),
    ),
  ];
  const { rate, alarm_rate: alarmRate } = list.retention;
  if (rate === 0 && alarmRate === 0) {
    nodes.push(
      h(
        "p",
        { "data-test": "retention-off" },
        "Text retention is off on this server: set [runs.samples] rate (and alarm_rate) to keep a sample of the verdicts with their text.",
      ),
    );
  } else {
    nodes.push(
      h(
        "p",
        {},
        `${list.total} kept verdicts match (text kept for ${percent(rate)} of the items, ${percent(Math.max(rate, alarmRate))} of those with an alarm status).`,
      ),
    );
  }
  nodes.push(
    table(
      "samples",
      ["Step", "Prompt", "Verifier", "Status", "Score", "Extracted", "Response"],
      list.samples.map((s) => [
        s.step,
        s.prompt_id ?? "–",
        s.verifier,
        h("span", ALARMS.includes(s.status) ? { class: "alarm" } : {}, s.status),
        num(s.score),
        s.extracted ?? "–",
        sample(s),
      ]),
    ),
  );
  const pages: Child[] = [];
  if (offset > 0) {
    const previous = new URLSearchParams(params);
    previous.set("offset", String(Math.max(0, offset - SAMPLES_PER_PAGE)));
    pages.push(link(`${page}?${previous}`, "Previous"), " ");
  }
  if (list.next_offset !== null && list.next_offset !== undefined) {
    const next = new URLSearchParams(params);
    next.set("offset", String(list.next_offset));
    pages.push(link(`${page}?${next}`, "Next"));
  }
  if (pages.length > 0) nodes.push(h("p", { class: "pages" }, ...pages));
  return nodes;
}

/** A sample's response, opened on a click: the whole kept text, then the details. */
function sample(s: Schemas["RunSample"]): HTMLElement {
  const response = s.response ?? "";
  const excerpt = response.length > 80 ? `${response.slice(0, 80)}…` : response || "(no response)";
  const cut =
    s.truncated && s.response_bytes !== null && s.response_bytes !== undefined
      ? ` (cut; the whole response had ${s.response_bytes} bytes)`
      : s.truncated
        ? " (cut)"
        : "";
  return h(
    "details",
    { "data-test": "sample" },
    h("summary", {}, excerpt),
    h("p", {}, `Item ${s.item_id ?? "without id"}, group ${s.group ?? "–"}, ${num(s.latency_us / 1000, 1)} ms${cut}`),
    h("pre", { "data-test": "sample-response" }, response),
    h("pre", { "data-test": "sample-details" }, JSON.stringify(s.details, null, 2)),
  );
}

export async function verifiers(): Promise<Node[]> {
  const list = await get<Schemas["VerifierList"]>("/v1/verifiers");
  const rows = list.verifiers.map((v) => [
    v.id,
    v.kind,
    v.version,
    h(
      "span",
      { class: v.availability.available ? "ok" : "alarm" },
      v.availability.available ? "available" : "unavailable",
    ),
    (v.availability.languages ?? [])
      .map((l) => `${l.language}: ${l.status}${l.reason ? ` (${l.reason})` : ""}`)
      .join(", "),
  ]);
  return [
    h("h2", {}, "Verifiers"),
    table("verifiers", ["Verifier", "Kind", "Version", "Availability", "Languages"], rows),
  ];
}

type Rate = Schemas["RateEstimate"];

function rate(value: Rate | undefined): string {
  return value ? `${num(value.estimate)} [${num(value.interval.lower)}, ${num(value.interval.upper)}]` : "–";
}

export async function noise(): Promise<Node[]> {
  const list = await get<Schemas["NoiseList"]>("/v1/noise");
  const rows = list.models.map((m) => [
    link(`#/noise/${segment(m.verifier)}`, m.verifier),
    m.label ?? "–",
    m.source ?? "none",
    rate(m.model?.rho0),
    rate(m.model?.rho1),
    rate(m.model?.youden_j),
    m.step,
    m.refused ?? "",
  ]);
  return [
    h("h2", {}, "Noise models"),
    h("p", { "data-test": "appeals-outstanding" }, `Appeals outstanding: ${list.appeals_outstanding}`),
    table(
      "noise",
      ["Verifier", "Label", "Source", "ρ0 (false negatives)", "ρ1 (false positives)", "Youden's J", "Step", "Refused"],
      rows,
    ),
  ];
}

export async function appeals(verifier: string): Promise<Node[]> {
  const list = await get<Schemas["OverturnList"]>(`/v1/noise/${segment(verifier)}/appeals`, { limit: 100 });
  const rows = list.overturns.map((o) => [
    time(o.created_at_ms),
    o.item_id ?? "–",
    `${o.verdict.status} (${num(o.verdict.score)})`,
    `${o.checker.status} (${num(o.checker.score)}) by ${o.checker.verifier}`,
  ]);
  return [
    h("h2", {}, `Appeals overturned: ${verifier}`),
    table("appeals", ["When", "Item", "Verdict", "Checker's verdict"], rows),
  ];
}

/** A job's progress, refreshed every second while `live()` holds and the job is not finished. */
export async function job(id: string, live: () => boolean): Promise<Node[]> {
  const status = await get<Schemas["JobStatus"]>(`/v1/jobs/${segment(id)}`);
  const bar = h("progress", { max: String(Math.max(status.total_items, 1)), value: String(status.scored_items) });
  const text = h("span", { "data-test": "job-progress" });
  const state = h("span", { "data-test": "job-state" });
  const show = (s: Schemas["JobStatus"]) => {
    bar.value = s.scored_items;
    state.textContent = s.state;
    text.textContent = ` ${s.scored_items} of ${s.total_items} items, ${s.chunks_done} of ${s.chunks_total} chunks`;
  };
  show(status);
  const poll = async () => {
    if (!live()) return;
    try {
      const next = await get<Schemas["JobStatus"]>(`/v1/jobs/${segment(id)}`);
      show(next);
      if (next.state === "queued" || next.state === "running") setTimeout(poll, 1000);
    } catch {
      setTimeout(poll, 5000);
    }
  };
  if (status.state === "queued" || status.state === "running") setTimeout(poll, 1000);
  return [h("h2", {}, `Job ${id}`), h("p", {}, state, text), bar, h("p", {}, `created ${time(status.created_at_ms)}`)];
}

/** The jobs the key may see, newest first, refreshed every two seconds while any is unfinished
 * and `live()` holds; and a form to follow one by id. */
export async function jobs(live: () => boolean): Promise<Node[]> {
  const list = await get<Schemas["JobList"]>("/v1/jobs", { limit: 100 });
  const body = h("div", {}, jobTable(list.jobs));
  const refresh = async () => {
    if (!live()) return;
    try {
      const next = await get<Schemas["JobList"]>("/v1/jobs", { limit: 100 });
      if (!live()) return;
      body.replaceChildren(jobTable(next.jobs));
      if (next.jobs.some(unfinished)) setTimeout(refresh, 2000);
    } catch {
      setTimeout(refresh, 5000);
    }
  };
  if (list.jobs.some(unfinished)) setTimeout(refresh, 2000);
  const input = h("input", { name: "id", placeholder: "job id", size: "40" });
  const form = h("form", { "data-test": "job-lookup" }, input, h("button", { type: "submit" }, "Follow"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (input.value.trim()) location.hash = `#/jobs/${segment(input.value.trim())}`;
  });
  return [h("h2", {}, "Jobs"), body, h("p", {}, "Follow a job by its id: "), form];
}

function unfinished(job: Schemas["JobStatus"]): boolean {
  return job.state === "queued" || job.state === "running";
}

function jobTable(list: Schemas["JobStatus"][]): Node {
  if (list.length === 0) return h("p", {}, "No jobs yet.");
  return table(
    "jobs",
    ["Job", "State", "Progress", "Items", "Created", "Finished"],
    list.map((job) => [
      link(`#/jobs/${segment(job.id)}`, job.id),
      job.state,
      h("progress", { max: String(Math.max(job.total_items, 1)), value: String(job.scored_items) }),
      `${job.scored_items} / ${job.total_items}`,
      time(job.created_at_ms),
      time(job.finished_at_ms),
    ]),
  );
}
