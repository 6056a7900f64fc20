// Progressive enhancement only: every page works without this file.
// Copy buttons stay hidden until this script can make them work.
for (const button of document.querySelectorAll("button[data-copy]")) {
  const source = document.getElementById(button.dataset.copy);
  if (!source || !navigator.clipboard) continue;
  button.hidden = false;
  const label = button.textContent;
  button.addEventListener("click", async () => {
    const text = "value" in source ? source.value : source.textContent;
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = button.dataset.copied;
    } catch {
      if ("select" in source) source.select();
    }
    setTimeout(() => {
      button.textContent = label;
    }, 2000);
  });
}
