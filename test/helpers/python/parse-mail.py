"""Read mail messages with Python's email package; print JSON for the tests.

Usage: /usr/bin/python3 parse-mail.py FILE...

Each message as the standard library reads it (policy=default, RFC 5322 and
MIME): its headers, decoded, and its leaf parts with their types, charsets
and decoded contents.
"""
import email
import email.policy
import json
import sys


def describe(path):
    with open(path, "rb") as handle:
        message = email.message_from_bytes(handle.read(), policy=email.policy.default)
    headers = {}
    for name, value in message.items():
        headers.setdefault(name.lower(), []).append(str(value))
    parts = [
        {
            "type": part.get_content_type(),
            "charset": part.get_content_charset(),
            "content": part.get_content(),
        }
        for part in message.walk()
        if not part.is_multipart()
    ]
    return {
        "path": path,
        "type": message.get_content_type(),
        "defects": [str(defect) for defect in message.defects],
        "headers": headers,
        "parts": parts,
    }


print(json.dumps([describe(path) for path in sys.argv[1:]]))
