// A place's map, from the tile server the site's owner configured (MAP_TILES_URL),
// loaded only when the visitor asks for it: until "Show map" is pressed the page
// requests nothing from that server. Nine tiles around the place as plain images,
// with a marker on it; no map library. Only on place pages, and only when
// MAP_TILES_URL is set (templates/places/place.njk).

const TILE = 256;
const ZOOM = 16;

for (const map of document.querySelectorAll<HTMLElement>("[data-map-tiles]")) {
  const button = map.querySelector<HTMLButtonElement>("button[data-show-map]");
  const frame = map.querySelector<HTMLElement>("[data-map-frame]");
  if (!button || !frame) continue;
  button.hidden = false;
  button.addEventListener(
    "click",
    () => {
      show(map, frame);
      button.hidden = true;
      frame.focus();
    },
    { once: true },
  );
}

/** Web Mercator tile coordinates (fractional) of a point at a zoom level, as tile servers number them. */
function tileOf(lat: number, lon: number, zoom: number): { x: number; y: number } {
  const n = 2 ** zoom;
  const radians = (lat * Math.PI) / 180;
  return {
    x: ((lon + 180) / 360) * n,
    y: ((1 - Math.log(Math.tan(radians) + 1 / Math.cos(radians)) / Math.PI) / 2) * n,
  };
}

function show(map: HTMLElement, frame: HTMLElement): void {
  const lat = Number(map.dataset.lat);
  const lon = Number(map.dataset.lon);
  if (!Number.isFinite(lat) || !Number.isFinite(lon)) return;
  const template = map.dataset.mapTiles ?? "";
  const point = tileOf(lat, lon, ZOOM);
  const column = Math.floor(point.x);
  const row = Math.floor(point.y);
  const count = 2 ** ZOOM;
  const grid = document.createElement("div");
  grid.className = "map-tiles";
  for (let dy = -1; dy <= 1; dy++) {
    for (let dx = -1; dx <= 1; dx++) {
      const image = document.createElement("img");
      image.alt = "";
      image.width = TILE;
      image.height = TILE;
      image.src = template
        .replace("{z}", String(ZOOM))
        .replace("{x}", String((((column + dx) % count) + count) % count))
        .replace("{y}", String(row + dy));
      grid.append(image);
    }
  }
  // The place's point within the 3 x 3 tiles, put in the middle of the frame
  // (the CSS object model, which the Content-Security-Policy allows; no inline style).
  const left = TILE + (point.x - column) * TILE;
  const top = TILE + (point.y - row) * TILE;
  grid.style.left = `calc(50% - ${left.toFixed(1)}px)`;
  grid.style.top = `calc(50% - ${top.toFixed(1)}px)`;
  const marker = document.createElement("span");
  marker.className = "map-marker";
  frame.append(grid, marker);
  frame.hidden = false;
  const attribution = map.querySelector<HTMLElement>("[data-map-attribution]");
  if (attribution) attribution.hidden = false;
}
