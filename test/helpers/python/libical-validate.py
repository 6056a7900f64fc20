"""Validate .ics files with libical, as its icalvalidate does; print JSON for the tests.

Debian ships libical (libical3) but not its icalvalidate tool, so this runs
the same two calls through ctypes: parse the file, then
icalrestriction_check(), which applies RFC 5545's and RFC 5546's rules for
the calendar's METHOD (for PUBLISH: one ORGANIZER per VEVENT, and so on) and
records each failure as an X-LIC-ERROR property; parse errors are recorded
the same way. Prints {path: [error, ...]}, no errors for a valid file.

Usage: /usr/bin/python3 libical-validate.py FILE...
"""
import ctypes
import json
import sys

lib = ctypes.CDLL("libical.so.3")
for name, restype, argtypes in [
    ("icalparser_parse_string", ctypes.c_void_p, [ctypes.c_char_p]),
    ("icalrestriction_check", ctypes.c_int, [ctypes.c_void_p]),
    ("icalcomponent_get_first_property", ctypes.c_void_p, [ctypes.c_void_p, ctypes.c_int]),
    ("icalcomponent_get_next_property", ctypes.c_void_p, [ctypes.c_void_p, ctypes.c_int]),
    ("icalcomponent_get_first_component", ctypes.c_void_p, [ctypes.c_void_p, ctypes.c_int]),
    ("icalcomponent_get_next_component", ctypes.c_void_p, [ctypes.c_void_p, ctypes.c_int]),
    ("icalproperty_get_xlicerror", ctypes.c_char_p, [ctypes.c_void_p]),
    ("icalcomponent_free", None, [ctypes.c_void_p]),
    ("icalproperty_string_to_kind", ctypes.c_int, [ctypes.c_char_p]),
    ("icalcomponent_string_to_kind", ctypes.c_int, [ctypes.c_char_p]),
]:
    function = getattr(lib, name)
    function.restype = restype
    function.argtypes = argtypes

X_LIC_ERROR = lib.icalproperty_string_to_kind(b"X-LIC-ERROR")
ANY_COMPONENT = lib.icalcomponent_string_to_kind(b"ANY")


def errors_of(component, errors):
    prop = lib.icalcomponent_get_first_property(component, X_LIC_ERROR)
    while prop:
        errors.append(lib.icalproperty_get_xlicerror(prop).decode("utf-8", "replace"))
        prop = lib.icalcomponent_get_next_property(component, X_LIC_ERROR)
    child = lib.icalcomponent_get_first_component(component, ANY_COMPONENT)
    while child:
        errors_of(child, errors)
        child = lib.icalcomponent_get_next_component(component, ANY_COMPONENT)
    return errors


def validate(path):
    with open(path, "rb") as handle:
        component = lib.icalparser_parse_string(handle.read())
    if not component:
        return ["libical could not parse the file"]
    try:
        lib.icalrestriction_check(component)
        return errors_of(component, [])
    finally:
        lib.icalcomponent_free(component)


print(json.dumps({path: validate(path) for path in sys.argv[1:]}))
