"""A forgotten password end to end (docs/login-and-sessions.md, "Forgotten password"): the link arrives over SMTP,
the console page it opens sets a new password from the email alone, the old token and console session end, and the
"password changed" email follows."""

from __future__ import annotations

import http.cookiejar
import re
import urllib.error
import urllib.parse
import urllib.request
import uuid

from conftest import DEMO_PRACTICE, api_json, token


def post_form(opener, url: str, fields: dict, origin: str):
    request = urllib.request.Request(url, data=urllib.parse.urlencode(fields).encode(), method="POST")
    request.add_header("Content-Type", "application/x-www-form-urlencoded")
    request.add_header("Origin", origin)
    try:
        with opener.open(request, timeout=30) as response:
            return response.status, response.read().decode(), response.headers
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(), error.headers


def test_a_forgotten_password_is_reset_from_the_email_alone_and_old_sessions_end(server, smtp):
    admin = token(server.base, "admin", "admin123")
    username = "forgetful" + uuid.uuid4().hex[:8]
    address = f"{username}@example.org"
    status, user = api_json(server.base, "POST", "/api/v1/users", admin, {
        "username": username, "password": "the-old-password", "email": address, "full_name": "Forgetful Vet",
        "role": "VET", "practice_id": DEMO_PRACTICE})
    assert status == 201, user
    old_token = token(server.base, username, "the-old-password")

    # A console session of the same user, signed in through the sign-in page.
    jar = http.cookiejar.CookieJar()
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    status, _, _ = post_form(browser, server.base + "/clinic/login",
                             {"username": username, "password": "the-old-password"}, server.base)
    assert status == 200 and any(c.name == "helppet_session" for c in jar)
    with browser.open(server.base + "/clinic/account", timeout=30) as page:
        assert "/clinic/login" not in page.url

    status, asked = api_json(server.base, "POST", "/api/v1/auth/password-reset", body={"email": address.upper()})
    assert status == 202, asked
    status, unknown = api_json(server.base, "POST", "/api/v1/auth/password-reset",
                               body={"email": "nobody-" + address})
    assert status == 202 and unknown == asked

    received = smtp.handler.wait_for(lambda m: m.rcpt_tos == [address])[0]
    message = received.message
    assert message["Subject"] == "Reset your HelpPet password"
    plain = message.get_body(("plain",)).get_content()
    link = re.search(r"(http://\S+/clinic/password-reset/confirm\?token=[A-Za-z0-9_-]{43})", plain).group(1)
    assert link in message.get_body(("html",)).get_content().replace("&amp;", "&")
    assert link.startswith(server.base)

    # The page the link opens, in a browser with no session: a form for the new password.
    stranger = urllib.request.build_opener()
    with stranger.open(link, timeout=30) as page:
        html = page.read().decode()
        assert page.headers["Referrer-Policy"] == "same-origin" and page.headers["Cache-Control"] == "no-store"
    assert "Choose a new password" in html and 'name="password_repeat"' in html
    token_value = urllib.parse.parse_qs(urllib.parse.urlparse(link).query)["token"][0]

    action = server.base + "/clinic/password-reset/confirm"
    status, html, _ = post_form(stranger, action, {"token": token_value, "password": "the-new-password",
                                                   "password_repeat": "not-the-same"}, server.base)
    assert status == 400 and "The two passwords differ" in html
    status, html, _ = post_form(stranger, action, {"token": token_value, "password": "the-new-password",
                                                   "password_repeat": "the-new-password"}, server.base)
    assert status == 200 and "Your password has been changed" in html, html

    # Every old session ended: the app's token and the console's cookie.
    status, _ = api_json(server.base, "GET", "/api/v1/users/me", old_token)
    assert status == 401
    with browser.open(server.base + "/clinic/account", timeout=30) as page:
        assert "/clinic/login" in page.url
    status, _ = api_json(server.base, "POST", "/api/v1/auth/token",
                         body={"username": username, "password": "the-old-password"})
    assert status == 401
    assert token(server.base, username, "the-new-password")

    changed = smtp.handler.wait_for(
        lambda m: m.rcpt_tos == [address] and m.message["Subject"] == "Your HelpPet password was changed")[0]
    assert "signed out" in changed.message.get_body(("plain",)).get_content()

    # The link worked once.
    status, html, _ = post_form(stranger, action, {"token": token_value, "password": "a-third-password",
                                                   "password_repeat": "a-third-password"}, server.base)
    assert status == 400 and "invalid, already used or expired" in html
