/*
 * /embed/frame.js: what an embed page says to the page that frames it, for
 * every embed page (each loads it beside its own script). Two protocols
 * (docs/widget.md, "Height sync" and "WordPress"):
 *
 * - ecp:resize, for embed.js and any other host: `{ type: "ecp:resize",
 *   height, id }` whenever the content's height changes, `id` being the
 *   page URL's `id` parameter (the frame id embed.js chose).
 * - WordPress's, when the URL's fragment carries `#?secret=…` (WordPress adds
 *   it to an oEmbed iframe of a provider it does not know, which it also puts
 *   in `sandbox="allow-scripts"`: an opaque origin, no popups, no storage):
 *   `{ message: "height", value, secret }` the same way, again whenever
 *   WordPress says `{ message: "ready", secret }`; and a click on a link that
 *   would open a new tab, which the sandbox blocks, becomes `{ message:
 *   "link", value: absoluteUrl, secret }`, on which WordPress's wp-embed
 *   script opens that address in the top window (only for an address on the
 *   iframe's own host, and only while the iframe has the focus, which a click
 *   gives it).
 *
 * The target origin is "*": any site may embed the widget and its origin is
 * unknown here. The messages carry a height, an address of this site and the
 * id or secret the framing page chose itself, nothing else. The receivers
 * check that a message comes from their own frame.
 */
if (window.parent !== window) talkToFrame(window.parent);

function talkToFrame(parent: Window): void {
  const rawId = new URLSearchParams(location.search).get("id") || "";
  const id = /^[A-Za-z0-9_-]{1,64}$/.test(rawId) ? rawId : "";
  // WordPress writes "#?secret=" and 10 letters and digits; its script ignores anything else.
  const secret =
    (/^#\??(?:.*&)?secret=([A-Za-z0-9]{1,64})(?:&|$)/.exec(location.hash) || [])[1] || "";

  let last = -1;
  function sendHeight(): void {
    // The whole document: every embed page's content, with no margin around it.
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    parent.postMessage({ type: "ecp:resize", height, id }, "*");
    if (secret) parent.postMessage({ message: "height", value: height, secret }, "*");
  }

  function start(): void {
    if (typeof ResizeObserver === "function") {
      new ResizeObserver(sendHeight).observe(document.documentElement);
    }
    sendHeight();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();

  if (!secret) return;

  // Links open in WordPress's top window (below), not in a new tab: the
  // stylesheet drops the "opens in a new tab" each link announces elsewhere.
  document.documentElement.setAttribute("data-ecp-links", "top");

  // WordPress's script may load after this page reported its height: it says so.
  window.addEventListener("message", (event) => {
    const data = event.data;
    if (event.source !== parent || !data || data.message !== "ready" || data.secret !== secret)
      return;
    last = -1;
    sendHeight();
  });

  document.addEventListener("click", (event) => {
    if (event.defaultPrevented || event.button !== 0) return;
    const target = event.target instanceof Element ? event.target.closest("a[href]") : null;
    if (!(target instanceof HTMLAnchorElement) || target.target !== "_blank") return;
    if (target.protocol !== "https:" && target.protocol !== "http:") return;
    // A link to this page itself (an event without a usable address) goes nowhere.
    if (target.href.split("#")[0] === location.href.split("#")[0]) return;
    event.preventDefault();
    parent.postMessage({ message: "link", value: target.href, secret }, "*");
  });
}
