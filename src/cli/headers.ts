import { readSiteConfig, SITE_SETTINGS } from "../config/site.ts";
import { UsageError } from "../errors.ts";
import { renderApacheConfig } from "../hosts/apache-config.ts";
import { renderCloudflareHeaders } from "../hosts/headers-file.ts";
import { renderNginxConfig } from "../hosts/nginx-config.ts";
import { renderS3Sync, syncPasses } from "../hosts/s3-upload.ts";
import { siteHeaderRules } from "../hosts/site-rules.ts";
import { defineCommand } from "./command-line.ts";
import { runCli } from "./run.ts";

/**
 * `npm run headers -- --format cloudflare|nginx|apache|s3`: netlify.toml's
 * headers for another host, printed, so every host sends what Netlify sends
 * from the one source (docs/deploy.md). A site in a folder (SITE_URL with a
 * path) gets its rules in that folder.
 */
const FORMATS = ["cloudflare", "nginx", "apache", "s3"] as const;

const HEADERS = defineCommand({
  run: "npm run headers",
  summary:
    "Prints netlify.toml's headers for another host: a _headers file (Cloudflare Pages), an nginx or Apache configuration, or aws s3 sync passes.",
  forms: ["--format <host> [options]"],
  options: {
    format: {
      type: "string",
      value: "<host>",
      choices: FORMATS,
      meaning: "the host to print the headers for",
    },
    root: {
      type: "string",
      value: "<dir>",
      default: "/var/www/events",
      meaning: "nginx: the folder the site is served from",
    },
    listen: { type: "string", value: "<port>", default: "80", meaning: "nginx: the port" },
    "server-name": {
      type: "string",
      value: "<name>",
      meaning: "nginx: the server name (default SITE_URL's host)",
    },
  },
  settings: SITE_SETTINGS,
});

runCli(HEADERS, async ({ values }) => {
  const format = values.format;
  if (!format) throw new UsageError(`--format: expected ${FORMATS.join(", ")}`);
  const site = readSiteConfig(process.env);
  const basePath = site.urls.basePath;
  // The embed pages name SITE_URL's origin, the place pages admit MAP_TILES_URL's
  // tile server (src/hosts/site-rules.ts).
  const rules = siteHeaderRules(site);
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
          : renderS3Sync(syncPasses(rules));
  process.stdout.write(text);
});
