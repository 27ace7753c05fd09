"""The accessibility audit: axe-core's WCAG 2.0/2.1 A and AA rules on every page, dialog and main state of
both consoles, with no critical or serious violation allowed. The recording states (recording, uploaded) and the
approved note with its discharge page are audited where the recording and note suites reach them.
"""

from __future__ import annotations

import time
from urllib.parse import quote

import pytest
from accessibility import audit, axe_version, violations
from conftest import STUDIO_ADMIN_PASSWORD, api_json, helppet_token, sign_in, wait_for
from selenium.webdriver.common.by import By

pytestmark = pytest.mark.database_free

BELLA = "d3000000-0000-4000-8000-000000000001"
SMITH = "d2000000-0000-4000-8000-000000000001"
DEMO_PRACTICE = "d0000000-0000-4000-8000-000000000001"
MULTI_PET_TITLE = "Multi-pet Wellness Exam - Smith Family"

BROKEN_SNIPPET = """<!doctype html><html lang="en"><head><title>Broken on purpose</title></head><body><main>
<h1>Broken on purpose</h1><input type="text" name="unnamed"><p style="color:#bbb;background:#fff">pale text</p>
<a href="/x" aria-pressed="true">a link with a button's state</a></main></body></html>"""


def test_the_audit_uses_axe_core_4_from_pypi_and_fails_on_a_deliberately_broken_page(browser):
    browser.get("data:text/html;charset=utf-8," + quote(BROKEN_SNIPPET))
    assert axe_version(browser).startswith("4."), axe_version(browser)
    found = {v["id"]: v["impact"] for v in violations(browser)}
    assert found.get("label") == "critical", found
    assert found.get("color-contrast") == "serious", found
    assert found.get("aria-allowed-attr") == "critical", found
    with pytest.raises(AssertionError, match="label"):
        audit(browser, "broken snippet")


def test_every_clinic_page_and_dialog_of_staff_and_admin_has_no_critical_or_serious_violation(server, browser):
    browser.get(server.base + "/clinic/login")
    audit(browser, "clinic sign-in")
    browser.find_element(By.NAME, "username").send_keys("admin")
    browser.find_element(By.NAME, "password").send_keys("wrong password")
    browser.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".form-error"))
    audit(browser, "clinic sign-in with its error")

    sign_in(browser, server.base, "vet1", "password123")
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#board article.appointment"))
    audit(browser, "clinic day board")
    browser.find_element(By.LINK_TEXT, MULTI_PET_TITLE).click()
    wait_for(browser, lambda d: d.find_element(By.ID, "recorders").get_attribute("data-ready") == "true")
    audit(browser, "clinic appointment")
    if browser.find_element(By.ID, "recorders").get_attribute("data-consent-given") == "false":
        browser.find_element(By.CSS_SELECTOR, '.recorder [data-action="record"]').click()
        wait_for(browser, lambda d: d.find_element(By.ID, "consent-dialog").get_attribute("open") is not None)
        audit(browser, "clinic recording-consent dialog")
        browser.find_element(By.ID, "consent-dialog").find_element(By.CSS_SELECTOR, "button[value=cancel]").click()

    sign_in(browser, server.base, "admin", "admin123")
    token = helppet_token(server.base, "vet1", "password123")
    status, visit = api_json(server.base, "POST", "/api/v1/visit-transcripts", token, {
        "pet_id": BELLA, "visit_date": int(time.time()), "full_text": "Bella is bright and alert today."})
    assert status == 201, visit
    # A pending invitation, so the invitation page's table and its revoke button are audited.
    admin_token = helppet_token(server.base, "admin", "admin123")
    status, invite = api_json(server.base, "POST", f"/api/v1/practices/{DEMO_PRACTICE}/invites", admin_token,
                              {"email": "audit-invitee@example.com"})
    assert status in (201, 409), invite
    pages = {
        "clinic admin practice invitations": f"/clinic/admin/practices/{DEMO_PRACTICE}/invites",
        "clinic day board by vet": "/clinic/?layout=vets", "clinic week": "/clinic/week",
        "clinic owners": "/clinic/owners", "clinic owner": f"/clinic/owners/{SMITH}",
        "clinic new owner": "/clinic/owners/new", "clinic pet": f"/clinic/pets/{BELLA}",
        "clinic pet edit": f"/clinic/pets/{BELLA}/edit", "clinic new record": f"/clinic/pets/{BELLA}/records/new",
        "clinic visit": f"/clinic/visits/{visit['uuid']}", "clinic admin": "/clinic/admin",
        "clinic admin practices": "/clinic/admin/practices", "clinic not-found page": "/clinic/no-such-page",
        "clinic account with signed-in devices": "/clinic/account",
    }
    for name, path in pages.items():
        browser.get(server.base + path)
        wait_for(browser, lambda d: d.find_element(By.TAG_NAME, "h1"))
        audit(browser, name)

    # The week with an appointment's drag handles, and its booking dialog.
    browser.get(server.base + "/clinic/week")
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".week-appointment .resize"))
    audit(browser, "clinic week with drag handles")
    slot = browser.find_elements(By.CSS_SELECTOR, ".week-day")[0].find_elements(By.CSS_SELECTOR, ".slot")[36]
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", slot)
    slot.click()
    wait_for(browser, lambda d: d.find_element(By.CSS_SELECTOR, "dialog[open]"))
    audit(browser, "clinic new-appointment dialog")

    # An admin's user page, and the visit's approval form opened.
    browser.get(server.base + "/clinic/admin")
    user_link = browser.find_elements(By.CSS_SELECTOR, "a[href*='/clinic/admin/users/']")[0]
    user_link.click()
    wait_for(browser, lambda d: "/clinic/admin/users/" in d.current_url)
    audit(browser, "clinic admin user")
    browser.get(f"{server.base}/clinic/visits/{visit['uuid']}")
    browser.find_element(By.CSS_SELECTOR, "details.approve summary").click()
    audit(browser, "clinic visit with the approval form open")


def test_the_clinic_pages_a_vet_cannot_open_and_an_owners_pages_have_no_critical_or_serious_violation(
        server, browser):
    sign_in(browser, server.base, "vet2", "password123")
    browser.get(server.base + "/clinic/admin")
    assert browser.find_element(By.TAG_NAME, "h1").text == "Not allowed"
    audit(browser, "clinic not-allowed page")
    sign_in(browser, server.base, "owner1", "password123")
    audit(browser, "clinic owner's pets")
    browser.get(f"{server.base}/clinic/pets/{BELLA}")
    audit(browser, "clinic owner's pet")


def test_every_studio_page_has_no_critical_or_serious_violation(server, browser):
    base = server.base + "/studio"
    browser.get(base + "/login")
    audit(browser, "studio sign-in")
    sign_in(browser, server.base, "admin", STUDIO_ADMIN_PASSWORD, mount="/studio")
    status, services = api_json(server.base, "GET", "/api/client/services")
    assert status == 200 and services, services
    service = services[0]["id"] if isinstance(services, list) else services["services"][0]["id"]
    pages = {
        "studio overview": "/", "studio bookings week": "/bookings", "studio bookings list": "/bookings/list",
        "studio services": "/services", "studio new service": "/services/new",
        "studio service": f"/services/{service}", "studio customers": "/customers",
        "studio settings": "/settings/studio", "studio api keys": "/settings/api-keys",
        "studio not-found page": "/no-such-page", "studio account with signed-in devices": "/account",
    }
    for name, path in pages.items():
        browser.get(base + path)
        wait_for(browser, lambda d: d.find_element(By.TAG_NAME, "h1"))
        audit(browser, name)
    browser.get(base + "/settings/api-keys")
    browser.find_element(By.NAME, "name").send_keys("Audit key")
    browser.find_element(By.CSS_SELECTOR, "#key-create button[type=submit]").click()
    wait_for(browser, lambda d: d.find_element(By.ID, "new-key-value").text)
    audit(browser, "studio api keys with a new key shown once")


def test_the_fields_the_first_audit_found_unnamed_have_their_accessible_names(server, browser):
    """The issue's axe 3.1.1 run named them: the studio's opening hours and numbers, the board's date picker. axe 4
    finds them named; this pins the names a screen reader reads (WebDriver's computed accessible name)."""
    sign_in(browser, server.base, "admin", STUDIO_ADMIN_PASSWORD, mount="/studio")
    browser.get(server.base + "/studio/settings/studio")
    opens = browser.find_element(By.CSS_SELECTOR, '[data-opens="mon"]')
    closes = browser.find_element(By.CSS_SELECTOR, '[data-closes="sun"]')
    assert (opens.accessible_name, closes.accessible_name) == ("Monday opens", "Sunday closes")
    fields = browser.find_elements(By.CSS_SELECTOR, "main input:not([type=hidden]), main select")
    assert len(fields) >= 14 + 7 + 4
    assert [f.get_attribute("outerHTML")[:80] for f in fields if not f.accessible_name.strip()] == []
    sign_in(browser, server.base, "vet1", "password123")
    assert browser.find_element(By.ID, "board-date").accessible_name == "Date"
