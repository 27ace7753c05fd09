"""The clinic console's forgotten password (docs/login-and-sessions.md, "Forgotten password"), with the keyboard:
from the sign-in page's link to the emailed link (the embedded default writes it as an .eml file) to signing in with
the new password. Every page and message of the flow passes the accessibility audit."""

from __future__ import annotations

import email
import email.policy
import re
import time
import uuid

from accessibility import audit
from conftest import api_json, helppet_token, screenshot, sign_in, wait_for, wait_for_text
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

DEMO_PRACTICE = "d0000000-0000-4000-8000-000000000001"


def emailed_link(server, address: str, timeout: float = 20) -> str:
    """The reset link of the newest .eml file written to `address` (mail as files: DATA_DIR/mail)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for path in sorted((server.data_dir / "mail").rglob("*.eml"), key=lambda p: p.stat().st_mtime, reverse=True):
            message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
            if message["To"] and address in message["To"] and message["Subject"] == "Reset your HelpPet password":
                plain = message.get_body(("plain",)).get_content()
                return re.search(r"(http://\S+/password-reset/confirm\?token=[A-Za-z0-9_-]{43})", plain).group(1)
        time.sleep(0.2)
    raise AssertionError(f"no reset email to {address} under {server.data_dir / 'mail'}")


def test_a_user_resets_a_forgotten_password_with_the_keyboard_from_the_emailed_link(server, browser):
    admin = helppet_token(server.base, "admin", "admin123")
    username = "forgot" + uuid.uuid4().hex[:8]
    address = f"{username}@example.org"
    status, user = api_json(server.base, "POST", "/api/v1/users", admin, {
        "username": username, "password": "the-old-password", "email": address, "full_name": "Forgetful Vet",
        "role": "VET", "practice_id": DEMO_PRACTICE})
    assert status == 201, user

    browser.get(server.base + "/clinic/login")
    link = browser.find_element(By.LINK_TEXT, "Forgot your password?")
    link.send_keys(Keys.ENTER)
    wait_for(browser, lambda d: d.find_element(By.TAG_NAME, "h1").text == "Forgotten password")
    audit(browser, "clinic forgotten password")
    field = browser.find_element(By.ID, "field-email")
    assert browser.switch_to.active_element == field
    assert browser.find_element(By.CSS_SELECTOR, "label[for=field-email]").text == "Email address"
    field.send_keys(address.upper())
    field.send_keys(Keys.ENTER)
    wait_for_text(browser, "[role=status]",
                  lambda text: text.startswith("If an account uses that email address, a link to reset its password"))
    audit(browser, "clinic forgotten password, link sent")

    browser.get(emailed_link(server, address))
    wait_for(browser, lambda d: d.find_element(By.TAG_NAME, "h1").text == "Choose a new password")
    audit(browser, "clinic choose a new password")
    new_password = browser.find_element(By.ID, "field-password")
    assert browser.switch_to.active_element == new_password
    new_password.send_keys("the-new-password")
    new_password.send_keys(Keys.TAB)
    browser.switch_to.active_element.send_keys("not-the-same-one", Keys.ENTER)
    wait_for_text(browser, "[role=alert]", lambda text: text == "The two passwords differ. Type the same one twice.")
    audit(browser, "clinic choose a new password, with its error")
    screenshot(browser, "clinic-password-reset-confirm")

    browser.find_element(By.ID, "field-password").send_keys("the-new-password")
    repeat = browser.find_element(By.ID, "field-password_repeat")
    repeat.send_keys("the-new-password", Keys.ENTER)
    wait_for(browser, lambda d: d.find_element(By.TAG_NAME, "h1").text == "Password changed")
    audit(browser, "clinic password changed")
    browser.find_element(By.LINK_TEXT, "Sign in").send_keys(Keys.ENTER)
    wait_for(browser, lambda d: "/clinic/login" in d.current_url)
    sign_in(browser, server.base, username, "the-new-password")

    # The link worked once.
    browser.get(emailed_link(server, address))
    browser.find_element(By.ID, "field-password").send_keys("a-third-password")
    browser.find_element(By.ID, "field-password_repeat").send_keys("a-third-password", Keys.ENTER)
    wait_for_text(browser, "[role=alert]", lambda text: "invalid, already used or expired" in text)
