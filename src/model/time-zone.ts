import {
  FixedOffsetZone,
  IANAZone,
  Zone,
  type ZoneOffsetFormat,
  type ZoneOffsetOptions,
} from "luxon";

/**
 * IANA time zones whose UTC offsets are looked up once per day of time (once
 * per quarter hour on a day with a transition), and their names once per
 * quarter hour, instead of on every use.
 *
 * Luxon asks Intl for a zone's offset (`IANAZone.offset`, through
 * `formatToParts`) each time it creates, shifts or rounds a DateTime in that
 * zone: tens of microseconds each, several per parse, and a build of 10,000
 * events made hundreds of thousands of such look-ups (docs/performance.md).
 * An offset changes only at a zone's transitions, and no two of them are
 * less than 95 hours apart anywhere since 1900 (the time zone database's
 * files, read transition by transition: Africa/Freetown's of 1939 are the
 * closest, then 167 hours in America/Noronha, Gaza and others). So a day
 * holds at most one: when the offsets at both of its ends agree, the whole
 * day has that offset and the answer is kept. A day that holds a transition
 * is split into quarter hours, checked the same way (transitions fall on
 * whole minutes, and no two within one); the quarter hour with the
 * transition is asked of Intl every time, so the answers are exactly
 * Luxon's own. Days rather than quarter hours: events spread over a year
 * fall in a few hundred days but in thousands of quarter hours. Names keep
 * the quarter hour: they follow ICU's metazones, not only the offsets, and
 * few are asked for.
 */
class RememberedZone extends Zone {
  readonly #zone: IANAZone;
  readonly #dayOffsets = new Map<number, number>();
  readonly #quarterOffsets = new Map<number, number>();
  readonly #names = new Map<string, string | null>();

  constructor(zone: IANAZone) {
    super();
    this.#zone = zone;
  }

  override get type(): string {
    return "iana";
  }

  override get name(): string {
    return this.#zone.name;
  }

  override get isUniversal(): boolean {
    return false;
  }

  override get isValid(): boolean {
    return this.#zone.isValid;
  }

  override offset(ts: number): number {
    return (
      this.#remembered(this.#dayOffsets, DAY_MS, ts) ??
      this.#remembered(this.#quarterOffsets, QUARTER_HOUR_MS, ts) ??
      this.#zone.offset(ts)
    );
  }

  /** The offset of the span of `length` that holds `ts` when it is one throughout, else undefined. */
  #remembered(offsets: Map<number, number>, length: number, ts: number): number | undefined {
    const span = Math.floor(ts / length);
    const known = offsets.get(span);
    if (known !== undefined) return Number.isNaN(known) ? undefined : known;
    const first = this.#zone.offset(span * length);
    const last = this.#zone.offset((span + 1) * length - 1);
    // A span with a transition is marked NaN: asked of a shorter span, or of Intl, from then on.
    offsets.set(span, first === last ? first : Number.NaN);
    return first === last ? first : undefined;
  }

  override offsetName(ts: number, options: ZoneOffsetOptions): string | null {
    const span = Math.floor(ts / QUARTER_HOUR_MS);
    const key = `${span}|${options.format}|${options.locale}`;
    const known = this.#names.get(key);
    if (known !== undefined) return known;
    const first = this.#zone.offsetName(span * QUARTER_HOUR_MS, options);
    if (first === this.#zone.offsetName((span + 1) * QUARTER_HOUR_MS - 1, options)) {
      this.#names.set(key, first);
      return first;
    }
    return this.#zone.offsetName(ts, options);
  }

  override formatOffset(ts: number, format: ZoneOffsetFormat): string {
    // Luxon's own formatting of an offset, applied to the remembered one.
    return FixedOffsetZone.instance(this.offset(ts)).formatOffset(ts, format);
  }

  override equals(other: Zone): boolean {
    return other.type === "iana" && other.name === this.name;
  }
}

const DAY_MS = 24 * 60 * 60 * 1000;
const QUARTER_HOUR_MS = 15 * 60 * 1000;
const zones = new Map<string, RememberedZone>();

/** The zone named `name` (an IANA id), shared by every DateTime of the build. */
export function timeZone(name: string): Zone {
  let zone = zones.get(name);
  if (!zone) {
    const iana = IANAZone.create(name);
    // Unknown names (from portal data) are not kept: Luxon reports them invalid.
    if (!iana.isValid) return iana;
    zone = new RememberedZone(iana);
    zones.set(name, zone);
  }
  return zone;
}
