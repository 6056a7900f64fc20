/**
 * Wire records of the portal API (docs/api.md) and the dataset the reference
 * portal serves (docs/dataset.md). A dataset file is exactly `PortalDataset`
 * as JSON, so `createDemoDataset()` output can be saved and loaded with --data.
 */

export type WireEventStatus = "scheduled" | "postponed" | "cancelled";
export type WireAttendanceMode = "offline" | "online" | "mixed";

export interface WireCalendar {
  id: string;
  name: string;
  description: string;
  timeZone: string;
  color: string | null;
  eventCount: number;
  updatedAt: string;
}

export interface WireEvent {
  id: string;
  calendarId: string;
  title: string;
  start: string;
  end: string;
  allDay: boolean;
  timeZone: string;
  status: WireEventStatus;
  revision: number;
  updatedAt: string;
}

export interface WireAddress {
  street: string | null;
  locality: string | null;
  region: string | null;
  postalCode: string | null;
  country: string | null;
}

export interface WireLocation {
  name: string | null;
  address: WireAddress | null;
  geo: { lat: number; lon: number } | null;
}

export interface WireImage {
  url: string;
  alt: string;
  width: number | null;
  height: number | null;
}

export interface WireCategory {
  id: string;
  name: string;
}

export interface WireOrganizer {
  name: string;
  email: string | null;
  url: string | null;
}

export interface WireEventDetails extends WireEvent {
  summary: string;
  description: string;
  location: WireLocation | null;
  onlineUrl: string | null;
  attendanceMode: WireAttendanceMode;
  image: WireImage | null;
  categories: WireCategory[];
  organizer: WireOrganizer | null;
  registrationUrl: string | null;
  createdAt: string;
  /**
   * What the event offers for access (docs/api.md, "accessibility"): words of
   * the vocabulary ("step-free-access", "hearing-loop"...) or free text.
   * Only events that say anything carry it.
   */
  accessibility?: string[];
  /**
   * Its texts in other languages, by language tag (docs/dataset.md): in the
   * dataset only; the details serve them as `title_<tag>`, `summary_<tag>`
   * and `description_<tag>` beside the others (docs/api.md, "Translations").
   */
  translations?: Record<string, DatasetTexts>;
}

/** An event's texts in one other language, each optional. */
export interface DatasetTexts {
  title?: string;
  summary?: string;
  description?: string;
}

export interface DatasetOrganization {
  id: string;
  name: string;
}

/** A calendar as stored: its record without derived fields, plus who may see it. */
export interface DatasetCalendar {
  id: string;
  name: string;
  description: string;
  timeZone: string;
  color: string | null;
  updatedAt: string;
  /** Ids of the organizations the calendar is available to (spec section 5). */
  organizations: string[];
}

/** An event as stored: the details record (image URLs may be `/media/...` paths). */
export type DatasetEvent = WireEventDetails;

export interface PortalDataset {
  version: 1;
  /** The first organization is the default one: its token is printed at start. */
  organizations: DatasetOrganization[];
  calendars: DatasetCalendar[];
  events: DatasetEvent[];
}

/** Fields `updateEvent` may change; id, calendar, revision and times are the portal's. */
export type EventPatch = Partial<
  Omit<WireEventDetails, "id" | "calendarId" | "revision" | "updatedAt" | "createdAt">
>;

/** An event `addEvent` creates; revision and times are the portal's. */
export type NewEvent = Omit<WireEventDetails, "revision" | "updatedAt" | "createdAt">;
