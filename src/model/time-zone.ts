import {
  FixedOffsetZone,
  IANAZone,
  Zone,
  type ZoneOffsetFormat,
  type ZoneOffsetOptions,
} from "luxon";

/**
 * IANA time zones whose UTC offsets are looked up once per quarter hour of
 * time instead of on every use.
 *
 * Luxon asks Intl for a zone's offset (`IANAZone.offset`, through
 * `formatToParts`) each time it creates, shifts or rounds a DateTime in that
 * zone: tens of microseconds each, several per parse, and a build of 10,000
 * events made hundreds of thousands of such look-ups (docs/performance.md).
 * An offset changes only at a zone's transitions, which the time zone
 * database puts at least hours apart; so when the offsets at both ends of a
 * 15-minute span agree, the whole span has that offset and the answer is
 * kept. Spans that contain a transition are asked of Intl every time, so the
 * answers are exactly Luxon's own.
 */
class RememberedZone extends Zone {
  readonly #zone: IANAZone;
  readonly #offsets = new Map<number, number>();
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
    const span = Math.floor(ts / SPAN_MS);
    const known = this.#offsets.get(span);
    if (known !== undefined) return known;
    const first = this.#zone.offset(span * SPAN_MS);
    if (first === this.#zone.offset((span + 1) * SPAN_MS - 1)) {
      this.#offsets.set(span, first);
      return first;
    }
    return this.#zone.offset(ts);
  }

  override offsetName(ts: number, options: ZoneOffsetOptions): string | null {
    const span = Math.floor(ts / SPAN_MS);
    const key = `${span}|${options.format}|${options.locale}`;
    const known = this.#names.get(key);
    if (known !== undefined) return known;
    const first = this.#zone.offsetName(span * SPAN_MS, options);
    if (first === this.#zone.offsetName((span + 1) * SPAN_MS - 1, options)) {
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

const SPAN_MS = 15 * 60 * 1000;
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
