"""The clinical scribe end to end: a spoken recheck visit with a pause, two drugs and a follow-up
(espeak-ng) is uploaded the way the iPhone app does it, transcribed by the real worker (Whisper tiny.en), and comes
back as a sectioned draft whose sentences play their own seconds of audio; the vet approves it, and the printable
discharge instructions reach the owner's account, while the draft never does.

The sentences are ones tiny.en hears right in espeak-ng's voice (the benchmark measures the hard ones): this test is
about the pipeline from audio to note to owner, not about the recogniser's accuracy.
"""

from __future__ import annotations

import subprocess
import tempfile
import time
import urllib.request
import uuid
from pathlib import Path

from accessibility import audit
from clinic_audio import wait_visit
from conftest import api_json, helppet_token, screenshot, sign_in, wait_for
from selenium.webdriver.common.by import By

SMITH = "d2000000-0000-4000-8000-000000000001"
BELLA = "d3000000-0000-4000-8000-000000000001"
BEFORE_PAUSE = ("Bella is here for a recheck of her ears. The owner says she is eating well. Her temperature is one "
                "hundred one point five degrees and she weighs twenty two kilograms.")
AFTER_PAUSE = ("The left ear is still red. Give carprofen seventy five milligrams by mouth twice a day for five days. "
               "Give amoxicillin two hundred fifty milligrams by mouth twice a day for ten days. Recheck in two weeks.")
PAUSE_SECONDS = 8


def spoken_visit(folder: Path) -> tuple[bytes, float]:
    """The visit as a 16 kHz WAV: the first part, 8 s of silence, the second part; and the pause's start."""
    first, second, out = folder / "a.wav", folder / "b.wav", folder / "visit.wav"
    subprocess.run(["espeak-ng", "-v", "en-us", "-s", "130", "-w", str(first), BEFORE_PAUSE], check=True)
    subprocess.run(["espeak-ng", "-v", "en-us", "-s", "130", "-w", str(second), AFTER_PAUSE], check=True)
    subprocess.run([
        "ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-i", str(first), "-f", "lavfi", "-t", str(PAUSE_SECONDS),
        "-i", "anullsrc=r=16000:cl=mono", "-i", str(second), "-filter_complex",
        "[0:a]aresample=16000[a];[1:a]aresample=16000[s];[2:a]aresample=16000[b];[a][s][b]concat=n=3:v=0:a=1",
        "-ar", "16000", "-ac", "1", str(out)], check=True)
    probe = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0",
                            str(first)], check=True, capture_output=True, text=True)
    return out.read_bytes(), float(probe.stdout.strip())


def upload_like_the_app(base: str, token: str, appointment_id: str, audio: bytes) -> str:
    """initiate → presigned POST straight to storage → complete (seed 001's flow)."""
    status, started = api_json(base, "POST", "/api/v1/visit-transcripts/audio/upload/initiate", token, {
        "pet_id": BELLA, "appointment_id": appointment_id, "filename": "recheck_bella.wav",
        "content_type": "audio/wav"})
    assert status == 200, started
    boundary = "----note" + uuid.uuid4().hex
    body = bytearray()
    for name, value in started["upload_fields"].items():
        body += f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
    body += (f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="recheck_bella.wav"\r\n'
             f'Content-Type: audio/wav\r\n\r\n').encode() + audio + f"\r\n--{boundary}--\r\n".encode()
    url = started["upload_url"] if started["upload_url"].startswith("http") else base + started["upload_url"]
    request = urllib.request.Request(url, data=bytes(body), method="POST",
                                     headers={"Content-Type": f"multipart/form-data; boundary={boundary}"})
    with urllib.request.urlopen(request, timeout=60) as response:
        assert response.status in (200, 201, 204), response.status
    status, completed = api_json(base, "POST", f"/api/v1/visit-transcripts/audio/upload/complete/{started['visit_id']}",
                                 token, {})
    assert status == 200, completed
    return started["visit_id"]


def test_a_spoken_recheck_becomes_a_sectioned_note_and_the_owner_gets_the_discharge_instructions(
        server, browser_factory):
    vet_token = helppet_token(server.base, "vet1", "password123")
    owner_token = helppet_token(server.base, "owner1", "password123")
    status, me = api_json(server.base, "GET", "/api/v1/auth/me", vet_token)
    start = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + 900))
    status, appointment = api_json(server.base, "POST", "/api/v1/appointments", vet_token, {
        "pet_owner_id": SMITH, "pet_ids": [BELLA], "appointment_date": start, "duration_minutes": 30,
        "appointment_type": "follow_up", "title": "Ear recheck - Bella", "assigned_vet_user_id": me["id"]})
    assert status == 201, appointment
    with tempfile.TemporaryDirectory() as folder:
        audio, pause_starts = spoken_visit(Path(folder))
    visit_id = upload_like_the_app(server.base, vet_token, appointment["id"], audio)
    visit = wait_visit(server.base, vet_token, visit_id, {"processed", "failed"})
    assert visit["state"] == "processed", visit["metadata"]

    # The draft: the recheck template's sections, every sentence tied to its own seconds of the recording.
    note = visit["metadata"]["clinical_note"]
    assert note["template"] == "recheck", note
    sentences = [s for section in note["sections"] for s in section["sentences"]]
    assert len(sentences) >= 6, note["sections"]
    # Nothing after the last word said: tiny.en once wrote "Okay." over the tail of this recording.
    assert "weeks" in sentences[-1]["text"].lower(), sentences[-1]
    duration = (len(audio) - 44) / (16000 * 2)  # 16 kHz, 16-bit mono
    for sentence in sentences:
        assert sentence["sources"], sentence
        for span in sentence["sources"]:
            assert 0 <= span["start"] < span["end"] <= duration + 0.5, sentence
    said_before = [s for s in sentences if "temperature" in s["text"].lower()]
    said_after = [s for s in sentences if "carprofen" in s["text"].lower()]
    assert said_before and said_after, sentences
    # Each sentence plays its own stretch: the one after the pause starts after the silence, not at 0.
    assert said_after[0]["sources"][0]["start"] >= pause_starts + PAUSE_SECONDS - 1.5, said_after
    assert said_before[0]["sources"][0]["end"] <= pause_starts + 1.5, said_before

    assert note["vitals"]["temperature"]["value"] == 101.5 and note["vitals"]["temperature"]["unit"] == "°F"
    assert note["vitals"]["weight"]["value"] == 22 and note["vitals"]["weight"]["unit"] == "kg"
    drugs = {m["name"]: m for m in note["medications"]}
    assert set(drugs) == {"carprofen", "amoxicillin"}, note["medications"]
    assert (drugs["carprofen"]["dose"], drugs["carprofen"]["unit"]) == (75, "mg")
    assert (drugs["amoxicillin"]["dose"], drugs["amoxicillin"]["unit"]) == (250, "mg")
    assert drugs["carprofen"]["frequency"] == "twice daily" and drugs["carprofen"]["duration"] == "5 days"
    assert drugs["amoxicillin"]["duration"] == "10 days"
    assert note["follow_up"]["interval_days"] == 14, note["follow_up"]
    assert not note["flags"], note["flags"]  # 75 mg carprofen for 22 kg is 3.4 mg/kg: in range

    # The owner sees nothing of the draft, by the API or the console.
    status, hidden = api_json(server.base, "GET", f"/api/v1/visit-transcripts/{visit_id}/discharge-instructions",
                              owner_token)
    assert status == 409, hidden
    owner = browser_factory()
    sign_in(owner, server.base, "owner1", "password123")
    owner.get(f"{server.base}/clinic/pets/{BELLA}")
    assert "carprofen" not in owner.page_source.lower()

    # The vet's visit page: the note's sections; a sentence plays from its own second.
    vet = browser_factory()
    sign_in(vet, server.base, "vet1", "password123")
    vet.get(f"{server.base}/clinic/visits/{visit_id}")
    card = vet.find_element(By.ID, "clinical-note")
    titles = [h.text for h in card.find_elements(By.CSS_SELECTOR, ".note-section h3")]
    assert titles and all(titles), titles
    assert "carprofen" in card.find_element(By.CSS_SELECTOR, "table.medications").text.lower()
    source = next(b for b in card.find_elements(By.CSS_SELECTOR, "button.note-source") if "carprofen" in b.text.lower())
    source.click()
    wanted = float(source.get_attribute("data-start"))
    wait_for(vet, lambda d: abs(d.execute_script("return document.getElementById('visit-player').currentTime")
                                - wanted) < 1.5, 30)
    screenshot(vet, "clinic-visit-note-desktop")
    audit(vet, "clinic visit with its clinical note")
    assert_fits_a_phone(vet, "clinic-visit-note-phone", "#clinical-note", also=drug_names_stay_whole)

    # Approval; then the printable discharge instructions, for the vet and for the owner's own account.
    vet.find_element(By.CSS_SELECTOR, "#approve-note button[type=submit]").click()
    wait_for(vet, lambda d: d.find_element(By.CSS_SELECTOR, '[data-role="summary-status"]').text == "Approved")
    audit(vet, "clinic visit with its note approved")
    status, instructions = api_json(server.base, "GET",
                                    f"/api/v1/visit-transcripts/{visit_id}/discharge-instructions", owner_token)
    assert status == 200, instructions
    owner.get(f"{server.base}/clinic/pets/{BELLA}")
    owner.find_element(By.LINK_TEXT, "Discharge instructions").click()
    wait_for(owner, lambda d: d.find_elements(By.ID, "discharge"))
    page = owner.find_element(By.ID, "discharge").text
    assert "Carprofen: Give 75 mg by mouth twice a day (every 12 hours) for 5 days." in page, page
    assert "Amoxicillin: Give 250 mg by mouth twice a day (every 12 hours) for 10 days." in page, page
    assert "In 2 weeks" in page, page
    assert owner.find_element(By.ID, "print").is_displayed()
    screenshot(owner, "clinic-discharge-owner-desktop")
    audit(owner, "clinic discharge instructions (screen)")
    owner.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    audit(owner, "clinic discharge instructions (print)")
    owner.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
    assert_fits_a_phone(owner, "clinic-discharge-owner-phone", "#discharge")


def drug_names_stay_whole(browser):
    """Each drug name of the medications table is on one line: the console's `overflow-wrap: anywhere` once split
    them mid-word on a phone ("carprof" / "en")."""
    lines = browser.execute_script(
        "return [...document.querySelectorAll('#clinical-note table.medications tbody td:first-child')].map(td => {"
        " const range = document.createRange(); range.selectNodeContents(td);"
        " return [td.textContent, range.getClientRects().length]; })")
    assert lines and all(count == 1 for _, count in lines), lines


def assert_fits_a_phone(browser, name, selector, also=None):
    """Owners read their instructions on a phone, vets check notes on one: the page may not scroll sideways and the
    card stays inside the screen's width. `also`: a further check made at the phone's width."""
    size = browser.get_window_size()
    browser.set_window_size(375, 812)
    try:
        wait_for(browser, lambda d: d.execute_script("return document.documentElement.clientWidth") <= 375)
        overflow = browser.execute_script(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 1, f"{name} scrolls sideways ({overflow}px)"
        right = browser.execute_script(
            "return document.querySelector(arguments[0]).getBoundingClientRect().right", selector)
        assert right <= 376, f"{selector} reaches {right}px on a 375px screen"
        if also:
            also(browser)
        screenshot(browser, name)
    finally:
        browser.set_window_size(size["width"], size["height"])


NO_RETURN = ("Bella is here for a recheck. Her temperature is one hundred one point five degrees and she weighs "
             "twenty two kilograms. Heart and lungs sound normal. Give carprofen seventy five milligrams by mouth "
             "twice a day for five days.")


def test_a_visit_said_without_a_return_has_no_follow_up_anywhere_and_a_dose_the_vet_corrects_reaches_the_owner(
        server, browser_factory):
    """'Here for a recheck' is why Bella came, not an instruction to come back: no follow-up in the note, the API's
    summary or the owner's discharge page. The vet corrects the carprofen dose (and the sentence that says it) in
    the console, approves, and the owner's discharge page shows the corrected dose."""
    vet_token = helppet_token(server.base, "vet1", "password123")
    owner_token = helppet_token(server.base, "owner1", "password123")
    status, me = api_json(server.base, "GET", "/api/v1/auth/me", vet_token)
    start = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + 1800))
    status, appointment = api_json(server.base, "POST", "/api/v1/appointments", vet_token, {
        "pet_owner_id": SMITH, "pet_ids": [BELLA], "appointment_date": start, "duration_minutes": 30,
        "appointment_type": "checkup", "title": "Recheck - Bella", "assigned_vet_user_id": me["id"]})
    assert status == 201, appointment
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "visit.wav"
        subprocess.run(["espeak-ng", "-v", "en-us", "-s", "130", "-w", str(path), NO_RETURN], check=True)
        audio = path.read_bytes()
    visit_id = upload_like_the_app(server.base, vet_token, appointment["id"], audio)
    visit = wait_visit(server.base, vet_token, visit_id, {"processed", "failed"})
    assert visit["state"] == "processed", visit["metadata"]
    note = visit["metadata"]["clinical_note"]
    assert note.get("follow_up") is None, note
    assert "Follow-up" not in (visit["summary"] or ""), visit["summary"]
    assert [(m["name"], m["dose"]) for m in note["medications"]] == [("carprofen", 75)], note["medications"]

    vet = browser_factory()
    sign_in(vet, server.base, "vet1", "password123")
    vet.get(f"{server.base}/clinic/visits/{visit_id}")
    assert not vet.find_elements(By.CSS_SELECTOR, "#clinical-note .follow-up")
    vet.find_element(By.CSS_SELECTOR, "details.correct-note summary").click()
    audit(vet, "clinic visit with the note correction form open")
    form = vet.find_element(By.ID, "note-correction")
    dose = form.find_element(By.CSS_SELECTOR, '[data-medication="0"] [data-part="dose"]')
    dose.clear()
    dose.send_keys("50")
    # The sentence that says the dose is corrected too; otherwise the note would say both (and is flagged).
    for area in form.find_elements(By.CSS_SELECTOR, "textarea[data-section-key]"):
        if "75" in area.get_attribute("value"):
            corrected = area.get_attribute("value").replace("75", "50")
            area.clear()
            area.send_keys(corrected)
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait_for(vet, lambda d: "Corrected 1 time" in d.page_source, 30)
    assert "50 mg" in vet.find_element(By.CSS_SELECTOR, "#clinical-note table.medications").text
    assert not vet.find_elements(By.CSS_SELECTOR, '[data-flag="sentence_disagrees"]')
    status, corrected_visit = api_json(server.base, "GET", f"/api/v1/visit-transcripts/{visit_id}", vet_token)
    assert "Carprofen 50 mg twice daily for 5 days" in corrected_visit["summary"], corrected_visit["summary"]
    assert "75" not in corrected_visit["summary"], corrected_visit["summary"]
    screenshot(vet, "clinic-visit-note-corrected-desktop")

    vet.find_element(By.CSS_SELECTOR, "#approve-note button[type=submit]").click()
    wait_for(vet, lambda d: d.find_element(By.CSS_SELECTOR, '[data-role="summary-status"]').text == "Approved")
    status, approved = api_json(server.base, "GET", f"/api/v1/visit-transcripts/{visit_id}", owner_token)
    assert approved["summary"] == corrected_visit["summary"], approved

    owner = browser_factory()
    sign_in(owner, server.base, "owner1", "password123")
    owner.get(f"{server.base}/clinic/visits/{visit_id}/discharge")
    wait_for(owner, lambda d: d.find_elements(By.ID, "discharge"))
    page = owner.find_element(By.ID, "discharge").text
    assert "Carprofen: Give 50 mg by mouth twice a day (every 12 hours) for 5 days." in page, page
    assert "75" not in page and "come back" not in page.lower(), page
