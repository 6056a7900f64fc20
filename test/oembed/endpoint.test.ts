import { describe, expect, it } from "vitest";
import { headersFor } from "../../src/hosts/headers.ts";
import type { Calendar } from "../../src/model/types.ts";
import { encodeIdSegment, paths } from "../../src/model/url-scheme.ts";
import { oembedDiscovery, oembedDiscoveryUrl } from "../../src/oembed/discovery.ts";
import {
  answerOembed,
  OEMBED_RESPONSE_HEADERS,
  type StaticAnswerReader,
} from "../../src/oembed/endpoint.ts";
import { WIDGET_INITIAL_HEIGHT } from "../../src/widget/options.ts";
import { OEMBED_WIDTH, oembedLinkTag, writeOembedJson } from "../../src/widget/snippets.ts";
import { fixtureSnapshot } from "../fixtures/snapshot.ts";
import { siteWith } from "../helpers/test-site.ts";

/*
 * The oEmbed endpoint (src/oembed/endpoint.ts) against the spec
 * (https://oembed.com, 2.2 consumer request, 2.3 provider response, 2.3.5
 * errors) and the consumers we know: what Ghost requires of a rich answer and
 * what WordPress keeps of one. The answers it reads are the build's own
 * static answers (writeOembedJson), here held in memory.
 */

const culture = fixtureSnapshot.calendars.find((c) => c.id === "culture") as Calendar;
const hostile: Calendar = { ...culture, id: "Talks & <Debates>", name: 'Talks "&" <b>Debates</b>' };

function siteAt(url: string) {
  const site = siteWith({ url });
  const answers = new Map(
    [culture, hostile].map((c) => [encodeIdSegment(c.id), writeOembedJson(c, site)]),
  );
  const read: StaticAnswerReader = async (segment) => answers.get(segment) ?? null;
  const ask = (query: Record<string, string>, method = "GET") =>
    answerOembed(
      method,
      `${site.urls.absolute(paths.oembedEndpoint())}?${new URLSearchParams(query)}`,
      read,
    );
  return { site, answers, ask };
}

const root = siteAt("https://events.example.org");
const pageUrl = root.site.urls.absolute(paths.calendar("culture"));
const json = (body: string) =>
  JSON.parse(body) as {
    type: string;
    version: string;
    html: string;
    width: number;
    height: number;
  };

describe("the oEmbed endpoint", () => {
  it("should answer a calendar page with the build's static answer, byte for byte", async () => {
    const reply = await root.ask({ url: pageUrl, format: "json" });
    expect(reply.status).toBe(200);
    expect(reply.headers["Content-Type"]).toBe("application/json");
    expect(reply.headers["Access-Control-Allow-Origin"]).toBe("*");
    expect(reply.body).toBe(root.answers.get("culture"));
    // format is optional (2.2): JSON is what this provider gives.
    expect((await root.ask({ url: pageUrl })).body).toBe(reply.body);
  });

  it("should keep the answer and its iframe within maxwidth and maxheight (2.2)", async () => {
    const reply = await root.ask({ url: pageUrl, maxwidth: "320", maxheight: "240" });
    const answer = json(reply.body);
    expect([answer.width, answer.height]).toEqual([320, 240]);
    expect(answer.html).toContain(' width="320" height="240" ');
    // Only the size changes.
    const original = json(root.answers.get("culture") ?? "");
    expect({ ...answer, width: 0, height: 0, html: "" }).toEqual({
      ...original,
      width: 0,
      height: 0,
      html: "",
    });
    expect(answer.html.replace(' width="320" height="240" ', "")).toBe(
      original.html.replace(` width="${OEMBED_WIDTH}" height="${WIDGET_INITIAL_HEIGHT}" `, ""),
    );
    // A maximum above the answer's size leaves it as it is; so does one that is not a number of pixels.
    for (const [maxwidth, maxheight] of [
      ["5000", "5000"],
      ["abc", "-5"],
      ["0", "1e3"],
      ["12.5", ""],
    ]) {
      const same = await root.ask({
        url: pageUrl,
        maxwidth: maxwidth ?? "",
        maxheight: maxheight ?? "",
      });
      expect(same.body, `${maxwidth} ${maxheight}`).toBe(root.answers.get("culture"));
    }
    const narrow = json((await root.ask({ url: pageUrl, maxwidth: "500", maxheight: "750" })).body);
    expect([narrow.width, narrow.height]).toEqual([500, WIDGET_INITIAL_HEIGHT]);
  });

  it("should answer 501 for a format it does not implement (2.3.5)", async () => {
    const reply = await root.ask({ url: pageUrl, format: "xml" });
    expect(reply.status).toBe(501);
    expect(reply.headers["Content-Type"]).toBe("text/plain; charset=utf-8");
    expect((await root.ask({ url: pageUrl, format: "JSON" })).status).toBe(200);
  });

  it("should answer 404 for an address it has no answer for (2.3.5)", async () => {
    const other: Record<string, string>[] = [
      {},
      { url: "" },
      { url: "not a url" },
      { url: "javascript:alert(1)//events.example.org/calendars/culture/" },
      { url: "https://other.example.org/calendars/culture/" },
      { url: "https://events.example.org/calendars/nothing/" },
      { url: "https://events.example.org/calendars/culture/events/e-cancelled/" },
      { url: "https://events.example.org/events/" },
      { url: "https://events.example.org/agenda/calendars/culture/" },
      { url: "https://events.example.org/calendars/../oembed/culture/" },
    ];
    for (const query of other) {
      const reply = await root.ask(query);
      expect(reply.status, JSON.stringify(query)).toBe(404);
    }
  });

  it("should accept the page's address over http or https, with index.html, a query or a fragment", async () => {
    for (const url of [
      "http://events.example.org/calendars/culture/",
      "https://EVENTS.example.org/calendars/culture/index.html",
      "https://events.example.org/calendars/culture/?utm_source=x#top",
    ]) {
      expect((await root.ask({ url })).status, url).toBe(200);
    }
  });

  it("should find a calendar whose id had to be encoded, and a site in a folder of its host", async () => {
    const encoded = root.site.urls.absolute(paths.calendar(hostile.id));
    const reply = await root.ask({ url: encoded });
    expect(reply.status).toBe(200);
    expect(json(reply.body).html).toContain("Talks &quot;&amp;&quot; &lt;b&gt;Debates&lt;/b&gt;");

    const folder = siteAt("https://example.org/agenda");
    const inFolder = folder.site.urls.absolute(paths.calendar("culture"));
    expect((await folder.ask({ url: inFolder })).status).toBe(200);
    // The same calendar outside the site's folder is not this site's page.
    expect((await folder.ask({ url: "https://example.org/calendars/culture/" })).status).toBe(404);
  });

  it("should answer a page of one of the site's languages from that language's answers", async () => {
    for (const base of ["https://events.example.org", "https://example.org/agenda"]) {
      const main = siteWith({ url: base });
      const french = siteWith({ url: `${base}/fr`, lang: "fr" });
      const answers = new Map([
        ["", writeOembedJson(culture, main)],
        ["/fr", writeOembedJson(culture, french)],
      ]);
      const read: StaticAnswerReader = async (segment, folder) =>
        segment === "culture" ? (answers.get(folder) ?? null) : null;
      const ask = (url: string) =>
        answerOembed(
          "GET",
          `${main.urls.absolute(paths.oembedEndpoint())}?${new URLSearchParams({ url })}`,
          read,
        );
      const inFrench = await ask(french.urls.absolute(paths.calendar("culture")));
      expect(inFrench.status, base).toBe(200);
      expect(inFrench.body).toBe(answers.get("/fr"));
      expect((await ask(main.urls.absolute(paths.calendar("culture")))).body).toBe(answers.get(""));
      // Any other folder is no language's: nothing is looked up there.
      expect((await ask(`${base}/not-a-language/calendars/culture/`)).status).toBe(404);
    }
  });

  it("should answer only GET and HEAD, and 502 when the site's answer cannot be read", async () => {
    const post = await root.ask({ url: pageUrl }, "POST");
    expect(post.status).toBe(405);
    expect(post.headers.Allow).toBe("GET, HEAD");
    const failing = await answerOembed(
      "GET",
      `https://events.example.org/oembed?url=${pageUrl}`,
      () => Promise.reject(new Error("offline")),
    );
    expect(failing.status).toBe(502);
  });

  it("should send the headers the CDN sends with the static answers", () => {
    const cdn = headersFor(paths.oembed("culture"));
    for (const name of ["Access-Control-Allow-Origin", "Cache-Control", "X-Content-Type-Options"]) {
      expect(OEMBED_RESPONSE_HEADERS[name], name).toBe(cdn[name]);
    }
    expect(cdn["Content-Type"]).toBe("application/json");
  });
});

describe("the oEmbed answer for its consumers", () => {
  const answer = json(root.answers.get("culture") ?? "");

  it("should be what Ghost embeds: type rich with html and numeric width and height", () => {
    // Ghost (ghost/core/core/server/services/oembed/oembed-service.js,
    // fetchOembedData) drops a discovered answer without type and version, and
    // a rich one without html or width, and falls back to a bookmark card.
    expect(answer.type).toBe("rich");
    expect(answer.version).toBe("1.0");
    expect(answer.html.length).toBeGreaterThan(0);
    expect(Number.isInteger(answer.width) && answer.width > 0).toBe(true);
    expect(Number.isInteger(answer.height) && answer.height > 0).toBe(true);
  });

  it("should have the shape WordPress keeps for a provider it does not know", () => {
    // wp-includes/embed.php, wp_filter_oembed_result (WordPress 6.1): wp_kses
    // keeps a blockquote without any attribute, links, and an iframe with
    // these attributes; the blockquote is WordPress's fallback only when the
    // html starts with it.
    const kses = answer.html.replace(/<blockquote[^>]*>/g, "<blockquote>");
    const kept = /(<blockquote>.*?<\/blockquote>)?.*(<iframe.*?><\/iframe>)/s.exec(kses);
    expect(kept?.index).toBe(0);
    expect(kept?.[1]).toBe(`<blockquote><a href="${pageUrl}">Events: Culture</a></blockquote>`);
    const iframe = kept?.[2] ?? "";
    const attributes = [...iframe.matchAll(/ ([a-z-]+)="/g)].map((m) => m[1]);
    const allowed = [
      "src",
      "width",
      "height",
      "frameborder",
      "marginwidth",
      "marginheight",
      "scrolling",
      "title",
    ];
    expect(attributes.filter((name) => !allowed.includes(name ?? ""))).toEqual([]);
    expect(iframe).toContain(` src="${root.site.urls.absolute(paths.embed("culture"))}"`);
    expect(iframe).toContain(' frameborder="0" scrolling="no" ');
    expect(iframe).toContain(` width="${answer.width}" height="${answer.height}" `);
    // Elsewhere the iframe is all there is to see: the answer's size is the html's.
    expect(answer.html.startsWith("<blockquote hidden>")).toBe(true);
  });
});

describe("oEmbed discovery per host", () => {
  it("should name the endpoint where the host runs functions at the site's root, the static answer elsewhere", () => {
    const atRoot = root.site.urls;
    const inFolder = siteWith({ url: "https://example.org/agenda" }).urls;
    const table = (["netlify", "cloudflare-pages", "github-pages", "s3", "static"] as const).map(
      (target) => [target, oembedDiscovery(target, atRoot), oembedDiscovery(target, inFolder)],
    );
    expect(table).toEqual([
      ["netlify", "endpoint", "static"],
      ["cloudflare-pages", "endpoint", "static"],
      ["github-pages", "static", "static"],
      ["s3", "static", "static"],
      ["static", "static", "static"],
    ]);
  });

  it("should write the endpoint's address with the page's address and format=json", async () => {
    const href = oembedDiscoveryUrl("culture", root.site.urls, "endpoint");
    expect(href).toBe(
      "https://events.example.org/oembed?url=https%3A%2F%2Fevents.example.org%2Fcalendars%2Fculture%2F&format=json",
    );
    expect((await root.ask(Object.fromEntries(new URL(href).searchParams))).status).toBe(200);
    expect(oembedLinkTag(culture, root.site, "endpoint")).toContain(
      'href="https://events.example.org/oembed?url=https%3A%2F%2Fevents.example.org%2Fcalendars%2Fculture%2F&amp;format=json"',
    );
    expect(oembedDiscoveryUrl("culture", root.site.urls, "static")).toBe(
      "https://events.example.org/oembed/culture.json",
    );
  });
});
