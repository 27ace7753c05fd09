"""The clinic console's invitation page (docs/invitations.md): an administrator invites by email with the keyboard,
sees the invitation pending, and revokes it."""

from __future__ import annotations

import uuid

from conftest import api_json, helppet_token, sign_in, wait_for
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

DEMO_PRACTICE = "d0000000-0000-4000-8000-000000000001"


def test_an_admin_invites_by_email_sees_it_pending_and_revokes_it(server, browser):
    sign_in(browser, server.base, "admin", "admin123")
    # The practices page links the invitation page from each practice (inside its collapsed details).
    browser.get(server.base + "/clinic/admin/practices")
    link = browser.find_element(By.CSS_SELECTOR, f"a[href='/clinic/admin/practices/{DEMO_PRACTICE}/invites']")
    browser.get(link.get_attribute("href"))
    wait_for(browser, lambda d: d.find_element(By.TAG_NAME, "h1").text == "Invitations: HelpPet Demo Clinic")

    address = f"browser-{uuid.uuid4().hex[:8]}@example.org"
    field = browser.find_element(By.ID, "field-email")
    # The field has a visible label the screen reader announces.
    assert browser.find_element(By.CSS_SELECTOR, "label[for=field-email]").text.startswith("Email")
    field.send_keys(address)
    field.send_keys(Keys.ENTER)
    wait_for(browser, lambda d: address in d.find_element(By.TAG_NAME, "main").text)

    admin = helppet_token(server.base, "admin", "admin123")
    status, invites = api_json(server.base, "GET", f"/api/v1/practices/{DEMO_PRACTICE}/invites", admin)
    assert status == 200
    mine = [i for i in invites if i["email"] == address]
    assert len(mine) == 1 and mine[0]["status"] == "pending", invites

    button = browser.find_element(By.CSS_SELECTOR, f"button[aria-label='Revoke the invitation of {address}']")
    browser.execute_script("window.confirm = () => true")
    button.click()
    wait_for(browser, lambda d: address not in d.find_element(By.TAG_NAME, "main").text)
    status, invites = api_json(server.base, "GET", f"/api/v1/practices/{DEMO_PRACTICE}/invites", admin)
    assert [i["status"] for i in invites if i["email"] == address] == ["revoked"]
