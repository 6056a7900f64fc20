import { hostileSnapshot } from "../fixtures/feeds-hostile.ts";
import { buildFixtureSite } from "./plugin-site.ts";

/**
 * A script, not a module: builds the hostile fixture's feeds and calendars in
 * a fresh temporary folder and prints `{ outDir, files }` as JSON. Spawned by
 * test/outputs/ics-tz.test.ts under different TZ values: the output must not
 * depend on the build machine's time zone.
 */
const result = await buildFixtureSite(hostileSnapshot);
process.stdout.write(`${JSON.stringify(result)}\n`);
