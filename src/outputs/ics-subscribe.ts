import { renderQrSvg } from "./qr.ts";

/**
 * Links that subscribe a calendar app to one of our .ics files.
 *
 * - Apple Calendar (macOS, iOS) and Thunderbird subscribe through `webcal://`.
 * - Google Calendar: `calendar/render?cid=` with the webcal URL adds it as
 *   "From URL" (Google refreshes every 8-24 h, whatever REFRESH-INTERVAL says).
 * - Outlook.com and Microsoft 365 on the web take only `https://` URLs, through
 *   their "addfromweb" pages.
 * The QR code carries the webcal URL: phones that scan it (iOS) offer to
 * subscribe; an https URL would import a one-off copy instead.
 */
export interface SubscribeLinks {
  readonly https: string;
  readonly webcal: string;
  readonly google: string;
  readonly outlook: string;
  readonly office365: string;
  /** Inline SVG (role="img", labelled) encoding `webcal`. */
  readonly qrSvg: string;
}

export function subscribeLinks(httpsIcsUrl: string, name: string): SubscribeLinks {
  const links = subscribeUrls(httpsIcsUrl, name);
  return { ...links, qrSvg: renderQrSvg(links.webcal, name) };
}

/** The same links without the QR code (pages that show none: places, series). */
export function subscribeUrls(httpsIcsUrl: string, name: string): Omit<SubscribeLinks, "qrSvg"> {
  const https = new URL(httpsIcsUrl).href;
  const webcal = https.replace(/^https?:/i, "webcal:");
  const addFromWeb = `url=${encodeURIComponent(https)}&name=${encodeURIComponent(name)}`;
  return {
    https,
    webcal,
    google: `https://calendar.google.com/calendar/render?cid=${encodeURIComponent(webcal)}`,
    outlook: `https://outlook.live.com/calendar/0/addfromweb?${addFromWeb}`,
    office365: `https://outlook.office.com/calendar/0/addfromweb?${addFromWeb}`,
  };
}
