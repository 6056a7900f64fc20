"""Read what a reader sees in built pages and feeds; print JSON for the tests.

Pages (.html) are read with Python's HTML parser, which decodes character
references as browsers do: the document's title, its h1 headings, the text
of the whole body (without scripts, styles and code samples), the code
samples (<pre>) and the JSON-LD blocks.
Feeds (.xml) are read with feedparser, and with a strict XML parser for the
character data of every title, description and category element. Titles
and content that feedparser reports as HTML are turned into their text.
JSON Feeds (.json) give each item's title and the text of its content_html.

Usage: /usr/bin/python3 read-text.py FILE...
"""
import json
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

SKIPPED = {"script", "style", "template"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class TextReader(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []
        self.body = []
        self.title = []
        self.h1 = []
        self.code = []
        self.jsonld = []
        self.in_jsonld = False

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            # Line breaks and rules separate words as they do on screen.
            self.body.append(" ")
            return
        self.stack.append(tag)
        if tag == "h1":
            self.h1.append("")
        if tag == "pre":
            self.code.append("")
        if tag == "script" and dict(attrs).get("type") == "application/ld+json":
            self.in_jsonld = True
            self.jsonld.append("")
        # Every tag boundary separates words: no text these tests read is split
        # inside a word, and it spares knowing which elements are inline.
        self.body.append(" ")

    def handle_endtag(self, tag):
        if tag in self.stack:
            while self.stack and self.stack.pop() != tag:
                pass
        if tag == "script":
            self.in_jsonld = False
        self.body.append(" ")

    def handle_data(self, data):
        if self.in_jsonld:
            self.jsonld[-1] += data
            return
        if any(tag in SKIPPED for tag in self.stack):
            return
        if "title" in self.stack and "svg" not in self.stack and "head" in self.stack:
            self.title.append(data)
        if "h1" in self.stack:
            self.h1[-1] += data
        if "pre" in self.stack:
            # Code to copy (embed snippets) is HTML source, not text to read.
            self.code[-1] += data
            return
        if "body" in self.stack:
            self.body.append(data)


def squeeze(text):
    return " ".join(text.split())


def html_text(html):
    reader = TextReader()
    reader.feed("<body>" + html + "</body>")
    reader.close()
    return squeeze("".join(reader.body))


def read_page(path):
    reader = TextReader()
    with open(path, encoding="utf-8") as handle:
        reader.feed(handle.read())
    reader.close()
    return {
        "title": squeeze("".join(reader.title)),
        "h1": [squeeze(text) for text in reader.h1],
        "text": squeeze("".join(reader.body)),
        "code": reader.code,
        "jsonld": reader.jsonld,
    }


def detail_text(detail, value):
    """The text a reader sees: HTML turned into text, anything else as it is."""
    kind = (detail or {}).get("type")
    return html_text(value or "") if kind in ("text/html", "application/xhtml+xml") else value


def read_feed(path):
    # Imported here: pages are read without python3-feedparser.
    import feedparser

    with open(path, "rb") as handle:
        data = handle.read()
    root = ET.fromstring(data)
    character_data = {"title": [], "description": [], "category": []}
    for element in root.iter():
        name = element.tag.split("}")[-1]
        if name in ("title", "subtitle"):
            character_data["title"].append(element.text or "")
        elif name in ("description", "summary"):
            character_data["description"].append(element.text or "")
        elif name == "category":
            character_data["category"].append(element.get("label") or element.text or "")
    parsed = feedparser.parse(data)
    feed = parsed.feed
    return {
        "bozo": bool(parsed.bozo),
        "version": parsed.version,
        "xml": character_data,
        "feed": {
            "title": detail_text(feed.get("title_detail"), feed.get("title")),
            "subtitle": detail_text(feed.get("subtitle_detail"), feed.get("subtitle")),
        },
        "entries": [
            {
                "title": detail_text(entry.get("title_detail"), entry.get("title")),
                "titleType": entry.get("title_detail", {}).get("type"),
                "tags": [tag.get("label") or tag.get("term") for tag in entry.get("tags", [])],
                "content": " ".join(
                    detail_text(part, part.value) for part in entry.get("content", [])
                ),
            }
            for entry in parsed.entries
        ],
    }


def read_json_feed(path):
    with open(path, encoding="utf-8") as handle:
        feed = json.load(handle)
    return {
        "title": feed.get("title"),
        "description": feed.get("description"),
        "items": [
            {
                "title": item.get("title"),
                "tags": item.get("tags", []),
                "content": html_text(item.get("content_html", "")),
            }
            for item in feed.get("items", [])
        ],
    }


def read(path):
    if path.endswith(".html"):
        return read_page(path)
    if path.endswith(".json"):
        return read_json_feed(path)
    return read_feed(path)


print(json.dumps({path: read(path) for path in sys.argv[1:]}))
