import { type Browser, chromium } from "playwright-core";
import { CHROMIUM_PATH } from "./system-packages.ts";

/**
 * Debian's Chromium, driven by playwright-core; never a downloaded browser.
 * Playwright gives each launch a fresh temporary profile. The
 * background-networking flags keep Chromium from dialing out of the sandbox.
 */
export async function launchBrowser(): Promise<{ browser: Browser; close: () => Promise<void> }> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  return { browser, close: () => browser.close() };
}
