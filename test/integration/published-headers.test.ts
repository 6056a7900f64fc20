import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtDemoSite } from "../helpers/demo-site.ts";
import { listFiles } from "../helpers/files.ts";
import { urlPathOf } from "../helpers/representative-site.ts";
import { type RunningServer, startStaticServer } from "../helpers/static-server.ts";

/**
 * The demo build as clients receive it over HTTP from a server that applies
 * netlify.toml's rules: calendar apps, feed readers and other sites' scripts
 * act on the Content-Type, CORS and framing headers, not on file names.
 */

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Buffer;
}

const OTHER_ORIGIN = "https://other-site.example";
/** Requests in flight at once; the whole build is a few hundred files. */
const PARALLEL = 8;

let server: RunningServer;
let files: string[];
const answers = new Map<string, Answer>();

beforeAll(async () => {
  const site = await builtDemoSite();
  files = await listFiles(site.dir);
  server = await startStaticServer();
  server.setRoot(site.dir);
  const queue = [...files];
  const fetchNext = async (): Promise<void> => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      const response = await fetch(server.origin + urlPathOf(file), {
        headers: { Origin: OTHER_ORIGIN },
        // Only a server that stopped answering takes this long, however busy the machine.
        signal: AbortSignal.timeout(120_000),
      });
      const body = Buffer.from(await response.arrayBuffer());
      answers.set(file, { status: response.status, headers: response.headers, body });
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, fetchNext));
});

afterAll(async () => {
  await server?.close();
});

/** Embed pages of one calendar: /embed/<calendar>/..., not the /embed/ guide itself. */
const isEmbedPage = (file: string) => /^embed\/[^/]+\/.+\.html$/.test(file);
const isPage = (file: string) => file.endsWith(".html");
const isPublicData = (file: string) =>
  /^(api|oembed)\//.test(file) ||
  file.endsWith(".ics") ||
  /(^|\/)(feed\.xml|atom\.xml|feed\.json)$/.test(file);

const answer = (file: string): Answer => {
  const found = answers.get(file);
  if (!found) throw new Error(`${file} was not fetched`);
  return found;
};

const text = (file: string) => new TextDecoder("utf-8", { fatal: true }).decode(answer(file).body);

/** What each kind of file must be served as, and what its bytes must look like to match. */
const KINDS: readonly {
  readonly name: string;
  readonly matches: (file: string) => boolean;
  readonly type: string;
  readonly looksRight: (file: string) => boolean;
}[] = [
  {
    name: "iCalendar",
    matches: (file) => file.endsWith(".ics"),
    type: "text/calendar; charset=utf-8",
    looksRight: (file) => text(file).startsWith("BEGIN:VCALENDAR\r\n"),
  },
  {
    name: "RSS",
    matches: (file) => /(^|\/)feed\.xml$/.test(file),
    type: "application/rss+xml; charset=utf-8",
    looksRight: (file) => /^<\?xml[^>]*\?>\s*<rss version="2\.0"/.test(text(file)),
  },
  {
    name: "Atom",
    matches: (file) => /(^|\/)atom\.xml$/.test(file),
    type: "application/atom+xml; charset=utf-8",
    looksRight: (file) =>
      /^<\?xml[^>]*\?>\s*<feed xmlns="http:\/\/www\.w3\.org\/2005\/Atom"/.test(text(file)),
  },
  {
    name: "JSON Feed",
    matches: (file) => /(^|\/)feed\.json$/.test(file),
    type: "application/feed+json; charset=utf-8",
    looksRight: (file) =>
      String((JSON.parse(text(file)) as { version?: unknown }).version).startsWith(
        "https://jsonfeed.org/version/",
      ),
  },
  {
    name: "public JSON and oEmbed",
    matches: (file) => /^(api|oembed)\/.*\.json$/.test(file),
    type: "application/json",
    looksRight: (file) => typeof JSON.parse(text(file)) === "object",
  },
];

describe("the demo build served with netlify.toml's headers", () => {
  it("should serve every file of the build", () => {
    expect(files.length).toBeGreaterThan(200);
    const failed = files.filter((file) => answer(file).status !== 200);
    expect(failed).toEqual([]);
  });

  for (const kind of KINDS) {
    it(`should serve every ${kind.name} file as ${kind.type}, and its bytes as that`, () => {
      const ofKind = files.filter(kind.matches);
      expect(ofKind.length).toBeGreaterThan(0);
      const wrong = ofKind.filter(
        (file) => answer(file).headers.get("content-type") !== kind.type || !kind.looksRight(file),
      );
      expect(wrong.map((file) => `${file}: ${answer(file).headers.get("content-type")}`)).toEqual(
        [],
      );
    });
  }

  it("should forbid framing of every page except the calendars' embed pages", () => {
    const pages = files.filter((file) => isPage(file) && !isEmbedPage(file));
    expect(pages).toEqual(expect.arrayContaining(["index.html", "embed/index.html", "404.html"]));
    const frameable = pages.filter((file) => {
      const { headers } = answer(file);
      return (
        !headers.get("content-security-policy")?.includes("frame-ancestors 'none'") ||
        headers.get("x-frame-options") !== "DENY"
      );
    });
    expect(frameable).toEqual([]);
  });

  it("should let any site frame the embed pages, and only those", () => {
    const embeds = files.filter(isEmbedPage);
    expect(embeds.length).toBeGreaterThan(0);
    for (const file of embeds) {
      const { headers } = answer(file);
      const ancestors = /frame-ancestors ([^;]*)/.exec(
        headers.get("content-security-policy") ?? "",
      )?.[1];
      expect(ancestors, file).toBe("*");
      expect(headers.get("x-frame-options"), file).toBeNull();
    }
  });

  it("should let scripts on other origins read the public JSON, oEmbed, feeds and calendars, but not the pages", () => {
    const wrong = files
      .filter((file) => isPublicData(file) || isPage(file))
      .filter((file) => {
        const allowed = answer(file).headers.get("access-control-allow-origin");
        return isPublicData(file) ? allowed !== "*" : allowed !== null;
      });
    expect(files.filter((file) => /^oembed\/.+\.json$/.test(file)).length).toBeGreaterThan(0);
    expect(wrong).toEqual([]);
  });

  it("should offer single events as a download and keep subscriptions inline", () => {
    for (const file of files.filter((name) => name.endsWith(".ics"))) {
      const disposition = answer(file).headers.get("content-disposition");
      expect(disposition, file).toBe(
        file.endsWith("/event.ics") ? 'attachment; filename="event.ics"' : null,
      );
    }
  });

  it("should send nosniff with every file, so browsers trust the declared types", () => {
    const sniffable = files.filter(
      (file) => answer(file).headers.get("x-content-type-options") !== "nosniff",
    );
    expect(sniffable).toEqual([]);
  });
});
