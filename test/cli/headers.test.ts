import { describe, expect, it } from "vitest";
import { renderApacheConfig } from "../../src/hosts/apache-config.ts";
import { withEmbedPolicy } from "../../src/hosts/embed-policy.ts";
import { defaultHeaderRules } from "../../src/hosts/headers.ts";
import { renderCloudflareHeaders } from "../../src/hosts/headers-file.ts";
import { renderNginxConfig } from "../../src/hosts/nginx-config.ts";
import { renderS3Sync, syncPasses } from "../../src/hosts/s3-upload.ts";
import { runScript } from "../helpers/demo-build.ts";

/* `npm run headers`: the generated configurations, in SITE_URL's folder. */
describe("npm run headers", () => {
  it("should print each host's configuration for the site's folder", async () => {
    const env = { SITE_URL: "https://example.org/events/" };
    const [nginx, apache, cloudflare, s3, wrong] = await Promise.all([
      runScript("src/cli/headers.ts", ["--format", "nginx", "--root", "/srv/www"], env),
      runScript("src/cli/headers.ts", ["--format", "apache"], env),
      runScript("src/cli/headers.ts", ["--format", "cloudflare"], env),
      runScript("src/cli/headers.ts", ["--format", "s3"], env),
      runScript("src/cli/headers.ts", ["--format", "iis"], env),
    ]);
    // The embed pages' policy names SITE_URL's origin (src/hosts/embed-policy.ts).
    const rules = withEmbedPolicy(defaultHeaderRules(), ["https://example.org"]);
    expect(nginx.stdout).toBe(
      renderNginxConfig(
        { basePath: "/events", root: "/srv/www", listen: "80", serverName: "example.org" },
        rules,
      ),
    );
    expect(nginx.stdout).toContain('error_page 404 "/events/404.html";');
    expect(apache.stdout).toBe(renderApacheConfig({ basePath: "/events" }, rules));
    expect(cloudflare.stdout).toBe(renderCloudflareHeaders(rules));
    expect(cloudflare.stdout).toContain("script-src 'self' https://example.org;");
    expect(s3.stdout).toBe(renderS3Sync(syncPasses(rules)));
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain('--format: expected cloudflare, nginx, apache, s3; got "iis"');
  });

  it("should write the folder as the servers match it, and refuse in one line one nginx cannot carry", async () => {
    const inFolder = await runScript("src/cli/headers.ts", ["--format", "nginx"], {
      SITE_URL: "https://example.org/my events/",
    });
    expect(inFolder.status).toBe(0);
    expect(inFolder.stdout).toContain('location "/my events/" {');
    const refused = await runScript("src/cli/headers.ts", ["--format", "nginx"], {
      SITE_URL: "https://example.org/what%3F/",
    });
    expect(refused.status).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr.trim()).toBe(
      'error: SITE_URL: the folder "/what%3F" cannot be served by nginx: its error_page reads "?" as the start of a query string; choose another folder name.',
    );
  });
});
