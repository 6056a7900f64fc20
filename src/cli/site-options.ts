import type { OptionSpecs } from "./command-line.ts";

/** `--dir`: the built site, for the commands that serve or read one (preview, screenshots). */
export const BUILT_SITE_OPTION = {
  dir: { type: "string", value: "<dir>", default: "_site", meaning: "the built site" },
} as const satisfies OptionSpecs;

/** `--port`: where the commands that serve the site on this machine serve it (start, preview). */
export const SERVE_PORT_OPTION = {
  port: { type: "string", value: "<n>", default: "8080", meaning: "the port to serve on" },
} as const satisfies OptionSpecs;
