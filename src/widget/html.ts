/**
 * Escaping for the build-time HTML of the widget pages. Every piece of portal
 * text goes through `escapeHtml` (text and double-quoted attribute values,
 * HTML 13.1.2.3/13.5), so a title like `<script>` stays text.
 */
const ENTITIES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

/** The path prefix of the site URL ("" or "/prefix"), for site-relative links. */
export function basePath(siteUrl: string): string {
  return new URL(siteUrl).pathname.replace(/\/+$/, "");
}
