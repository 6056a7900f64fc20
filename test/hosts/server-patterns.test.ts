import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/errors.ts";
import { encodedPath, serverFolder, serverPattern } from "../../src/hosts/server-patterns.ts";
import { SiteUrls } from "../../src/model/url-scheme.ts";

/* SITE_URL's folder as nginx and Apache match it (test/hosts/web-servers.test.ts serves them). */

const basePathOf = (siteUrl: string) => new SiteUrls(siteUrl).basePath;

describe("serverFolder", () => {
  it("should give the decoded folder both servers match requests against", () => {
    expect(serverFolder(basePathOf("https://example.org/my events/"), "nginx")).toBe("/my events");
    expect(serverFolder(basePathOf("https://example.org/événements/"), "Apache")).toBe(
      "/événements",
    );
    expect(serverFolder(basePathOf('https://example.org/a"b;$c{d}/'), "nginx")).toBe('/a"b;$c{d}');
    expect(serverFolder("", "Apache")).toBe("");
  });

  it("should refuse, naming SITE_URL, a folder a server cannot carry", () => {
    const refused = (basePath: string, server: "nginx" | "Apache") => {
      try {
        serverFolder(basePath, server);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      return null;
    };
    expect(refused("/a%2Fb", "Apache")).toMatch(/^SITE_URL: .*encoded slash/);
    expect(refused("/a//b", "nginx")).toMatch(/^SITE_URL: .*empty segment/);
    expect(refused("/a%0Ab", "Apache")).toMatch(/^SITE_URL: .*control character/);
    expect(refused("/a%FFb", "nginx")).toMatch(/^SITE_URL: .*not UTF-8/);
    // nginx's error_page splits a query string off at "?"; Apache's ErrorDocument is a URL.
    expect(refused("/a%3Fb", "nginx")).toMatch(/^SITE_URL: .*cannot be served by nginx/);
    expect(refused("/a%3Fb", "Apache")).toBeNull();
  });
});

describe("serverPattern", () => {
  it("should match the decoded folder literally, whatever regex characters it holds", () => {
    const pattern = new RegExp(serverPattern("/calendars/*", "/a.b (c) $1 [d]"));
    expect(pattern.test("/a.b (c) $1 [d]/calendars/x/")).toBe(true);
    expect(pattern.test("/aXb (c) $1 [d]/calendars/x/")).toBe(false);
  });
});

describe("encodedPath", () => {
  it("should escape everything a URL path or an Apache expression could read otherwise", () => {
    expect(encodedPath('/the "best"; $1 {events}')).toBe(
      "/the%20%22best%22%3B%20%241%20%7Bevents%7D",
    );
    expect(encodedPath("/événements")).toBe("/%C3%A9v%C3%A9nements");
    expect(decodeURI(encodedPath("/it's (here)*!"))).toBe("/it's (here)*!");
  });
});
