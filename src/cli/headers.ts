import { parseArgs } from "node:util";
import { readSiteConfig } from "../config/site.ts";
import { ConfigError } from "../errors.ts";
import { renderApacheConfig } from "../hosts/apache-config.ts";
import { defaultHeaderRules } from "../hosts/headers.ts";
import { renderCloudflareHeaders } from "../hosts/headers-file.ts";
import { withMapTiles } from "../hosts/map-policy.ts";
import { renderNginxConfig } from "../hosts/nginx-config.ts";
import { renderS3Sync } from "../hosts/s3-upload.ts";
import { runCli } from "./run.ts";

/**
 * `npm run headers -- --format cloudflare|nginx|apache|s3`: netlify.toml's
 * headers for another host, printed, so every host sends what Netlify sends
 * from the one source (docs/deploy.md). A site in a folder (SITE_URL with a
 * path) gets its rules in that folder.
 */
const FORMATS = ["cloudflare", "nginx", "apache", "s3"] as const;

runCli(async () => {
  const { values } = parseArgs({
    options: {
      format: { type: "string" },
      root: { type: "string", default: "/var/www/events" },
      listen: { type: "string", default: "80" },
      "server-name": { type: "string" },
    },
  });
  const format = values.format as (typeof FORMATS)[number] | undefined;
  if (!format || !FORMATS.includes(format)) {
    throw new ConfigError(`--format: expected ${FORMATS.join(", ")}.`);
  }
  const site = readSiteConfig(process.env);
  const basePath = site.urls.basePath;
  // The place pages admit MAP_TILES_URL's tile server (src/hosts/map-policy.ts).
  const rules = withMapTiles(defaultHeaderRules(), site.map);
  const text =
    format === "cloudflare"
      ? renderCloudflareHeaders(rules)
      : format === "nginx"
        ? renderNginxConfig(
            {
              basePath,
              root: values.root,
              listen: values.listen,
              serverName: values["server-name"] ?? new URL(site.url).hostname,
            },
            rules,
          )
        : format === "apache"
          ? renderApacheConfig({ basePath }, rules)
          : renderS3Sync();
  process.stdout.write(text);
});
