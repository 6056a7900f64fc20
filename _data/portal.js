import { loadSiteData } from "../src/site/load.ts";

/** Global `portal`: the snapshot of the portal plus the page views derived from it. */
export default function () {
  return loadSiteData();
}
