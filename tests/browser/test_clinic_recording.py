"""Recording in the browser: one recorder per pet on the appointment page, the presigned
upload straight to storage, recordings that survive a closed browser and a dead network, and the visit page with
its transcript. Chromium's fake microphone plays an espeak-ng clip; one browser per clip, since Chromium loops the
file it was started with.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

import pytest
from accessibility import audit
from clinic_audio import (
    new_appointment, open_appointment, profile_browser, recorder, sha256, spoken_clip, start_recording,
    stop_recording, stored_object, wait_uploaded, wait_visit, webm_header_duration)
from conftest import api_json, helppet_token, screenshot, sign_in, wait_for
from selenium.webdriver.common.by import By

MULTI_PET_TITLE = "Multi-pet Wellness Exam - Smith Family"
# A different sentence per pet, with words the transcript check looks for. Chosen because the small Whisper model
# hears espeak-ng's voice right on them (pet names and drug names it does not).
SENTENCES = {
    "Bella": ("Her weight is good and her coat is shiny.", ["weight", "coat", "shiny"]),
    "Max": ("Give him one tablet every morning with food.", ["tablet", "morning", "food"]),
    "Mittens": ("The cat should drink more water every day.", ["cat", "drink", "water"]),
}
PRIYA = "d2000000-0000-4000-8000-000000000004"
LUNA = "d3000000-0000-4000-8000-000000000006"
CHARLIE = "d3000000-0000-4000-8000-000000000007"


@pytest.fixture(scope="module")
def clips():
    folder = Path(tempfile.mkdtemp(prefix="clinic-clips-"))
    made = {pet: spoken_clip(folder, pet.lower(), sentence) for pet, (sentence, _) in SENTENCES.items()}
    yield made
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def profiles():
    """Browsers on profile folders this test owns (IndexedDB lives there), quit and removed afterwards."""
    made = []
    folders = []

    def factory(audio, profile: Path | None = None, width: int = 1280, height: int = 900):
        if profile is None:
            profile = Path(tempfile.mkdtemp(prefix="clinic-profile-"))
            folders.append(profile)
        driver = profile_browser(audio, profile, width, height)
        made.append(driver)
        return driver, profile

    yield factory
    for driver in made:
        try:
            driver.quit()
        except Exception:  # noqa: BLE001 - the test quit it on purpose
            pass
    for folder in folders:
        shutil.rmtree(folder, ignore_errors=True)


def words_of(text: str) -> set[str]:
    return {w.strip(".,!?;:'\"").lower() for w in text.split()}


def test_a_vet_records_each_pet_of_the_multi_pet_appointment_and_reads_the_transcripts(server, browser_factory, clips):
    token = helppet_token(server.base, "vet1", "password123")
    uploaded = {}
    appointment_id = None
    for pet, clip in clips.items():
        driver = browser_factory(audio=clip)
        sign_in(driver, server.base, "vet1", "password123")
        wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board article.appointment"))
        driver.find_element(By.LINK_TEXT, MULTI_PET_TITLE).click()
        wait_for(driver, lambda d: d.find_element(By.ID, "recorders").get_attribute("data-ready") == "true")
        appointment_id = driver.find_element(By.ID, "recorders").get_attribute("data-appointment-id")
        cards = [c.get_attribute("data-pet-name") for c in driver.find_elements(By.CSS_SELECTOR, ".recorder")]
        assert cards == ["Bella", "Max", "Mittens"]
        start_recording(driver, pet)
        time.sleep(2.5)
        # The timer runs and the level meter moves while the clip plays.
        card = recorder(driver, pet)
        assert card.find_element(By.CSS_SELECTOR, '[data-role="timer"]').text != "0:00"
        levels = []
        for _ in range(10):
            levels.append(float(card.find_element(By.CSS_SELECTOR, "meter").get_attribute("value")))
            time.sleep(0.1)
        assert max(levels) > 0, "the level meter never moved"
        if pet == "Max":
            # Pause and resume: the recording goes on in one file.
            card.find_element(By.CSS_SELECTOR, '[data-action="pause"]').click()
            wait_for(driver, lambda d: recorder(d, pet).get_attribute("data-state") == "paused")
            time.sleep(1)
            card.find_element(By.CSS_SELECTOR, '[data-action="resume"]').click()
        time.sleep(4.5)
        if pet == "Bella":
            screenshot(driver, "clinic-appointment-recording-desktop")
            audit(driver, "clinic appointment while recording")
        stop_recording(driver, pet)
        uploaded[pet] = wait_uploaded(driver, pet)
        if pet == "Bella":
            audit(driver, "clinic appointment after the upload")
        assert uploaded[pet]["type"] == "audio/webm"

    # Through the API: exactly three visits, one per pet, each holding byte for byte what its page uploaded.
    status, visits = api_json(server.base, "GET",
                              f"/api/v1/visit-transcripts/appointments/{appointment_id}/visits?include_pending=true",
                              token)
    assert status == 200, visits
    assert len(visits) == 3
    status, appointment = api_json(server.base, "GET", f"/api/v1/appointments/{appointment_id}", token)
    pets = {p["name"]: p["id"] for p in appointment["pets"]}
    assert sorted(v["pet_id"] for v in visits) == sorted(pets.values())
    by_pet = {v["pet_id"]: v for v in visits}
    for pet, sent in uploaded.items():
        visit = by_pet[pets[pet]]
        assert visit["uuid"] == sent["visit_id"]
        assert visit["metadata"]["content_type"] == "audio/webm"
        assert visit["metadata"]["file_size_bytes"] == sent["size"]
        stored = stored_object(server.base, token, visit["uuid"])
        assert len(stored) == sent["size"] and sha256(stored) == sent["sha256"], f"{pet}'s object differs"

    # After the worker ran, each pet's visit page shows its own clip's words.
    viewer = browser_factory()
    sign_in(viewer, server.base, "vet1", "password123")
    for pet, sent in uploaded.items():
        visit = wait_visit(server.base, token, sent["visit_id"], {"processed", "failed"})
        assert visit["state"] == "processed", visit["metadata"]
        viewer.get(f"{server.base}/clinic/visits/{sent['visit_id']}")
        transcript = wait_for(viewer, lambda d: d.find_element(By.ID, "transcript")).text
        expected = SENTENCES[pet][1]
        # Loose: the clip loops, so a word may be cut or glued to the next repeat.
        heard = [w for w in expected if w in transcript.lower()]
        assert len(heard) >= 2, f"{pet}: expected some of {expected} in {transcript!r}"
        others = [w for other, (_, ws) in SENTENCES.items() if other != pet for w in ws]
        assert not [w for w in others if w in words_of(transcript)], f"{pet}'s page shows another clip: {transcript!r}"
    bella = uploaded["Bella"]["visit_id"]
    viewer.get(f"{server.base}/clinic/visits/{bella}")
    wait_for(viewer, lambda d: d.find_elements(By.CSS_SELECTOR, "button.segment"))
    # The browser's WebM says nothing of its length (ffprobe: N/A), yet the player learns it before anything is
    # played and seeks anywhere, and the stored object stays the uploaded bytes.
    stored = stored_object(server.base, token, bella)
    assert sha256(stored) == uploaded["Bella"]["sha256"]
    assert webm_header_duration(stored) is None, "the test needs a recording without a duration in its header"
    length = wait_visit(server.base, token, bella, {"processed"})["metadata"]["audio_duration_seconds"]
    wait_for(viewer, lambda d: d.execute_script(
        "const p = document.getElementById('visit-player'); return Number.isFinite(p.duration) && p.duration > 0"))
    duration = viewer.execute_script("return document.getElementById('visit-player').duration")
    assert abs(duration - length) < 1.0, (duration, length)
    viewer.execute_script("const p = document.getElementById('visit-player'); p.pause(); p.currentTime = p.duration - 1;")
    wait_for(viewer, lambda d: d.execute_script(
        "const p = document.getElementById('visit-player'); return !p.seeking && Math.abs(p.currentTime - (p.duration - 1)) < 0.3"))
    # A segment click seeks the player to the segment's start.
    segment = viewer.find_elements(By.CSS_SELECTOR, "button.segment")[-1]
    wait_for(viewer, lambda d: d.execute_script("return document.getElementById('visit-player').readyState") >= 1)
    segment.click()
    wanted = float(segment.get_attribute("data-start"))
    wait_for(viewer, lambda d: abs(d.execute_script(
        "return document.getElementById('visit-player').currentTime") - wanted) < 1.0)
    screenshot(viewer, "clinic-visit-desktop")
    viewer.set_window_size(375, 800)
    screenshot(viewer, "clinic-visit-phone")
    viewer.set_window_size(1280, 900)
    viewer.get(f"{server.base}/clinic/appointments/{appointment_id}")
    wait_for(viewer, lambda d: all(c.get_attribute("data-state") == "transcribed"
                                   for c in d.find_elements(By.CSS_SELECTOR, ".recorder")))
    screenshot(viewer, "clinic-appointment-desktop")
    viewer.set_window_size(375, 800)
    screenshot(viewer, "clinic-appointment-phone")

    # The owner's agreement, confirmed once before the first recording, was stored by the server on every visit
    # with who confirmed it and when.
    for pet, sent in uploaded.items():
        status, visit = api_json(server.base, "GET", f"/api/v1/visit-transcripts/{sent['visit_id']}", token)
        consent = visit["metadata"].get("recording_consent")
        assert consent and consent["confirmed_by"] == appointment["assigned_vet_user_id"], visit["metadata"]
        assert consent["confirmed_at"].endswith("Z")


def test_a_recording_cut_off_by_a_closed_browser_is_offered_and_uploaded_when_the_page_opens_again(
        server, profiles, clips):
    token = helppet_token(server.base, "vet1", "password123")
    appointment_id = new_appointment(server.base, token, PRIYA, [LUNA], "Survival check - Luna")
    first, profile = profiles(clips["Bella"])
    open_appointment(first, server.base, appointment_id)
    start_recording(first, "Luna")
    time.sleep(5.5)
    # Killed before any Stop: nothing was uploaded, the chunks are in this profile's IndexedDB.
    first.quit()
    status, visits = api_json(server.base, "GET",
                              f"/api/v1/visit-transcripts/appointments/{appointment_id}/visits?include_pending=true",
                              token)
    assert status == 200 and visits == [], visits

    second, _ = profiles(None, profile)
    open_appointment(second, server.base, appointment_id)
    offer = wait_for(second, lambda d: d.find_element(By.CSS_SELECTOR, '[data-action="upload-unsent"]'))
    assert offer.text.startswith("Upload the unsent recording of Luna from ")
    assert "0:0" in recorder(second, "Luna").find_element(By.CSS_SELECTOR, '[data-role="offer"]').text
    screenshot(second, "clinic-appointment-unsent-desktop")
    offer.click()
    sent = wait_uploaded(second, "Luna")
    visit = wait_visit(server.base, token, sent["visit_id"], {"processing", "processed", "failed"}, timeout=30)
    assert visit["metadata"]["completion_source"] == "client"
    assert sha256(stored_object(server.base, token, sent["visit_id"])) == sent["sha256"]
    # About five seconds made it (chunks are saved every second).
    assert sent["size"] > 20_000, sent
    # Once completed it is gone from the browser: a reload offers nothing.
    second.refresh()
    open_appointment(second, server.base, appointment_id)
    time.sleep(1)
    assert not second.find_elements(By.CSS_SELECTOR, '[data-action="upload-unsent"]')


def test_an_upload_blocked_by_the_network_is_retried_and_completed_once_storage_is_reachable(server, profiles, clips):
    token = helppet_token(server.base, "vet1", "password123")
    appointment_id = new_appointment(server.base, token, PRIYA, [CHARLIE], "Offline check - Charlie")
    driver, _ = profiles(clips["Max"])
    open_appointment(driver, server.base, appointment_id)
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/storage/*"]})
    start_recording(driver, "Charlie")
    time.sleep(4)
    stop_recording(driver, "Charlie")
    wait_for(driver, lambda d: "retrying" in recorder(d, "Charlie").find_element(
        By.CSS_SELECTOR, '[data-role="message"]').text, 30)
    assert recorder(driver, "Charlie").get_attribute("data-state") == "unsent"
    # Not completed, and still held by the browser.
    status, visits = api_json(server.base, "GET",
                              f"/api/v1/visit-transcripts/appointments/{appointment_id}/visits?include_pending=true",
                              token)
    assert status == 200 and [v["state"] for v in visits] == ["new"], visits
    held = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const open = indexedDB.open("helppet-recorder");
        open.onsuccess = () => { const r = open.result.transaction("recordings").objectStore("recordings").getAll();
          r.onsuccess = () => done(r.result.map((x) => x.petName)); };
    """)
    assert held == ["Charlie"]
    screenshot(driver, "clinic-appointment-offline-desktop")
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
    sent = wait_uploaded(driver, "Charlie", timeout=60)
    visit = wait_visit(server.base, token, sent["visit_id"], {"processing", "processed", "failed"}, timeout=30)
    assert visit["metadata"]["attempt"] == 1
    assert sha256(stored_object(server.base, token, sent["visit_id"])) == sent["sha256"]
    held = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const open = indexedDB.open("helppet-recorder");
        open.onsuccess = () => { const r = open.result.transaction("recordings").objectStore("recordings").getAll();
          r.onsuccess = () => done(r.result.length); };
    """)
    assert held == 0


def test_a_practice_that_requires_consent_refuses_a_recording_until_the_vet_confirmed_the_owners_agreement(
        server, browser):
    admin = helppet_token(server.base, "admin", "admin123")
    token = helppet_token(server.base, "vet1", "password123")
    status, me = api_json(server.base, "GET", "/api/v1/auth/me", token)
    practice = me["practice_id"]
    appointment_id = new_appointment(server.base, token, PRIYA, [LUNA, CHARLIE], "Consent check - Patel pets")
    initiate = "/api/v1/visit-transcripts/audio/upload/initiate"
    body = {"pet_id": LUNA, "appointment_id": appointment_id, "filename": "luna.webm", "content_type": "audio/webm"}
    # Off (the default): an initiate without the field works as it always did, and records no consent.
    status, answer = api_json(server.base, "POST", initiate, token, {**body, "pet_id": CHARLIE})
    assert status == 200, answer
    status, visit = api_json(server.base, "GET", f"/api/v1/visit-transcripts/{answer['visit_id']}", token)
    assert "recording_consent" not in visit["metadata"]
    status, updated = api_json(server.base, "PUT", f"/api/v1/practices/{practice}", admin,
                               {"recording_consent_required": True})
    assert status == 200 and updated["recording_consent_required"] is True, updated
    try:
        status, refused = api_json(server.base, "POST", initiate, token, body)
        assert status == 400, refused
        assert refused["detail"] == ("This practice records only with the owner's agreement: confirm it with "
                                     "owner_consent_confirmed: true")
        status, answer = api_json(server.base, "POST", initiate, token, {**body, "owner_consent_confirmed": True})
        assert status == 200, answer
        status, visit = api_json(server.base, "GET", f"/api/v1/visit-transcripts/{answer['visit_id']}", token)
        consent = visit["metadata"]["recording_consent"]
        assert consent["confirmed_by"] == me["id"] and consent["confirmed_at"].endswith("Z")
        # Asked once per appointment: the other pet's initiate carries the first confirmation over, unchanged.
        status, other = api_json(server.base, "POST", initiate, token, {**body, "pet_id": CHARLIE})
        assert status == 200, other
        status, visit = api_json(server.base, "GET", f"/api/v1/visit-transcripts/{other['visit_id']}", token)
        assert visit["metadata"]["recording_consent"] == consent
        # Nobody writes it by hand.
        status, forged = api_json(server.base, "PUT", f"/api/v1/visit-transcripts/{other['visit_id']}", token,
                                  {"metadata": {"recording_consent": {"confirmed_by": "someone"}}})
        assert status == 400 and forged["detail"] == "metadata key 'recording_consent' is managed by the server"
        # The page asks before the first recording of a fresh appointment, with no way round it.
        fresh = new_appointment(server.base, token, PRIYA, [LUNA], "Consent dialog - Luna")
        open_appointment(browser, server.base, fresh)
        recorder(browser, "Luna").find_element(By.CSS_SELECTOR, '[data-action="record"]').click()
        dialog = wait_for(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#consent-dialog[open]"))
        assert not dialog.find_elements(By.CSS_SELECTOR, '[data-role="consent-skip"]')
        assert not dialog.find_element(By.CSS_SELECTOR, '[data-role="consent-confirm"]').is_enabled()
        screenshot(browser, "clinic-appointment-consent-desktop")
        dialog.find_element(By.CSS_SELECTOR, 'button[value="cancel"]').click()
        assert recorder(browser, "Luna").get_attribute("data-state") == "none"
    finally:
        status, _ = api_json(server.base, "PUT", f"/api/v1/practices/{practice}", admin,
                             {"recording_consent_required": False})
        assert status == 200


DEMO_VISIT = "d5000000-0000-4000-8000-000000000001"  # Bella's manual visit of the demo data


def test_pet_owners_and_other_practices_get_the_apis_404_for_visit_and_appointment_pages(server, browser_factory):
    admin = helppet_token(server.base, "admin", "admin123")
    status, practice = api_json(server.base, "POST", "/api/v1/practices", admin,
                                {"name": "Other Town Vets", "timezone": "Europe/Berlin"})
    assert status == 201, practice
    status, user = api_json(server.base, "POST", "/api/v1/users", admin, {
        "username": "othervet", "password": "password123", "email": "othervet@example.com",
        "full_name": "Dr. Other", "role": "VET_STAFF", "practice_id": practice["id"]})
    assert status == 201, user
    token = helppet_token(server.base, "vet1", "password123")
    appointment_id = new_appointment(server.base, token, PRIYA, [LUNA], "Scope check - Luna")
    # The demo's own vet sees both pages.
    vet = browser_factory()
    sign_in(vet, server.base, "vet1", "password123")
    vet.get(f"{server.base}/clinic/visits/{DEMO_VISIT}")
    assert vet.find_element(By.TAG_NAME, "h1").text == "Visit of Bella"
    assert "Patient presented for routine wellness exam" in vet.find_element(By.ID, "transcript").text
    for username in ("othervet", "owner1"):
        driver = browser_factory()
        sign_in(driver, server.base, username, "password123")
        driver.get(f"{server.base}/clinic/visits/{DEMO_VISIT}")
        assert driver.find_element(By.CSS_SELECTOR, ".error-message").text == "Visit not found", username
        driver.get(f"{server.base}/clinic/appointments/{appointment_id}")
        assert driver.find_element(By.CSS_SELECTOR, ".error-message").text == "Appointment not found", username
        # The API agrees.
        other = helppet_token(server.base, username, "password123")
        status, _ = api_json(server.base, "GET", f"/api/v1/appointments/{appointment_id}", other)
        assert status == 404


def test_the_appointment_page_reschedules_in_the_practice_zone_shows_the_apis_messages_and_cancels(server, browser):
    token = helppet_token(server.base, "vet1", "password123")
    appointment_id = new_appointment(server.base, token, PRIYA, [CHARLIE], "Reschedule check - Charlie")
    open_appointment(browser, server.base, appointment_id)
    form = browser.find_element(By.ID, "reschedule-form")
    duration = form.find_element(By.NAME, "duration_minutes")
    duration.clear()
    duration.send_keys("1000")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    error = wait_for(browser, lambda d: d.find_element(By.ID, "field-duration_minutes-error").text)
    assert error == "duration_minutes must be between 5 and 480"
    # 09:30 on the practice's clock (America/Los_Angeles), whatever the browser's zone: July is daylight time.
    browser.execute_script("""
        const input = document.getElementById('field-appointment_date');
        input.value = '2030-07-01T09:30';""")
    duration.clear()
    duration.send_keys("45")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait_for(browser, lambda d: api_json(server.base, "GET", f"/api/v1/appointments/{appointment_id}", token)[1]
             ["duration_minutes"] == 45)
    status, appointment = api_json(server.base, "GET", f"/api/v1/appointments/{appointment_id}", token)
    assert appointment["appointment_date"] == "2030-07-01T16:30:00Z"
    notes = wait_for(browser, lambda d: d.find_element(By.NAME, "notes"))
    time.sleep(1)  # the page reloads after a saved form
    notes = browser.find_element(By.NAME, "notes")
    notes.send_keys("Bring the vaccination card.")
    notes.find_element(By.XPATH, "./ancestor::form//button[@type='submit']").click()
    wait_for(browser, lambda d: api_json(server.base, "GET", f"/api/v1/appointments/{appointment_id}", token)[1]
             ["notes"] == "Bring the vaccination card.")
    time.sleep(1)
    browser.find_element(By.XPATH, "//button[text()='Cancel appointment']").click()
    browser.switch_to.alert.accept()
    wait_for(browser, lambda d: d.find_element(By.CSS_SELECTOR, ".status-badge").get_attribute("data-status")
             == "cancelled")
    assert not recorder(browser, "Charlie").find_element(By.CSS_SELECTOR, '[data-action="record"]').is_enabled()
    status, appointment = api_json(server.base, "GET", f"/api/v1/appointments/{appointment_id}", token)
    assert appointment["status"] == "cancelled"


def test_recording_a_pet_again_replaces_its_recording_and_keeps_the_old_one(server, browser_factory, clips):
    token = helppet_token(server.base, "vet1", "password123")
    appointment_id = new_appointment(server.base, token, PRIYA, [LUNA], "Re-record check - Luna")
    driver = browser_factory(audio=clips["Mittens"])
    open_appointment(driver, server.base, appointment_id)
    start_recording(driver, "Luna")
    time.sleep(3)
    stop_recording(driver, "Luna")
    first = wait_uploaded(driver, "Luna")
    card = recorder(driver, "Luna")
    wait_for(driver, lambda d: card.find_element(By.CSS_SELECTOR, '[data-action="record"]').text == "Record again")
    wait_for(driver, lambda d: card.find_element(By.CSS_SELECTOR, '[data-role="player"]').get_attribute("src"))
    start_recording(driver, "Luna")
    time.sleep(4)
    stop_recording(driver, "Luna")
    wait_for(driver, lambda d: recorder(d, "Luna").get_attribute("data-uploaded-sha256") != first["sha256"], 60)
    second = wait_uploaded(driver, "Luna")
    assert second["visit_id"] == first["visit_id"]
    visit = wait_visit(server.base, token, second["visit_id"], {"processing", "processed", "failed"}, timeout=30)
    assert visit["metadata"]["attempt"] == 2
    previous = visit["metadata"]["previous_recordings"]
    assert len(previous) == 1 and previous[0]["attempt"] == 1 and previous[0]["file_size_bytes"] == first["size"]
    assert sha256(stored_object(server.base, token, second["visit_id"])) == second["sha256"]
    driver.refresh()
    wait_for(driver, lambda d: "1 earlier recording kept" in recorder(d, "Luna").text)
