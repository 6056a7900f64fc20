import type { Page } from "playwright-core";

/**
 * Waits until the search page (templates/assets/search.js) has answered:
 * its status line says how many events it found, or that none match, and,
 * with `shown`, its pager says that page of the results is shown. Returns
 * the status line.
 */
export async function searchAnswered(page: Page, shown?: number): Promise<string> {
  await page.waitForFunction(
    (n) =>
      /found|No events match/.test(document.getElementById("search-status")?.textContent ?? "") &&
      (n === null ||
        (document.getElementById("search-page")?.textContent ?? "").startsWith(`Page ${n} of `)),
    shown ?? null,
  );
  return (await page.textContent("#search-status")) ?? "";
}
