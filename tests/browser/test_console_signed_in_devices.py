"""Console sessions per user are capped (20 live; the oldest ends), listed on the account page's "Signed-in
devices", and "Sign out everywhere" ends them all, the app's or CLI's tokens included. The studio's sign-in limit
counts failures per address, so staff behind one NAT address can keep signing in."""

from __future__ import annotations

import re
import time
import urllib.parse

from clinic_http import ConsoleClient
from conftest import STUDIO_ADMIN_PASSWORD, api_json, helppet_token, own_server

CAP = 20


def signed_in(client: ConsoleClient, mount: str) -> bool:
    status, headers, _ = client.request("GET", mount + "/account")
    assert status in (200, 303), status
    return status == 200


def wait_until_refused(base: str, path: str, token: str) -> int:
    """The API's answer to `token` once the one-second identity cache has let go of the old token version."""
    deadline = time.monotonic() + 5
    while True:
        status, _ = api_json(base, "GET", path, token=token)
        if status == 401 or time.monotonic() > deadline:
            return status
        time.sleep(0.2)


def test_clinic_sessions_are_capped_listed_and_ended_everywhere(server):
    with own_server(server, "sessions_clinic") as base:
        app_token = helppet_token(base, "vet1", "password123")
        clients = []
        for _ in range(CAP + 2):
            client = ConsoleClient(base)
            client.sign_in("vet1", "password123")
            clients.append(client)
        alive = [signed_in(client, "/clinic") for client in clients]
        assert alive == [False, False] + [True] * CAP, alive

        newest = clients[-1]
        status, _, page = newest.request("GET", "/clinic/account")
        assert status == 200
        assert "Signed-in devices" in page and f"{CAP} live sessions." in page
        assert page.count("This browser") == 1 and "Python script" in page and "127.0.0.1" in page
        assert 'action="/clinic/logout-everywhere"' in page

        # Without the form's CSRF token the button does nothing.
        status, _, _ = newest.request("POST", "/clinic/logout-everywhere", b"",
                                      {"Content-Type": "application/x-www-form-urlencoded"})
        assert status == 403 and signed_in(newest, "/clinic")
        form = urllib.parse.urlencode({"_csrf": newest.csrf}).encode()
        status, headers, _ = newest.request("POST", "/clinic/logout-everywhere", form,
                                            {"Content-Type": "application/x-www-form-urlencoded"})
        assert status == 303 and headers["location"] == "/clinic/login"
        assert not any(signed_in(client, "/clinic") for client in clients)
        assert wait_until_refused(base, "/api/v1/auth/me", app_token) == 401, "the app's token ends too"
        # Signing in again works at once.
        ConsoleClient(base).sign_in("vet1", "password123")


def studio_sign_in(base: str) -> ConsoleClient:
    client = ConsoleClient(base, mount="/studio")
    client.sign_in("admin", STUDIO_ADMIN_PASSWORD)
    return client


def test_studio_sessions_are_capped_listed_and_ended_everywhere(server):
    with own_server(server, "sessions_studio") as base:
        status, body = api_json(base, "POST", "/api/admin/login",
                                body={"username": "admin", "password": STUDIO_ADMIN_PASSWORD})
        assert status == 200, body
        cli_token = body["token"]
        # More than the old per-address limit of 20 sign-ins in a quarter of an hour: a studio behind one NAT.
        clients = [studio_sign_in(base) for _ in range(CAP + 5)]
        alive = [signed_in(client, "/studio") for client in clients]
        assert alive == [False] * 5 + [True] * CAP, alive
        assert api_json(base, "GET", "/api/admin/settings", token=cli_token)[0] == 200, "API sessions are not capped"

        newest = clients[-1]
        _, _, page = newest.request("GET", "/studio/account")
        assert f"{CAP + 1} live sessions." in page, re.findall(r"\d+ live sessions?\.", page)
        assert "API (CLI, scripts)" in page and page.count("This browser") == 1
        form = urllib.parse.urlencode({"_csrf": newest.csrf}).encode()
        status, headers, _ = newest.request("POST", "/studio/logout-everywhere", form,
                                            {"Content-Type": "application/x-www-form-urlencoded"})
        assert status == 303 and headers["location"] == "/studio/login"
        assert not any(signed_in(client, "/studio") for client in clients)
        assert api_json(base, "GET", "/api/admin/settings", token=cli_token)[0] == 401


def test_studio_sign_in_failures_from_one_address_are_still_limited(server):
    with own_server(server, "studio_failures") as base:
        client = ConsoleClient(base, mount="/studio")
        for attempt in range(20):
            form = urllib.parse.urlencode({"username": f"staff{attempt % 4}", "password": "wrong-password"}).encode()
            status, _, _ = client.request("POST", "/studio/login", form,
                                          {"Content-Type": "application/x-www-form-urlencoded"})
            assert status == 401, (attempt, status)
        form = urllib.parse.urlencode({"username": "admin", "password": STUDIO_ADMIN_PASSWORD}).encode()
        status, headers, _ = client.request("POST", "/studio/login", form,
                                            {"Content-Type": "application/x-www-form-urlencoded"})
        assert status == 429 and int(headers["retry-after"]) >= 1
