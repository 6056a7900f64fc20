/**
 * A W3C WebDriver client over fetch (https://www.w3.org/TR/webdriver2/), the
 * few commands the browser tests use: a session, navigation, scripts, frames,
 * elements and a click. It speaks to WebKitGTK's WebKitWebDriver; a full
 * client (webdriverio) would bring some hundred packages for these dozen
 * endpoints.
 */

/** The element reference's key in a WebDriver answer (section 12.1). */
const ELEMENT_KEY = "element-6066-11e4-a52e-4f735466cecf";

export type ElementReference = { readonly [ELEMENT_KEY]: string };

export class WebDriverError extends Error {}

export interface WebDriverSession {
  readonly id: string;
  readonly capabilities: Readonly<Record<string, unknown>>;
  navigate(url: string): Promise<void>;
  /** The address of the top-level page (section 10.2). */
  currentUrl(): Promise<string>;
  /** Runs `script` (a function body; `arguments` are `args`) and returns what it resolves to. */
  executeAsync<T>(script: string, args?: readonly unknown[]): Promise<T>;
  /** Makes the frame of an iframe element the current one; null: the top-level page. */
  switchToFrame(element: ElementReference | null): Promise<void>;
  findElement(css: string): Promise<ElementReference>;
  findElements(css: string): Promise<ElementReference[]>;
  /** A click as a user makes it (section 12.4.1): scrolled into view, on the element's centre. */
  click(element: ElementReference): Promise<void>;
  windowHandles(): Promise<string[]>;
  newWindow(): Promise<{ handle: string }>;
  switchToWindow(handle: string): Promise<void>;
  /** Closes the current window. */
  closeWindow(): Promise<void>;
  delete(): Promise<void>;
}

/**
 * A session of the driver at `driverUrl`. Every command is answered within
 * `answerLimitMs` or fails naming itself: a browser that stopped answering
 * (a web process gone) would otherwise hold the test until its own limit,
 * saying only that it timed out. Set it above the session's script and
 * page-load timeouts, so that the driver's own errors come first.
 */
export async function newSession(
  driverUrl: string,
  capabilities: Readonly<Record<string, unknown>>,
  answerLimitMs: number,
): Promise<WebDriverSession> {
  const send = <T>(method: string, path: string, body?: unknown) =>
    command<T>(driverUrl, method, path, body, answerLimitMs);
  const created = await send<{ sessionId: string; capabilities: Record<string, unknown> }>(
    "POST",
    "/session",
    { capabilities: { alwaysMatch: capabilities } },
  );
  const base = `/session/${created.sessionId}`;
  const call = <T>(method: string, path: string, body?: unknown) =>
    send<T>(method, `${base}${path}`, body);
  return {
    id: created.sessionId,
    capabilities: created.capabilities,
    navigate: async (url) => {
      await call("POST", "/url", { url });
    },
    currentUrl: () => call("GET", "/url"),
    executeAsync: (script, args = []) => call("POST", "/execute/async", { script, args }),
    switchToFrame: async (element) => {
      await call("POST", "/frame", { id: element });
    },
    findElement: (css) => call("POST", "/element", { using: "css selector", value: css }),
    findElements: (css) => call("POST", "/elements", { using: "css selector", value: css }),
    click: async (element) => {
      await call("POST", `/element/${element[ELEMENT_KEY]}/click`, {});
    },
    windowHandles: () => call("GET", "/window/handles"),
    newWindow: () => call("POST", "/window/new", { type: "window" }),
    switchToWindow: async (handle) => {
      await call("POST", "/window", { handle });
    },
    closeWindow: async () => {
      await call("DELETE", "/window");
    },
    delete: async () => {
      await call("DELETE", "");
    },
  };
}

/** One command: its value, or a WebDriverError with the error code and message (section 6.6). */
async function command<T>(
  driverUrl: string,
  method: string,
  path: string,
  body: unknown,
  answerLimitMs: number,
): Promise<T> {
  let answer: { value: T | { error: string; message: string } };
  let response: Response;
  try {
    response = await fetch(`${driverUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json; charset=utf-8" },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(answerLimitMs),
    });
    answer = await response.json();
  } catch (error) {
    if (error instanceof DOMException && error.name === "TimeoutError") {
      throw new WebDriverError(
        `WebDriver ${method} ${path}: no answer in ${answerLimitMs / 1000} s (the browser stopped answering)`,
      );
    }
    throw error;
  }
  if (!response.ok) {
    const { error, message } = answer.value as { error: string; message: string };
    throw new WebDriverError(`WebDriver ${method} ${path}: ${error}: ${message}`);
  }
  return answer.value as T;
}
