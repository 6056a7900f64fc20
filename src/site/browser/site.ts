// Progressive enhancement only: every page works without this script.
// Folded panels that open where there is room (the search page's filters) are
// set before anything is shown, so nothing moves; on a phone they stay folded
// and the results come first. The width is site.css's narrow-screen one.
const wide = window.matchMedia("(min-width: 40.01rem)").matches;
for (const details of document.querySelectorAll("details[data-open-wide]")) {
  if (details instanceof HTMLDetailsElement) details.open = wide;
}
// Parts that run in the browser (filters, search) stay hidden without it.
for (const element of document.querySelectorAll<HTMLElement>("[data-needs-script]")) {
  element.hidden = false;
}

// Copy buttons stay hidden until this script can make them work.
for (const button of document.querySelectorAll<HTMLButtonElement>("button[data-copy]")) {
  const source = document.getElementById(button.dataset.copy ?? "");
  if (!source || !navigator.clipboard) continue;
  button.hidden = false;
  const label = button.textContent;
  button.addEventListener("click", async () => {
    const text = "value" in source ? String(source.value) : (source.textContent ?? "");
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = button.dataset.copied ?? null;
    } catch {
      if (source instanceof HTMLInputElement || source instanceof HTMLTextAreaElement) {
        source.select();
      }
    }
    setTimeout(() => {
      button.textContent = label;
    }, 2000);
  });
}

// Filter forms: the "from" and "to" dates matter only for a chosen range.
for (const select of document.querySelectorAll<HTMLSelectElement>("select[data-when]")) {
  const dates = select.form?.querySelector<HTMLElement>("[data-range-fields]");
  if (!dates) continue;
  const sync = () => {
    dates.hidden = select.value !== "range";
  };
  select.addEventListener("change", sync);
  sync();
}
