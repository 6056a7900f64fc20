import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readMapSettings } from "../../src/config/map.ts";
import { defaultHeaderRules, headersFor } from "../../src/hosts/headers.ts";
import { withMapTiles } from "../../src/hosts/map-policy.ts";
import { type PreviewServer, startPreviewServer } from "../../src/hosts/preview-server.ts";
import { useBrowser } from "../helpers/browser.ts";
import { type BuiltSite, buildSite, removeBuild } from "../helpers/demo-build.ts";
import { startingBetween, useDemoPartPortal } from "../helpers/demo-parts.ts";
import { builtDemoSite } from "../helpers/demo-site.ts";
import { type LoopbackServer, serveOnLoopback } from "../helpers/loopback-server.ts";
import { hasChromium } from "../helpers/system-packages.ts";

/*
 * The map of a place page (MAP_TILES_URL, docs/configuration.md, "Maps"): a
 * tile server on this machine stands in for the one a site's owner runs or
 * pays for. The page asks it for nothing until the visitor presses "Show
 * map", then for the tiles around the place, under the production headers
 * that `npm run preview` sends; without MAP_TILES_URL there is no map and no
 * request leaves the site.
 */

const TILE = `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256"><rect width="256" height="256" fill="#cde"/></svg>`;
const ZOOM = 16;
/** The Amstel Boathouse of the demo (src/portal/demo-content.ts). */
const BOATHOUSE = { lat: 52.3427, lon: 4.905 };

/** The tile (x, y) that holds a point at a zoom level: the slippy-map numbering tile servers use. */
function tileOf(lat: number, lon: number, zoom: number): { x: number; y: number } {
  const n = 2 ** zoom;
  const rad = (lat * Math.PI) / 180;
  return {
    x: Math.floor(((lon + 180) / 360) * n),
    y: Math.floor(((1 - Math.asinh(Math.tan(rad)) / Math.PI) / 2) * n),
  };
}

/** The place page whose folder starts with `slug`. */
function placePath(dir: string, slug: string): string {
  const folder = readdirSync(join(dir, "places")).find((name) => name.startsWith(`${slug}-`));
  if (!folder) throw new Error(`no place ${slug} in ${dir}`);
  return `/places/${folder}/`;
}

describe.runIf(hasChromium())("a place's map in a browser", () => {
  let tiles: LoopbackServer;
  const tileRequests: string[] = [];
  let withMap: BuiltSite;
  let mapServer: PreviewServer;
  let plainServer: PreviewServer;
  const chromium = useBrowser();
  // Its places (with and without coordinates) are in the demo's March and April.
  const portal = useDemoPartPortal(startingBetween("2026-03-01", "2026-05-01"));
  /** A new visitor's page, watched: what it requests and what its console reports as errors. */
  const newPage = async () => {
    const { context, page, problems, requests } = await chromium.newPage();
    return { context, page, seen: { problems, requests } };
  };

  beforeAll(async () => {
    tiles = await serveOnLoopback((request, response) => {
      tileRequests.push(request.url ?? "");
      response.writeHead(200, { "Content-Type": "image/svg+xml" }).end(TILE);
    });
    const env = {
      MAP_TILES_URL: `${tiles.origin}/{z}/{x}/{y}.svg`,
      MAP_ATTRIBUTION: "© Test Tiles & contributors",
    };
    // About the map, not the pictures links share as: without share cards.
    withMap = await buildSite({ ...portal(), ...env, SHARE_CARDS: "off" });
    expect(withMap.status, withMap.log).toBe(0);
    // As `npm run preview` serves it: netlify.toml's rules, the place pages admitting the tiles.
    const rules = withMapTiles(defaultHeaderRules(), readMapSettings(env));
    mapServer = await startPreviewServer({
      root: withMap.dir,
      headers: (sitePath) => headersFor(sitePath, rules),
    });
    plainServer = await startPreviewServer({ root: (await builtDemoSite()).dir });
  });

  afterAll(async () => {
    await mapServer?.close();
    await plainServer?.close();
    await tiles?.close();
    if (withMap) removeBuild(withMap);
  });

  it("should ask the tile server for nothing until the visitor asks, then for the tiles around the place", async () => {
    const { context, page, seen } = await newPage();
    try {
      const path = placePath(withMap.dir, "amstel-boathouse");
      await page.goto(`${mapServer.origin}${path}`);
      const button = page.getByRole("button", { name: "Show map" });
      await button.waitFor({ state: "visible" });
      await page.waitForLoadState("networkidle");
      expect(tileRequests).toEqual([]);
      expect(seen.requests.filter((url) => url.startsWith(tiles.origin))).toEqual([]);
      expect(await page.locator("[data-map-frame]").isHidden()).toBe(true);
      expect(await page.getByText("The map loads its images from").textContent()).toContain(
        tiles.origin,
      );

      await button.click();
      const frame = page.getByRole("img", { name: "Map around Amstel Boathouse" });
      await frame.waitFor({ state: "visible" });
      const images = frame.locator("img");
      await expect.poll(() => images.count()).toBe(9);
      // Every tile loaded: the place page's policy admits the tile server.
      await expect
        .poll(() =>
          images.evaluateAll((all) =>
            all.every(
              (img) =>
                (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0,
            ),
          ),
        )
        .toBe(true);
      expect(tileRequests).toHaveLength(9);
      const center = tileOf(BOATHOUSE.lat, BOATHOUSE.lon, ZOOM);
      const expected = [-1, 0, 1].flatMap((dy) =>
        [-1, 0, 1].map((dx) => `/${ZOOM}/${center.x + dx}/${center.y + dy}.svg`),
      );
      expect([...tileRequests].sort()).toEqual([...expected].sort());
      expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe(
        "Map around Amstel Boathouse",
      );
      expect(await button.isHidden()).toBe(true);
      expect(await page.getByText("© Test Tiles & contributors").isVisible()).toBe(true);
      expect(seen.problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("should get no tile from a server the place pages' policy does not name", async () => {
    // netlify.toml's rules as written: an http tile server is not within img-src.
    const unwidened = await startPreviewServer({ root: withMap.dir });
    const { context, page, seen } = await newPage();
    try {
      await page.goto(`${unwidened.origin}${placePath(withMap.dir, "amstel-boathouse")}`);
      await page.getByRole("button", { name: "Show map" }).click();
      const images = page.locator("[data-map-frame] img");
      await expect.poll(() => images.count()).toBe(9);
      await expect
        .poll(() => seen.problems.filter((error) => /Content Security Policy/i.test(error)).length)
        .toBeGreaterThan(0);
      expect(
        await images.evaluateAll((all) =>
          all.some((img) => (img as HTMLImageElement).naturalWidth > 0),
        ),
      ).toBe(false);
    } finally {
      await context.close();
      await unwidened.close();
    }
  });

  it("should offer no map for a place without coordinates, and ask the tile server nothing there", async () => {
    const before = tileRequests.length;
    const { context, page, seen } = await newPage();
    try {
      await page.goto(`${mapServer.origin}${placePath(withMap.dir, "cafe-t-hoekje-co")}`);
      await page.waitForLoadState("networkidle");
      expect(await page.getByRole("button", { name: "Show map" }).count()).toBe(0);
      expect(seen.requests.filter((url) => !url.startsWith(mapServer.origin))).toEqual([]);
      expect(tileRequests).toHaveLength(before);
    } finally {
      await context.close();
    }
  });

  it("should show no map and request nothing from another site without MAP_TILES_URL", async () => {
    const plain = (await builtDemoSite()).dir;
    expect(existsSync(join(plain, "places"))).toBe(true);
    const { context, page, seen } = await newPage();
    try {
      for (const slug of ["amstel-boathouse", "community-centre-de-pijp"]) {
        await page.goto(`${plainServer.origin}${placePath(plain, slug)}`);
        await page.waitForLoadState("networkidle");
        expect(await page.getByRole("button", { name: "Show map" }).count()).toBe(0);
        // The directions are plain links: following none, the page loads only the site's files.
        expect(await page.getByRole("link", { name: "Google Maps" }).count()).toBe(1);
      }
      expect(seen.requests.filter((url) => !url.startsWith(plainServer.origin))).toEqual([]);
      expect(seen.problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
