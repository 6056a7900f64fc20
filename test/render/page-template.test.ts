import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import Eleventy from "@11ty/eleventy";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addStreamedTemplate } from "../../src/eleventy/streamed-outputs-plugin.ts";

// A template using what site owners use: layouts in a chain, layout front
// matter, an include, a filter reading `this.page`, computed data, the
// permalink, page fields, pagination fields and autoescaping.
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
`,
};

const THINGS = [
  { id: "a", name: "Alpha <1>", html: "<b>bold</b>" },
  { id: "b", name: "Beta & co", html: "plain" },
  { id: "c", name: 'Gamma "quoted"', html: "'single'" },
];

let root: string;
let cwd: string;

async function build(streamed: boolean): Promise<Record<string, string>> {
  const output = streamed ? "streamed" : "eleventy";
  // Laid out as the project is: input and output folders inside the working directory.
  const eleventy = new Eleventy("in", output, {
    quietMode: true,
    configPath: "eleventy.config.mjs",
    config(eleventyConfig) {
      eleventyConfig.addGlobalData("things", THINGS);
      eleventyConfig.addFilter("shout", function (this: { page: { url: string } }, text: string) {
        return `${text.toUpperCase()} @ ${this.page.url}`;
      });
      eleventyConfig.addFilter("tail", (path: string) => path.split("/").slice(-3).join("/"));
      if (streamed) addStreamedTemplate(eleventyConfig, "item.njk");
    },
  });
  await eleventy.write();
  const pages: Record<string, string> = {};
  for (const thing of THINGS) {
    pages[thing.id] = await readFile(join(root, output, "things", thing.id, "index.html"), "utf8");
  }
  return pages;
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
    expect(streamed).toEqual(byEleventy);
  });
});
