import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { isProcessAlive } from "../../src/publish/publish.ts";
import { PAGE_WAIT_MS } from "./browser.ts";
import { NOW_MS } from "./clock.ts";
import {
  DEFAULT_ZONE,
  type Engine,
  elementReads,
  type PageFunction,
  type Surface,
  scrollFrameIntoView,
} from "./engines.ts";
import { LIBFAKETIME, MINIBROWSER_PATH, WEBKIT_DRIVER_PATH, XVFB_PATH } from "./system-packages.ts";
import { waitUntil } from "./wait.ts";
import { freePort } from "./web-servers.ts";
import { newSession, WebDriverError, type WebDriverSession } from "./webdriver-client.ts";

/**
 * Debian's WebKitGTK (MiniBrowser) through WebKitWebDriver, the W3C WebDriver
 * server of webkit2gtk-driver (webdriver-client.ts), on a display of its own:
 * an Xvfb started on a free display number, as WebKitGTK draws through GTK
 * even when no one looks. Each visitor's page is a tab of a browser session.
 *
 * WebDriver sets neither a page's clock nor its zone, so the browser's
 * processes are given them: TZ for the zone and Debian's libfaketime,
 * preloaded, for the clock, moved back to the visitor's instant as the
 * browser starts. It runs from there (a test's minutes later are minutes
 * after it); the monotonic clock that timers use stays real. A visitor in
 * another zone or at another instant therefore gets a browser of its own
 * (started when first asked for, about a second), and every visitor with the
 * same zone and clock shares one.
 */
export async function openWebKit(): Promise<Engine> {
  const xvfb = await startXvfb();
  const browsers = new Map<string, Promise<WebKitBrowser>>();
  const browserFor = (zone: string, at: number) => {
    const key = `${zone} ${at}`;
    let browser = browsers.get(key);
    if (!browser) {
      browser = startBrowser(xvfb.display, zone, at);
      browsers.set(key, browser);
    }
    return browser;
  };
  try {
    await browserFor(DEFAULT_ZONE, NOW_MS);
  } catch (error) {
    await stopProcess(xvfb.process);
    throw error;
  }
  return {
    name: "webkit",
    async open(url, { timezoneId = DEFAULT_ZONE, at = NOW_MS } = {}) {
      const { session, tabs } = await browserFor(timezoneId, new Date(at).getTime());
      const tab = await tabs.open(url);
      return {
        ...surface(tabs, tab, []),
        problems: [],
        url: () => tabs.in(tab, [], () => session.currentUrl()),
        popups: async () => (await session.windowHandles()).length - tabs.count,
        close: () => tabs.close(tab),
      };
    },
    async close() {
      const started = await Promise.allSettled(browsers.values());
      browsers.clear();
      for (const browser of started) if (browser.status === "fulfilled") await browser.value.stop();
      await stopProcess(xvfb.process);
      removeOrphanedFaketimeMemory();
    },
  };
}

/**
 * libfaketime gives each process it runs in a shared memory segment and a
 * semaphore in /dev/shm (faketime_shm_<pid>, sem.faketime_sem_<pid>) and
 * removes them when the process exits, but not when it is killed, as
 * WebKit's processes are when the driver stops: a few hundred small files a
 * day of test runs. Removed here once their process is gone (another run's
 * live processes keep theirs).
 */
function removeOrphanedFaketimeMemory(): void {
  let names: string[];
  try {
    names = readdirSync(SHARED_MEMORY);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(/^(?:faketime_shm_|sem\.faketime_sem_)(\d+)$/.exec(name)?.[1]);
    if (!Number.isSafeInteger(pid) || isProcessAlive(pid)) continue;
    rmSync(join(SHARED_MEMORY, name), { force: true });
  }
}

const SHARED_MEMORY = "/dev/shm";

interface WebKitBrowser {
  readonly session: WebDriverSession;
  readonly tabs: Tabs;
  stop(): Promise<void>;
}

/** WebKitWebDriver and its session's MiniBrowser in `zone`, their clock moved back to `at`. */
async function startBrowser(display: string, zone: string, at: number): Promise<WebKitBrowser> {
  const port = await freePort();
  const offsetSeconds = Math.round((at - Date.now()) / 1000);
  const driver = spawn(WEBKIT_DRIVER_PATH, [`--port=${port}`, "--host=127.0.0.1"], {
    stdio: "ignore",
    env: {
      ...process.env,
      DISPLAY: display,
      TZ: zone,
      LD_PRELOAD: LIBFAKETIME,
      FAKETIME: `${offsetSeconds >= 0 ? "+" : ""}${offsetSeconds}`,
      FAKETIME_DONT_FAKE_MONOTONIC: "1",
      // The tests' own fixed time would otherwise be kept in a cache file between runs.
      FAKETIME_NO_CACHE: "1",
      // Xvfb has no GPU, so WebKit's accelerated compositing runs Mesa's GL in software:
      // two thirds of the web process's CPU time in the widget's tests. The tests read
      // what pages do (DOM, dates, messages), which compositing does not change.
      WEBKIT_DISABLE_COMPOSITING_MODE: "1",
    },
  });
  const driverUrl = `http://127.0.0.1:${port}`;
  let session: WebDriverSession;
  try {
    await waitUntil(
      "WebKitWebDriver",
      async () => (await fetch(`${driverUrl}/status`).catch(() => null))?.ok ?? false,
      { limitMs: PAGE_WAIT_MS, failed: () => exited(driver) },
    );
    session = await newSession(
      driverUrl,
      {
        "webkitgtk:browserOptions": { binary: MINIBROWSER_PATH, args: ["--automation"] },
        timeouts: { script: PAGE_WAIT_MS, pageLoad: PAGE_WAIT_MS },
      },
      PAGE_WAIT_MS + 30_000,
    );
  } catch (error) {
    await stopProcess(driver);
    throw error;
  }
  const [first] = await session.windowHandles();
  return {
    session,
    tabs: new Tabs(session, first ?? ""),
    async stop() {
      await session.delete().catch(() => {});
      await stopProcess(driver);
    },
  };
}

/** Where a surface is: its tab and the iframes (selector, index) down to it. */
type Place = readonly { readonly selector: string; readonly index: number }[];

/**
 * The session's tabs. WebDriver runs commands in one current tab and frame,
 * so each command first makes its own current (a command from another page
 * or frame may have moved it), one command at a time.
 */
class Tabs {
  private current = { tab: "", frames: "" };
  private readonly tabs = new Set<string>();
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly session: WebDriverSession,
    private readonly blank: string,
  ) {}

  get count(): number {
    return this.tabs.size + 1;
  }

  async open(url: string): Promise<string> {
    return this.run(async () => {
      const { handle } = await this.session.newWindow();
      this.tabs.add(handle);
      await this.session.switchToWindow(handle);
      this.current = { tab: handle, frames: "" };
      await this.session.navigate(url);
      return handle;
    });
  }

  async close(tab: string): Promise<void> {
    if (!this.tabs.delete(tab)) return;
    await this.run(async () => {
      await this.session.switchToWindow(tab);
      await this.session.closeWindow();
      await this.session.switchToWindow(this.blank);
      this.current = { tab: this.blank, frames: "" };
    });
  }

  /** Runs `work` in the tab's document at `place`. */
  in<T>(tab: string, place: Place, work: () => Promise<T>): Promise<T> {
    return this.run(async () => {
      const key = JSON.stringify(place);
      if (this.current.tab !== tab || this.current.frames !== key) {
        if (this.current.tab !== tab) await this.session.switchToWindow(tab);
        await this.session.switchToFrame(null);
        for (const { selector, index } of place) {
          const element = (await this.session.findElements(selector))[index];
          if (!element) throw new Error(`${selector} (${index}) is not in the page`);
          await this.session.switchToFrame(element);
        }
        this.current = { tab, frames: key };
      }
      return work();
    });
  }

  private run<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => {});
    return next;
  }
}

/**
 * A page function as WebDriver's asynchronous script: its result, or its
 * error, through the callback WebDriver passes last (section 13.2.2).
 */
function asyncScript(fn: PageFunction<never, unknown>, polling: boolean): string {
  const call = `(${fn.toString()})(arguments[0])`;
  const done = "arguments[arguments.length - 1]";
  if (!polling) {
    return `const done = ${done}; Promise.resolve().then(() => ${call}).then((value) => done({ value: value === undefined ? null : value }), (error) => done({ error: String(error && error.stack || error) }));`;
  }
  // Asks again on each animation frame (and each 100 ms where frames are not drawn) until truthy.
  return `const done = ${done}; const arg = arguments[0]; const ask = () => Promise.resolve().then(() => (${fn.toString()})(arg)).then((value) => { if (value) done({ value }); else { let asked = false; const again = () => { if (!asked) { asked = true; ask(); } }; requestAnimationFrame(again); setTimeout(again, 100); } }, (error) => done({ error: String(error && error.stack || error) })); ask();`;
}

/** Whether WebDriver ended a script because its document was unloaded (WebKitWebDriver's words). */
const isUnloaded = (error: unknown): boolean =>
  error instanceof WebDriverError && /unload/i.test(error.message);

function surface(tabs: Tabs, tab: string, place: Place): Surface {
  const run = async <R>(fn: PageFunction<never, unknown>, arg: unknown, polling: boolean) => {
    const script = asyncScript(fn, polling);
    const ask = () =>
      tabs.in(tab, place, () =>
        tabs.session.executeAsync<{ value?: R; error?: string }>(script, [arg ?? null]),
      );
    const until = Date.now() + PAGE_WAIT_MS;
    let answer: { value?: R; error?: string };
    for (;;) {
      try {
        answer = await ask();
        break;
      } catch (error) {
        // A wait outlives the document it started in (an iframe leaving
        // about:blank for its page, a link followed): WebDriver ends the
        // script with the document, and the wait goes on in the next one.
        if (!polling || !isUnloaded(error) || Date.now() > until) throw error;
      }
    }
    if (answer.error !== undefined) throw new Error(`in WebKit's page: ${answer.error}`);
    return answer.value as R;
  };
  const evaluate: Surface["evaluate"] = (fn, arg) =>
    run(fn as PageFunction<never, unknown>, arg, false);
  return {
    evaluate,
    ...elementReads(evaluate),
    waitFor: (fn, arg) => run(fn as PageFunction<never, unknown>, arg, true),
    click: (selector) =>
      tabs.in(tab, place, async () => tabs.session.click(await tabs.session.findElement(selector))),
    async frame(selector, index = 0) {
      const inner = [...place, { selector, index }];
      // Until the iframe is in the page; WebDriver's frame is its browsing context, so
      // what the test asks next runs in the document the frame holds by then.
      await run(
        (([s, i]: [string, number]) =>
          document.querySelectorAll(s)[i] !== undefined) as PageFunction<never, unknown>,
        [selector, index],
        true,
      );
      await scrollFrameIntoView(evaluate, selector, index);
      return surface(tabs, tab, inner);
    },
  };
}

async function startXvfb(): Promise<{ display: string; process: ChildProcess }> {
  // -displayfd: Xvfb takes the first free display number and writes it to that descriptor.
  const xvfb = spawn(
    XVFB_PATH,
    ["-displayfd", "3", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
    {
      stdio: ["ignore", "ignore", "ignore", "pipe"],
    },
  );
  const pipe = xvfb.stdio[3];
  if (!pipe) throw new Error("Xvfb gave no display descriptor");
  let written = "";
  pipe.on("data", (chunk: Buffer) => {
    written += chunk.toString();
  });
  await waitUntil("Xvfb's display", () => written.includes("\n"), {
    limitMs: PAGE_WAIT_MS,
    failed: () => exited(xvfb),
  });
  return { display: `:${written.trim()}`, process: xvfb };
}

function exited(child: ChildProcess): string | null {
  return child.exitCode !== null || child.signalCode !== null
    ? `exited (${child.exitCode ?? child.signalCode})`
    : null;
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (exited(child)) return;
  const gone = once(child, "exit");
  child.kill("SIGTERM");
  await gone;
}
