// Referee's console: a hash-routed page over the HTTP API.

import { ApiError, apiKey, setApiKey } from "./api";
import { h } from "./dom";
import * as views from "./views";

let shown = 0;

/** The page for the current `location.hash`. */
async function route(): Promise<void> {
  const main = document.getElementById("main");
  if (!main) return;
  const render = ++shown;
  const [path = "", search = ""] = location.hash.replace(/^#\/?/, "").split("?");
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  const params = new URLSearchParams(search);
  for (const a of document.querySelectorAll("nav a"))
    a.classList.toggle("here", a.getAttribute("href") === `#/${parts[0] ?? "runs"}`);
  main.replaceChildren(h("p", { class: "loading" }, "Loading…"));
  let nodes: Node[];
  try {
    const [page, name, sub] = parts;
    if (page === "verifiers") nodes = await views.verifiers();
    else if (page === "noise" && name) nodes = await views.appeals(name);
    else if (page === "noise") nodes = await views.noise();
    else if (page === "jobs" && name) nodes = await views.job(name, () => render === shown);
    else if (page === "jobs") nodes = await views.jobs(() => render === shown);
    else if (page === "runs" && name && sub === "samples") nodes = await views.samples(name, params);
    else if (page === "runs" && name) nodes = await views.run(name, params);
    else nodes = await views.runs();
  } catch (error) {
    nodes = [failure(error)];
  }
  if (render === shown) main.replaceChildren(...nodes);
}

function failure(error: unknown): HTMLElement {
  if (error instanceof ApiError) {
    const hint = error.status === 401 || error.status === 403 ? " Enter an API key with the score role above." : "";
    return h("p", { class: "error", "data-test": "error" }, `${error.code}: ${error.message}.${hint}`);
  }
  return h("p", { class: "error", "data-test": "error" }, String(error));
}

function keyForm(): void {
  const form = document.getElementById("key") as HTMLFormElement | null;
  const input = form?.querySelector("input");
  if (!form || !input) return;
  input.value = apiKey();
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    setApiKey(input.value.trim());
    void route();
  });
}

keyForm();
window.addEventListener("hashchange", () => void route());
void route();
