import { readFileSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { defineCommand, readCommandLine } from "../src/cli/command-line.ts";
import { BUILT_SITE_OPTION } from "../src/cli/site-options.ts";
import { envSettings } from "../src/config/env-settings.ts";
import { startPreviewServer } from "../src/hosts/preview-server.ts";

/**
 * Screenshots of a built site for the README (docs/screenshots/), taken in
 * Debian's Chromium through the preview server, so they show exactly what the
 * CDN serves. Build first with a pinned clock for stable pictures:
 *   SITE_NOW=2026-03-20T12:00:00Z npm run build && npm run screenshots
 */
const SCREENSHOTS = defineCommand({
  run: "npm run screenshots",
  summary:
    "Takes the README's screenshots of a built site in Debian's Chromium, through the preview server. Build first with a pinned clock for stable pictures: SITE_NOW=2026-03-20T12:00:00Z npm run build.",
  options: {
    ...BUILT_SITE_OPTION,
    out: {
      type: "string",
      value: "<dir>",
      default: "docs/screenshots",
      meaning: "where the pictures go",
    },
    chromium: {
      type: "string",
      value: "<path>",
      meaning: "the browser (default CHROMIUM_PATH, else /usr/bin/chromium)",
    },
  },
  settings: [
    // The search page's "today" is the build's, when pinned.
    ...envSettings("Site", ["SITE_NOW"]),
    ...envSettings("Tools", ["CHROMIUM_PATH"]),
  ],
});

const { values } = readCommandLine(SCREENSHOTS);

const calendarHtml = readFileSync(join(values.dir, "calendars", "culture", "index.html"), "utf8");
const firstMatch = (pattern: RegExp) => calendarHtml.match(pattern)?.[1] ?? "/";
const pages = [
  { name: "home", path: "/", width: 1200 },
  { name: "calendar", path: "/calendars/culture/", width: 1200 },
  { name: "month", path: firstMatch(/href="(\/calendars\/culture\/\d{4}\/\d{2}\/)"/), width: 1200 },
  {
    name: "event",
    path: firstMatch(/href="(\/calendars\/culture\/events\/[^"]+\/)"/),
    width: 1200,
  },
  { name: "search", path: "/search/?q=jazz&attendance=in-person", width: 1200 },
  {
    name: "event-mobile",
    path: firstMatch(/href="(\/calendars\/culture\/events\/[^"]+\/)"/),
    width: 375,
  },
];

const server = await startPreviewServer({ root: values.dir });
const browser = await chromium.launch({
  executablePath: values.chromium ?? process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-sync",
  ],
});
try {
  for (const page of pages) {
    const tab = await browser.newPage({ viewport: { width: page.width, height: 900 } });
    // The search page computes "today" in the browser: the build's clock, when pinned.
    if (process.env.SITE_NOW) await tab.clock.setFixedTime(new Date(process.env.SITE_NOW));
    await tab.goto(`${server.origin}${page.path}`, { waitUntil: "networkidle" });
    if (page.name === "search") await tab.waitForSelector("#search-subscribe:not([hidden])");
    const file = join(values.out, `${page.name}.png`);
    await tab.screenshot({
      path: file,
      fullPage: !["home", "calendar", "search"].includes(page.name),
    });
    console.log(`${file}  ${page.path}`);
    await tab.close();
  }
} finally {
  await browser.close();
  await server.close();
}
