"""The clinic console's admin pages: the server settings an operator needs to know about, and the practice's own
settings (which emails it sends)."""

from __future__ import annotations

import time

from clinic_http import ConsoleClient
from conftest import api_json, helppet_token, own_server, sign_in, wait_for
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select
from test_clinic_pages import BELLA, DEMO_PRACTICE, SMITH, fill, submit


def test_the_admin_page_shows_whether_self_service_practices_are_on(server):
    admin = ConsoleClient(server.base)
    admin.sign_in("admin", "admin123")
    status, _, page = admin.request("GET", "/clinic/admin/practices")
    assert status == 200
    section = page[page.index('id="self-service-practices"'):]
    assert "Self-service practices" in section and ">Off<" in section
    assert "HELPPET_SELF_SERVICE_PRACTICES=true" in section
    with own_server(server, "self_service", HELPPET_SELF_SERVICE_PRACTICES="true") as base:
        admin = ConsoleClient(base)
        admin.sign_in("admin", "admin123")
        _, _, page = admin.request("GET", "/clinic/admin/practices")
        section = page[page.index('id="self-service-practices"'):]
        assert ">On<" in section and "HELPPET_SELF_SERVICE_PRACTICES=false" in section


def test_an_admin_sets_which_emails_the_practice_sends_and_a_bad_lead_time_is_named(server, browser):
    admin_token = helppet_token(server.base, "admin", "admin123")
    practice_path = f"/api/v1/practices/{DEMO_PRACTICE}"
    form = f"form[data-api='PUT {practice_path}']"
    sign_in(browser, server.base, "admin", "admin123")
    browser.get(server.base + "/clinic/admin/practices")
    card = browser.find_element(By.XPATH, f"//form[@data-api='PUT {practice_path}']/ancestor::details")
    card.find_element(By.TAG_NAME, "summary").click()
    try:
        fill(browser, "appointment_reminder_hours", "200", form)
        submit(browser, form)
        slot = f'{form} [data-error-for="appointment_reminder_hours"]'
        message = wait_for(browser, lambda d: d.find_element(By.CSS_SELECTOR, slot).text.strip())
        assert "appointment_reminder_hours" in message, message
        _, practice = api_json(server.base, "GET", practice_path, admin_token)
        assert practice["appointment_reminder_hours"] == 24

        fill(browser, "appointment_reminder_hours", "48", form)
        Select(browser.find_element(By.CSS_SELECTOR, f"{form} [name=discharge_emails_enabled]")).select_by_value("true")
        submit(browser, form)

        def saved(_):
            _, now = api_json(server.base, "GET", practice_path, admin_token)
            return now["appointment_reminder_hours"] == 48 and now["discharge_emails_enabled"] is True
        wait_for(browser, saved)
        browser.refresh()
        card = browser.find_element(By.XPATH, f"//form[@data-api='PUT {practice_path}']/ancestor::details")
        card.find_element(By.TAG_NAME, "summary").click()
        field = browser.find_element(By.CSS_SELECTOR, f'{form} [name="appointment_reminder_hours"]')
        assert field.get_attribute("value") == "48"
        choice = Select(browser.find_element(By.CSS_SELECTOR, f"{form} [name=discharge_emails_enabled]"))
        assert choice.first_selected_option.get_attribute("value") == "true"
    finally:
        status, _ = api_json(server.base, "PUT", practice_path, admin_token,
                             {"appointment_reminder_hours": 24, "discharge_emails_enabled": False})
        assert status == 200


def test_the_console_says_push_is_off_and_an_appointment_page_lists_the_owners_emails(server):
    admin = ConsoleClient(server.base)
    admin.sign_in("admin", "admin123")
    status, _, page = admin.request("GET", "/clinic/admin/practices")
    assert status == 200
    section = page[page.index('id="notification-delivery"'):]
    assert ">Off<" in section and "APNS_KEY_PATH" in section, section[:600]
    assert "written as .eml files" in section

    vet_token = helppet_token(server.base, "vet1", "password123")
    start = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + 7 * 86400))
    status, appointment = api_json(server.base, "POST", "/api/v1/appointments", vet_token, {
        "pet_owner_id": SMITH, "pet_ids": [BELLA], "appointment_date": start, "duration_minutes": 30,
        "appointment_type": "checkup", "title": "Delivery log check"})
    assert status == 201, appointment
    vet = ConsoleClient(server.base)
    vet.sign_in("vet1", "password123")
    status, _, page = vet.request("GET", f"/clinic/appointments/{appointment['id']}")
    assert status == 200
    log = page[page.index('data-role="delivery-log"'):]
    assert 'data-kind="appointment_confirmation"' in log and "john.smith@email.com" in log, log[:800]
    status, _ = api_json(server.base, "DELETE", f"/api/v1/appointments/{appointment['id']}", vet_token)
    assert status == 200
    status, _, page = vet.request("GET", f"/clinic/appointments/{appointment['id']}")
    log = page[page.index('data-role="delivery-log"'):]
    assert 'data-kind="appointment_cancelled"' in log
    # The practice's log, on the admin page, lists the same messages.
    _, _, page = admin.request("GET", "/clinic/admin/practices")
    assert "Delivery log check" not in page  # titles are not shown; the kinds and the owner are
    assert page.count('data-kind="appointment_cancelled"') >= 1
