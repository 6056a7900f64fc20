import { afterAll, afterEach, beforeAll, describe } from "vitest";
import { openChromium } from "./chromium-engine.ts";
import { openFirefox } from "./firefox-engine.ts";
import { hasChromium, hasFirefox, hasWebKit } from "./system-packages.ts";
import { openWebKit } from "./webkit-engine.ts";

/*
 * The three browser engines the widget, its embed protocols and the search
 * page are tested in, behind one interface: Chromium (Blink) through
 * playwright-core, Firefox ESR (Gecko) through puppeteer-core over WebDriver
 * BiDi, WebKitGTK through its W3C WebDriver server. Every engine is Debian's
 * own; none is downloaded. A test file runs its cases per engine with
 * `describeEngines` (below), so each engine is launched once per file.
 */

export type EngineName = "chromium" | "firefox" | "webkit";

/** The engines, in one place. */
export const ENGINES: readonly EngineName[] = ["chromium", "firefox", "webkit"];

/** Whether an engine's system packages are here (skips with a reason, or fails in CI). */
export const hasEngine = (name: EngineName): boolean =>
  name === "chromium" ? hasChromium() : name === "firefox" ? hasFirefox() : hasWebKit();

/**
 * Code run in a page or frame. It is sent as its source text, so it uses
 * only its argument (JSON values) and the page's own globals.
 */
export type PageFunction<A, R> = (arg: A) => R | Promise<R>;

/** What a value is once it is truthy (what `waitFor` waited for). */
export type Truthy<T> = Exclude<NonNullable<T>, false | 0 | "">;

/** A page or one of its frames. */
export interface Surface {
  /** What `fn(arg)` returns (or resolves to) in this document, as JSON. */
  evaluate<R, A = undefined>(fn: PageFunction<A, R>, arg?: A): Promise<R>;
  /** Waits until `fn(arg)` returns a truthy value in this document, and returns it. */
  waitFor<R, A = undefined>(fn: PageFunction<A, R>, arg?: A): Promise<Truthy<R>>;
  /** The text of the first element matching `selector`, or null without one. */
  text(selector: string): Promise<string | null>;
  /** An attribute of the first element matching `selector`, or null. */
  attribute(selector: string, name: string): Promise<string | null>;
  /** Clicks the first element matching `selector` as a user does: trusted input, on its centre. */
  click(selector: string): Promise<void>;
  /**
   * The document of the `index`th element matching `selector` (an iframe),
   * once it holds one; the iframe is scrolled into view first, as a visitor
   * scrolls to it (scrollFrameIntoView).
   */
  frame(selector: string, index?: number): Promise<Surface>;
}

export interface EnginePage extends Surface {
  /**
   * Console errors and uncaught page errors, where the engine's driver reports
   * them (Chromium and Firefox; WebKit's WebDriver has no log): a clean page
   * has none.
   */
  readonly problems: readonly string[];
  /** The address the page's window shows now (after a link it followed, the new one). */
  url(): Promise<string>;
  /** How many other windows the page has opened (a link's new tab). */
  popups(): Promise<number>;
  close(): Promise<void>;
}

export interface VisitOptions {
  /** The visitor's zone: Europe/Amsterdam unless told otherwise. */
  readonly timezoneId?: string;
  /** The visitor's clock (ms or ISO): NOW unless told otherwise. */
  readonly at?: number | string;
  readonly viewport?: { readonly width: number; readonly height: number };
}

export interface Engine {
  readonly name: EngineName;
  /** A new visitor's page at `url`, its clock at `at` (NOW by default, helpers/clock.ts), once it has loaded. */
  open(url: string, options?: VisitOptions): Promise<EnginePage>;
  close(): Promise<void>;
}

/** The zone every engine's visitor is in unless told otherwise. */
export const DEFAULT_ZONE = "Europe/Amsterdam";

const OPENERS: Readonly<Record<EngineName, () => Promise<Engine>>> = {
  chromium: openChromium,
  firefox: openFirefox,
  webkit: openWebKit,
};

/**
 * One engine for the tests of a describe block (call it in the block):
 * launched before them, closed after them. The pages a test opens are closed
 * when it ends: each holds its own web processes (WebKitGTK's session of one
 * file's tests grew to 29 processes and 4.4 GB resident with none closed),
 * and a browser short of memory may stop answering in the middle of a test.
 */
export function useEngine(name: EngineName): Engine {
  let engine: Engine | undefined;
  const opened = new Set<EnginePage>();
  beforeAll(async () => {
    engine = await OPENERS[name]();
  });
  afterEach(async () => {
    const pages = [...opened];
    opened.clear();
    for (const page of pages) await page.close();
  });
  afterAll(async () => {
    await engine?.close();
  });
  const ready = () => {
    if (!engine) throw new Error(`${name} starts before the tests`);
    return engine;
  };
  return {
    name,
    async open(url, options) {
      const page = await ready().open(url, options);
      opened.add(page);
      return page;
    },
    close: () => ready().close(),
  };
}

/** The source of a call of `fn` with `arg`, for drivers that take script text. */
export function callSource(fn: PageFunction<never, unknown>): string {
  return `(${fn.toString()})`;
}

/**
 * Scrolls the `index`th element matching `selector` into view. An iframe with
 * `loading="lazy"` (the widget's snippets) loads only once near the viewport,
 * and how near differs by engine: Chromium loads the third of four 600 px
 * frames in a 900 px window before anyone scrolls, WebKitGTK does not.
 */
export function scrollFrameIntoView(
  evaluate: Surface["evaluate"],
  selector: string,
  index: number,
): Promise<boolean> {
  return evaluate(
    ([s, i]: [string, number]) => {
      const element = document.querySelectorAll(s)[i];
      element?.scrollIntoView({ block: "nearest" });
      return element !== undefined;
    },
    [selector, index] as [string, number],
  );
}

/** `text` and `attribute` of a surface, read through its `evaluate` (no waiting: they read what is there). */
export function elementReads(evaluate: Surface["evaluate"]): Pick<Surface, "text" | "attribute"> {
  return {
    text: (selector) =>
      evaluate((s: string) => document.querySelector(s)?.textContent ?? null, selector),
    attribute: (selector, name) =>
      evaluate(([s, n]: [string, string]) => document.querySelector(s)?.getAttribute(n) ?? null, [
        selector,
        name,
      ] as [string, string]),
  };
}

/**
 * `body`'s tests once per engine, each run with its engine launched once for
 * the block; an engine whose packages are missing skips with the reason (or
 * fails in CI: system-packages.ts).
 */
export function describeEngines(title: string, body: (engine: Engine) => void): void {
  describe.each(ENGINES)(`${title} (%s)`, (name) => {
    describe.skipIf(!hasEngine(name))(name, () => {
      body(useEngine(name));
    });
  });
}
