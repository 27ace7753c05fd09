"""The studio admin's forgotten password end to end (docs/login-and-sessions.md, "Studio"): the link to the address in
the studio settings arrives over SMTP from the studio's own outbox, the console page it opens sets a new password from
the email alone, the old admin session ends, and the "password changed" email follows."""

from __future__ import annotations

import re
import urllib.error
import urllib.parse
import urllib.request
import uuid

from conftest import api_json

ADMIN_PASSWORD = "studio-admin-password-1"
SUBJECT = "Reset the studio console password"


def post_form(url: str, fields: dict, origin: str):
    request = urllib.request.Request(url, data=urllib.parse.urlencode(fields).encode(), method="POST")
    request.add_header("Content-Type", "application/x-www-form-urlencoded")
    request.add_header("Origin", origin)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def admin_login(base: str, password: str):
    return api_json(base, "POST", "/api/admin/login", body={"username": "admin", "password": password})


def test_the_studio_admin_resets_a_forgotten_password_from_the_email_alone(server, smtp):
    address = f"studio-{uuid.uuid4().hex[:8]}@example.org"
    status, body = admin_login(server.base, ADMIN_PASSWORD)
    assert status == 200, body
    old_session = body["token"]
    status, settings = api_json(server.base, "PUT", "/api/admin/settings", old_session, {"adminEmail": address})
    assert status == 200 and settings["adminEmail"] == address, settings

    request_page = server.base + "/studio/password-reset"
    status, html = post_form(request_page, {"email": "someone-else@example.org"}, server.base)
    assert status == 200 and "a link to reset the password is on its way" in html
    status, html = post_form(request_page, {"email": address.upper()}, server.base)
    assert status == 200 and "a link to reset the password is on its way" in html

    received = smtp.handler.wait_for(lambda m: m.rcpt_tos == [address])[0]
    assert received.tls and received.authenticated
    message = received.message
    assert message["Subject"] == SUBJECT
    assert message["Message-ID"] and message["Date"]
    plain = message.get_body(("plain",)).get_content()
    link = re.search(r"(http://\S+/studio/password-reset/confirm\?token=adm_[0-9a-f]{64})", plain).group(1)
    assert link.startswith(server.base)
    assert link in message.get_body(("html",)).get_content().replace("&amp;", "&")

    with urllib.request.urlopen(link, timeout=30) as page:
        assert "Choose a new password" in page.read().decode()
    token_value = urllib.parse.parse_qs(urllib.parse.urlparse(link).query)["token"][0]
    action = server.base + "/studio/password-reset/confirm"
    new_password = "studio-new-password-" + uuid.uuid4().hex[:6]
    status, html = post_form(action, {"token": token_value, "password": new_password,
                                      "password_repeat": new_password}, server.base)
    assert status == 200 and "The password has been changed" in html, html

    status, _ = api_json(server.base, "GET", "/api/admin/settings", old_session)
    assert status == 401
    assert admin_login(server.base, ADMIN_PASSWORD)[0] == 401
    status, body = admin_login(server.base, new_password)
    assert status == 200

    changed = smtp.handler.wait_for(
        lambda m: m.rcpt_tos == [address] and m.message["Subject"] == "The studio console password was changed")[0]
    assert "signed out" in changed.message.get_body(("plain",)).get_content()
    with smtp.handler.lock:
        assert not [m for m in smtp.handler.messages if "someone-else@example.org" in m.rcpt_tos], \
            "an address that is not the studio's gets nothing"

    # The link worked once.
    status, html = post_form(action, {"token": token_value, "password": "a-third-password-x",
                                      "password_repeat": "a-third-password-x"}, server.base)
    assert status == 400 and "invalid, already used or expired" in html

    # Back as the other tests of this server expect it.
    status, _ = api_json(server.base, "POST", "/api/admin/password", body["token"],
                         {"currentPassword": new_password, "newPassword": ADMIN_PASSWORD})
    assert status == 204
