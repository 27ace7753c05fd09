"""After sign-in a console sends the browser only to a page of its own (`next`), on both mounts: `/clinic` and
`/studio`, and at `/` (`WEB_CONSOLE_ROOT`), where a tab in `next` once led a real Chromium to another site."""

from __future__ import annotations

import urllib.parse

import pytest
from selenium.webdriver.common.by import By

from clinic_http import ConsoleClient
from conftest import STUDIO_ADMIN_PASSWORD, own_server, wait_for

pytestmark = pytest.mark.database_free

# Values of `next` as the server reads them from the sign-in form (already form-decoded). Each one would take a
# browser, or a proxy that normalises paths, off the console: control characters and spaces that browsers drop,
# backslashes they read as slashes, encoded slashes and dots, unicode slashes, user-info and scheme tricks.
HOSTILE = [
    "/\t/evil.example", "/\n/evil.example", "/\r/evil.example", "/\r\n/evil.example", "\t//evil.example",
    "/ /evil.example", "/\x0b/evil.example", "/\x00/evil.example", "//evil.example", "///evil.example",
    "/\\evil.example", "\\/evil.example", "/\\/evil.example", "/%2F%2Fevil.example", "/%2f/evil.example",
    "/%5C/evil.example", "/%09/evil.example", "/%0A/evil.example", "/%20/evil.example", "/\uff0f\uff0fevil.example",
    "/\u2215\u2215evil.example", "/\u2044evil.example", "//@evil.example", "//user@evil.example",
    "https://evil.example/", "http:evil.example", "evil.example", "@evil.example", "javascript:alert(1)",
    "/../evil.example", "/%2e%2e/evil.example", "/.%2E/api/v1/users", "/%", "/%zz",
]

MOUNTS = {
    # console, WEB_CONSOLE_ROOT, mount prefix, username, password, a safe page of the console
    "clinic": ("helppet", "/clinic", "vet1", "password123", "/week?date=2026-11-27"),
    "studio": ("autodetail", "/studio", "admin", STUDIO_ADMIN_PASSWORD, "/settings/api-keys"),
}


def sign_in_with_next(client: ConsoleClient, mount: str, username: str, password: str, next_value: str):
    form = urllib.parse.urlencode({"username": username, "password": password, "next": next_value}).encode()
    return client.request("POST", mount + "/login", form, {"Content-Type": "application/x-www-form-urlencoded"})


@pytest.mark.parametrize("console", sorted(MOUNTS))
@pytest.mark.parametrize("at_root", [False, True], ids=["own-path", "root"])
def test_sign_in_sends_the_browser_only_to_a_page_of_the_console(server, console, at_root):
    root_name, prefix, username, password, page = MOUNTS[console]
    overrides = {"WEB_CONSOLE_ROOT": root_name} if at_root else {}
    mount = "" if at_root else prefix
    home = mount or "/"
    with own_server(server, f"next_{console}", **overrides) as base:
        # The same tricks behind the mount's own prefix (a studio signs in at most 60 times a quarter hour per
        # address, so a selection).
        behind_mount = [mount + tail for tail in ("/\t/evil.example", "/../evil.example", "/%2e%2e/%2e%2e/evil.example",
                                                    "/\\evil.example", "//evil.example")] if mount else []
        for hostile in HOSTILE + behind_mount:
            status, headers, body = sign_in_with_next(ConsoleClient(base, mount), mount, username, password, hostile)
            assert status == 303, (hostile, status, body[:200])
            assert headers["location"] == home, f"next={hostile!r} sent the browser to {headers['location']!r}"
        status, headers, _ = sign_in_with_next(ConsoleClient(base, mount), mount, username, password, mount + page)
        assert status == 303 and headers["location"] == mount + page
        if mount:
            # A path outside the mount is another console's or the API's, not this one's.
            other = "/studio" if console == "clinic" else "/clinic"
            status, headers, _ = sign_in_with_next(ConsoleClient(base, mount), mount, username, password, other)
            assert status == 303 and headers["location"] == home


def test_a_tab_in_next_keeps_chromium_on_the_console_at_the_root(server, browser):
    with own_server(server, "next_chromium", WEB_CONSOLE_ROOT="helppet") as base:
        browser.get(base + "/login?next=" + urllib.parse.quote("/\t/evil.example", safe=""))
        browser.find_element(By.NAME, "username").send_keys("vet1")
        browser.find_element(By.NAME, "password").send_keys("password123")
        browser.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
        wait_for(browser, lambda d: "/login" not in d.current_url)
        landed = urllib.parse.urlsplit(browser.current_url)
        assert landed.netloc == urllib.parse.urlsplit(base).netloc, browser.current_url
        assert landed.path == "/", browser.current_url
