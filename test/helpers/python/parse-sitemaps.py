"""Parse sitemap files with Python's strict XML parser; print JSON for the tests.

Usage: /usr/bin/python3 parse-sitemaps.py FILE...
"""
import json
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
XHTML = "{http://www.w3.org/1999/xhtml}"


def item_of(item):
    found = {"loc": item.findtext(NS + "loc"), "lastmod": item.findtext(NS + "lastmod")}
    # Google's hreflang alternates (xhtml:link), where a URL has any.
    links = [
        {"rel": link.get("rel"), "hreflang": link.get("hreflang"), "href": link.get("href")}
        for link in item.findall(XHTML + "link")
    ]
    if links:
        found["alternates"] = links
    return found


def describe(path):
    root = ET.parse(path).getroot()
    kind = root.tag.replace(NS, "")
    child = "url" if kind == "urlset" else "sitemap"
    items = [item_of(item) for item in root.findall(NS + child)]
    return {"kind": kind, "items": items}


print(json.dumps({path: describe(path) for path in sys.argv[1:]}))
