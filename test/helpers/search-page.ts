import type { Page } from "playwright-core";

/**
 * Waits until the search page (src/site/browser/search.ts) has answered,
 * in any language: its status line says how many events it found, or that
 * none match (`data-state="answered"`), and, with `shown`, its pager shows
 * that page of the results. Returns the status line.
 */
export async function searchAnswered(page: Page, shown?: number): Promise<string> {
  await page.waitForFunction(
    (n) =>
      document.getElementById("search-status")?.dataset.state === "answered" &&
      (n === null || document.getElementById("search-pager")?.dataset.page === String(n)),
    shown ?? null,
  );
  return (await page.textContent("#search-status")) ?? "";
}
