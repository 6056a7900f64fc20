/**
 * A small output tree shaped like what the build writes (one of each kind of
 * file), for tests of deploy rules that need no full build (the framing test
 * in a browser). Write it with writeTree() (files.ts).
 */
export const REPRESENTATIVE_FILES: Readonly<Record<string, string>> = {
  "index.html": page("Events"),
  "404.html": page("Not found"),
  "feed.xml": '<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel/></rss>',
  "atom.xml": '<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"/>',
  "feed.json": '{"version":"https://jsonfeed.org/version/1","title":"Events","items":[]}',
  "calendar.ics": "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nEND:VCALENDAR\r\n",
  "embed.js": "/* widget loader */",
  "assets/site.css": "body{margin:0}",
  "subscribe/index.html": page("Subscribe"),
  "calendars/index.html": page("Calendars"),
  "calendars/x/index.html": page("Calendar x"),
  "calendars/x/feed.xml": '<?xml version="1.0"?><rss version="2.0"><channel/></rss>',
  "calendars/x/atom.xml": '<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"/>',
  "calendars/x/feed.json": '{"version":"https://jsonfeed.org/version/1","items":[]}',
  "calendars/x/calendar.ics": "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n",
  "calendars/x/events/y/index.html": page("Event y"),
  "calendars/x/events/y/event.ics": "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n",
  "categories/c/index.html": page("Category c"),
  "categories/c/calendar.ics": "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n",
  "embed/index.html": page("Embedding guide"),
  "embed/x/index.html": page("Widget x"),
  "api/manifest.json": '{"version":1,"calendars":[],"totals":{"calendars":0,"events":0}}',
  "api/calendars.json": '{"version":1,"calendars":[]}',
  "api/calendars/x/events.json": '{"version":1,"events":[]}',
  "oembed/x.json": '{"version":"1.0","type":"rich"}',
};

function page(title: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1></body></html>`;
}

/** The URL people use for a file: folders for index.html, the file path otherwise. */
export function urlPathOf(file: string): string {
  if (file === "index.html") return "/";
  if (file.endsWith("/index.html")) return `/${file.slice(0, -"index.html".length)}`;
  return `/${file}`;
}
