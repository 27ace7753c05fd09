"""Helpers of the clinic recording suite: spoken clips from espeak-ng, a Chromium with a profile folder the test
controls (IndexedDB must survive a closed browser), driving one pet's recorder, and reading back what storage holds.
"""

from __future__ import annotations

import hashlib
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

from conftest import CHROMEDRIVER, CHROMIUM, api_json, sign_in, wait_for
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By


def spoken_clip(folder: Path, name: str, sentence: str) -> Path:
    """A WAV of `sentence` (espeak-ng), with a second of silence after it: Chromium loops the file as the microphone,
    so the pause keeps the repeats apart for the transcriber."""
    path = folder / f"{name}.wav"
    subprocess.run(["espeak-ng", "-v", "en-us", "-s", "130", "-w", str(path), sentence + " ... ... ..."], check=True,
                   capture_output=True)
    assert path.stat().st_size > 10_000, "espeak-ng wrote no audio"
    return path


def profile_browser(audio: Path | None, profile: Path, width: int = 1280, height: int = 900) -> webdriver.Chrome:
    """conftest's browser, plus `--user-data-dir`, so a second browser on the same folder sees the first one's
    IndexedDB (the survival case)."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
                     "--autoplay-policy=no-user-gesture-required", f"--window-size={width},{height}",
                     "--disable-features=MediaRouter,OptimizationHints", "--no-first-run",
                     f"--user-data-dir={profile}"):
        options.add_argument(argument)
    if audio is not None:
        options.add_argument(f"--use-file-for-fake-audio-capture={audio}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_window_size(width, height)
    return driver


def open_appointment(driver, base: str, appointment_id: str, user: str = "vet1", password: str = "password123"):
    """Opens the appointment page, signing in first when the browser has no session."""
    driver.get(f"{base}/clinic/appointments/{appointment_id}")
    if "/login" in driver.current_url:
        sign_in(driver, base, user, password)
        driver.get(f"{base}/clinic/appointments/{appointment_id}")
    wait_for(driver, lambda d: d.find_element(By.ID, "recorders").get_attribute("data-ready") == "true")


def recorder(driver, pet_name: str):
    return driver.find_element(By.CSS_SELECTOR, f'.recorder[data-pet-name="{pet_name}"]')


def start_recording(driver, pet_name: str) -> None:
    """Clicks Record and answers the consent question when the page asks it (the appointment's first recording)."""
    recorder(driver, pet_name).find_element(By.CSS_SELECTOR, '[data-action="record"]').click()
    dialog = driver.find_element(By.ID, "consent-dialog")
    time.sleep(0.3)
    if dialog.get_attribute("open") is not None:
        dialog.find_element(By.ID, "consent-agreed").click()
        dialog.find_element(By.CSS_SELECTOR, '[data-role="consent-confirm"]').click()
    wait_for(driver, lambda d: recorder(d, pet_name).get_attribute("data-state") == "recording")


def stop_recording(driver, pet_name: str) -> None:
    recorder(driver, pet_name).find_element(By.CSS_SELECTOR, '[data-action="stop"]').click()


def wait_uploaded(driver, pet_name: str, timeout: float = 90) -> dict:
    """Waits until the page says the recording was completed; returns what it uploaded (visit, bytes, SHA-256)."""
    wait_for(driver, lambda d: recorder(d, pet_name).get_attribute("data-uploaded-visit"), timeout)
    card = recorder(driver, pet_name)
    return {"visit_id": card.get_attribute("data-uploaded-visit"),
            "size": int(card.get_attribute("data-uploaded-bytes")),
            "sha256": card.get_attribute("data-uploaded-sha256"),
            "type": card.get_attribute("data-uploaded-type")}


def stored_object(base: str, token: str, visit_id: str) -> bytes:
    """The current recording's bytes, fetched through the API's playback URL (as any client would)."""
    status, body = api_json(base, "GET", f"/api/v1/visit-transcripts/audio/playback/{visit_id}", token)
    assert status == 200, body
    with urllib.request.urlopen(body["presigned_url"], timeout=30) as response:
        return response.read()


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def wait_visit(base: str, token: str, visit_id: str, states: set[str], timeout: float = 240) -> dict:
    deadline = time.time() + timeout
    while True:
        status, visit = api_json(base, "GET", f"/api/v1/visit-transcripts/{visit_id}", token)
        assert status == 200, visit
        if visit["state"] in states:
            return visit
        assert time.time() < deadline, f"visit {visit_id} stayed {visit['state']}: {visit['metadata']}"
        time.sleep(1)


def new_appointment(base: str, token: str, owner_id: str, pet_ids: list[str], title: str) -> str:
    """A fresh appointment for today (its recording slots are empty), so each case starts clean."""
    status, me = api_json(base, "GET", "/api/v1/auth/me", token)
    assert status == 200, me
    start = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + 600))
    status, body = api_json(base, "POST", "/api/v1/appointments", token, {
        "pet_owner_id": owner_id, "pet_ids": pet_ids, "appointment_date": start, "duration_minutes": 30,
        "title": title, "assigned_vet_user_id": me["id"]})
    assert status == 201, body
    return body["id"]


def webm_header_duration(data: bytes) -> float | None:
    """The duration ffprobe reads from a recording's container without decoding it; None when it has none (a
    browser's MediaRecorder WebM)."""
    with tempfile.NamedTemporaryFile(suffix=".webm") as file:
        file.write(data)
        file.flush()
        probed = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0",
                                 file.name], capture_output=True, text=True, check=True).stdout.strip()
    return None if probed in ("", "N/A") else float(probed)
