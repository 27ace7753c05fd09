"""Where the consoles are mounted (`WEB_CONSOLE_ROOT`), the landing page, and each page's weight of CSS and JS."""

from __future__ import annotations

import re
import urllib.parse

import pytest

from clinic_http import ConsoleClient
from conftest import STUDIO_ADMIN_PASSWORD, own_server

BUDGET = 100 * 1024


@pytest.fixture
def studio_at_root(server):
    """A second server with the studio console at `/`, as on a studio's own domain."""
    with own_server(server, "root", WEB_CONSOLE_ROOT="autodetail") as base:
        yield base


def test_the_landing_page_links_both_consoles(server):
    client = ConsoleClient(server.base)
    status, _, body = client.request("GET", "/")
    assert status == 200
    assert 'href="/clinic"' in body and 'href="/studio"' in body


def test_with_web_console_root_the_studio_has_the_seeds_literal_settings_path(studio_at_root):
    client = ConsoleClient(studio_at_root, mount="")
    status, headers, _ = client.request("GET", "/settings/api-keys")
    assert status == 303 and headers["location"].startswith("/login?next=")
    form = urllib.parse.urlencode({"username": "admin", "password": STUDIO_ADMIN_PASSWORD,
                                   "next": "/settings/api-keys"}).encode()
    status, headers, _ = client.request("POST", "/login", form, {"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 303 and headers["location"] == "/settings/api-keys"
    status, _, body = client.request("GET", "/settings/api-keys")
    assert status == 200 and "API keys" in body
    # The APIs keep their own paths and their own 404 bodies; the clinic console stays at its own mount.
    status, _, body = client.request("GET", "/api/ping")
    assert status == 200 and "pong" in body
    status, _, body = client.request("GET", "/api/no-such-route")
    assert status == 404 and body.startswith("{")
    status, headers, _ = client.request("GET", "/clinic")
    assert status == 303 and headers["location"].startswith("/clinic/login")


def page_weight(client: ConsoleClient, path: str) -> int:
    """Bytes of every stylesheet and module a page loads, the modules' own imports included."""
    status, _, html = client.request("GET", path)
    assert status == 200, path
    urls = re.findall(r'<link rel="stylesheet" href="([^"]+)"', html) + re.findall(r'<script type="module" src="([^"]+)"', html)
    seen, total = set(), 0
    while urls:
        url = urls.pop()
        if url in seen:
            continue
        seen.add(url)
        status, headers, body = client.request("GET", url)
        assert status == 200, url
        assert "immutable" in headers["cache-control"], url
        total += len(body.encode())
        base = url.rsplit("/", 1)[0]
        urls += [f"{base}/{name}" for name in re.findall(r'from "\./([\w.-]+)"', body)]
    return total


def test_every_page_loads_less_than_100_kb_of_css_and_js(server):
    clinic = ConsoleClient(server.base)
    clinic.sign_in("vet1", "password123")
    status, _, board = clinic.request("GET", "/clinic/")
    appointment = re.search(r'href="(/clinic/appointments/[0-9a-f-]+)"', board).group(1)
    for path in ("/clinic/", "/clinic/week", appointment, "/clinic/owners",
                 "/clinic/pets/d3000000-0000-4000-8000-000000000001"):
        weight = page_weight(clinic, path)
        assert 0 < weight < BUDGET, f"{path}: {weight} bytes"
    studio = ConsoleClient(server.base, mount="/studio")
    form = urllib.parse.urlencode({"username": "admin", "password": STUDIO_ADMIN_PASSWORD}).encode()
    assert studio.request("POST", "/studio/login", form, {"Content-Type": "application/x-www-form-urlencoded"})[0] == 303
    for path in ("/studio/", "/studio/bookings", "/studio/services", "/studio/settings/api-keys"):
        weight = page_weight(studio, path)
        assert 0 < weight < BUDGET, f"{path}: {weight} bytes"
