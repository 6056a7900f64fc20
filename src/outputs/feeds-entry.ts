import sanitizeHtml from "sanitize-html";
import { count } from "../metrics.ts";
import { instantDate } from "../model/offset-times.ts";
import type { PerEvent } from "../model/per-event.ts";
import { escapeHtml } from "../model/sanitize.ts";
import type { CalendarEvent, Category } from "../model/types.ts";
import {
  eventTextLabels,
  formatEventDate,
  formatPlace,
  formatWhen,
  multiLine,
  singleLine,
  statusLabel,
} from "./event-text.ts";
import { imageMediaType, normalizeHttpUrl } from "./feeds-image-type.ts";
import { eventPageUrl } from "./feeds-urls.ts";
import type { TimedEvent } from "./feeds-window.ts";

/** One event as every feed format sees it, before format-specific encoding. */
export interface FeedEntry {
  /** Stable id: the absolute event page URL (derived from portal ids only). */
  readonly id: string;
  readonly url: string;
  /** Plain text: "Sun 29 Mar 2026 · Night Walk", with the status when not scheduled. */
  readonly title: string;
  /** Plain text: when and where on one line. */
  readonly summary: string;
  /** HTML with every portal string escaped and the description re-sanitized. */
  readonly contentHtml: string;
  readonly categories: readonly Category[];
  readonly image: { readonly url: string; readonly type: string | null } | null;
  /** The portal's creation time, when it gives one. */
  readonly published: Date | null;
  /** The portal's update time, else creation time, else the snapshot time; never the build clock. */
  readonly updated: Date;
}

export interface FeedEntryContext {
  readonly siteUrl: string;
  readonly lang: string;
  /** When the portal's data last changed (src/site/data-updated.ts), else when it was fetched: the last resort for an event without timestamps. */
  readonly dataUpdatedAt: string;
}

/**
 * One entry per event and context; with `entries` (a build's: feed-scopes.ts),
 * built once and shared by every feed file the event appears in.
 */
export function feedEntry(
  timed: TimedEvent,
  context: FeedEntryContext,
  entries?: PerEvent<FeedEntry>,
): FeedEntry {
  if (!entries) return buildEntry(timed, context);
  const key = `${context.siteUrl}\n${context.lang}\n${context.dataUpdatedAt}`;
  return entries.get(timed.event, key, () => {
    count("feeds.entriesMade");
    return buildEntry(timed, context);
  });
}

function buildEntry({ event, times }: TimedEvent, context: FeedEntryContext): FeedEntry {
  const labels = eventTextLabels(context.lang);
  const url = eventPageUrl(context.siteUrl, event);
  const status = statusLabel(event.status, context.lang);
  const title = singleLine(event.title);
  const when = formatWhen(event, times, context.lang);
  const place = formatPlace(event);
  const where = place ? singleLine(place) : null;
  const onlineUrl = normalizeHttpUrl(event.onlineUrl);
  const registrationUrl = normalizeHttpUrl(event.registrationUrl);
  const imageUrl = normalizeHttpUrl(event.image?.url);

  const html: string[] = [];
  if (status) html.push(`<p><strong>${escapeHtml(status)}</strong></p>`);
  html.push(`<p><strong>${labels.when}:</strong> ${escapeHtml(when)}</p>`);
  if (where) html.push(`<p><strong>${labels.where}:</strong> ${escapeHtml(where)}</p>`);
  if (onlineUrl)
    html.push(`<p><strong>${labels.online}:</strong> ${link(onlineUrl, onlineUrl)}</p>`);
  if (event.summary.trim()) html.push(`<p>${escapeHtml(multiLine(event.summary))}</p>`);
  const description = resanitize(event.descriptionHtml);
  if (description) html.push(description);
  if (imageUrl) {
    const alt = escapeHtml(singleLine(event.image?.alt ?? ""));
    html.push(`<p><img src="${escapeHtml(imageUrl)}" alt="${alt}"></p>`);
  }
  if (registrationUrl) html.push(`<p>${link(registrationUrl, labels.registration)}</p>`);
  html.push(`<p>${link(url, labels.moreInfo)}</p>`);

  return {
    id: url,
    url,
    title: `${formatEventDate(times.start, context.lang)} · ${status ? `${status}: ` : ""}${title}`,
    summary: [when, where ?? (onlineUrl ? labels.online : null)].filter(Boolean).join(" · "),
    contentHtml: html.join("\n"),
    categories: event.categories,
    image: imageUrl ? { url: imageUrl, type: imageMediaType(imageUrl) } : null,
    published: instantDate(event.createdAt),
    updated: entryUpdated(event, context.dataUpdatedAt),
  };
}

/**
 * An event entry's `updated`, without making the entry; once per event (an
 * event is in several feeds), unless it is dated by when the data changed.
 */
export function entryUpdated(event: CalendarEvent, dataUpdatedAt: string): Date {
  return ownUpdated(event) ?? instantDate(dataUpdatedAt) ?? new Date(0);
}

/** Whether the event's entry is dated by `dataUpdatedAt`: it has no time of its own (buildEntry's `updated`). */
export function datedByData(event: CalendarEvent): boolean {
  return ownUpdated(event) === null;
}

/** The portal's update time, else creation time; null when it gives neither. */
function ownUpdated(event: CalendarEvent): Date | null {
  let updated = ownUpdates.get(event);
  if (updated === undefined) {
    updated = instantDate(event.updatedAt) ?? instantDate(event.createdAt);
    ownUpdates.set(event, updated);
  }
  return updated;
}

const ownUpdates = new WeakMap<CalendarEvent, Date | null>();

/** Newest `updated` of the entries; when the data last changed when there are none (never the build clock). */
export function feedUpdated(updated: readonly Date[], dataUpdatedAt: string): Date {
  if (updated.length === 0) return instantDate(dataUpdatedAt) ?? new Date(0);
  let newest = Number.NEGATIVE_INFINITY;
  for (const date of updated) newest = Math.max(newest, date.getTime());
  return new Date(newest);
}

function link(href: string, text: string): string {
  return `<a href="${escapeHtml(href)}">${escapeHtml(text)}</a>`;
}

/**
 * The model already sanitizes descriptions; feeds are read by many clients
 * that render HTML, so the allowlist is applied again here (idempotent).
 */
function resanitize(html: string): string {
  return sanitizeHtml(html, {
    allowedSchemes: ["http", "https", "mailto"],
    allowedSchemesAppliedToAttributes: ["href", "src"],
    allowProtocolRelative: false,
  }).trim();
}
