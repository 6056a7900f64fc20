import { describe, expect, it } from "vitest";
import { firstPageUrl, readPage } from "../../src/api/paging.ts";
import type { PagingMode } from "../../src/config/api.ts";

const url = new URL("https://portal.example.org/v1/event-calendar/c/events");
const auto: PagingMode = { kind: "auto", sizeParam: null };
const page = (body: unknown, extra: Partial<Parameters<typeof readPage>[0]> = {}) =>
  readPage({
    body,
    link: null,
    totalCount: null,
    url,
    mode: auto,
    pageSize: 100,
    collected: 0,
    ...extra,
  });

describe("readPage", () => {
  it("should accept a bare array and follow the Link header", () => {
    const result = page([{ id: 1 }], {
      link: '<https://portal.example.org/v1/x?cursor=2>; rel="next"',
    });
    expect(result.items).toEqual([{ id: 1 }]);
    expect(result.next?.href).toBe("https://portal.example.org/v1/x?cursor=2");
  });

  it.each(["items", "data", "results", "calendars", "events", "records", "value"])(
    "should find the list in an envelope under %s",
    (key) => {
      expect(page({ [key]: [{ id: 1 }] }).items).toEqual([{ id: 1 }]);
    },
  );

  it("should follow a next URL in the envelope", () => {
    expect(page({ items: [{}], next: "/v1/x?page=2" }).next?.href).toBe(
      "https://portal.example.org/v1/x?page=2",
    );
    expect(page({ value: [{}], "@odata.nextLink": "https://o.example/v?$skip=2" }).next?.href).toBe(
      "https://o.example/v?$skip=2",
    );
    expect(page({ items: [{}], links: { next: { href: "?p=3" } } }).next?.search).toBe("?p=3");
  });

  it("should turn an envelope cursor into a query parameter", () => {
    expect(page({ data: [{}], nextCursor: "abc" }).next?.searchParams.get("cursor")).toBe("abc");
    expect(page({ data: [{}], meta: { next_cursor: "d" } }).next?.searchParams.get("cursor")).toBe(
      "d",
    );
    expect(page({ data: [{}], nextCursor: null }).next).toBeNull();
    expect(page({ data: [{}], cursor: "x", has_more: false }).next).toBeNull();
  });

  it("should count pages from page numbers in the envelope", () => {
    expect(page({ data: [{}], page: 1, totalPages: 2 }).next?.searchParams.get("page")).toBe("2");
    expect(page({ data: [{}], page: 2, totalPages: 2 }).next).toBeNull();
    expect(page({ results: [{}, {}], offset: 0, total: 3 }).next?.searchParams.get("offset")).toBe(
      "2",
    );
  });

  it("should refuse to stop silently when the portal counts more than it gave", () => {
    expect(() => page([{}], { totalCount: 10 })).toThrow(/EVENT_API_PAGING/);
  });

  it("should ask for the page size on the first page in auto mode when a size parameter is set", () => {
    expect(firstPageUrl(url, auto, 100).search).toBe("");
    const sized: PagingMode = { kind: "auto", sizeParam: "limit" };
    expect(firstPageUrl(url, sized, 100).search).toBe("?limit=100");
    // A size the base URL already carries is the site owner's choice.
    const given = new URL(`${url}?limit=20`);
    expect(firstPageUrl(given, sized, 100).search).toBe("?limit=20");
  });

  it("should count through page and offset parameters and stop on a short page", () => {
    const pages: PagingMode = { kind: "page", param: "page", sizeParam: "per_page" };
    const first = firstPageUrl(url, pages, 2);
    expect(first.search).toBe("?page=1&per_page=2");
    const second = readPage({
      body: [{}, {}],
      link: null,
      totalCount: null,
      url: first,
      mode: pages,
      pageSize: 2,
      collected: 0,
    });
    expect(second.next?.search).toBe("?page=2&per_page=2");
    expect(
      readPage({
        body: [{}],
        link: null,
        totalCount: null,
        url: first,
        mode: pages,
        pageSize: 2,
        collected: 2,
      }).next,
    ).toBeNull();

    const offsets: PagingMode = { kind: "offset", param: "offset", sizeParam: "limit" };
    const o = firstPageUrl(url, offsets, 2);
    const next = readPage({
      body: { results: [{}, {}], total: 4 },
      link: null,
      totalCount: null,
      url: o,
      mode: offsets,
      pageSize: 2,
      collected: 0,
    });
    expect(next.next?.search).toBe("?offset=2&limit=2");
    expect(
      readPage({
        body: { results: [{}, {}], total: 4 },
        link: null,
        totalCount: null,
        url: next.next as URL,
        mode: offsets,
        pageSize: 2,
        collected: 2,
      }).next,
    ).toBeNull();
  });

  it("should reject a body that holds no list", () => {
    expect(() => page({ message: "hello" })).toThrow(/expected a JSON list/);
  });
});
