"""prefers-reduced-motion: with the system asking for less motion, no transition or animation runs in
either console (console.css's media query); without it the toast still fades."""

from __future__ import annotations

import pytest
from conftest import STUDIO_ADMIN_PASSWORD, sign_in
from selenium.webdriver.common.by import By

pytestmark = pytest.mark.database_free

MOVING = """
    return [...document.querySelectorAll('*')].map(e => getComputedStyle(e))
      .filter(s => s.transitionDuration.split(',').some(d => parseFloat(d) > 0)
                || s.animationDuration.split(',').some(d => parseFloat(d) > 0)).length;
"""


def reduce_motion(driver, on: bool) -> None:
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
        "features": [{"name": "prefers-reduced-motion", "value": "reduce" if on else "no-preference"}]})


def test_no_transition_or_animation_runs_when_the_system_asks_for_reduced_motion(server, browser):
    sign_in(browser, server.base, "vet1", "password123")
    reduce_motion(browser, False)
    assert browser.execute_script(MOVING) > 0, "the toast's fade should run by default"
    reduce_motion(browser, True)
    for path in ("/clinic/", "/clinic/week"):
        browser.get(server.base + path)
        browser.find_element(By.TAG_NAME, "h1")
        assert browser.execute_script(MOVING) == 0, path
    sign_in(browser, server.base, "admin", STUDIO_ADMIN_PASSWORD, mount="/studio")
    for path in ("/studio/", "/studio/bookings"):
        browser.get(server.base + path)
        assert browser.execute_script(MOVING) == 0, path
