import { paths } from "../model/url-scheme.ts";
import { type FileGroup, fileGroup } from "../render/file-group.ts";
import { type BrowserScript, browserBundle } from "./browser-bundle.ts";

interface SiteScript extends BrowserScript {
  /** Its name in /assets/, where the pages load it from. */
  readonly name: string;
}

/** src/site/browser/{name}.ts, published as /assets/{name}.js. */
function siteScript(name: string, kind: BrowserScript["kind"]): SiteScript {
  return { name: `${name}.js`, entry: `src/site/browser/${name}.ts`, kind };
}

/**
 * The site's scripts, each of the kind its <script> tag asks for
 * (templates/_layouts/base.njk, and the pages' `pageScript`): site.js is a
 * classic `defer` script, the others are modules.
 */
const SITE_SCRIPTS: readonly SiteScript[] = [
  siteScript("site", "classic"),
  siteScript("local-time", "module"),
  siteScript("search", "module"),
  siteScript("month-time-zone", "module"),
  siteScript("when", "module"),
  siteScript("map", "module"),
];

/** The site's scripts, bundled, as files in /assets/ beside the stylesheet Eleventy copies there. */
export function siteScriptFiles(): FileGroup {
  return fileGroup<SiteScript>({
    phase: "assets",
    name: "site script",
    items: SITE_SCRIPTS,
    path: (script) => paths.asset(script.name),
    render: (script) => browserBundle(script),
    // Made from the code alone, whose fingerprint every inputs' digest holds: kept as
    // published, not bundled again, while the code is the same (src/render/file-writer.ts).
    inputs: () => "",
  });
}
