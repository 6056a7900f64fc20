"""An SMTP server on 127.0.0.1 that keeps every message it is given, for the tests.

Usage: /usr/bin/python3 smtp-sink.py FOLDER [USER PASSWORD]

Debian's aiosmtpd (python3-aiosmtpd). With USER and PASSWORD it offers AUTH
(PLAIN, LOGIN) over the plain connection, as a relay on this machine may, and
accepts only those credentials. Each message is saved as FOLDER/<n>.eml (its
bytes as received) with FOLDER/<n>.json (the envelope and who logged in).
Prints "PORT <n>" once it listens; stops when its standard input closes, or
after two minutes at most.
"""
import json
import warnings
import os
import select
import socket
import sys
import time

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult

folder = sys.argv[1]
user = sys.argv[2] if len(sys.argv) > 3 else None
password = sys.argv[3] if len(sys.argv) > 3 else None


def authenticate(server, session, envelope, mechanism, auth_data):
    login = getattr(auth_data, "login", b"") or b""
    secret = getattr(auth_data, "password", b"") or b""
    ok = user is not None and login.decode() == user and secret.decode() == password
    return AuthResult(success=ok, handled=False, auth_data=auth_data if ok else None)


class Keep:
    def __init__(self):
        self.count = 0

    async def handle_DATA(self, server, session, envelope):
        self.count += 1
        base = os.path.join(folder, str(self.count))
        with open(base + ".eml", "wb") as handle:
            handle.write(envelope.original_content or envelope.content)
        login = getattr(getattr(session, "auth_data", None), "login", None)
        with open(base + ".json", "w") as handle:
            json.dump(
                {
                    "mailFrom": envelope.mail_from,
                    "rcptTos": envelope.rcpt_tos,
                    "login": login.decode() if isinstance(login, bytes) else login,
                },
                handle,
            )
        return "250 OK"


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# AUTH over a plain connection on loopback is what the tests mean to exercise.
warnings.filterwarnings("ignore", message="Requiring AUTH while not requiring TLS")
port = free_port()
options = {"auth_require_tls": False}
if user is not None:
    options.update(authenticator=authenticate, auth_required=True)
controller = Controller(Keep(), hostname="127.0.0.1", port=port, **options)
controller.start()
print(f"PORT {port}", flush=True)
deadline = time.monotonic() + 120
try:
    while time.monotonic() < deadline:
        ready, _, _ = select.select([sys.stdin], [], [], 1)
        if ready and not sys.stdin.read(1):
            break
finally:
    controller.stop()
