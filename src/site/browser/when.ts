// The "when" pages (Today, This weekend...; docs/site.md, "What's on") hold two
// views: the build's day and the next one, each valid between two instants
// (midnights in the page's zone) listed in data-when-bounds. The build shows
// the first; this script shows the one the visitor's clock is in, so a page
// served after midnight, before the rebuild for the new day is published,
// still lists the right events under the right date. Past the last instant
// it keeps the last view and says the page is out of date. Without this
// script the page shows the build's day, with its date in the heading.
const root = document.querySelector("[data-when-bounds]");
if (root instanceof HTMLElement) {
  const bounds = (root.dataset.whenBounds ?? "").split(" ").map((text) => Date.parse(text));
  const show = () => {
    const now = Date.now();
    let view = 0;
    for (let i = 1; i < bounds.length - 1; i++) if (now >= (bounds[i] ?? Number.NaN)) view = i;
    const key = String(view);
    for (const element of root.querySelectorAll("[data-when-in]")) {
      if (element instanceof HTMLElement) {
        element.hidden = !(element.dataset.whenIn ?? "").split(" ").includes(key);
      }
    }
    const last = bounds[bounds.length - 1] ?? Number.NaN;
    const stale = root.querySelector("[data-when-stale]");
    if (stale instanceof HTMLElement) stale.hidden = !(now >= last);
    // A page left open across midnight turns over by itself (one timer, at most two days ahead).
    const next = bounds.find((bound) => bound > now);
    if (next !== undefined) setTimeout(show, Math.min(next - now + 1000, 2 * 86_400_000));
  };
  if (bounds.length > 1 && bounds.every((bound) => !Number.isNaN(bound))) show();
}
