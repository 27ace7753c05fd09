"""The push suite's harness: an APNs stand-in (apns_standin.py: hypercorn, TLS with a certificate made for this run,
HTTP/2 only) that verifies the provider token against the public half of a P-256 key made for this run, and the real
`server` binary pushing to it (APNS_BASE_URL, APNS_TLS_CA_FILE) on SQLite, or a fresh PostgreSQL database when
DATABASE_URL is set.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from apns_standin import APNsStandIn, Running

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts" / "lib"))
from loopback_certificate import make_certificate  # noqa: E402
from local_server import (  # noqa: E402
    create_postgres_database, drop_postgres_database, free_port, is_postgres, start_server, stop_server)

DEMO_PRACTICE = "d0000000-0000-4000-8000-000000000001"
VET1 = "d1000000-0000-4000-8000-000000000002"
KEY_ID = "PUSHKEY123"
TEAM_ID = "TEAMHP4567"
TOPIC = "com.helppet.test"


@dataclass
class Server:
    base: str
    data_dir: Path
    env: dict


@pytest.fixture(scope="session")
def folder():
    path = Path(tempfile.mkdtemp(prefix="push-suite-"))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="session")
def signing_key(folder):
    """The provider's `.p8` key (PKCS#8 PEM, P-256), made for this run."""
    key = ec.generate_private_key(ec.SECP256R1())
    path = folder / f"AuthKey_{KEY_ID}.p8"
    path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                       serialization.NoEncryption()))
    return key, path


@pytest.fixture(scope="session")
def apns(folder, signing_key):
    cert, key = make_certificate(folder, "apns")
    app = APNsStandIn(public_key=signing_key[0].public_key(), key_id=KEY_ID, team_id=TEAM_ID, topic=TOPIC)
    port = free_port()
    running = Running(app, port, str(cert), str(key))
    running.start()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError:
            time.sleep(0.05)
    app.port, app.ca_file = port, cert
    try:
        yield app
    finally:
        running.stop()


@contextlib.contextmanager
def running_server(apns, signing_key, folder: Path, name: str, **overrides: str):
    """`server serve` pushing to the stand-in, on a data folder (and, on PostgreSQL, a database) of its own."""
    data_dir = folder / name
    data_dir.mkdir()
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": os.environ.get("HOME", "/root"),
        "DATA_DIR": str(data_dir),
        "BCRYPT_COST": "4",
        "ADMIN_PASSWORD": "studio-admin-password-1",
        "LOG_LEVEL": "info",
        "TRANSCRIPTION_ENGINE": "off",
        "DISABLE_RATE_LIMITS": "true",
        "APNS_KEY_PATH": str(signing_key[1]),
        "APNS_KEY_ID": KEY_ID,
        "APNS_TEAM_ID": TEAM_ID,
        "APNS_TOPIC": TOPIC,
        "APNS_BASE_URL": f"https://localhost:{apns.port}",
        "APNS_TLS_CA_FILE": str(apns.ca_file),
        "PUSH_POLL_SECONDS": "0.2",
        "PUSH_RETRY_BASE_SECONDS": "0.2",
        "PUSH_RETRY_MAX_SECONDS": "1",
        "PUSH_MAX_ATTEMPTS": "4",
        # The demo's appointments are today's: a reminder of one of them would reach the devices the tests register
        # at a moment nobody chose. Only the reminder test's own server turns reminders on.
        "PUSH_REMINDER_MINUTES": "0",
        **overrides,
    }
    admin_url = os.environ.get("DATABASE_URL")
    database = None
    if is_postgres(admin_url):
        env["DATABASE_URL"], database = create_postgres_database(admin_url, f"push_{name}")
    port = free_port()
    process = start_server(env, data_dir / "server.log", port)
    try:
        yield Server(base=f"http://127.0.0.1:{port}", data_dir=data_dir, env=env)
    finally:
        stop_server(process)
        if database:
            drop_postgres_database(admin_url, database)


@pytest.fixture(scope="session")
def server(apns, signing_key, folder):
    with running_server(apns, signing_key, folder, "data") as srv:
        yield srv


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


def token(base: str, username: str, password: str) -> str:
    status, body = api_json(base, "POST", "/api/v1/auth/token", body={"username": username, "password": password})
    assert status == 200, body
    return body["access_token"]


def new_device_token() -> str:
    return uuid.uuid4().hex + uuid.uuid4().hex


def register_device(base: str, vet_token: str) -> str:
    device = new_device_token()
    status, body = api_json(base, "POST", "/api/v1/device-tokens/register", vet_token, {"device_token": device})
    assert status == 200, body
    return device


def book_for_vet1(base: str, admin_token: str, pet_name: str, when: str | None = None) -> dict:
    """A new owner and pet of the demo practice, and an appointment the admin books for vet1 (in two days at 16:00
    UTC unless `when` says otherwise)."""
    status, owner = api_json(base, "POST", "/api/v1/pet-owners", admin_token, {
        "first_name": "Ada", "last_name": "Lovelace", "email": f"ada-{uuid.uuid4().hex[:8]}@example.org",
        "practice_id": DEMO_PRACTICE})
    assert status == 201, owner
    status, pet = api_json(base, "POST", "/api/v1/pets", admin_token,
                           {"name": pet_name, "species": "cat", "owner_id": owner["id"]})
    assert status == 201, pet
    when = when or (dt.datetime.now(dt.timezone.utc) + dt.timedelta(days=2)).replace(
        hour=16, minute=0, second=0, microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")
    status, appointment = api_json(base, "POST", "/api/v1/appointments", admin_token, {
        "practice_id": DEMO_PRACTICE, "pet_owner_id": owner["id"], "pet_ids": [pet["id"]], "appointment_date": when,
        "duration_minutes": 30, "title": "Dental check", "assigned_vet_user_id": VET1})
    assert status == 201, appointment
    return appointment


def query(srv: Server, sql: str) -> list[tuple]:
    url = srv.env.get("DATABASE_URL")
    if is_postgres(url):
        out = subprocess.run(["psql", url, "-At", "-F", "\t", "-c", sql], check=True, capture_output=True,
                             text=True).stdout
        return [tuple(line.split("\t")) for line in out.splitlines() if line]
    with sqlite3.connect(srv.data_dir / "app.sqlite") as db:
        return [tuple(str(v) if v is not None else "" for v in row) for row in db.execute(sql).fetchall()]


def wait_until(predicate, timeout: float = 20, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")
