"""Parse feeds with feedparser and a strict XML parser; print JSON for the tests.

Usage: /usr/bin/python3 parse-feeds.py FILE...
"""
import json
import sys
import time
import xml.etree.ElementTree as ET

import feedparser


def when(parsed):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", parsed) if parsed else None


def describe(path):
    with open(path, "rb") as handle:
        data = handle.read()
    result = {"path": path}
    description = None
    try:
        root = ET.fromstring(data)
        result["wellFormed"] = True
        # The text a strict XML parser gives: RSS's channel description, Atom's subtitle.
        element = root.find("channel/description")
        if element is None:
            element = root.find("{http://www.w3.org/2005/Atom}subtitle")
        description = None if element is None else element.text or ""
    except ET.ParseError as error:
        result["wellFormed"] = False
        result["xmlError"] = str(error)
    parsed = feedparser.parse(data)
    result["bozo"] = bool(parsed.bozo)
    result["bozoException"] = str(parsed.get("bozo_exception", ""))
    result["version"] = parsed.version
    feed = parsed.feed
    result["feed"] = {
        "title": feed.get("title"),
        "link": feed.get("link"),
        "updated": when(feed.get("updated_parsed")),
        "subtitle": feed.get("subtitle"),
        "description": description,
        "links": [
            {"rel": link.get("rel"), "href": link.get("href"), "type": link.get("type")}
            for link in feed.get("links", [])
        ],
    }
    result["entries"] = [
        {
            "title": entry.get("title"),
            "titleType": entry.get("title_detail", {}).get("type"),
            "link": entry.get("link"),
            "id": entry.get("id"),
            "guidIsLink": entry.get("guidislink"),
            "published": when(entry.get("published_parsed")),
            "updated": when(entry.get("updated_parsed")),
            "tags": [tag.get("label") or tag.get("term") for tag in entry.get("tags", [])],
            "enclosures": [
                {"href": enclosure.get("href"), "type": enclosure.get("type")}
                for enclosure in entry.get("enclosures", [])
            ],
            "content": " ".join(part.value for part in entry.get("content", [])),
        }
        for entry in parsed.entries
    ]
    return result


print(json.dumps([describe(path) for path in sys.argv[1:]]))
