"""The mail suite's harness: a real SMTP server on loopback (aiosmtpd, STARTTLS over a certificate made for this run
with `cryptography`, AUTH required after TLS) and the real `server` binary sending to it through SMTP_URL
(SQLite, or a fresh PostgreSQL database when DATABASE_URL is set).

Fixtures:
- `smtp`: the SMTP server; `.messages` what it accepted, `.data_replies` / `.rcpt_replies` replies to give instead
  of accepting (consumed one per attempt), `.attempts` DATA commands seen.
- `server`: one server per session sending to `smtp`, with fast retries (MAIL_RETRY_BASE_SECONDS=0.2, cap 1 s,
  MAIL_MAX_ATTEMPTS=3).
Helpers: `api_json`, `token`, `book_for_new_owner`, `outbox_rows`.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import email
import email.policy
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword
import ssl

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts" / "lib"))
from loopback_certificate import make_certificate  # noqa: E402
from local_server import (  # noqa: E402
    create_postgres_database, drop_postgres_database, free_port, is_postgres, start_server, stop_server)

SMTP_USER = "mailer"
SMTP_PASSWORD = "smtp-secret-" + uuid.uuid4().hex[:8]
DEMO_PRACTICE = "d0000000-0000-4000-8000-000000000001"


@dataclass
class Received:
    mail_from: str
    rcpt_tos: list[str]
    data: bytes
    tls: bool
    authenticated: bool

    @property
    def message(self) -> email.message.EmailMessage:
        return email.message_from_bytes(self.data, policy=email.policy.default)


@dataclass
class SMTPHandler:
    messages: list[Received] = field(default_factory=list)
    data_replies: list[str] = field(default_factory=list)
    rcpt_replies: dict[str, str] = field(default_factory=dict)
    attempts: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        reply = self.rcpt_replies.get(address)
        if reply:
            return reply
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            self.attempts.append(envelope.rcpt_tos[0])
            if self.data_replies:
                return self.data_replies.pop(0)
            self.messages.append(Received(envelope.mail_from, list(envelope.rcpt_tos), envelope.original_content
                                          or envelope.content, session.ssl is not None, bool(session.authenticated)))
        return "250 2.0.0 accepted"

    def wait_for(self, predicate, timeout: float = 30) -> list[Received]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                found = [m for m in self.messages if predicate(m)]
            if found:
                return found
            time.sleep(0.1)
        raise AssertionError("no such message arrived; got: " + repr([m.rcpt_tos for m in self.messages]))


def authenticator(server, session, envelope, mechanism, auth_data):
    ok = isinstance(auth_data, LoginPassword) and auth_data.login == SMTP_USER.encode() \
        and auth_data.password == SMTP_PASSWORD.encode()
    return AuthResult(success=ok)


@dataclass
class SMTPServer:
    handler: SMTPHandler
    port: int
    ca_file: Path


@pytest.fixture(scope="session")
def certificate():
    folder = Path(tempfile.mkdtemp(prefix="mail-suite-tls-"))
    try:
        yield make_certificate(folder, "smtp")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def tls_context(certificate) -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(*certificate)
    return context


@pytest.fixture(scope="session")
def smtp(certificate):
    """STARTTLS required, AUTH required after TLS (port 587's way)."""
    handler = SMTPHandler()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port, tls_context=tls_context(certificate),
                            require_starttls=True, auth_require_tls=True, auth_required=True,
                            authenticator=authenticator)
    controller.start()
    try:
        yield SMTPServer(handler=handler, port=port, ca_file=certificate[0])
    finally:
        controller.stop()


@contextlib.contextmanager
def implicit_tls_smtp(certificate):
    """TLS from the first byte (port 465's way), AUTH required."""
    handler = SMTPHandler()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port, ssl_context=tls_context(certificate),
                            server_hostname="localhost", auth_required=True,
                            # aiosmtpd only counts STARTTLS as TLS for this check; the socket here is TLS throughout.
                            auth_require_tls=False, authenticator=authenticator)
    controller.start()
    try:
        yield SMTPServer(handler=handler, port=port, ca_file=certificate[0])
    finally:
        controller.stop()


@dataclass
class Server:
    base: str
    data_dir: Path
    log: Path
    env: dict


def server_env(data_dir: Path, **extra: str) -> dict:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": os.environ.get("HOME", "/root"),
        "DATA_DIR": str(data_dir),
        "BCRYPT_COST": "4",
        "ADMIN_PASSWORD": "studio-admin-password-1",
        "LOG_LEVEL": "info",
        "TRANSCRIPTION_ENGINE": "off",
        "DISABLE_RATE_LIMITS": "true",
        "MAIL_POLL_SECONDS": "0.2",
        "MAIL_RETRY_BASE_SECONDS": "0.2",
        "MAIL_RETRY_MAX_SECONDS": "1",
        "MAIL_MAX_ATTEMPTS": "3",
        "MAIL_REMINDER_SCAN_SECONDS": "0.2",
    }
    env.update(extra)
    return env


def run_server(name: str, **extra: str):
    data_dir = Path(tempfile.mkdtemp(prefix=f"mail-{name}-"))
    env = server_env(data_dir, **extra)
    admin_url = os.environ.get("DATABASE_URL")
    database = None
    if is_postgres(admin_url):
        env["DATABASE_URL"], database = create_postgres_database(admin_url, f"mail_{name}")
    port = free_port()
    process = start_server(env, data_dir / "server.log", port)

    def finish():
        stop_server(process)
        if database:
            drop_postgres_database(admin_url, database)
        if os.environ.get("KEEP_MAIL_SUITE_DATA") != "1":
            shutil.rmtree(data_dir, ignore_errors=True)
    return Server(base=f"http://127.0.0.1:{port}", data_dir=data_dir, log=data_dir / "server.log", env=env), finish


@pytest.fixture(scope="session")
def server(smtp):
    srv, finish = run_server(
        "smtp", SMTP_URL=f"smtp://{SMTP_USER}:{SMTP_PASSWORD}@localhost:{smtp.port}",
        SMTP_TLS_CA_FILE=str(smtp.ca_file), MAIL_FROM="HelpPet Clinic <clinic@helppet.test>")
    try:
        yield srv
    finally:
        finish()


def api_json(base: str, method: str, path: str, token: str | None = None, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    if body is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            raw = response.read()
            return response.status, (json.loads(raw) if raw else None)
    except urllib.error.HTTPError as error:
        raw = error.read()
        return error.code, (json.loads(raw) if raw else None)


def token(base: str, username: str = "vet1", password: str = "password123") -> str:
    status, body = api_json(base, "POST", "/api/v1/auth/token", body={"username": username, "password": password})
    assert status == 200, body
    return body["access_token"]


def book_for_new_owner(base: str, vet_token: str, email_address: str, first_name: str = "Zoë",
                       last_name: str = "Müller", pets: tuple[str, ...] = ("Bello",), start: str | None = None,
                       **owner_fields) -> dict:
    """A new owner of the demo practice with `pets`, and an appointment for them; returns the appointment."""
    status, owner = api_json(base, "POST", "/api/v1/pet-owners", vet_token, {
        "first_name": first_name, "last_name": last_name, "email": email_address, **owner_fields})
    assert status == 201, owner
    pet_ids = []
    for pet in pets:
        status, body = api_json(base, "POST", "/api/v1/pets", vet_token,
                                {"name": pet, "species": "dog", "owner_id": owner["id"]})
        assert status == 201, body
        pet_ids.append(body["id"])
    when = start or (dt.datetime.now(dt.timezone.utc) + dt.timedelta(days=3)).replace(
        hour=17, minute=0, second=0, microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")
    status, appointment = api_json(base, "POST", "/api/v1/appointments", vet_token, {
        "practice_id": DEMO_PRACTICE, "pet_owner_id": owner["id"], "pet_ids": pet_ids, "appointment_date": when,
        "duration_minutes": 30, "title": "Annual checkup"})
    assert status == 201, appointment
    return appointment


def outbox_rows(srv: Server, recipient: str) -> list[dict]:
    """The outbox rows for `recipient`, read straight from the server's database."""
    query = ("SELECT status, attempts, last_error, ics_sequence, kind, message_id FROM mail_outbox "
             f"WHERE recipient = '{recipient}' ORDER BY created_at")
    url = srv.env.get("DATABASE_URL")
    columns = ["status", "attempts", "last_error", "ics_sequence", "kind", "message_id"]
    if is_postgres(url):
        out = subprocess.run(["psql", url, "-At", "-F", "\t", "-c", query], check=True, capture_output=True,
                             text=True).stdout
        return [dict(zip(columns, line.split("\t"))) for line in out.splitlines() if line]
    with sqlite3.connect(srv.data_dir / "app.sqlite") as db:
        return [dict(zip(columns, row)) for row in db.execute(query).fetchall()]


def backdate_booking(srv: Server, appointment_id: str, days: int) -> None:
    """Makes the appointment look booked `days` ago (created_at), as if the owner had booked it in advance."""
    url = srv.env.get("DATABASE_URL")
    if is_postgres(url):
        subprocess.run(["psql", url, "-q", "-c", f"UPDATE appointments SET created_at = created_at - interval '{days} days' "
                        f"WHERE id = '{appointment_id}'"], check=True)
        return
    with sqlite3.connect(srv.data_dir / "app.sqlite") as db:
        # SQLite keeps instants as seconds since 1970 (REAL).
        changed = db.execute("UPDATE appointments SET created_at = created_at - ? WHERE lower(id) = ?",
                             (days * 86400, appointment_id.lower())).rowcount
        assert changed == 1, "the appointment was not found"


def wait_until(predicate, timeout: float = 30, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


@contextlib.contextmanager
def plain_smtp():
    """No TLS at all, no AUTH: a local relay on loopback."""
    handler = SMTPHandler()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield SMTPServer(handler=handler, port=port, ca_file=Path("/nonexistent"))
    finally:
        controller.stop()
