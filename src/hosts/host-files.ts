import type { DeployTarget } from "../config/deploy.ts";
import { paths } from "../model/url-scheme.ts";
import { type FileGroup, singleFile } from "../render/file-group.ts";
import { embedPolicyRules } from "./embed-policy.ts";
import type { HeaderRule } from "./headers.ts";
import { renderCloudflareHeaders, renderHeadersFile } from "./headers-file.ts";
import { withPolicyMeta } from "./page-policy.ts";

/**
 * What a host needs written into the site besides the site itself, per
 * DEPLOY_TARGET, from the one source of headers (netlify.toml's rules):
 *
 * - netlify: `_headers` with the embed pages' policy only, which names
 *   SITE_URL's origin (embed-policy.ts), and, for a site in several
 *   languages, every rule again for each language's folder
 *   (language-rules.ts); Netlify reads netlify.toml's other rules itself and
 *   merges this file's with them. Such a site also gets `_redirects`, with
 *   each language's 404 page.
 * - cloudflare-pages: `_headers`, the same rules in the file Cloudflare Pages
 *   reads. No `_redirects`: netlify.toml has no redirects, and Pages serves a
 *   folder's index.html and the top-level 404.html by itself.
 * - github-pages: no headers can be set, so each page carries its policy in a
 *   meta (page-policy.ts); `.nojekyll` keeps a branch-published site from
 *   going through Jekyll, which would drop files and folders starting with "_".
 * - s3, static: the same policy meta in each page, and nothing else in the
 *   site; the server, bucket or CDN is configured with the same rules (`npm
 *   run headers`, docs/deploy.md). That configuration is written by hand
 *   and kept apart from the site, and a server sends no policy at all for a
 *   rule it does not match (a folder or path it was not written for); the
 *   meta keeps each page's policy with the page. Where the header comes
 *   too, a browser enforces both, and they are the same policy (the meta
 *   less what only a header can carry), so nothing is stricter than meant.
 *
 * They are written through the publisher's one writer (src/eleventy/publisher-plugin.ts)
 * rather than after the build, so they are counted, checked for clashes with
 * the site's own files, and published with the rest of the staging folder.
 */
export interface HostOutputs {
  readonly files: readonly FileGroup[];
  /** Applied to every HTML page with its site path; null when pages stay as rendered. */
  readonly page: ((html: string, sitePath: string) => string) | null;
}

/** `rules`: netlify.toml's with the site's own values (site-rules.ts). */
export function hostOutputs(target: DeployTarget, rules: readonly HeaderRule[]): HostOutputs {
  if (target === "netlify") {
    const folders = [...new Set(rules.flatMap((rule) => (rule.folder ? [rule.folder] : [])))];
    return {
      files: [
        singleFile("host", paths.headersFile(), () =>
          renderHeadersFile([...embedPolicyRules(rules), ...rules.filter((rule) => rule.folder)]),
        ),
        // Netlify serves the root's 404.html for any missing file, but where a rule names another.
        ...(folders.length > 0
          ? [singleFile("host", paths.redirectsFile(), () => languageNotFound(folders))]
          : []),
      ],
      page: null,
    };
  }
  if (target === "cloudflare-pages") {
    return {
      files: [singleFile("host", paths.headersFile(), () => renderCloudflareHeaders(rules))],
      page: null,
    };
  }
  const page = (html: string, sitePath: string) => withPolicyMeta(html, sitePath, rules);
  if (target === "github-pages") {
    return { files: [singleFile("host", paths.noJekyll(), () => "")], page };
  }
  return { files: [], page };
}

/**
 * Netlify's `_redirects` for a site in several languages: a missing page in
 * a language's folder gets that language's 404.html, with status 404 (a
 * rule applies only where no file is: Netlify's "shadowing").
 */
function languageNotFound(folders: readonly string[]): string {
  const rules = folders.map((folder) => `/${folder}*  /${folder}404.html  404`);
  return `# Written by the build for SITE_LANGUAGES: each language's own "not found" page.\n${rules.join("\n")}\n`;
}
