import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadEleventySetup } from "../../src/eleventy/config-recorder.ts";
import { RenderPool } from "../../src/eleventy/render-pool.ts";
import { streamedRegistry } from "../../src/eleventy/streamed-outputs-plugin.ts";
import { FileWriter } from "../../src/render/file-writer.ts";
import { PageTemplate, readPageTemplate } from "../../src/render/page-template.ts";
import { claimAndRender } from "../../src/render/streamed-job.ts";

const PLUGIN = pathToFileURL(
  join(import.meta.dirname, "../../src/eleventy/streamed-outputs-plugin.ts"),
).href;

const config = (
  extra = "",
) => `import { addStreamedOutput, addStreamedTemplate } from ${JSON.stringify(PLUGIN)};
export default function (eleventyConfig) {
  eleventyConfig.setNunjucksEnvironmentOptions({ autoescape: true });
  eleventyConfig.addFilter("shout", function (text) {
    if (text === "explode") throw new Error("the shout filter refuses to explode");
    return text.toUpperCase() + " @ " + this.page.url;
  });
  addStreamedTemplate(eleventyConfig, "item.njk");
  addStreamedOutput(eleventyConfig, {
    name: "item.txt",
    items: (data) => data.things,
    path: (thing) => "things/" + thing.id + "/item.txt",
    render: (thing, data) => thing.name + " of " + data.things.length,
  });
  ${extra}
  return { dir: { input: "in", layouts: "_layouts", includes: "_includes" } };
}
`;

const FILES: Record<string, string> = {
  "in/_layouts/base.njk": "<title>{{ title }}</title>{{ content | safe }}",
  "in/item.njk": `---
layout: base.njk
pagination: { data: things, size: 1, alias: thing }
permalink: "/things/{{ thing.id }}/"
eleventyComputed: { title: "{{ thing.name | safe }}" }
---
<p>{{ thing.name | shout }}</p>`,
};

const things = (count: number, name = (i: number) => `Thing <${i}>`) =>
  Array.from({ length: count }, (_, i) => ({ id: `t${i}`, name: name(i) }));

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "ecp-render-pool-"));
  for (const [name, content] of Object.entries(FILES)) {
    await mkdir(dirname(join(root, name)), { recursive: true });
    await writeFile(join(root, name), content);
  }
  await writeFile(join(root, "plain.config.mjs"), config());
  await writeFile(
    join(root, "shortcode.config.mjs"),
    config('eleventyConfig.addShortcode("year", () => "2026");'),
  );
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** The job as the main thread of a build sets it up, from the same configuration file. */
async function mainThreadJob(configPath: string, data: Record<string, unknown>) {
  const setup = await loadEleventySetup(configPath, root);
  const source = await readPageTemplate("item.njk", {
    root,
    inputDir: join(root, "in"),
    layoutsDir: join(root, "in", "_layouts"),
  });
  const job = streamedRegistry(setup.config).createJob(
    [new PageTemplate(source, setup.engine)],
    data,
  );
  return { job, source };
}

async function filesIn(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files[path.slice(dir.length + 1)] = await readFile(path, "utf8");
  }
  return files;
}

/** Lets only the workers render (the main thread of a build would join in): deterministic. */
async function renderInWorkers(configPath: string, data: Record<string, unknown>, output: string) {
  const { job, source } = await mainThreadJob(configPath, data);
  const pool = new RenderPool(
    2,
    { configPath, root },
    { sources: [source], data, outputDir: output, shape: job.shape },
  );
  return { job, results: await pool.settled() };
}

describe("render-pool", () => {
  it("should render in worker threads exactly what the main thread renders, each file once", async () => {
    const data = { things: things(300) };
    const byWorkers = join(root, "workers");
    const { job, results } = await renderInWorkers("plain.config.mjs", data, byWorkers);

    const byMain = join(root, "main");
    const writer = new FileWriter(byMain);
    claimAndRender(job, writer, new Int32Array(1));

    const expected = await filesIn(byMain);
    expect(Object.keys(expected)).toHaveLength(600);
    expect(expected["things/t7/index.html"]).toBe(
      "<title>Thing &lt;7&gt;</title><p>THING &lt;7&gt; @ /things/t7/</p>",
    );
    expect(await filesIn(byWorkers)).toEqual(expected);
    // Every file was claimed by exactly one worker, and each reported what it wrote.
    const paths = results.flatMap((result) => result?.paths ?? []);
    expect(paths.sort()).toEqual(Object.keys(expected).sort());
  });

  it("should leave the work to the main thread when the configuration uses what a worker cannot rebuild", async () => {
    const data = { things: things(3) };
    const { results } = await renderInWorkers("shortcode.config.mjs", data, join(root, "declined"));
    expect(results).toEqual([null, null]);
  });

  it("should fail the build with the error a worker met", async () => {
    const data = { things: things(200, (i) => (i === 150 ? "explode" : `Thing ${i}`)) };
    await expect(renderInWorkers("plain.config.mjs", data, join(root, "failing"))).rejects.toThrow(
      /Rendering in a worker thread failed: [\s\S]*the shout filter refuses to explode/,
    );
  });
});
