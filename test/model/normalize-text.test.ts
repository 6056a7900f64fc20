import { describe, expect, it } from "vitest";
import { EMPTY_FIELD_MAP } from "../../src/model/field-map.ts";
import { normalizeCalendar } from "../../src/model/normalize-calendar.ts";
import type { CalendarEvent } from "../../src/model/types.ts";
import type { WireRecord } from "../../src/model/wire.ts";
import { normalizedEvent } from "../helpers/normalized-event.ts";

/*
 * Portals often HTML-encode their plain-text fields. The normalizer decodes
 * every character reference HTML knows, once, so the domain model holds the
 * text a reader sees; outputs escape it again each in their own way. The
 * expected texts are written out by hand.
 */

const options = { fieldMap: EMPTY_FIELD_MAP, defaultTimeZone: "Europe/Amsterdam" };
const calendar = { id: "cafe", timeZone: "Europe/Amsterdam" };

const record: WireRecord = {
  id: "e1",
  calendarId: "cafe",
  title: "Caf&eacute; &amp; Jazz",
  start: "2026-03-29T20:00:00+02:00",
  end: "2026-03-29T22:00:00+02:00",
  timeZone: "Europe/Amsterdam",
  status: "scheduled",
};

const event = (details: WireRecord): CalendarEvent =>
  normalizedEvent(record, { calendar, details: { ...record, ...details } });

describe("character references in plain-text fields", () => {
  it("should decode named, numeric and hexadecimal references in every text field of an event", () => {
    const decoded = event({
      summary: "&Eacute;t&eacute; &hellip; in the caf&eacute;&#8217;s garden",
      location: {
        name: "Caf&eacute; de l&#x2019;Op&eacute;ra",
        address: {
          street: "Rue de l&#8217;&Eacute;glise 4",
          locality: "Li&egrave;ge",
          region: "Wallonie &amp; Bruxelles",
          postalCode: "4000",
          country: "BE",
        },
      },
      image: { url: "https://media.example.org/cafe.jpg", alt: "The caf&eacute;&hellip;" },
      categories: [{ id: "chanson", name: "Chanson fran&ccedil;aise" }, "Th&eacute;&acirc;tre"],
      organizer: { name: "&Eacute;quipe Caf&eacute;" },
    });
    expect(decoded.title).toBe("Café & Jazz");
    expect(decoded.summary).toBe("Été … in the café’s garden");
    expect(decoded.location).toEqual({
      name: "Café de l’Opéra",
      address: {
        street: "Rue de l’Église 4",
        locality: "Liège",
        region: "Wallonie & Bruxelles",
        postalCode: "4000",
        country: "BE",
        formatted: "Rue de l’Église 4, 4000 Liège, Wallonie & Bruxelles, BE",
      },
      geo: null,
    });
    expect(decoded.image?.alt).toBe("The café…");
    // A category without an id is named by a slug of its decoded name.
    expect(decoded.categories).toEqual([
      { id: "chanson", name: "Chanson française" },
      { id: "theatre", name: "Théâtre" },
    ]);
    expect(decoded.organizer?.name).toBe("Équipe Café");
  });

  it("should decode places and addresses given as one string", () => {
    const decoded = event({ location: "Caf&eacute; Bleu" });
    expect(decoded.location?.name).toBe("Café Bleu");
    const withAddress = event({
      location: { name: "Hall", address: "Place de l&#8217;&Eacute;toile, Paris" },
    });
    expect(withAddress.location?.address?.formatted).toBe("Place de l’Étoile, Paris");
  });

  it("should decode once: an encoded reference is the text of that reference", () => {
    const decoded = event({
      title: "Writing &amp;lt;b&amp;gt; and &amp;eacute; in HTML",
      summary: "&amp;amp; is an ampersand",
    });
    expect(decoded.title).toBe("Writing &lt;b&gt; and &eacute; in HTML");
    expect(decoded.summary).toBe("&amp; is an ampersand");
  });

  it("should keep an ampersand that does not start a complete reference", () => {
    const decoded = event({ title: "Q&A: Sales&regal, AT&T &copy 2026 & more" });
    expect(decoded.title).toBe("Q&A: Sales&regal, AT&T &copy 2026 & more");
  });

  it("should compare the summary with the title after decoding", () => {
    expect(event({ summary: "Caf&#233; &#38; Jazz" }).summary).toBe("");
  });

  it("should decode a calendar's name and description", () => {
    const result = normalizeCalendar(
      {
        id: "cafe",
        name: "&Eacute;v&eacute;nements du Caf&eacute;",
        description: "Concerts &amp; talks&hellip; write &amp;lt;3 to us",
      },
      options,
    );
    expect(result.ok && result.value.name).toBe("Événements du Café");
    expect(result.ok && result.value.description).toBe("Concerts & talks… write &lt;3 to us");
  });
});

describe("character references in descriptions", () => {
  const html =
    "<p>Doors open at 8&hellip; L&#8217;entr&eacute;e est libre.</p><p>Write &amp;lt;b&amp;gt; for bold &amp; &Eacute;t&eacute;.</p>";

  it("should keep an HTML description's characters in its HTML, references decoded", () => {
    expect(event({ description: html }).descriptionHtml).toBe(
      "<p>Doors open at 8… L’entrée est libre.</p><p>Write &amp;lt;b&amp;gt; for bold &amp; Été.</p>",
    );
  });

  it.each([
    [
      "an HTML description, decoded once",
      html,
      "Doors open at 8… L’entrée est libre.\n\nWrite &lt;b&gt; for bold & Été.",
    ],
    ["a plain-text description's references", "Caf&eacute; regulars", "Café regulars"],
    ["a reference whose name has digits", "Half &frac12; price", "Half ½ price"],
    [
      "a link's URL, decoded once",
      '<p><a href="https://tickets.example.org/?a=1&amp;copy=2">Tickets</a> <a href="https://example.org/?q=&amp;lt;">https://example.org/?q=&amp;lt;</a></p>',
      "Tickets (https://tickets.example.org/?a=1&copy=2) https://example.org/?q=&lt;",
    ],
  ])("should write %s into the text", (_what, description, text) => {
    expect(event({ description }).descriptionText).toBe(text);
  });
});
