import type { WireCategory, WireLocation, WireOrganizer } from "./types.ts";

/**
 * The content of the demo organization: an Amsterdam-area community network.
 * Addresses are plausible, not real bookings; e-mail and web addresses use the
 * reserved example domains (RFC 2606).
 */

export const DEMO_ZONE = "Europe/Amsterdam";

export const ORGANIZATIONS = {
  demo: { id: "amstel-community", name: "Amstel Community Network" },
  other: { id: "riverside-library", name: "Riverside Library Amstelveen" },
} as const;

export const CALENDARS = [
  {
    id: "community",
    name: "Community",
    description: "Repair cafés, neighbourhood meetings, clean-ups and open gardens.",
    color: "#0b7285",
    organizations: [ORGANIZATIONS.demo.id],
  },
  {
    id: "culture",
    name: "Culture & Arts",
    description: "Open studios, concerts, poetry and exhibitions across the city.",
    color: "#862e9c",
    organizations: [ORGANIZATIONS.demo.id],
  },
  {
    id: "sport",
    name: "Sport & Outdoors",
    description: "Run clubs, canal swims, cycling tours and walks.",
    color: "#2b8a3e",
    organizations: [ORGANIZATIONS.demo.id],
  },
  {
    id: "city",
    name: "City Events",
    description: "Markets and festivals shared by the city's community partners.",
    color: "#c92a2a",
    organizations: [ORGANIZATIONS.demo.id, ORGANIZATIONS.other.id],
  },
  {
    id: "library",
    name: "Library Programme",
    description: "Story time, language cafés and author talks at Riverside Library.",
    color: "#e67700",
    organizations: [ORGANIZATIONS.other.id],
  },
] as const;

const cat = (id: string, name: string): WireCategory => ({ id, name });
export const CATEGORIES = {
  markets: cat("markets", "Markets"),
  sustainability: cat("sustainability", "Sustainability"),
  music: cat("music", "Music"),
  arts: cat("arts", "Arts"),
  sport: cat("sport", "Sport"),
  family: cat("family", "Family"),
  learning: cat("learning", "Learning"),
  technology: cat("technology", "Technology"),
  festivals: cat("festivals", "Festivals"),
  food: cat("food", "Food & Drink"),
  literature: cat("literature", "Literature"),
  nature: cat("nature", "Nature"),
} as const;

const place = (
  name: string,
  street: string,
  postalCode: string,
  locality: string,
  lat: number,
  lon: number,
): WireLocation => ({
  name,
  address: { street, locality, region: "Noord-Holland", postalCode, country: "NL" },
  geo: { lat, lon },
});

export const PLACES = {
  depijp: place(
    "Community Centre De Pijp",
    "Ferdinand Bolstraat 12",
    "1072 LJ",
    "Amsterdam",
    52.3547,
    4.8918,
  ),
  vondelpark: place(
    "Vondelpark Open-Air Theatre",
    "Vondelpark 5a",
    "1071 AA",
    "Amsterdam",
    52.3584,
    4.8676,
  ),
  boathouse: place("Amstel Boathouse", "Amsteldijk 200", "1079 LK", "Amsterdam", 52.3427, 4.905),
  oosterpark: place("Oosterpark Bandstand", "Oosterpark 1", "1092 AE", "Amsterdam", 52.3603, 4.92),
  westergas: place(
    "Westergas Culture Park",
    "Klönneplein 1",
    "1014 DD",
    "Amsterdam",
    52.3857,
    4.874,
  ),
  ndsm: place("NDSM Wharf", "NDSM-Plein 28", "1033 WB", "Amsterdam", 52.401, 4.891),
  museumplein: place("Museumplein", "Museumplein", "1071 DJ", "Amsterdam", 52.358, 4.882),
  library: place("Riverside Library", "Stadsplein 1", "1181 ZM", "Amstelveen", 52.303, 4.86),
  amstelpark: place("Amstelpark", "Europaboulevard 300", "1083 AD", "Amsterdam", 52.3302, 4.8937),
  // A place without coordinates: its page's directions go by its name and address.
  hoekje: {
    name: "Café 't Hoekje & Co",
    address: {
      street: "Van Woustraat 101",
      locality: "Amsterdam",
      region: "Noord-Holland",
      postalCode: "1074 AE",
      country: "NL",
    },
    geo: null,
  },
} as const;

const org = (name: string, email: string | null, url: string | null): WireOrganizer => ({
  name,
  email,
  url,
});
export const ORGANIZERS = {
  buurtwerk: org("Buurtwerk Zuid", "info@example.org", "https://example.org/buurtwerk"),
  arts: org("Amstel Arts Collective", "hello@example.org", "https://example.org/arts"),
  run: org("Run Amstel", null, "https://example.org/run-amstel"),
  city: org("City Events Office", "events@example.com", "https://example.com/events"),
  library: org("Riverside Library", "library@example.net", "https://example.net/library"),
} as const;
