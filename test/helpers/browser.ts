import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Frame,
  type Page,
  type Response,
} from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";
import { NOW } from "./clock.ts";
import { CHROMIUM_PATH } from "./system-packages.ts";

/**
 * How long Playwright waits for a page, an element or a navigation before it
 * gives up: as long as expect.poll waits (vitest.config.ts), far beyond what
 * a page takes on a busy machine. Waits end when what they wait for happens;
 * this only ends one that never would.
 */
export const PAGE_WAIT_MS = 120_000;

/** Chromium's flags: the background-networking ones keep it from dialing out of the sandbox. */
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

let running: Promise<Browser> | undefined;

/**
 * Debian's Chromium, driven by playwright-core; never a downloaded browser.
 * One Chromium serves every test file a worker runs (vitest.config.ts: they
 * share their modules): launching one cost about a second of CPU, and 112
 * were launched in a run. Each user gets contexts of its own, as a new
 * visitor's profile (cookies, storage, cache), and `close()` closes the
 * contexts opened since it was given the browser, not the browser, which
 * ends with the worker (Playwright stops it when its process exits).
 */
export async function launchBrowser(): Promise<{ browser: Browser; close: () => Promise<void> }> {
  if (!running) running = startChromium();
  let browser = await running;
  if (!browser.isConnected()) {
    running = startChromium();
    browser = await running;
  }
  const before = new Set(browser.contexts());
  return {
    browser,
    async close() {
      const opened = browser.contexts().filter((context) => !before.has(context));
      await Promise.all(opened.map((context) => context.close().catch(() => {})));
    },
  };
}

function startChromium(): Promise<Browser> {
  // Its own temporary folder, removed as the worker exits: Playwright stops
  // the browser then without the goodbye that would remove Chromium's files.
  const folder = mkdtempSync(join(tmpdir(), "ecp-chromium-"));
  process.once("exit", () => rmSync(folder, { recursive: true, force: true }));
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    timeout: PAGE_WAIT_MS,
    args: CHROMIUM_ARGS,
    env: { ...process.env, TMPDIR: folder },
  });
}

export interface VisitorOptions extends BrowserContextOptions {
  /** The visitor's clock (ms or ISO), fixed unless `running`; NOW by default. */
  readonly at?: number | string;
  /** A clock that runs from `at` (timers fire, the page can be moved on with context.clock). */
  readonly running?: boolean;
}

export interface WatchOptions {
  /** Console warnings are problems too. */
  readonly warnings?: boolean;
  /** Requests to any other origin are problems. */
  readonly onlyFrom?: string;
}

export interface Watched {
  /** Console errors, page errors, dialogs (dismissed) and what WatchOptions add: a clean page has none. */
  readonly problems: string[];
  /** Every URL the page and its frames and workers requested. */
  readonly requests: string[];
}

/** Records what a page reports and requests, from now on. */
export function watchPage(page: Page, options: WatchOptions = {}): Watched {
  const problems: string[] = [];
  const requests: string[] = [];
  page.on("console", (message) => {
    const type = message.type();
    if (type === "error" || (options.warnings && type === "warning")) {
      problems.push(`console: ${message.text()}`);
    }
  });
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  page.on("dialog", (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on("request", (request) => {
    requests.push(request.url());
    if (options.onlyFrom && !request.url().startsWith(options.onlyFrom)) {
      problems.push(`request: ${request.url()}`);
    }
  });
  return { problems, requests };
}

export interface VisitorPage extends Watched {
  readonly page: Page;
  readonly context: BrowserContext;
}

export interface OpenedPage extends VisitorPage {
  readonly response: Response | null;
}

export interface BrowserSession {
  /** The browser, once the tests run. */
  readonly browser: Browser;
  /** A new visitor: a context with its clock set, closed when the tests end if not before. */
  visitor(options?: VisitorOptions): Promise<BrowserContext>;
  /** A new visitor's empty page, watched from the start. */
  newPage(options?: VisitorOptions & WatchOptions): Promise<VisitorPage>;
  /** A new visitor's page at `url`, watched from the start; the page must answer 200. */
  open(url: string, options?: VisitorOptions & WatchOptions): Promise<OpenedPage>;
}

/**
 * Chromium for the tests of one describe block (call it in the block): the
 * worker's browser (launchBrowser), given before its tests; every context
 * they opened is closed after them.
 */
export function useBrowser(): BrowserSession {
  let launched: { browser: Browser; close: () => Promise<void> } | undefined;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    launched = await launchBrowser();
  });
  afterAll(async () => {
    for (const context of contexts.splice(0)) await context.close().catch(() => {});
    await launched?.close();
  });

  const session: BrowserSession = {
    get browser() {
      if (!launched) throw new Error("the browser starts before the tests");
      return launched.browser;
    },
    async visitor({ at, running, ...options } = {}) {
      const context = await session.browser.newContext(options);
      contexts.push(context);
      context.setDefaultTimeout(PAGE_WAIT_MS);
      const time = new Date(at ?? NOW);
      if (running) await context.clock.install({ time });
      else await context.clock.setFixedTime(time);
      return context;
    },
    async newPage({ warnings, onlyFrom, ...options } = {}) {
      const context = await session.visitor(options);
      const page = await context.newPage();
      return { page, context, ...watchPage(page, { warnings, onlyFrom }) };
    },
    async open(url, options = {}) {
      const visit = await session.newPage(options);
      const response = await visit.page.goto(url);
      expect(response?.status(), url).toBe(200);
      return { ...visit, response };
    },
  };
  return session;
}

const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve("axe-core/axe.min.js"),
  "utf8",
);

/**
 * The rules axe-core checks: WCAG 2.0, 2.1 and 2.2 at levels A and AA, and
 * its best practices. axe runs only its default set otherwise, which leaves
 * out WCAG 2.2's target-size rule (success criterion 2.5.8).
 */
export const AXE_TAGS = [
  "wcag2a",
  "wcag2aa",
  "wcag21a",
  "wcag21aa",
  "wcag22aa",
  "best-practice",
] as const;

/**
 * axe-core's check of a page or frame as it is now, with the rules of
 * AXE_TAGS: how many rules passed (a check that ran at all passes many),
 * the serious and critical violations, and every violation, as
 * "rule impact (nodes)". Injected with evaluate(), which the page's
 * Content-Security-Policy does not govern.
 */
export async function axeCheck(
  target: Page | Frame,
): Promise<{ passes: number; serious: string[]; violations: string[] }> {
  await target.evaluate(AXE_SOURCE);
  return target.evaluate(async (tags) => {
    const { axe } = window as unknown as {
      axe: {
        run(options: {
          runOnly: { type: "tag"; values: readonly string[] };
          resultTypes: string[];
        }): Promise<{
          passes: unknown[];
          violations: {
            id: string;
            impact: string;
            nodes: { target: unknown[] }[];
          }[];
        }>;
      };
    };
    // Every rule runs and reports its violations in full; passing rules are
    // reported with one node each rather than all of them.
    const result = await axe.run({
      runOnly: { type: "tag", values: tags },
      resultTypes: ["violations"],
    });
    const line = (v: (typeof result.violations)[number]) =>
      `${v.id} ${v.impact} (${v.nodes.length}: ${v.nodes
        .slice(0, 3)
        .map((n) => n.target.join(" "))
        .join(", ")})`;
    return {
      passes: result.passes.length,
      serious: result.violations
        .filter((v) => v.impact === "serious" || v.impact === "critical")
        .map(line),
      violations: result.violations.map(line),
    };
  }, AXE_TAGS);
}
