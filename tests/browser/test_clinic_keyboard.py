"""Keyboard only: a vet signs in, opens today's multi-pet appointment from the board, records one pet,
answers the consent question, pauses, resumes and stops, and sees the upload finish, with nothing but Tab, Enter,
Space and typing sent to whatever element has focus. No mouse action and no element is clicked. Chromium's fake
microphone (conftest's --use-fake-device-for-media-stream) gives the recorder its sound.

Along the way: every element reached has a visible focus indicator (:focus-visible with an outline), focus moves
into the dialog the page opened and back to the button that opened it when it closes, and the recorder's state
changes are spoken through the page's role=status live region.
"""

from __future__ import annotations

import time

from accessibility import audit
from conftest import wait_for
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

MULTI_PET_TITLE = "Multi-pet Wellness Exam - Smith Family"
PET = "Bella"


def focused(driver):
    return driver.switch_to.active_element


def press(driver, key) -> None:
    focused(driver).send_keys(key)


def assert_focus_visible(driver) -> None:
    """The focused element is drawn with an outline of at least 2 px (console.css's :focus-visible ring)."""
    style = driver.execute_script("""
        const e = document.activeElement, s = getComputedStyle(e);
        // A date field's last Tab stop is Chromium's own calendar button inside the field: the field itself no
        // longer matches :focus and the browser draws its ring on that button (checked by hand on a screenshot).
        if (e.type === 'date' && !e.matches(':focus')) return ['browser', 2, ''];
        return [s.outlineStyle, parseFloat(s.outlineWidth), e.outerHTML.slice(0, 80)];
        """)
    assert style[0] != "none" and style[1] >= 2, f"focus not visible on {style[2]}: {style}"


def tab_to(driver, description: str, matches, limit: int = 80) -> None:
    """Tabs forward until `matches(active element)`; every stop on the way must show its focus."""
    for _ in range(limit):
        press(driver, Keys.TAB)
        element = focused(driver)
        if element.tag_name != "body":
            assert_focus_visible(driver)
        if matches(element):
            return
    raise AssertionError(f"Tab never reached {description}")


def is_button_of(driver, action: str):
    return lambda e: e.get_attribute("data-action") == action and driver.execute_script(
        "return arguments[0].closest('.recorder')?.dataset.petName", e) == PET


def listen(driver) -> None:
    """Keeps every text the live region shows (a short state such as "uploading" may pass between two polls)."""
    driver.execute_script("""
        window.spoken = [];
        const region = document.getElementById('recorder-status');
        new MutationObserver(() => { const t = region.textContent.trim(); if (t) window.spoken.push(t); })
          .observe(region, {childList: true, characterData: true, subtree: true});
        """)


def spoken(driver) -> list[str]:
    return driver.execute_script("return window.spoken")


def wait_spoken(driver, words: str, timeout: float = 30) -> None:
    wait_for(driver, lambda d: words in spoken(d), timeout)


def test_a_vet_records_a_pet_with_the_keyboard_only_and_hears_each_state_in_the_live_region(server, browser):
    driver = browser
    driver.get(server.base + "/clinic/login")
    tab_to(driver, "the username field", lambda e: e.get_attribute("name") == "username")
    focused(driver).send_keys("vet1")
    tab_to(driver, "the password field", lambda e: e.get_attribute("name") == "password")
    focused(driver).send_keys("password123")
    press(driver, Keys.ENTER)
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board article.appointment"))

    tab_to(driver, "the multi-pet appointment", lambda e: e.tag_name == "a" and e.text == MULTI_PET_TITLE)
    press(driver, Keys.ENTER)
    wait_for(driver, lambda d: d.find_element(By.ID, "recorders").get_attribute("data-ready") == "true")
    status = driver.find_element(By.ID, "recorder-status")
    assert status.get_attribute("role") == "status"
    listen(driver)

    tab_to(driver, f"{PET}'s Record button", is_button_of(driver, "record"))
    record = focused(driver)
    consent_asked = driver.find_element(By.ID, "recorders").get_attribute("data-consent-given") == "false"
    if consent_asked:
        # Opened and cancelled: focus goes into the dialog, then back to the Record button that opened it.
        press(driver, Keys.ENTER)
        dialog = wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#consent-dialog[open]"))
        assert driver.execute_script("return arguments[0].contains(document.activeElement)", dialog)
        audit(driver, "clinic recording-consent dialog (keyboard)")
        tab_to(driver, "the dialog's Cancel button", lambda e: e.get_attribute("value") == "cancel", limit=6)
        press(driver, Keys.ENTER)
        wait_for(driver, lambda d: d.find_element(By.ID, "consent-dialog").get_attribute("open") is None)
        assert focused(driver) == record, "focus did not return to the Record button when the dialog closed"
        assert_focus_visible(driver)

        press(driver, Keys.ENTER)
        dialog = wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#consent-dialog[open]"))
        if focused(driver).get_attribute("id") != "consent-agreed":
            tab_to(driver, "the consent checkbox", lambda e: e.get_attribute("id") == "consent-agreed", limit=6)
        press(driver, Keys.SPACE)
        assert driver.find_element(By.ID, "consent-agreed").is_selected()
        tab_to(driver, "Confirm and record", lambda e: e.get_attribute("data-role") == "consent-confirm", limit=4)
        press(driver, Keys.ENTER)
    else:
        press(driver, Keys.ENTER)

    card = driver.find_element(By.CSS_SELECTOR, f'.recorder[data-pet-name="{PET}"]')
    wait_for(driver, lambda d: card.get_attribute("data-state") == "recording")
    wait_spoken(driver, f"Recording {PET}")
    # Focus follows what the page opened: the Pause button of the recorder that just started.
    assert focused(driver).get_attribute("data-action") == "pause"
    assert_focus_visible(driver)
    audit(driver, "clinic appointment while recording")
    time.sleep(2)

    press(driver, Keys.ENTER)
    wait_for(driver, lambda d: card.get_attribute("data-state") == "paused")
    wait_spoken(driver, f"{PET}'s recording paused")
    assert focused(driver).get_attribute("data-action") == "resume"
    time.sleep(1)
    press(driver, Keys.ENTER)
    wait_for(driver, lambda d: card.get_attribute("data-state") == "recording")
    wait_spoken(driver, f"Recording {PET}")
    time.sleep(2)

    tab_to(driver, "the Stop button", is_button_of(driver, "stop"), limit=3)
    press(driver, Keys.ENTER)
    wait_for(driver, lambda d: card.get_attribute("data-uploaded-visit"), 90)
    wait_spoken(driver, f"{PET}'s recording was uploaded")
    said = spoken(driver)
    expected = [f"Recording {PET}", f"{PET}'s recording paused", f"Recording {PET}", f"Uploading {PET}'s recording",
                f"{PET}'s recording was uploaded"]
    assert [text for text in said if text in expected] == expected, said
    assert card.get_attribute("data-state") in ("processing", "transcribed")
    # The upload is over: focus is back on this pet's Record button ("Record again"), visibly.
    assert focused(driver) == card.find_element(By.CSS_SELECTOR, '[data-action="record"]')
    assert_focus_visible(driver)
    audit(driver, "clinic appointment after the upload")


def test_the_week_calendar_books_from_the_keyboard_and_gives_focus_back_to_the_slot(server, browser):
    """The empty slots are one Tab stop (arrows move between them) and Enter opens the booking dialog there; its
    Cancel returns focus to that slot. Moving an appointment by keyboard is its page's Reschedule form."""
    from conftest import sign_in
    sign_in(browser, server.base, "vet1", "password123")
    browser.get(server.base + "/clinic/week")
    tab_to(browser, "the first slot of the week", lambda e: "slot" in (e.get_attribute("class") or ""))
    first = focused(browser).get_attribute("data-at")
    for key in (Keys.ARROW_DOWN, Keys.ARROW_DOWN, Keys.ARROW_RIGHT):
        press(browser, key)
    slot = focused(browser)
    assert slot.get_attribute("data-at") != first and slot.get_attribute("role") == "button"
    assert slot.accessible_name.startswith("Book at ")
    assert_focus_visible(browser)
    press(browser, Keys.ENTER)
    dialog = wait_for(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#new-appointment[open]"))
    assert focused(browser).get_attribute("name") == "owner_search"
    assert dialog.find_element(By.ID, "new-appointment-when").text == slot.get_attribute("data-label")
    tab_to(browser, "the dialog's Cancel button", lambda e: e.get_attribute("data-close") is not None, limit=20)
    press(browser, Keys.ENTER)
    wait_for(browser, lambda d: d.find_element(By.ID, "new-appointment").get_attribute("open") is None)
    assert focused(browser) == slot, "focus did not return to the slot when the dialog closed"
    audit(browser, "clinic week after keyboard booking dialog")
