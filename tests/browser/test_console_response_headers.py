"""Every console response carries the same headers as a full page: the security set, and `no-store` unless it is a
public asset. Walks every console route the server registers (`server routes`), signed in and signed out, with
real and unknown ids, and the day board's 304."""

from __future__ import annotations

import pytest
import os
import re
import subprocess
import tempfile
import uuid

from clinic_http import ConsoleClient
from conftest import ROOT, STUDIO_ADMIN_PASSWORD

pytestmark = pytest.mark.database_free

SERVER = os.environ.get("SERVER_BINARY", str(ROOT / ".build" / "debug" / "server"))
BELLA = "d3000000-0000-4000-8000-000000000001"
SECURITY = {
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
}


def console_routes(mount: str) -> list[tuple[str, str]]:
    """(method, path) of every route under `mount`, as the server lists them (`server routes`)."""
    with tempfile.TemporaryDirectory(prefix="routes-") as data_dir:
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "DATA_DIR": data_dir, "LOG_LEVEL": "error"}
        listing = subprocess.run([SERVER, "routes"], env=env, capture_output=True, text=True, timeout=120, check=True)
    routes = []
    for line in listing.stdout.splitlines():
        match = re.match(r"\|\s*(GET|POST|PUT|PATCH|DELETE|HEAD)\s*\|\s*(\S+)\s*\|", line)
        if match and (match.group(2) == mount or match.group(2).startswith(mount + "/")):
            routes.append((match.group(1), match.group(2)))
    assert len(routes) > 10, listing.stdout[:2000]
    return routes


def concrete(path: str, ids: dict[str, str]) -> str:
    """The route's path with each `:name` replaced by a real id where the demo has one, else a random UUID."""
    parts = []
    for part in path.split("/"):
        if part.startswith(":"):
            parts.append(ids.get(part[1:], str(uuid.uuid4())))
        elif part == "**":
            parts.append("no-such-page")
        else:
            parts.append(part)
    return "/".join(parts)


def check(headers: dict, where: str) -> None:
    lowered = {name.lower(): value for name, value in headers.items()}
    for name, value in SECURITY.items():
        assert lowered.get(name) == value, f"{where}: {name} is {lowered.get(name)!r}"
    policy = lowered.get("content-security-policy", "")
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy, f"{where}: CSP {policy!r}"
    cache = lowered.get("cache-control", "")
    if "public" not in cache:
        assert cache == "no-store", f"{where}: Cache-Control {cache!r}"


def walk(client: ConsoleClient, mount: str, ids: dict[str, str]) -> int:
    checked = 0
    for method, path in console_routes(mount):
        target = concrete(path, ids)
        status, headers, _ = client.request(method, target, b"" if method != "GET" else None)
        check(headers, f"{method} {target} ({status})")
        checked += 1
    return checked


def test_every_clinic_response_has_the_page_headers(server):
    signed_out = ConsoleClient(server.base)
    walk(signed_out, "/clinic", {})
    clinic = ConsoleClient(server.base)
    clinic.sign_in("admin", "admin123")
    _, _, board = clinic.request("GET", "/clinic/")
    appointment = re.search(r'/clinic/appointments/([0-9a-f-]{36})', board).group(1)
    ids = {"appointment_id": appointment, "pet_id": BELLA, "owner_id": "d2000000-0000-4000-8000-000000000001"}
    assert walk(clinic, "/clinic", ids) > 20

    # The board's fragment and its 304 (the poll), with the data of the day on it.
    status, headers, _ = clinic.request("GET", "/clinic/board")
    assert status == 200
    check(headers, "GET /clinic/board")
    etag = {name.lower(): value for name, value in headers.items()}["etag"]
    status, headers, _ = clinic.request("GET", "/clinic/board", headers={"If-None-Match": etag})
    assert status == 304
    check(headers, "GET /clinic/board (304)")


def test_every_studio_response_has_the_page_headers(server):
    walk(ConsoleClient(server.base, mount="/studio"), "/studio", {})
    studio = ConsoleClient(server.base, mount="/studio")
    studio.sign_in("admin", STUDIO_ADMIN_PASSWORD)
    _, _, bookings = studio.request("GET", "/studio/bookings/list")
    found = re.search(r'/studio/bookings/([0-9a-f-]{36})', bookings)
    ids = {"id": found.group(1)} if found else {}
    walk(studio, "/studio", ids)
    if found:
        status, headers, _ = studio.request("GET", f"/studio/bookings/{found.group(1)}/slots?date=2030-01-07")
        check(headers, f"GET slots fragment ({status})")
