/**
 * Escaping for the build-time HTML of the widget pages. Every piece of portal
 * text goes through `escapeHtml` (text and double-quoted attribute values,
 * HTML 13.1.2.3/13.5), so a title like `<script>` stays text.
 */
export { escapeHtml } from "../model/sanitize.ts";
