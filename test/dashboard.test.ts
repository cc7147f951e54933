/**
 * The dashboard in a real headless Chromium (Debian's `chromium`, driven by
 * playwright-core) while a real `weir run` job runs: the page served by the
 * job's REST server shows the job in the list, its graph with every vertex
 * and live numbers, a completed checkpoint in the history (with per-subtask
 * acknowledgements), the checkpoint configuration, the failure the job
 * injects once in its exception history; a savepoint triggered from
 * the page exists on disk (after the page asked for the server's token,
 * which the server requires for it); the job cancelled from the page ends
 * its process.
 * For a SQL job, the graph shows the plan's operators with their changelog
 * modes, and a stop with savepoint from the page ends the job with exit 0.
 * Screenshots of each view go to test-artifacts/dashboard/ (git-ignored).
 *
 * Without Chromium the test is skipped with a message, except under CI
 * (`CI=true`), where `.ci/run` installs it and its absence is a failure.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, startCli, waitFor, type CliRun, type RunningCli } from "./support/cli-process.ts";
import { tempDirs } from "./support/temp-dirs.ts";

const CHROMIUM = "/usr/bin/chromium";
const JOB = fileURLToPath(new URL("./fixtures/dashboard-job.ts", import.meta.url));
const ARTIFACTS = join(ROOT, "test-artifacts", "dashboard");
const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
/** Generous: the machine is shared, and a job's first checkpoint comes after its workers start. */
const UI_DEADLINE_MS = 60_000;

const haveChromium = existsSync(CHROMIUM);
if (!haveChromium && process.env.CI) throw new Error(`${CHROMIUM} is missing: .ci/run installs Debian's chromium package for this test`);
if (!haveChromium) console.warn(`test/dashboard.test.ts skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);

const tempDir = tempDirs("weir-dashboard-");
/** The REST token of the first job (`--web-token`). */
const TOKEN = "dashboard-test-token";

/** The address of the job's REST server, as `weir run` prints it at start. */
function webAddress(run: RunningCli): string | undefined {
  return /https?:\/\/(?:127\.0\.0\.1|localhost|\[::1\]):\d+/.exec(run.stderr() + run.stdout())?.[0];
}

/** `weir <args>` in `dir`, once its REST server is up: the child and the server's address. */
async function startJob(args: readonly string[], dir: string): Promise<{ run: RunningCli; url: string }> {
  const run = startCli([...args, "--web-port", "0"], {}, { cwd: dir });
  await waitFor("the job's web address", () => {
    if (run.child.exitCode !== null) throw new Error(`weir ${args[0]} ended (exit ${run.child.exitCode}):\n${run.stderr()}`);
    return webAddress(run) !== undefined;
  }, 90_000, 50);
  return { run, url: webAddress(run)! };
}

/** Chromium with a fresh profile in `dir`, and its page (errors of the page's scripts collected into `errors`). */
async function openBrowser(dir: string, errors: string[]): Promise<{ browser: BrowserContext; page: Page }> {
  const browser = await chromium.launchPersistentContext(join(dir, "chromium-profile"), { executablePath: CHROMIUM, args: CHROMIUM_ARGS, viewport: { width: 1400, height: 1000 } });
  const page = browser.pages()[0] ?? (await browser.newPage());
  page.on("pageerror", (e) => errors.push(e.message));
  page.setDefaultTimeout(UI_DEADLINE_MS);
  return { browser, page };
}

/** `run`'s end, or undefined when it is still running after `ms`. */
function endWithin(run: RunningCli, ms: number): Promise<CliRun | undefined> {
  return Promise.race([run.done, new Promise<undefined>((r) => setTimeout(r, ms, undefined))]);
}

describe.skipIf(!haveChromium)("the dashboard of a running job", () => {
  let dir: string;
  let run: RunningCli;
  let browser: BrowserContext;
  let page: Page;
  let url: string;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    dir = tempDir();
    mkdirSync(ARTIFACTS, { recursive: true });
    // with a token: on a loopback address, the calls that change something need it
    ({ run, url } = await startJob(["run", JOB, "--checkpoint-dir", join(dir, "checkpoints"), "--web-token", TOKEN], dir));
    ({ browser, page } = await openBrowser(dir, pageErrors));
  });

  afterAll(async () => {
    await browser?.close();
    if (run && run.child.exitCode === null && run.child.signalCode === null) run.child.kill("SIGKILL");
  });

  it("lists the job, and opens it", async () => {
    await page.goto(`${url}/`);
    const row = page.locator("tr.job-row", { hasText: "dashboard-test" });
    await row.waitFor();
    // running again after the failure the job injects once
    await row.locator(".state", { hasText: "RUNNING" }).waitFor();
    await page.screenshot({ path: join(ARTIFACTS, "job-list.png"), fullPage: true });
    await row.locator("a").click();
    await page.locator(".job-name", { hasText: "dashboard-test" }).waitFor();
  });

  it("draws the job graph with its operators and live numbers", async () => {
    const nodes = page.locator(".graph-node");
    await nodes.nth(2).waitFor();
    expect(await nodes.count()).toBe(3);
    const text = (await nodes.allTextContents()).join("\n");
    for (const operator of ["numbers", "double", "running sum", "sums"]) expect(text).toContain(operator);
    expect(text).toContain("parallelism 2");
    // records flow: some vertex shows a rate above zero
    await page.waitForFunction(() => [...document.querySelectorAll(".graph-node .rate-out, .graph-node .rate-in")].some((e) => parseFloat(e.textContent ?? "") > 0));
    await page.locator(".chart canvas").first().waitFor();
    await page.screenshot({ path: join(ARTIFACTS, "job-graph.png"), fullPage: true });
  });

  it("shows a completed checkpoint in the history, with its per-subtask acknowledgements, and the configuration", async () => {
    await page.click("#tab-checkpoints");
    const completed = page.locator('tr.checkpoint[data-status="COMPLETED"]').first();
    await completed.waitFor();
    await completed.click();
    await page.locator(".subtask-acks").first().waitFor();
    await expect(page.locator(".checkpoint-config").textContent()).resolves.toContain("EXACTLY_ONCE");
    await page.screenshot({ path: join(ARTIFACTS, "checkpoints.png"), fullPage: true });
  });

  it("shows the failure in the exception history", async () => {
    await page.click("#tab-exceptions");
    const entry = page.locator("details.exception-entry", { hasText: "injected failure" });
    await entry.waitFor();
    await entry.locator("summary").click();
    await expect(entry.locator(".stacktrace").first().textContent()).resolves.toMatch(/injected failure at \d+/);
    await page.screenshot({ path: join(ARTIFACTS, "exceptions.png"), fullPage: true });
  });

  it("asks for the server's token when an action is refused without it", async () => {
    await page.click("#trigger-savepoint");
    await expect(page.locator(".operation.savepoint.failed").textContent()).resolves.toMatch(/401/);
    await page.fill("#rest-token", TOKEN);
  });

  it("triggers a savepoint that exists on disk", async () => {
    const target = join(dir, "savepoints");
    await page.fill("#savepoint-dir", target);
    await page.click("#trigger-savepoint");
    const done = page.locator(".operation.savepoint.done");
    await done.waitFor();
    const location = (await done.textContent())!.replace(/^Savepoint completed: /, "").trim();
    expect(location.startsWith(target)).toBe(true);
    expect(existsSync(location)).toBe(true);
    expect(readdirSync(location).length).toBeGreaterThan(0);
    await page.screenshot({ path: join(ARTIFACTS, "savepoint.png"), fullPage: true });
  });

  it("cancels the job: its process ends", async () => {
    page.once("dialog", (d) => void d.accept());
    await page.click("#cancel-job");
    await page.locator(".operation.cancel.done").waitFor();
    const end = await endWithin(run, 60_000);
    expect(end, `weir run still running 60 s after the cancel:\n${run.stderr()}`).toBeDefined();
    await page.screenshot({ path: join(ARTIFACTS, "cancelled.png"), fullPage: true });
    expect(pageErrors).toEqual([]);
  });
});

/** An updating SQL query: per user, the count of its clicks (GroupAggregate emits updates). */
const SQL_JOB = `CREATE TABLE clicks (user_id INT, url STRING) WITH ('connector' = 'datagen', 'rows-per-second' = '200',
  'fields.user_id.min' = '1', 'fields.user_id.max' = '5', 'fields.url.length' = '8');
CREATE TABLE counts (user_id INT, clicks BIGINT) WITH ('connector' = 'blackhole');
INSERT INTO counts SELECT user_id, COUNT(*) FROM clicks GROUP BY user_id;
`;

describe.skipIf(!haveChromium)("the dashboard of a running SQL job", () => {
  let dir: string;
  let run: RunningCli;
  let browser: BrowserContext;
  let page: Page;
  let url: string;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    dir = tempDir();
    mkdirSync(ARTIFACTS, { recursive: true });
    writeFileSync(join(dir, "clicks.sql"), SQL_JOB);
    ({ run, url } = await startJob(["sql", "-f", "clicks.sql", "--checkpoint-interval", "300", "--checkpoint-dir", join(dir, "checkpoints")], dir));
    ({ browser, page } = await openBrowser(dir, pageErrors));
  });

  afterAll(async () => {
    await browser?.close();
    if (run && run.child.exitCode === null && run.child.signalCode === null) run.child.kill("SIGKILL");
  });

  it("shows the plan's operators with their changelog modes in the graph", async () => {
    await page.goto(`${url}/`);
    await page.locator("tr.job-row a").first().click();
    const aggregate = page.locator(".graph-node", { hasText: "GroupAggregate" });
    await aggregate.waitFor();
    const text = (await page.locator(".graph-node").allTextContents()).join("\n");
    expect(text).toContain("TableSourceScan");
    await expect(aggregate.locator(".changelog-mode").allTextContents()).resolves.toContain("I,UB,UA");
    await page.screenshot({ path: join(ARTIFACTS, "sql-job-graph.png"), fullPage: true });
  });

  it("stops the job with a savepoint from the page: the savepoint is on disk and the process ends", async () => {
    const target = join(dir, "savepoints");
    await page.fill("#savepoint-dir", target);
    await page.click("#stop-job");
    const end = await endWithin(run, 90_000);
    expect(end, `weir sql still running 90 s after the stop:\n${run.stderr()}`).toBeDefined();
    expect(end!.code, end!.stderr).toBe(0);
    expect(readdirSync(target).filter((f) => f.startsWith("savepoint-"))).toHaveLength(1);
    // the page read the savepoint's location, or saw the server go away with the stopped job
    await expect(page.locator(".operation.stop.done").textContent()).resolves.toMatch(/^Stopped with savepoint: /);
    await page.screenshot({ path: join(ARTIFACTS, "sql-stopped.png"), fullPage: true });
    expect(pageErrors).toEqual([]);
  });
});
