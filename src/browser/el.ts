/**
 * A new element with its class and its text. The scripts build their markup
 * with it, so text from the portal or from a URL reaches the page as text
 * (textContent), never as markup.
 */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}
