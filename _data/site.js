import { getSiteConfig } from "../src/config/site.ts";

/** Global `site`: the settings of this build (docs/configuration.md). */
export default function () {
  return getSiteConfig();
}
