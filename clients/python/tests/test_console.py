"""The web console in a real browser: Debian's Chromium, headless, driven by Selenium against a
live server. A run, a job and a keyed server are seeded through the Python client; the rendered
DOM is checked against values computed here, and every page is saved as a screenshot in
`REFEREE_SCREENSHOTS` (scripts/test keeps them as the run's artefacts)."""

from __future__ import annotations

import os
import shutil
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest
from referee_api.api.runs import get_run
from referee_api.models import RunSummary
from referee_client import Referee

from .conftest import Server

CHROMIUM = shutil.which("chromium")
CHROMEDRIVER = shutil.which("chromedriver")
if not (CHROMIUM and CHROMEDRIVER):
    if os.environ.get("REFEREE_REQUIRE_CHROMIUM"):
        raise RuntimeError("the console test needs Debian's chromium and chromium-driver (scripts/test installs them)")
    pytest.skip(
        "skipped: no chromium and chromedriver here (apt-get install chromium chromium-driver)", allow_module_level=True
    )

# Imported once the browser is known to be there.
from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import Select, WebDriverWait

T = TypeVar("T")
STEPS = [1, 2, 3]
PROMPTS = 5
ROLLOUTS = 4
SCREENSHOTS = Path(os.environ.get("REFEREE_SCREENSHOTS") or tempfile.mkdtemp(prefix="referee-console-"))


def chrome() -> WebDriver:
    """Headless Debian Chromium, driven by its chromedriver."""
    options = Options()
    options.binary_location = str(CHROMIUM)
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,2000"):
        options.add_argument(argument)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return webdriver.Chrome(options=options, service=Service(str(CHROMEDRIVER)))


@pytest.fixture(scope="module")
def browser() -> Iterator[WebDriver]:
    driver = chrome()
    yield driver
    driver.quit()


def wait(browser: WebDriver, found: Callable[[WebDriver], T], timeout: float = 30) -> T:
    """`found`'s first truthy answer; a page re-rendered while it was read is read again."""
    waiting = WebDriverWait(
        browser, timeout, ignored_exceptions=[NoSuchElementException, StaleElementReferenceException]
    )
    return waiting.until(lambda driver: found(driver) or False)


def element(browser: WebDriver, selector: str) -> WebElement:
    return wait(browser, lambda d: next(iter(d.find_elements(By.CSS_SELECTOR, selector)), None))


def rows(table: WebElement) -> list[list[str]]:
    return [
        [cell.text for cell in row.find_elements(By.TAG_NAME, "td")]
        for row in table.find_elements(By.CSS_SELECTOR, "tbody tr")
    ]


def shot(browser: WebDriver, name: str) -> None:
    browser.save_screenshot(str(SCREENSHOTS / f"{name}.png"))


def correct(prompt: int, step: int, rollout: int) -> bool:
    """Prompt `p` gets `p` of its 4 rollouts right at step 1, one more at each later step (capped)."""
    return rollout < min(ROLLOUTS, prompt + step - 1)


def seed_run(server_url: str) -> str:
    run = f"console-{uuid.uuid4().hex[:8]}"
    with Referee(server_url) as referee:
        for step in STEPS:
            items = [
                {
                    "verifier": "exact-match",
                    "input": {"response": "7" if correct(p, step, r) else "8", "reference": "7"},
                    "prompt_id": f"p{p}",
                }
                for p in range(PROMPTS)
                for r in range(ROLLOUTS)
            ]
            referee.score(items, run=run, step=step)
        total = len(STEPS) * PROMPTS * ROLLOUTS
        deadline = time.monotonic() + 30
        while not (isinstance(s := get_run.sync(run, client=referee.api), RunSummary) and s.items == total):
            assert time.monotonic() < deadline, f"the run's {total} items were not written"
            time.sleep(0.05)
    return run


def test_a_run_shows_its_pass_rates_statistics_and_plots(server_url: str, browser: WebDriver) -> None:
    run = seed_run(server_url)
    browser.get(f"{server_url}/console")
    listed = wait(browser, lambda d: [r for r in rows(element(d, "table[data-test=runs]")) if r and r[0] == run])
    assert listed[0][1:3] == [f"{STEPS[0]} – {STEPS[-1]}", str(len(STEPS) * PROMPTS * ROLLOUTS)], listed
    shot(browser, "runs")

    browser.find_element(By.LINK_TEXT, run).click()
    prompts = rows(element(browser, "table[data-test=prompts]"))
    expected = {}
    for p in range(PROMPTS):
        successes = sum(correct(p, step, r) for step in STEPS for r in range(ROLLOUTS))
        attempts = len(STEPS) * ROLLOUTS
        expected[f"p{p}"] = [str(attempts), str(successes), f"{100 * successes / attempts:.1f}%"]
    assert {row[0]: row[1:4] for row in prompts} == expected
    # Sorted by pass rate, lowest first.
    assert [row[0] for row in prompts] == sorted(expected, key=lambda p: (int(expected[p][1]), p))

    mean = sum(int(v[1]) for v in expected.values()) / (PROMPTS * len(STEPS) * ROLLOUTS)
    summary = rows(element(browser, "table[data-test=summary]"))
    assert summary[0][:3] == ["exact-match", "prompt", str(PROMPTS)], summary
    assert summary[0][3].startswith(f"{mean:.3f} ["), summary

    last = rows(element(browser, "table[data-test=last-step]"))
    at_last = sum(correct(p, STEPS[-1], r) for p in range(PROMPTS) for r in range(ROLLOUTS)) / (PROMPTS * ROLLOUTS)
    assert last[0][:3] == ["exact-match", str(PROMPTS * ROLLOUTS), f"{at_last:.3f}"], last

    for chart, series in [
        ("reward", "mean reward|pass rate"),
        ("statuses", "correct|incorrect"),
        ("latency", "p50|p95"),
    ]:
        figure = element(browser, f"figure[data-test={chart}-exact-match]")
        assert figure.get_attribute("data-series") == series
        canvas = figure.find_element(By.TAG_NAME, "canvas")
        assert canvas.size["width"] > 200 and canvas.size["height"] > 100, canvas.size
        assert all(label in figure.text for label in series.split("|")), figure.text
    shot(browser, "run")

    # The prompt filter: pass rates from 0.5 up.
    field = browser.find_element(By.CSS_SELECTOR, "form[data-test=prompt-filter] input[name=min_pass_rate]")
    field.send_keys("0.5")
    browser.find_element(By.CSS_SELECTOR, "form[data-test=prompt-filter] button").click()
    kept = {p for p, v in expected.items() if int(v[1]) / int(v[0]) >= 0.5}
    assert 0 < len(kept) < PROMPTS
    wait(browser, lambda d: {r[0] for r in rows(element(d, "table[data-test=prompts]"))} == kept)
    assert "min_pass_rate=0.5" in browser.current_url
    shot(browser, "run-filtered")

    # This server keeps no text: the verdict browser says so.
    browser.find_element(By.LINK_TEXT, "Verdicts kept with their text").click()
    assert "Text retention is off" in element(browser, "[data-test=retention-off]").text
    assert rows(element(browser, "table[data-test=samples]")) == []


def test_the_verdict_browser_shows_the_kept_text() -> None:
    server = Server(env={"REFEREE__RUNS__SAMPLES__RATE": "1", "REFEREE__RUNS__FLUSH_INTERVAL_MS": "20"})
    driver = chrome()
    try:
        run = f"audit-{uuid.uuid4().hex[:8]}"
        responses = {"right": "so \\boxed{7}", "wrong": "so \\boxed{8}", "unboxed": "it is 7"}
        # (step, prompt, status, extracted) of every item sent.
        expected = []
        with Referee(server.url) as referee:
            for step in (1, 2):
                items = []
                for prompt, response in responses.items():
                    items.append(
                        {
                            "verifier": "exact-match",
                            "input": {"response": response, "reference": "7", "extract": "boxed"},
                            "prompt_id": f"{prompt}-{step}",
                        }
                    )
                    status = {"right": "correct", "wrong": "incorrect", "unboxed": "unparseable"}[prompt]
                    extracted = {"right": "7", "wrong": "8", "unboxed": "–"}[prompt]
                    expected.append([str(step), f"{prompt}-{step}", "exact-match", status, extracted])
                referee.score(items, run=run, step=step)
            deadline = time.monotonic() + 30
            while not (isinstance(s := get_run.sync(run, client=referee.api), RunSummary) and s.items == 6):
                assert time.monotonic() < deadline, "the run's 6 items were not written"
                time.sleep(0.05)

        driver.get(f"{server.url}/console#/runs/{run}")
        element(driver, "table[data-test=prompts]")
        driver.find_element(By.LINK_TEXT, "Verdicts kept with their text").click()
        shown = rows(element(driver, "table[data-test=samples]"))
        assert sorted(row[:4] + row[5:6] for row in shown) == sorted(expected), shown
        assert [row[0] for row in shown] == ["2", "2", "2", "1", "1", "1"], "latest step first"
        shot(driver, "samples")

        Select(
            driver.find_element(By.CSS_SELECTOR, "form[data-test=sample-filter] select[name=status]")
        ).select_by_value("unparseable")
        driver.find_element(By.CSS_SELECTOR, "form[data-test=sample-filter] button").click()
        wait(driver, lambda d: {r[3] for r in rows(element(d, "table[data-test=samples]"))} == {"unparseable"})
        assert len(rows(element(driver, "table[data-test=samples]"))) == 2

        sample = element(driver, "details[data-test=sample]")
        sample.find_element(By.TAG_NAME, "summary").click()
        assert sample.find_element(By.CSS_SELECTOR, "[data-test=sample-response]").text == responses["unboxed"]
        details = sample.find_element(By.CSS_SELECTOR, "[data-test=sample-details]").text
        assert '"extract": "boxed"' in details, details
        shot(driver, "samples-unparseable")
    finally:
        driver.quit()
        server.stop()


def test_verifiers_noise_models_and_a_job_in_progress(server_url: str, browser: WebDriver) -> None:
    browser.get(f"{server_url}/console#/verifiers")
    verifiers = {row[0]: row for row in rows(element(browser, "table[data-test=verifiers]"))}
    assert verifiers["exact-match"][3] == "available" and verifiers["math"][3] == "available", verifiers
    shot(browser, "verifiers")

    browser.get(f"{server_url}/console#/noise")
    assert element(browser, "[data-test=appeals-outstanding]").text.startswith("Appeals outstanding: ")
    element(browser, "table[data-test=noise]")
    shot(browser, "noise")

    items = [{"verifier": "exact-match", "input": {"response": str(i % 3), "reference": "0"}} for i in range(60)]
    with Referee(server_url) as referee:
        job = referee.jobs.submit(items, chunk_size=8)
    browser.get(f"{server_url}/console#/jobs")
    # The list refreshes itself while the job runs: it ends with every item scored.
    row = wait(
        browser, lambda d: [r for r in rows(element(d, "table[data-test=jobs]")) if r[0] == job.id and r[1] == "done"]
    )
    assert row[0][3] == "60 / 60", row
    shot(browser, "jobs")
    browser.find_element(By.LINK_TEXT, job.id).click()
    wait(browser, lambda d: element(d, "[data-test=job-state]").text == "done")
    assert element(browser, "[data-test=job-progress]").text.strip() == "60 of 60 items, 8 of 8 chunks"
    browser.get(f"{server_url}/console#/jobs")
    element(browser, "form[data-test=job-lookup] input").send_keys(job.id)
    browser.find_element(By.CSS_SELECTOR, "form[data-test=job-lookup] button").click()
    wait(browser, lambda d: element(d, "[data-test=job-state]").text == "done")
    shot(browser, "job")


def test_the_console_asks_for_a_key_and_uses_it() -> None:
    key = "console-test-key-" + uuid.uuid4().hex
    server = Server(env={"REFEREE__AUTH__API_KEYS": f'["{key}"]'})
    driver = chrome()
    try:
        driver.get(f"{server.url}/console")
        refused = element(driver, "[data-test=error]").text
        assert refused.startswith("unauthorized:") and "Enter an API key" in refused, refused
        driver.find_element(By.CSS_SELECTOR, "#key input").send_keys(key)
        driver.find_element(By.CSS_SELECTOR, "#key button").click()
        assert "No runs yet" in element(driver, "main h2 + p").text
        assert driver.execute_script("return localStorage.getItem('referee.apiKey')") == key
        shot(driver, "keyed")
    finally:
        driver.quit()
        server.stop()


def test_a_run_too_large_to_summarise_asks_for_fewer_steps(browser: WebDriver) -> None:
    # The run is stored in at least 3 steps x (5 prompts + a score + a latency row) = 21 rows;
    # step 3 alone in far fewer.
    server = Server(env={"REFEREE__RUNS__MAX_STATS_ROWS": "15"})
    try:
        run = seed_run(server.url)
        browser.get(f"{server.url}/console#/runs/{run}")
        refused = element(browser, "[data-test=error]").text
        assert "over the limit of 15" in refused and refused.endswith("(the steps above)."), refused
        assert len(rows(element(browser, "table[data-test=prompts]"))) == PROMPTS
        shot(browser, "run-too-large")
        form = element(browser, "form[data-test=step-range]")
        form.find_element(By.CSS_SELECTOR, "input[name=from_step]").send_keys("3")
        form.find_element(By.CSS_SELECTOR, "input[name=to_step]").send_keys("3")
        form.find_element(By.TAG_NAME, "button").click()
        summary = wait(
            browser, lambda d: [p.text for p in d.find_elements(By.CSS_SELECTOR, "main p") if "items" in p.text]
        )
        assert summary == [f"{PROMPTS * ROLLOUTS} items, steps 3 to 3"], summary
        assert rows(element(browser, "table[data-test=summary]"))[0][:3] == ["exact-match", "prompt", str(PROMPTS)]
    finally:
        server.stop()
