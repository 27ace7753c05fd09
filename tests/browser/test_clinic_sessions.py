"""The clinic console's sign-in, sessions and CSRF, in a real Chromium and over plain HTTP."""

from __future__ import annotations

import urllib.parse

from clinic_http import ConsoleClient
from conftest import api_json, helppet_token, screenshot, sign_in, wait_for
from selenium.webdriver.common.by import By

DEMO_PRACTICE = "d0000000-0000-4000-8000-000000000001"


def test_a_vet_signs_in_and_sees_todays_board(server, browser):
    browser.get(server.base + "/clinic")
    assert "/clinic/login" in browser.current_url
    sign_in(browser, server.base, "vet1", "password123")
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#board .board-column"))
    headings = [h.text for h in browser.find_elements(By.CSS_SELECTOR, ".board-column h2")]
    assert [h.split(" ")[0] for h in headings] == ["Scheduled", "In", "Completed", "Cancelled"]
    assert browser.find_elements(By.CSS_SELECTOR, "article.appointment"), "the demo day has appointments"
    screenshot(browser, "clinic-board-desktop")


def test_a_wrong_password_shows_the_apis_message(server, browser):
    browser.get(server.base + "/clinic/login")
    browser.find_element(By.NAME, "username").send_keys("vet2")
    browser.find_element(By.NAME, "password").send_keys("not-the-password")
    browser.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    message = wait_for(browser, lambda d: d.find_element(By.CSS_SELECTOR, ".form-error"))
    assert message.text == "Incorrect username or password"
    screenshot(browser, "clinic-login-desktop")


def test_an_api_call_with_the_session_cookie_needs_the_csrf_token(server):
    client = ConsoleClient(server.base)
    client.sign_in("vet2", "password123")
    path = f"/api/v1/appointments/practice/{DEMO_PRACTICE}"
    assert client.api("GET", path)[0] == 200
    status, body = client.api("GET", path, csrf=None)
    assert (status, body["detail"]) == (403, "CSRF token missing or invalid")
    status, body = client.api("GET", path, csrf="0" * 64)
    assert (status, body["detail"]) == (403, "CSRF token missing or invalid")
    # Another session's token is no good either.
    other = ConsoleClient(server.base)
    other.sign_in("vet2", "password123")
    assert other.csrf != client.csrf
    assert client.api("GET", path, csrf=other.csrf)[0] == 403


def test_a_console_form_post_without_the_csrf_token_is_refused(server):
    client = ConsoleClient(server.base)
    client.sign_in("vet2", "password123")
    status, _, body = client.request("POST", "/clinic/logout", b"", {"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 403 and "did not come from this console" in body
    form = urllib.parse.urlencode({"_csrf": "f" * 64}).encode()
    status, _, _ = client.request("POST", "/clinic/logout", form, {"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 403
    # Still signed in: the refused posts did nothing.
    assert client.request("GET", "/clinic/")[0] == 200


def test_logout_ends_the_session_for_the_cookie_as_well(server):
    client = ConsoleClient(server.base)
    client.sign_in("vet2", "password123")
    stolen = client.session_cookie()
    form = urllib.parse.urlencode({"_csrf": client.csrf}).encode()
    status, headers, _ = client.request("POST", "/clinic/logout", form, {"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 303 and headers["location"].endswith("/clinic/login")
    replay = ConsoleClient(server.base)
    status, headers, _ = replay.request("GET", "/clinic/", headers={"Cookie": f"helppet_session={stolen}"})
    assert status == 303 and "/clinic/login" in headers["location"]
    status, body = api_json(server.base, "GET", f"/api/v1/appointments/practice/{DEMO_PRACTICE}",
                            headers={"Cookie": f"helppet_session={stolen}", "X-CSRF-Token": client.csrf})
    assert status == 401


def test_a_password_change_ends_the_users_other_sessions(server):
    admin = helppet_token(server.base, "admin", "admin123")
    status, user = api_json(server.base, "POST", "/api/v1/users", admin, {
        "username": "relief.vet", "password": "first-password", "email": "relief@example.com",
        "full_name": "Dr. Relief", "role": "VET_STAFF", "practice_id": DEMO_PRACTICE})
    assert status == 201, user
    laptop, tablet = ConsoleClient(server.base), ConsoleClient(server.base)
    laptop.sign_in("relief.vet", "first-password")
    tablet.sign_in("relief.vet", "first-password")
    status, _ = laptop.api("PUT", f"/api/v1/users/{user['id']}", {"password": "second-password"}, csrf="session")
    assert status == 403, "a vet may not change users; the admin does it"
    status, _ = api_json(server.base, "PUT", f"/api/v1/users/{user['id']}", admin, {"password": "second-password"})
    assert status == 200
    for device in (laptop, tablet):
        status, headers, _ = device.request("GET", "/clinic/")
        assert status == 303 and "/clinic/login" in headers["location"]
    fresh = ConsoleClient(server.base)
    fresh.sign_in("relief.vet", "second-password")
    assert fresh.request("GET", "/clinic/")[0] == 200


def test_a_sign_in_posted_from_another_site_is_refused(server):
    client = ConsoleClient(server.base)
    form = urllib.parse.urlencode({"username": "vet1", "password": "password123"}).encode()
    status, _, _ = client.request("POST", "/clinic/login", form, {
        "Content-Type": "application/x-www-form-urlencoded", "Origin": "https://evil.example"})
    assert status == 403
    assert client.session_cookie() is None


def test_the_session_cookie_is_http_only_and_same_site_lax(server):
    client = ConsoleClient(server.base)
    form = urllib.parse.urlencode({"username": "vet1", "password": "password123"}).encode()
    status, headers, _ = client.request("POST", "/clinic/login", form,
                                        {"Content-Type": "application/x-www-form-urlencoded"})
    cookie = headers["set-cookie"]
    assert status == 303 and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert "Secure" not in cookie, "plain http in the test; Secure comes with an https PUBLIC_BASE_URL"


def test_the_next_parameter_cannot_send_the_browser_to_another_site(server):
    client = ConsoleClient(server.base)
    form = urllib.parse.urlencode({"username": "vet1", "password": "password123",
                                   "next": "//evil.example/clinic"}).encode()
    status, headers, _ = client.request("POST", "/clinic/login", form,
                                        {"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 303 and headers["location"] == "/clinic"
