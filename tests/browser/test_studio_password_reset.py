"""The studio console's forgotten password (docs/login-and-sessions.md, "Studio"), with the keyboard: the admin gives
the studio an email address on the settings page, forgets the password, follows the emailed link (the embedded
default writes it as an .eml file) and signs in with the new one; the old console session has ended. Every page and
message of the flow passes the accessibility audit."""

from __future__ import annotations

import email
import email.policy
import re
import time
import urllib.error
import urllib.request
import uuid

from accessibility import audit
from conftest import STUDIO_ADMIN_PASSWORD, api_json, screenshot, sign_in, wait_for, wait_for_text
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

MOUNT = "/studio"
SUBJECT = "Reset the studio console password"


def emailed_link(server, address: str, after: float, timeout: float = 20) -> str:
    """The reset link of the newest studio reset email to `address` written after `after` (mail as files)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for path in sorted((server.data_dir / "mail").rglob("*.eml"), key=lambda p: p.stat().st_mtime, reverse=True):
            if path.stat().st_mtime < after:
                continue
            message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
            if message["To"] and address in message["To"] and message["Subject"] == SUBJECT:
                plain = message.get_body(("plain",)).get_content()
                return re.search(r"(http://\S+/studio/password-reset/confirm\?token=adm_[0-9a-f]{64})", plain).group(1)
        time.sleep(0.2)
    raise AssertionError(f"no studio reset email to {address} under {server.data_dir / 'mail'}")


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # noqa: D102 - keep 3xx answers as they are
        return None


def status_with_cookie(base: str, path: str, cookie: str) -> tuple[int, str]:
    request = urllib.request.Request(base + path, headers={"Cookie": f"autodetail_session={cookie}"})
    try:
        with urllib.request.build_opener(NoRedirect).open(request, timeout=30) as response:
            return response.status, response.headers.get("Location", "")
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Location", "")


def test_the_studio_admin_resets_a_forgotten_password_with_the_keyboard_from_the_emailed_link(server, browser_factory):
    address = f"studio-{uuid.uuid4().hex[:8]}@example.org"
    owner = browser_factory()
    sign_in(owner, server.base, "admin", STUDIO_ADMIN_PASSWORD, mount=MOUNT)
    old_cookie = owner.get_cookie("autodetail_session")["value"]

    # The address goes into the studio settings, typed and saved with the keyboard.
    owner.get(server.base + MOUNT + "/settings/studio")
    field = owner.find_element(By.ID, "field-adminEmail")
    assert owner.find_element(By.CSS_SELECTOR, "label[for=field-adminEmail]").text.startswith("Admin email")
    field.clear()
    field.send_keys(address, Keys.ENTER)
    wait_for(owner, lambda d: api_json(server.base, "GET", "/api/admin/settings", admin_token(server.base))[1]
             .get("adminEmail") == address)
    audit(owner, "studio settings with the admin email")

    browser = browser_factory()
    started = time.time() - 1
    browser.get(server.base + MOUNT + "/login")
    browser.find_element(By.LINK_TEXT, "Forgot your password?").send_keys(Keys.ENTER)
    wait_for(browser, lambda d: d.find_element(By.TAG_NAME, "h1").text == "Forgotten password")
    audit(browser, "studio forgotten password")
    email_field = browser.find_element(By.ID, "field-email")
    assert browser.switch_to.active_element == email_field
    email_field.send_keys(address.upper(), Keys.ENTER)
    wait_for_text(browser, "[role=status]", lambda text: text.startswith("If that is the studio's admin email address, a link"))
    audit(browser, "studio forgotten password, link sent")

    browser.get(emailed_link(server, address, started))
    wait_for(browser, lambda d: d.find_element(By.TAG_NAME, "h1").text == "Choose a new password")
    audit(browser, "studio choose a new password")
    new_password = "studio-new-password-" + uuid.uuid4().hex[:6]
    password = browser.find_element(By.ID, "field-password")
    assert browser.switch_to.active_element == password
    password.send_keys("too-short")
    password.send_keys(Keys.TAB)
    browser.switch_to.active_element.send_keys("too-short", Keys.ENTER)
    wait_for_text(browser, "[role=alert]", lambda text: text == "The new password must be 12-128 characters.")
    audit(browser, "studio choose a new password, with its error")

    browser.find_element(By.ID, "field-password").send_keys(new_password)
    browser.find_element(By.ID, "field-password_repeat").send_keys(new_password, Keys.ENTER)
    wait_for(browser, lambda d: d.find_element(By.TAG_NAME, "h1").text == "Password changed")
    audit(browser, "studio password changed")
    screenshot(browser, "studio-password-reset-changed")
    browser.find_element(By.LINK_TEXT, "Sign in").send_keys(Keys.ENTER)
    wait_for(browser, lambda d: MOUNT + "/login" in d.current_url)
    sign_in(browser, server.base, "admin", new_password, mount=MOUNT)

    # The session opened with the old password has ended.
    status, location = status_with_cookie(server.base, MOUNT + "/", old_cookie)
    assert status in (302, 303) and "/login" in location, (status, location)

    # Put the shared server back as the other studio tests expect it.
    status, body = api_json(server.base, "POST", "/api/admin/login", body={"username": "admin", "password": new_password})
    assert status == 200, body
    status, _ = api_json(server.base, "POST", "/api/admin/password", body["token"],
                         {"currentPassword": new_password, "newPassword": STUDIO_ADMIN_PASSWORD})
    assert status == 204
    status, _ = api_json(server.base, "PUT", "/api/admin/settings", admin_token(server.base), {"adminEmail": None})
    assert status == 200


def admin_token(base: str) -> str:
    status, body = api_json(base, "POST", "/api/admin/login", body={"username": "admin", "password": STUDIO_ADMIN_PASSWORD})
    assert status == 200, body
    return body["token"]
