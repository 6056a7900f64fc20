import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onRequest as cloudflareOembed } from "../../functions/oembed.ts";
import netlifyOembed, { config as netlifyConfig } from "../../netlify/functions/oembed.mts";
import { type PreviewServer, startPreviewServer } from "../../src/hosts/preview-server.ts";
import { paths } from "../../src/model/url-scheme.ts";
import { staticAnswerPath } from "../../src/oembed/endpoint.ts";
import { type BuiltWidgetSite, buildWidgetSite } from "../helpers/plugin-site.ts";

/*
 * The one endpoint as each host runs it, over real HTTP against a build of
 * the fixture: `npm run preview`'s server (also what `npm start` uses, see
 * test/site/serve.test.ts), the Netlify Function reading the deploy's
 * static answers from the deploy's own address, and the Cloudflare Pages
 * Function reading them through its ASSETS binding (here bound to the same
 * server). All three give the same bytes.
 */

interface Answer {
  readonly width: number;
  readonly height: number;
  readonly html: string;
}

describe("the oEmbed endpoint on each host", () => {
  let server: PreviewServer;
  let built: BuiltWidgetSite;
  let pageUrl = "";
  const endpoint = (query: Record<string, string>) =>
    `${server.origin}${paths.oembedEndpoint()}?${new URLSearchParams(query)}`;

  beforeAll(async () => {
    server = await startPreviewServer();
    built = await buildWidgetSite(server.origin);
    server.setRoot(built.outputDir);
    pageUrl = `${server.origin}${paths.calendar("culture")}`;
  });

  afterAll(async () => {
    await server?.close();
    built?.remove();
  });

  it("should answer at {site}/oembed in npm run preview, beside the static answers", async () => {
    const sized = await fetch(endpoint({ url: pageUrl, maxwidth: "300", format: "json" }));
    expect(sized.status).toBe(200);
    expect(sized.headers.get("content-type")).toBe("application/json");
    expect(sized.headers.get("access-control-allow-origin")).toBe("*");
    const answer = (await sized.json()) as Answer;
    expect(answer.width).toBe(300);
    expect(answer.html).toContain(' width="300" ');

    const full = await (await fetch(endpoint({ url: pageUrl }))).text();
    const file = await fetch(`${server.origin}${paths.oembed("culture")}`);
    expect(file.status).toBe(200);
    expect(await file.text()).toBe(full);

    const head = await fetch(endpoint({ url: pageUrl }), { method: "HEAD" });
    expect([head.status, await head.text()]).toEqual([200, ""]);
    expect((await fetch(endpoint({ url: pageUrl, format: "xml" }))).status).toBe(501);
    expect((await fetch(endpoint({ url: `${server.origin}/calendars/none/` }))).status).toBe(404);
  });

  it("should give the same answers from the Netlify Function, at the same path", async () => {
    expect(netlifyConfig.path).toBe(paths.oembedEndpoint());
    const queries: Record<string, string>[] = [
      { url: pageUrl },
      { url: pageUrl, maxwidth: "320", maxheight: "200" },
      { url: pageUrl, format: "xml" },
      { url: `${server.origin}/calendars/none/` },
    ];
    for (const query of queries) {
      const preview = await fetch(endpoint(query));
      const netlify = await netlifyOembed(new Request(endpoint(query)));
      expect(netlify.status, JSON.stringify(query)).toBe(preview.status);
      expect(await netlify.text()).toBe(await preview.text());
      expect(netlify.headers.get("content-type")).toBe(preview.headers.get("content-type"));
    }
  });

  it("should give the same answers from the Cloudflare Pages Function, reading the deploy's files", async () => {
    const asked: string[] = [];
    const env = {
      ASSETS: {
        fetch: (input: URL | string) => {
          const { pathname } = new URL(input);
          asked.push(pathname);
          return fetch(`${server.origin}${pathname}`);
        },
      },
    };
    const query = { url: pageUrl, maxwidth: "280" };
    const reply = await cloudflareOembed({
      request: new Request(`https://events.pages.dev/oembed?${new URLSearchParams(query)}`),
      env,
    });
    expect(reply.status).toBe(200);
    expect(await reply.text()).toBe(await (await fetch(endpoint(query))).text());
    expect(asked).toEqual([paths.oembed("culture")]);
    const missing = await cloudflareOembed({
      request: new Request(`https://events.pages.dev/oembed?url=${server.origin}/calendars/none/`),
      env,
    });
    expect(missing.status).toBe(404);
  });

  it("should answer in the site's folder, and not where the host runs no functions", async () => {
    const inFolder = await startPreviewServer({ basePath: "/events" });
    const noFunctions = await startPreviewServer({ oembedEndpoint: false });
    const folderSite = await buildWidgetSite(`${inFolder.origin}/events`);
    try {
      inFolder.setRoot(folderSite.outputDir);
      noFunctions.setRoot(built.outputDir);
      const page = `${inFolder.origin}/events${paths.calendar("culture")}`;
      const query = new URLSearchParams({ url: page });
      expect((await fetch(`${inFolder.origin}/events/oembed?${query}`)).status).toBe(200);
      expect((await fetch(`${inFolder.origin}/oembed?${query}`)).status).toBe(404);
      const none = await fetch(
        `${noFunctions.origin}/oembed?${new URLSearchParams({ url: pageUrl })}`,
      );
      expect(none.status).toBe(404);
      expect(none.headers.get("content-type")).toBe("text/html; charset=utf-8");
    } finally {
      await inFolder.close();
      await noFunctions.close();
      folderSite.remove();
    }
  });
  it("should read the static answers where the build publishes them", () => {
    for (const segment of ["culture", "a_b-c"]) {
      expect(staticAnswerPath(segment)).toBe(paths.oembedOfSegment(segment));
    }
  });
});
