"""Parse .ics files with Python's icalendar; print JSON for the tests.

Usage: /usr/bin/python3 parse-ics.py FILE...
"""
import json
import sys
from datetime import date, datetime, timezone

from icalendar import Calendar


def value(prop):
    if prop is None:
        return None
    moment = prop.dt
    if isinstance(moment, datetime):
        if moment.tzinfo is None:
            return {"floating": moment.isoformat()}
        utc = moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        return {"utc": utc, "tzid": prop.params.get("TZID")}
    if isinstance(moment, date):
        return {"date": moment.isoformat()}
    return {"other": str(moment)}


def organizer(prop):
    if prop is None:
        return None
    return {"address": str(prop), "cn": prop.params.get("CN")}


def describe(path):
    with open(path, "rb") as handle:
        calendar = Calendar.from_ical(handle.read())
    errors = [str(error) for component in calendar.walk() for error in component.errors]
    return {
        "path": path,
        "errors": errors,
        "properties": sorted(calendar.keys()),
        "name": str(calendar.get("NAME")) if calendar.get("NAME") else None,
        "timezones": [str(tz.get("TZID")) for tz in calendar.walk("VTIMEZONE")],
        "events": [
            {
                "uid": str(event.get("UID")),
                "summary": str(event.get("SUMMARY")),
                "sequence": int(event.get("SEQUENCE")),
                "status": str(event.get("STATUS")),
                "start": value(event.get("DTSTART")),
                "end": value(event.get("DTEND")),
                "stamp": value(event.get("DTSTAMP")),
                "url": str(event.get("URL")) if event.get("URL") else None,
                "organizer": organizer(event.get("ORGANIZER")),
            }
            for event in calendar.walk("VEVENT")
        ],
    }


print(json.dumps([describe(path) for path in sys.argv[1:]]))
