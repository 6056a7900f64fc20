import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import Eleventy from "@11ty/eleventy";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import streamedPagesPlugin from "../../src/eleventy/streamed-pages-plugin.ts";
import { EventLoopTurns } from "../../src/render/event-loop-turns.ts";
import { FileWriter } from "../../src/render/file-writer.ts";

// A template using what site owners use: layouts in a chain, layout front
// matter, an include, a filter reading `this.page`, computed data, the
// permalink, page fields, pagination fields, autoescaping, Eleventy's own
// filters (`url` with a path prefix, `slugify`), a shortcode, a paired
// shortcode, a transform and a preprocessor.
const FILES: Record<string, string> = {
  "_layouts/outer.njk": `---
siteName: Outer & Co
---
<!DOCTYPE html><title>{{ title }}</title><link rel="canonical" href="{{ page.url }}">
{{ content | safe }}
<footer>{{ siteName }} {{ things.length }}</footer>
`,
  "_layouts/inner.njk": `---
layout: outer.njk
---
<main data-url="{{ page.url }}" data-out="{{ page.outputPath | tail }}">{{ content | safe }}</main>`,
  "_includes/part.njk": `<p>{{ item.name | shout }}</p>`,
  "item.njk": `---
layout: inner.njk
pagination:
  data: things
  size: 1
  alias: item
permalink: "/things/{{ item.id }}/"
eleventyComputed:
  title: "{{ item.name | safe }} · {{ siteName | safe }}"
---
{% include "part.njk" %}<span>{{ page.fileSlug }} {{ page.filePathStem }} {{ page.inputPath }} {{ pagination.pageNumber }}</span>{{ item.html }}
<a href="{{ '/things/' | url }}">{{ item.name | slugify }}</a> {% stamp item.id %} {% box %}{{ item.id }}{% endbox %} PREPROCESS_ME
`,
};

// A page Eleventy renders itself, as every site has (the streamed pages need one).
FILES["index.njk"] = "<p>{{ things.length }} things</p>";

const THINGS = [
  { id: "a", name: "Alpha <1>", html: "<b>bold</b>" },
  { id: "b", name: "Beta & co", html: "plain" },
  { id: "c", name: 'Gamma "quoted"', html: "'single'" },
];

let root: string;
let cwd: string;

/** How many pages were written when a callback queued after the first one ran. */
interface Beside {
  readonly turnEveryMs: number;
  filesWhenItRan?: number;
}

async function build(streamed: boolean, beside?: Beside): Promise<Record<string, string>> {
  const output = streamed ? "streamed" : "eleventy";
  // Laid out as the project is: input and output folders inside the working directory.
  const eleventy = new Eleventy("in", output, {
    quietMode: true,
    configPath: "eleventy.config.mjs",
    pathPrefix: "/site/",
    config(eleventyConfig) {
      eleventyConfig.addGlobalData("things", THINGS);
      eleventyConfig.addFilter("shout", function (this: { page: { url: string } }, text: string) {
        return `${text.toUpperCase()} @ ${this.page.url}`;
      });
      eleventyConfig.addFilter("tail", (path: string) => path.split("/").slice(-3).join("/"));
      eleventyConfig.addShortcode("stamp", function (this: { page: { url: string } }, id: string) {
        return `[${id} on ${this.page.url}]`;
      });
      eleventyConfig.addPairedShortcode("box", (content: string) => `<div>${content}</div>`);
      eleventyConfig.addTransform("mark", function (this: { page: { url: string } }, html: string) {
        return `${html}<!-- ${this.page.url} -->`;
      });
      eleventyConfig.addPreprocessor("marker", "njk", (_data: unknown, content: string) =>
        content.replace("PREPROCESS_ME", "preprocessed"),
      );
      if (streamed) {
        const writer = new FileWriter(join(root, output));
        const write = writer.write.bind(writer);
        // Work queued once the first page is written, as an indexer's answer would be.
        writer.write = (path, content) => {
          const rendered = write(path, content);
          if (writer.files === 1) {
            setImmediate(() => {
              if (beside) beside.filesWhenItRan = writer.files;
            });
          }
          return rendered;
        };
        const turns = new EventLoopTurns(beside?.turnEveryMs ?? 20);
        eleventyConfig.addPlugin(streamedPagesPlugin, {
          templates: ["item.njk"],
          target: () => ({ output: join(root, output), writer, turns, mine: () => true }),
        });
      }
    },
  });
  await eleventy.write();
  const pages: Record<string, string> = {};
  for (const thing of THINGS) {
    pages[thing.id] = await readFile(join(root, output, "things", thing.id, "index.html"), "utf8");
  }
  return pages;
}

/** An error and what it wraps (Eleventy's `originalError`, or `cause`). */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let at = error; at && chain.length < 10; ) {
    chain.push(at);
    const wrapper = at as { originalError?: unknown; cause?: unknown };
    at = wrapper.originalError ?? wrapper.cause;
  }
  return chain;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "ecp-page-template-"));
  for (const [name, content] of Object.entries(FILES)) {
    await mkdir(dirname(join(root, "in", name)), { recursive: true });
    await writeFile(join(root, "in", name), content);
  }
  await writeFile(
    join(root, "eleventy.config.mjs"),
    'export default function () { return { dir: { layouts: "_layouts", includes: "_includes" } }; }\n',
  );
  cwd = process.cwd();
  process.chdir(root);
});

afterAll(async () => {
  process.chdir(cwd);
  await rm(root, { recursive: true, force: true });
});

describe("page-template", () => {
  it("should render a paginated template exactly as Eleventy does", async () => {
    const byEleventy = await build(false);
    const streamed = await build(true);
    // The template under test really exercises the features.
    expect(byEleventy.a).toContain("<title>Alpha &lt;1&gt; · Outer &amp; Co</title>");
    expect(byEleventy.b).toContain("<p>BETA &amp; CO @ /things/b/</p>");
    expect(byEleventy.c).toContain("<span>item /item ./in/item.njk 2</span>&#39;single&#39;");
    expect(byEleventy.a).toContain('<a href="/site/things/">alpha-1</a> [a on /things/a/]');
    expect(byEleventy.a).toContain("<div>a</div> preprocessed");
    expect(byEleventy.a).toMatch(/<!-- \/things\/a\/ -->$/);
    expect(streamed).toEqual(byEleventy);
  });

  it("should let the event loop turn while it renders, so that work beside it goes on", async () => {
    // The search indexer and the card workers answer through this thread's event loop.
    const turning: Beside = { turnEveryMs: 0 };
    await build(true, turning);
    expect(turning.filesWhenItRan).toBe(1);
    // Without a turn due, the queued work waits until every page is written.
    const holding: Beside = { turnEveryMs: 60_000 };
    await build(true, holding);
    expect(holding.filesWhenItRan).toBe(THINGS.length);
  });

  it("should refuse a template whose data files it would not read, naming the file", async () => {
    await writeFile(join(root, "in", "item.11tydata.json"), '{ "extra": 1 }');
    try {
      // Eleventy wraps what its templates throw; the build prints the project's own error.
      const error = await build(true).then(
        () => null,
        (thrown: unknown) => thrown,
      );
      expect(causes(error).map(String).join("\n")).toMatch(
        /TemplateError: item\.njk .* does not read data files.*item\.11tydata\.json/,
      );
    } finally {
      await rm(join(root, "in", "item.11tydata.json"));
    }
  });
});
