import { DateTime } from "luxon";
import {
  CALENDARS,
  CATEGORIES,
  DEMO_ZONE,
  ORGANIZATIONS,
  ORGANIZERS,
  PLACES,
} from "./demo-content.ts";
import { createPrng, seedFrom } from "./prng.ts";
import type {
  DatasetCalendar,
  DatasetEvent,
  PortalDataset,
  WireAttendanceMode,
  WireCategory,
  WireEventStatus,
  WireLocation,
  WireOrganizer,
} from "./types.ts";
import { formatLocal, formatUtc, offsetChanges, parseInstant } from "./zoned-time.ts";

/** What a demo event is made of; times are local DateTimes in the event's zone. */
interface EventSpec {
  id: string;
  calendarId: string;
  title: string;
  summary: string;
  description: string;
  start: DateTime;
  end: DateTime;
  allDay?: boolean;
  status?: WireEventStatus;
  attendanceMode?: WireAttendanceMode;
  location?: WireLocation | null;
  onlineUrl?: string | null;
  image?: { slug: string; alt: string } | null;
  categories: WireCategory[];
  organizer?: WireOrganizer | null;
  registrationUrl?: string | null;
  /** Served as the details' `accessibility` list (docs/api.md). */
  accessibility?: string[];
}

const WINDOW_PAST_DAYS = 60;
const WINDOW_FUTURE_DAYS = 180;

/**
 * The demo organization's portal, deterministic for a given `now`: about 170
 * events for the demo organization from two months before to six months after
 * `now`, plus a second organization sharing one calendar. Content depends on
 * `now` only through dates; randomness (created/updated times, revisions)
 * comes from a PRNG seeded by each event id.
 */
export function createDemoDataset(now: Date | string = new Date()): PortalDataset {
  const nowUtc = parseInstant(now);
  const today = nowUtc.setZone(DEMO_ZONE).startOf("day");
  const from = today.minus({ days: WINDOW_PAST_DAYS });
  const to = today.plus({ days: WINDOW_FUTURE_DAYS });
  const specs: EventSpec[] = [
    ...weeklySeries(from, to, today),
    ...monthlySeries(from, to),
    ...oneOffEvents(today),
    ...clockChangeEvents(from, to),
  ];
  const events = specs
    .filter((spec) => spec.end > from && spec.start < to)
    // Edited at the latest when the day began: two builds of one day see the same data.
    .map((spec) => toDatasetEvent(spec, today.toUTC()));
  const calendars: DatasetCalendar[] = CALENDARS.map((calendar) => ({
    ...calendar,
    organizations: [...calendar.organizations],
    timeZone: DEMO_ZONE,
    updatedAt: formatUtc(from.minus({ days: 30 }).set({ hour: 9 })),
  }));
  return {
    version: 1,
    organizations: [{ ...ORGANIZATIONS.demo }, { ...ORGANIZATIONS.other }],
    calendars,
    events,
  };
}

function toDatasetEvent(spec: EventSpec, editedBy: DateTime): DatasetEvent {
  const prng = createPrng(seedFrom(spec.id));
  const reference = DateTime.min(spec.start.toUTC(), editedBy);
  const createdAt = reference
    .minus({ days: prng.int(7, 45) })
    .set({ hour: prng.int(7, 16), minute: prng.int(0, 59), second: 0, millisecond: 0 });
  const revision = spec.status && spec.status !== "scheduled" ? prng.int(2, 5) : prng.int(1, 3);
  const span = Math.max(0, editedBy.diff(createdAt, "minutes").minutes);
  const updatedAt =
    revision === 1 ? createdAt : createdAt.plus({ minutes: Math.floor(prng.next() * span) });
  const allDay = spec.allDay ?? false;
  const mode = spec.attendanceMode ?? "offline";
  return {
    id: spec.id,
    calendarId: spec.calendarId,
    title: spec.title,
    start: allDay ? (spec.start.toISODate() ?? "") : formatLocal(spec.start),
    end: allDay ? (spec.end.toISODate() ?? "") : formatLocal(spec.end),
    allDay,
    timeZone: spec.start.zoneName ?? DEMO_ZONE,
    status: spec.status ?? "scheduled",
    revision,
    updatedAt: formatUtc(updatedAt),
    summary: spec.summary,
    description: spec.description,
    location: mode === "online" ? null : (spec.location ?? null),
    onlineUrl: spec.onlineUrl ?? null,
    attendanceMode: mode,
    image: spec.image
      ? { url: `/media/${spec.image.slug}.svg`, alt: spec.image.alt, width: 1200, height: 630 }
      : null,
    categories: spec.categories,
    organizer: spec.organizer ?? null,
    registrationUrl: spec.registrationUrl ?? null,
    createdAt: formatUtc(createdAt),
    ...(spec.accessibility ? { accessibility: spec.accessibility } : {}),
  };
}

const at = (day: DateTime, time: string): DateTime => {
  const [hour = 0, minute = 0] = time.split(":").map(Number);
  return day.set({ hour, minute, second: 0, millisecond: 0 });
};
const compact = (day: DateTime): string => day.toFormat("yyyyLLdd");
/** The first day on or after `day` with ISO weekday `weekday` (1 = Monday). */
const onOrAfter = (day: DateTime, weekday: number): DateTime =>
  day.plus({ days: (weekday - day.weekday + 7) % 7 });
/** The occurrence closest to `target`. */
const closest = (days: DateTime[], target: DateTime): DateTime | undefined =>
  days.reduce<DateTime | undefined>(
    (best, day) => (!best || Math.abs(+day - +target) < Math.abs(+best - +target) ? day : best),
    undefined,
  );

function weeklyDays(from: DateTime, to: DateTime, weekday: number): DateTime[] {
  const days: DateTime[] = [];
  for (let day = onOrAfter(from, weekday); day < to; day = day.plus({ weeks: 1 })) days.push(day);
  return days;
}

function weeklySeries(from: DateTime, to: DateTime, today: DateTime): EventSpec[] {
  const specs: EventSpec[] = [];
  const saturdays = weeklyDays(from, to, 6);
  const postponedRepair = closest(saturdays, today.plus({ days: 30 }));
  for (const day of saturdays) {
    const postponed = +day === +(postponedRepair ?? 0);
    specs.push({
      id: `repair-cafe-${compact(day)}`,
      calendarId: "community",
      title: "Repair Café",
      summary: postponed
        ? "Postponed: this session moves to a later date, watch this page."
        : "Bring what is broken; volunteers help you fix it.",
      description:
        "<p>Bring what is broken (lamps, toasters, bicycles, clothes) and fix it together with our volunteer <strong>repairers</strong>. Coffee and tea are on the house.</p>" +
        "<ul><li>Electrical appliances</li><li>Bicycles and scooters</li><li>Textiles and sewing</li></ul>" +
        '<p>Please read the <a href="https://example.org/repair-rules">house rules</a> before you come. <em>Repairs are free; donations are welcome.</em></p>',
      start: at(day, "10:00"),
      end: at(day, "13:00"),
      status: postponed ? "postponed" : "scheduled",
      location: PLACES.depijp,
      image: { slug: "repair-cafe", alt: "Volunteers repairing a table lamp" },
      categories: [CATEGORIES.sustainability, CATEGORIES.family],
      organizer: ORGANIZERS.buurtwerk,
      accessibility: ["step-free-access", "accessible-toilet", "quiet-space"],
    });
  }
  const tuesdays = weeklyDays(from, to, 2);
  const cancelledRuns = [
    closest(tuesdays, today.plus({ days: 17 })),
    closest(tuesdays, today.minus({ days: 24 })),
  ];
  for (const day of tuesdays) {
    const cancelled = cancelledRuns.some((c) => c && +c === +day);
    specs.push({
      id: `run-club-${compact(day)}`,
      calendarId: "sport",
      title: "Tuesday Evening Run Club",
      summary: cancelled
        ? "Cancelled: the park loop is closed for roadworks this week."
        : "A relaxed 5 or 10 km loop through the park, all levels welcome.",
      description:
        "<p>A relaxed 5 or 10 km loop through the park at <em>conversational pace</em>. Nobody runs alone.</p>" +
        "<ol><li>Warm-up at 19:00 by the theatre</li><li>Run in pace groups</li><li>Stretch and chat</li></ol>" +
        '<p>Lockers are available at the pavilion. Questions? <a href="https://example.org/run-amstel">Visit Run Amstel</a>.</p>',
      start: at(day, "19:00"),
      end: at(day, "20:15"),
      status: cancelled ? "cancelled" : "scheduled",
      location: PLACES.vondelpark,
      image: { slug: "run-club", alt: "Runners on a park path at dusk" },
      categories: [CATEGORIES.sport],
      organizer: ORGANIZERS.run,
    });
  }
  for (const day of weeklyDays(from, to, 4)) {
    specs.push({
      id: `open-studio-${compact(day)}`,
      calendarId: "culture",
      title: "Open Studio Night",
      summary: "Artists open their studios; drop in, watch, and try it yourself.",
      description:
        "<p>Every Thursday the studios of the <strong>Amstel Arts Collective</strong> open their doors. Meet painters, printmakers and ceramicists at work.</p>" +
        "<p>This week you can try:</p><ul><li>Linocut printing</li><li>Life drawing (materials provided)</li><li>Throwing on the wheel</li></ul>",
      start: at(day, "19:30"),
      end: at(day, "22:00"),
      location: PLACES.westergas,
      image: { slug: "open-studio", alt: "A printmaker inking a linocut block" },
      categories: [CATEGORIES.arts],
      organizer: ORGANIZERS.arts,
    });
  }
  for (const day of weeklyDays(from, to, 7)) {
    specs.push({
      id: `food-market-${compact(day)}`,
      calendarId: "city",
      title: "Sunday Food Market",
      summary: "Local growers, bakers and street food on the square.",
      description:
        "<p>Around forty stalls with <strong>seasonal vegetables</strong>, cheese, bread and street food from every corner of the city.</p>" +
        '<p>Bring your own bag: the market is <em>plastic-free</em>. <a href="https://example.com/events/market-map">Market map</a></p>',
      start: at(day, "11:00"),
      end: at(day, "16:00"),
      location: PLACES.museumplein,
      image: { slug: "food-market", alt: "Crates of vegetables at a market stall" },
      categories: [CATEGORIES.markets, CATEGORIES.food],
      organizer: ORGANIZERS.city,
    });
  }
  for (const day of weeklyDays(from, to, 3)) {
    specs.push({
      id: `story-time-${compact(day)}`,
      calendarId: "library",
      title: "Toddler Story Time",
      summary: "Picture books, songs and rhymes for children up to four.",
      description:
        "<p>Picture books, songs and rhymes for children up to four and their grown-ups.</p><p><em>No registration needed.</em></p>",
      start: at(day, "10:30"),
      end: at(day, "11:15"),
      location: PLACES.library,
      image: { slug: "story-time", alt: "A librarian reading a picture book to toddlers" },
      categories: [CATEGORIES.family, CATEGORIES.literature],
      organizer: ORGANIZERS.library,
    });
  }
  return specs;
}

function monthlySeries(from: DateTime, to: DateTime): EventSpec[] {
  const specs: EventSpec[] = [];
  for (let month = from.startOf("month"); month < to; month = month.plus({ months: 1 })) {
    const firstMonday = onOrAfter(month, 1);
    specs.push({
      id: `council-${compact(firstMonday)}`,
      calendarId: "community",
      title: "Online Neighbourhood Council",
      summary: "The monthly open meeting of the neighbourhood council, online.",
      description:
        "<p>The neighbourhood council meets online every first Monday. Everyone may listen in and ask questions in the chat.</p>" +
        "<p><strong>Agenda</strong></p><ol><li>Opening and announcements</li><li>Green spaces and play areas</li><li>Questions from residents</li></ol>",
      start: at(firstMonday, "20:00"),
      end: at(firstMonday, "21:30"),
      attendanceMode: "online",
      onlineUrl: "https://meet.example.org/neighbourhood-council",
      image: { slug: "council", alt: "A video call with residents of the neighbourhood" },
      categories: [CATEGORIES.learning],
      organizer: ORGANIZERS.buurtwerk,
    });
    const lastFriday = onOrAfter(month.endOf("month").startOf("day").minus({ days: 6 }), 5);
    specs.push({
      id: `jazz-boathouse-${compact(lastFriday)}`,
      calendarId: "culture",
      title: "Jazz at the Boathouse",
      summary: "Live jazz on the river, in the room or on the livestream.",
      description:
        "<p>The <strong>Boathouse Quartet</strong> and a guest soloist play standards and new work.</p>" +
        '<p>Can\'t make it? Watch the <a href="https://stream.example.org/jazz">livestream</a>. Tickets for the room are limited.</p>',
      start: at(lastFriday, "20:30"),
      end: at(lastFriday, "23:00"),
      attendanceMode: "mixed",
      location: PLACES.boathouse,
      onlineUrl: "https://stream.example.org/jazz",
      image: { slug: "jazz", alt: "A saxophonist on a small stage by the river" },
      categories: [CATEGORIES.music],
      organizer: ORGANIZERS.arts,
      registrationUrl: `https://example.org/tickets/jazz-${compact(lastFriday)}`,
      // The vocabulary and, for what it has no word for, the organizer's own.
      accessibility: [
        "step-free-access",
        "hearing-loop",
        "Seats near the stage kept free on request",
      ],
    });
  }
  return specs;
}

function oneOffEvents(today: DateTime): EventSpec[] {
  const day = (offset: number, weekday: number) => onOrAfter(today.plus({ days: offset }), weekday);
  const cleanUp = day(20, 6);
  const festival = day(45, 5);
  const garden = day(95, 6);
  const swim = day(60, 7);
  const openMic = day(12, 5);
  const poetry = day(25, 4);
  const webinar = day(33, 3);
  const nyTalk = day(50, 3).setZone("America/New_York", { keepLocalTime: true });
  const cycling = day(35, 7);
  const museumNight = day(70, 6);
  const winterLights = day(-30, 5);
  const bookFair = day(-40, 6);
  const exhibition = today.minus({ days: 10 });
  const drinks = day(8, 5);
  const authorTalk = day(22, 2);
  const languageCafe = day(40, 4);
  const quiz = day(15, 4);
  return [
    {
      id: `clean-up-day-${compact(cleanUp)}`,
      calendarId: "community",
      title: "Neighbourhood Clean-up Day",
      summary: "Gloves, grabbers and coffee: help keep the streets clean all day.",
      description:
        "<p>Join in for an hour or the whole day. We provide <strong>gloves, grabbers and bags</strong>; you bring good spirits.</p>" +
        "<ul><li>Start points at the community centre and the park</li><li>Lunch for volunteers from 12:30</li></ul>",
      start: cleanUp,
      end: cleanUp.plus({ days: 1 }),
      allDay: true,
      location: PLACES.depijp,
      image: { slug: "clean-up", alt: "Volunteers with litter grabbers on a canal bank" },
      categories: [CATEGORIES.sustainability, CATEGORIES.family],
      organizer: ORGANIZERS.buurtwerk,
      registrationUrl: "https://example.org/register/clean-up",
    },
    {
      id: `summer-festival-${compact(festival)}`,
      calendarId: "city",
      title: "Amstel River Festival",
      summary: "Three days of music, food and boats along the Amstel.",
      description:
        "<p>Three days of <strong>music, food and boats</strong> along the river. Free entry on all days.</p>" +
        "<h3>Highlights</h3><ul><li>Friday: opening parade on the water</li><li>Saturday: bands on three stages</li><li>Sunday: family day and regatta</li></ul>" +
        '<p>See the <a href="https://example.com/events/river-festival">full programme</a>.</p>',
      start: festival,
      end: festival.plus({ days: 3 }),
      allDay: true,
      location: PLACES.amstelpark,
      image: { slug: "river-festival", alt: "Decorated boats on the river at sunset" },
      categories: [CATEGORIES.festivals, CATEGORIES.music, CATEGORIES.food],
      organizer: ORGANIZERS.city,
    },
    {
      id: `open-garden-weekend-${compact(garden)}`,
      calendarId: "community",
      title: "Open Garden Weekend",
      summary: "Community and private gardens open their gates for a weekend.",
      description:
        "<p>Twenty-two gardens open their gates. Pick up a route map at any garden.</p><p><em>Dogs on a leash are welcome.</em></p>",
      start: garden,
      end: garden.plus({ days: 2 }),
      allDay: true,
      location: PLACES.oosterpark,
      image: { slug: "open-garden", alt: "A path through a flowering community garden" },
      categories: [CATEGORIES.nature, CATEGORIES.family],
      organizer: ORGANIZERS.buurtwerk,
    },
    {
      id: `canal-swim-${compact(swim)}`,
      calendarId: "sport",
      title: "Canal Swim for Charity",
      summary: "Cancelled: the water quality does not allow swimming this year.",
      description:
        "<p><strong>This event is cancelled.</strong> The water quality does not allow a safe swim. Registered swimmers get a full refund.</p>",
      start: at(swim, "09:00"),
      end: at(swim, "12:00"),
      status: "cancelled",
      location: PLACES.boathouse,
      image: { slug: "canal-swim", alt: "Swimmers in caps in a canal" },
      categories: [CATEGORIES.sport],
      organizer: ORGANIZERS.run,
      registrationUrl: "https://example.org/register/canal-swim",
    },
    {
      id: `open-mic-${compact(openMic)}`,
      calendarId: "culture",
      title: "Poetry & Beats <Open Mic>",
      summary: 'Five minutes on stage for "anyone" with words & rhythm.',
      // Copied from a real-world portal editor: scripts, event handlers and
      // javascript: links must be neutralized by every consumer.
      description:
        "<p>Five minutes on stage for anyone with words &amp; rhythm.</p>" +
        "<script>alert('xss')</script>" +
        '<img src="x" onerror="alert(1)" alt="broken">' +
        '<p onclick="steal()">Sign up at the bar or <a href="javascript:alert(document.cookie)">online</a>.</p>' +
        '<iframe src="https://evil.example.com/"></iframe>' +
        '<p style="position:fixed;top:0">Hosted by <a href="https://example.org/arts" target="_blank">the Collective</a>.</p>',
      start: at(openMic, "20:00"),
      end: at(openMic, "23:00"),
      location: PLACES.ndsm,
      image: { slug: "open-mic", alt: 'Microphone on a stage, lit "red" & blue' },
      categories: [CATEGORIES.literature, CATEGORIES.music],
      organizer: ORGANIZERS.arts,
    },
    {
      id: `poetry-evening-${compact(poetry)}`,
      calendarId: "culture",
      title: "Poetry Evening: Voices of the Amstel",
      summary: "Postponed: a new date will be announced soon.",
      description:
        "<p>Poets from both banks of the river read new work about the city.</p><p><strong>Postponed</strong> because of illness; tickets remain valid.</p>",
      start: at(poetry, "20:00"),
      end: at(poetry, "22:00"),
      status: "postponed",
      location: PLACES.westergas,
      categories: [CATEGORIES.literature],
      organizer: ORGANIZERS.arts,
    },
    {
      id: `accessibility-webinar-${compact(webinar)}`,
      calendarId: "community",
      title: "Web Accessibility for Volunteer Websites",
      summary: "A practical webinar: make your club's website usable for everyone.",
      description:
        "<p>In ninety minutes you learn the <strong>ten checks</strong> that catch most accessibility problems.</p>" +
        "<ol><li>Headings and landmarks</li><li>Alternative text</li><li>Colour contrast</li><li>Keyboard use</li></ol>" +
        '<p>Slides follow the <a href="https://www.w3.org/WAI/standards-guidelines/wcag/">WCAG</a> structure.</p>',
      start: at(webinar, "16:00"),
      end: at(webinar, "17:30"),
      attendanceMode: "online",
      onlineUrl: "https://meet.example.org/a11y-webinar",
      categories: [CATEGORIES.learning, CATEGORIES.technology],
      organizer: ORGANIZERS.buurtwerk,
      registrationUrl: "https://example.org/register/a11y-webinar",
      accessibility: ["captions", "sign-language"],
    },
    {
      id: `urban-gardening-talk-${compact(nyTalk)}`,
      calendarId: "community",
      title: "Live from New York: Urban Gardening Talk",
      summary: "A community gardener from Brooklyn shares what works on rooftops.",
      description:
        "<p>Streamed live from Brooklyn at noon New York time; questions welcome in the chat.</p>",
      start: at(nyTalk, "12:00"),
      end: at(nyTalk, "13:00"),
      attendanceMode: "online",
      onlineUrl: "https://meet.example.org/urban-gardening",
      image: { slug: "urban-gardening", alt: "Vegetable beds on a city rooftop" },
      categories: [CATEGORIES.nature, CATEGORIES.learning],
      organizer: ORGANIZERS.buurtwerk,
    },
    {
      id: `cycling-tour-${compact(cycling)}`,
      calendarId: "sport",
      title: "Cycling Tour along the Amstel",
      summary: "A 45 km guided tour to Ouderkerk and back, with a lunch stop; families welcome.",
      description:
        "<p>A guided <strong>45 km</strong> tour at an easy pace. Rental bikes available on request.</p>" +
        "<ul><li>10:00 start at the boathouse</li><li>12:30 lunch in Ouderkerk aan de Amstel</li><li>16:00 back</li></ul>",
      start: at(cycling, "10:00"),
      end: at(cycling, "16:00"),
      location: PLACES.boathouse,
      image: { slug: "cycling-tour", alt: "Cyclists on a dike beside the river" },
      // Sport for families: the widget guide's example (docs/widget.md).
      categories: [CATEGORIES.sport, CATEGORIES.nature, CATEGORIES.family],
      organizer: ORGANIZERS.run,
      registrationUrl: "https://example.org/register/cycling-tour",
    },
    {
      id: `museum-night-${compact(museumNight)}`,
      calendarId: "city",
      title: "Museum Night",
      summary: "Forty museums open until two in the morning.",
      description:
        "<p>Forty museums stay open <em>until 02:00</em> with concerts, tours and workshops. One ticket for all.</p>",
      start: at(museumNight, "19:00"),
      end: at(museumNight.plus({ days: 1 }), "02:00"),
      location: PLACES.museumplein,
      image: { slug: "museum-night", alt: "A museum facade lit up at night" },
      categories: [CATEGORIES.arts, CATEGORIES.festivals],
      organizer: ORGANIZERS.city,
      registrationUrl: "https://example.com/events/museum-night/tickets",
      accessibility: [
        "step-free-access",
        "accessible-toilet",
        "audio-description",
        "assistance-dogs",
      ],
    },
    {
      id: `winter-lights-walk-${compact(winterLights)}`,
      calendarId: "sport",
      title: "Lights Walk",
      summary: "An evening walk past the city's light art installations.",
      description: "<p>A guided evening walk of about 6 km past light art along the canals.</p>",
      start: at(winterLights, "18:30"),
      end: at(winterLights, "20:30"),
      location: PLACES.museumplein,
      categories: [CATEGORIES.arts, CATEGORIES.sport],
      organizer: ORGANIZERS.run,
    },
    {
      id: `book-fair-${compact(bookFair)}`,
      calendarId: "city",
      title: "Second-hand Book Fair",
      summary: "Two days of second-hand books, prints and maps.",
      description: "<p>Over 100 booksellers with second-hand books, prints and old maps.</p>",
      start: bookFair,
      end: bookFair.plus({ days: 2 }),
      allDay: true,
      location: PLACES.oosterpark,
      image: { slug: "book-fair", alt: "Tables stacked with old books under an awning" },
      categories: [CATEGORIES.markets, CATEGORIES.literature],
      organizer: ORGANIZERS.city,
    },
    {
      id: `photo-exhibition-${compact(exhibition)}`,
      calendarId: "culture",
      title: "Exhibition: Faces of De Pijp",
      summary: "Portraits of the people who make the neighbourhood, for three weeks.",
      description:
        "<p>Photographer <strong>Noor Visser</strong> portrayed sixty residents of De Pijp over a year.</p><p>Open daily 10:00 to 17:00.</p>",
      start: exhibition,
      end: exhibition.plus({ days: 21 }),
      allDay: true,
      location: PLACES.depijp,
      image: { slug: "photo-exhibition", alt: "Black-and-white portrait of a market vendor" },
      categories: [CATEGORIES.arts],
      organizer: ORGANIZERS.arts,
    },
    {
      id: `quiz-night-${compact(quiz)}`,
      calendarId: "community",
      title: "Pub Quiz for the Food Bank",
      summary: "Teams of four, eight rounds; the entry fee goes to the food bank.",
      description: "<p>Eight rounds of questions about the neighbourhood and beyond.</p>",
      start: at(quiz, "20:00"),
      end: at(quiz, "22:30"),
      location: PLACES.hoekje,
      categories: [CATEGORIES.food],
      organizer: ORGANIZERS.buurtwerk,
    },
    {
      id: `volunteer-drinks-${compact(drinks)}`,
      calendarId: "community",
      title: "Volunteer Drinks",
      summary: "",
      description: "Thank you, volunteers! Drinks are on us.",
      start: at(drinks, "17:30"),
      end: at(drinks, "19:00"),
      categories: [],
    },
    {
      id: `author-talk-${compact(authorTalk)}`,
      calendarId: "library",
      title: "Author Talk: Writing the Polder",
      summary: "A novelist on landscape, water and memory.",
      description:
        "<p>An evening with the author of <em>Below Sea Level</em>, followed by a signing.</p>",
      start: at(authorTalk, "19:30"),
      end: at(authorTalk, "21:00"),
      location: PLACES.library,
      categories: [CATEGORIES.literature],
      organizer: ORGANIZERS.library,
      registrationUrl: "https://example.net/library/author-talk",
    },
    {
      id: `language-cafe-${compact(languageCafe)}`,
      calendarId: "library",
      title: "Dutch Language Café",
      summary: "Practise your Dutch over coffee with volunteers.",
      description: "<p>Informal conversation practice in small groups, all levels.</p>",
      start: at(languageCafe, "14:00"),
      end: at(languageCafe, "15:30"),
      attendanceMode: "mixed",
      location: PLACES.library,
      onlineUrl: "https://meet.example.net/language-cafe",
      categories: [CATEGORIES.learning],
      organizer: ORGANIZERS.library,
    },
  ];
}

/** Events spanning each DST change in the window: overnight walks and a weekend hackathon. */
function clockChangeEvents(from: DateTime, to: DateTime): EventSpec[] {
  return offsetChanges(DEMO_ZONE, from, to).flatMap((change) => {
    const sunday = change.setZone(DEMO_ZONE).startOf("day");
    const saturday = sunday.minus({ days: 1 });
    const friday = sunday.minus({ days: 2 });
    const toSummer = change.setZone(DEMO_ZONE).offset > sunday.offset;
    return [
      {
        id: `stargazing-walk-${compact(saturday)}`,
        calendarId: "sport",
        title: "Stargazing Walk across the Clock Change",
        summary: toSummer
          ? "A night walk that starts in winter time and ends in summer time."
          : "A night walk with an extra hour: the clocks go back tonight.",
        description:
          "<p>We walk out of the city lights to the polder and watch the sky until dawn. " +
          `The clocks go <strong>${toSummer ? "forward" : "back"}</strong> during the walk.</p>` +
          "<ul><li>Bring warm clothes and a red torch</li><li>Hot chocolate at the halfway point</li></ul>",
        start: at(saturday, "23:00"),
        end: at(sunday, "05:00"),
        location: PLACES.amstelpark,
        image: { slug: "stargazing", alt: "The Milky Way above a dark polder" },
        categories: [CATEGORIES.nature, CATEGORIES.sport],
        organizer: ORGANIZERS.run,
        registrationUrl: "https://example.org/register/stargazing",
      },
      {
        id: `civic-hackathon-${compact(friday)}`,
        calendarId: "community",
        title: "Civic Tech Weekend Hackathon",
        summary: "Forty-six hours of building tools for the neighbourhood.",
        description:
          "<p>Teams build small tools for neighbourhood groups: booking systems, maps, newsletters.</p>" +
          "<p>Meals provided. Mind the <em>clock change</em> on Sunday morning.</p>",
        start: at(friday, "18:00"),
        end: at(sunday, "16:00"),
        attendanceMode: "mixed" as const,
        location: PLACES.ndsm,
        onlineUrl: "https://meet.example.org/hackathon",
        image: { slug: "hackathon", alt: "People with laptops around a long table" },
        categories: [CATEGORIES.technology, CATEGORIES.learning],
        organizer: ORGANIZERS.buurtwerk,
        registrationUrl: "https://example.org/register/hackathon",
      },
    ];
  });
}
