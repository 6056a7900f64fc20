import { renderQrSvg } from "./qr.ts";

/**
 * Links that subscribe a calendar app to one of our .ics files, one per way
 * people add a calendar (docs/followers.md, "Phones and calendar apps"):
 *
 * - Apple Calendar (macOS, iOS) and Thunderbird subscribe through `webcal://`.
 * - ICSx5, the open-source Android app that syncs a calendar file into the
 *   phone's calendar, opens `webcal://` links too: Google's Android app cannot
 *   add a calendar by URL.
 * - Google Calendar: `calendar/render?cid=` with the webcal URL opens its web
 *   page that adds a calendar "From URL" (in a phone's browser as well).
 *   Google refreshes such calendars every 12-24 h, whatever REFRESH-INTERVAL says.
 * - Outlook.com and Microsoft 365 on the web take only `https://` URLs, through
 *   their "addfromweb" pages.
 * - Yahoo Calendar has no link that subscribes: its web calendar takes the
 *   address under "Follow other calendars"; `yahoo` opens it, and the page
 *   says to paste the copied address there.
 * - `https` is the address to copy: in-app browsers (Instagram's, Facebook's,
 *   Gmail's on iOS) open neither webcal: nor .ics, and every app takes it.
 * The QR code carries the webcal URL: phones that scan it (iOS) offer to
 * subscribe; an https URL would import a one-off copy instead.
 */
export interface SubscribeUrls {
  readonly https: string;
  readonly webcal: string;
  readonly google: string;
  /** ICSx5 on Android: the webcal URL, which the app registers for. */
  readonly icsx5: string;
  readonly outlook: string;
  readonly office365: string;
  /** Yahoo Calendar's web calendar, where the copied address is pasted. */
  readonly yahoo: string;
}

export interface SubscribeLinks extends SubscribeUrls {
  /** Inline SVG (role="img", labelled) encoding `webcal`. */
  readonly qrSvg: string;
}

const YAHOO_CALENDAR = "https://calendar.yahoo.com/";

export function subscribeLinks(httpsIcsUrl: string, name: string): SubscribeLinks {
  const links = subscribeUrls(httpsIcsUrl, name);
  return { ...links, qrSvg: renderQrSvg(links.webcal, name) };
}

/** The same links without the QR code (pages that show none: places, series, events). */
export function subscribeUrls(httpsIcsUrl: string, name: string): SubscribeUrls {
  const https = new URL(httpsIcsUrl).href;
  const webcal = https.replace(/^https?:/i, "webcal:");
  const addFromWeb = `url=${encodeURIComponent(https)}&name=${encodeURIComponent(name)}`;
  return {
    https,
    webcal,
    google: `https://calendar.google.com/calendar/render?cid=${encodeURIComponent(webcal)}`,
    icsx5: webcal,
    outlook: `https://outlook.live.com/calendar/0/addfromweb?${addFromWeb}`,
    office365: `https://outlook.office.com/calendar/0/addfromweb?${addFromWeb}`,
    yahoo: YAHOO_CALENDAR,
  };
}
