"""The clinic console's sign-in, sessions and CSRF, in a real Chromium and over plain HTTP."""

from __future__ import annotations

import http.cookiejar
import urllib.error
import urllib.parse
import urllib.request

from conftest import api_json, helppet_token, screenshot, sign_in, wait_for
from selenium.webdriver.common.by import By


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
