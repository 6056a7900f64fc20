// @ts-check
/*
 * The one-line embed (docs/widget.md):
 *   <a href="{site}/calendars/{calendar}/" data-ecp-fallback>Events: …</a>
 *   <script src="{site}/embed.js" data-calendar="{calendar}" async></script>
 * Puts the widget's iframe where the script stands (in place of the fallback
 * link), passes the script's data- options as URL parameters, and keeps the
 * iframe as tall as its content. Each script tag gets its own iframe, so
 * several embeds on one page are independent.
 */
(() => {
  const OPTIONS = [
    "count",
    "view",
    "category",
    "q",
    "theme",
    "accent",
    "lang",
    "compact",
    "showTitle",
    "tz",
    "when",
  ];
  const current = document.currentScript;
  // currentScript is set while a classic (also async) script runs; the query
  // covers loaders that run it some other way.
  const scripts = current
    ? [current]
    : Array.from(document.querySelectorAll("script[data-calendar][src]"));
  for (const script of scripts) {
    if (script instanceof HTMLScriptElement && !script.dataset.ecpMounted) mount(script);
  }

  /** @param {HTMLScriptElement} script */
  function mount(script) {
    script.dataset.ecpMounted = "true";
    const calendar = script.dataset.calendar || "";
    // Path segments are what src/model/url-scheme.ts produces; anything else is not ours.
    if (!/^[a-z0-9_-]{1,80}$/.test(calendar)) return;
    const base = new URL(".", script.src);
    const url = new URL(`embed/${calendar}/`, base);
    for (const name of OPTIONS) {
      const value = script.dataset[name];
      if (value != null) url.searchParams.set(name, value);
    }
    const id = `ecp-${Math.random().toString(36).slice(2, 10)}`;
    url.searchParams.set("id", id);

    const fallback = script.previousElementSibling;
    const hasFallback =
      fallback instanceof HTMLAnchorElement && fallback.hasAttribute("data-ecp-fallback");
    const iframe = document.createElement("iframe");
    iframe.src = url.href;
    iframe.title =
      (hasFallback && fallback.textContent?.trim()) || script.dataset.title || "Events";
    iframe.loading = "lazy";
    iframe.width = "100%";
    // Reserve room up front so the page does not jump when the widget loads.
    const reserved = Number(script.dataset.height);
    iframe.height = String(reserved >= 100 && reserved <= 5000 ? reserved : 600);
    iframe.setAttribute("scrolling", "no");
    iframe.style.border = "0";
    iframe.style.display = "block";
    iframe.style.width = "100%";
    iframe.style.overflow = "hidden";
    if (hasFallback) fallback.replaceWith(iframe);
    else script.parentNode?.insertBefore(iframe, script);

    window.addEventListener("message", (event) => {
      // Only our own frame, from the widget's origin, may size it; any other
      // window (including the host page itself) is ignored.
      if (event.origin !== base.origin || event.source !== iframe.contentWindow) return;
      const message = event.data;
      if (message?.type !== "ecp:resize" || message.id !== id) return;
      const height = Math.ceil(Number(message.height));
      if (!(height > 0 && height <= 20000)) return;
      iframe.height = String(height);
      iframe.style.height = `${height}px`;
    });
  }
})();
