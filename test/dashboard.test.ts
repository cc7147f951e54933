/**
 * The dashboard in a real headless Chromium (Debian's `chromium`, driven by
 * playwright-core) while a real `weir run` job runs: the page served by the
 * job's REST server shows the job in the list, its graph with every vertex
 * and live numbers, a completed checkpoint in the history (with per-subtask
 * acknowledgements), the checkpoint configuration; a savepoint triggered from
 * the page exists on disk; the job cancelled from the page ends its process.
 * Screenshots of each view go to test-artifacts/dashboard/ (git-ignored).
 *
 * Without Chromium the test is skipped with a message, except under CI
 * (`CI=true`), where `.ci/run` installs it and its absence is a failure.
 */
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, startCli, waitFor, type RunningCli } from "./support/cli-process.ts";
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

/** The address of the job's REST server, as `weir run` prints it at start. */
function webAddress(run: RunningCli): string | undefined {
  return /https?:\/\/(?:127\.0\.0\.1|localhost|\[::1\]):\d+/.exec(run.stderr() + run.stdout())?.[0];
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
    run = startCli(["run", JOB, "--checkpoint-dir", join(dir, "checkpoints"), "--web-port", "0"], {}, { cwd: dir });
    await waitFor("the job's web address", () => {
      if (run.child.exitCode !== null) throw new Error(`weir run ended (exit ${run.child.exitCode}):\n${run.stderr()}`);
      return webAddress(run) !== undefined;
    }, 90_000, 50);
    url = webAddress(run)!;
    // a fresh profile in the test's directory
    browser = await chromium.launchPersistentContext(join(dir, "chromium-profile"), { executablePath: CHROMIUM, args: CHROMIUM_ARGS, viewport: { width: 1400, height: 1000 } });
    page = browser.pages()[0] ?? (await browser.newPage());
    page.on("pageerror", (e) => pageErrors.push(e.message));
    page.setDefaultTimeout(UI_DEADLINE_MS);
  });

  afterAll(async () => {
    await browser?.close();
    if (run && run.child.exitCode === null && run.child.signalCode === null) run.child.kill("SIGKILL");
  });

  it("lists the job, and opens it", async () => {
    await page.goto(`${url}/`);
    const row = page.locator("tr.job-row", { hasText: "dashboard-test" });
    await row.waitFor();
    await expect(row.locator(".state").textContent()).resolves.toBe("RUNNING");
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
    const end = await Promise.race([run.done, new Promise<undefined>((r) => setTimeout(r, 60_000, undefined))]);
    expect(end, `weir run still running 60 s after the cancel:\n${run.stderr()}`).toBeDefined();
    await page.screenshot({ path: join(ARTIFACTS, "cancelled.png"), fullPage: true });
    expect(pageErrors).toEqual([]);
  });
});
