import nunjucks from "nunjucks";
import { describe, expect, it } from "vitest";
import { failureLine } from "../../src/cli/run.ts";
import { ConfigError } from "../../src/errors.ts";

/** What rendering `source` throws, as Eleventy hands it on: wrapped, the cause in `originalError`. */
function renderError(source: string, filters: Record<string, () => unknown> = {}): unknown {
  const environment = new nunjucks.Environment(null, { autoescape: true });
  for (const [name, filter] of Object.entries(filters)) environment.addFilter(name, filter);
  try {
    new nunjucks.Template(source, environment, "./templates/index.njk", true).render({});
  } catch (error) {
    const wrapped = new Error("Having trouble rendering njk template ./templates/index.njk");
    return Object.assign(wrapped, { originalError: error });
  }
  throw new Error("the template rendered");
}

describe("run", () => {
  it("should print a template's own mistake as one line, with the file, line and column", () => {
    expect(failureLine(renderError("<p>\n{% if %}</p>"))).toBe(
      "error: template ./templates/index.njk [Line 2, Column 7]: unexpected token: %}",
    );
    expect(failureLine(renderError("{{ title | nosuchfilter }}"))).toMatch(
      /^error: template \.\/templates\/index\.njk.*filter not found: nosuchfilter$/,
    );
  });

  it("should leave a filter's bug to its stack trace", () => {
    const broken = renderError("{{ 1 | broken }}", {
      broken: () => (undefined as unknown as { x: () => void }).x(),
    });
    expect(failureLine(broken)).toBeUndefined();
    expect(failureLine(new TypeError("x is undefined"))).toBeUndefined();
  });

  it("should print the project's own errors as their message, wherever they are wrapped", () => {
    const wrapped = Object.assign(new Error("Eleventy's words"), {
      originalError: new ConfigError("SITE_URL must be an absolute http(s) URL"),
    });
    expect(failureLine(wrapped)).toBe("error: SITE_URL must be an absolute http(s) URL");
  });
});
