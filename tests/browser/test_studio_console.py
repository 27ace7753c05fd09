"""The studio console in a real Chromium: the seed 004 set-up story end to end.

Sign in as the AutoDetail admin, create a service (with a validation message next to its field first), create an
organisation key on /settings/api-keys and read it from the page, book through the client API with that key over
plain HTTP, find the booking on the week calendar, move it through its statuses from its page, upload a before and
an after photo through the presigned PUT flow and fetch them back byte-identical, revoke the key and see the next
client call rejected, CSRF and sign-out checks over plain HTTP with the session cookie, and screenshots of every
page at 1280 and 375 pixels.
"""

from __future__ import annotations

import json
import re
import subprocess
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC

from accessibility import audit
from conftest import STUDIO_ADMIN_PASSWORD, api_json, screenshot, sign_in, wait_for

MOUNT = "/studio"


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # noqa: D102 - keep 3xx answers as they are
        return None


def raw_call(base, method, path, cookie=None, csrf=None, body=None, headers=None):
    """(status, headers, body bytes) of a plain HTTP call, redirects not followed."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    if body is not None:
        request.add_header("Content-Type", "application/json")
    if cookie:
        request.add_header("Cookie", f"autodetail_session={cookie}")
    if csrf is not None:
        request.add_header("X-CSRF-Token", csrf)
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(request, timeout=30) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def make_jpeg(path: Path, colour: str) -> bytes:
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i", f"color={colour}:s=640x480",
                    "-frames:v", "1", str(path)], check=True)
    data = path.read_bytes()
    assert data[:2] == b"\xff\xd8", "ffmpeg did not write a JPEG"
    return data


def session_cookie(driver) -> str:
    cookie = driver.get_cookie("autodetail_session")
    assert cookie and cookie["value"].startswith("adm_"), cookie
    assert cookie["httpOnly"], "the session cookie must not be readable by scripts"
    return cookie["value"]


def csrf_of(driver) -> str:
    return driver.find_element(By.CSS_SELECTOR, 'meta[name="csrf-token"]').get_attribute("content")


def reload_after(driver, action):
    """Runs `action` (which makes the page reload) and waits for the new page."""
    marker = driver.find_element(By.TAG_NAME, "html")
    action()
    wait_for(driver, EC.staleness_of(marker))
    wait_for(driver, lambda d: d.execute_script("return document.readyState") == "complete")


def first_free_slot(base, service_id):
    """The first available slot in the next 14 studio-local days, from the public availability API."""
    status, services = api_json(base, "GET", "/api/client/services")
    assert status == 200
    from datetime import date, timedelta
    for offset in range(0, 15):
        day = (date.today() + timedelta(days=offset)).isoformat()
        status, body = api_json(base, "GET", f"/api/client/availability?serviceId={service_id}&date={day}")
        assert status == 200, body
        for slot in body["slots"]:
            if slot["available"]:
                return body["date"], slot
    raise AssertionError("no free slot in two weeks")


PAGES = [
    ("overview", "/"), ("bookings-week", "/bookings?week={day}"), ("bookings-list", "/bookings/list"),
    ("booking", "/bookings/{booking}"), ("services", "/services"), ("service-new", "/services/new"),
    ("service-edit", "/services/{service}"), ("customers", "/customers"), ("customer", "/customers/{install}"),
    ("settings-studio", "/settings/studio"), ("settings-api-keys", "/settings/api-keys"),
]


def shoot_every_page(driver, base, ids):
    for width, suffix in ((1280, "desktop"), (375, "phone")):
        driver.set_window_size(width, 900)
        for name, path in PAGES:
            driver.get(base + MOUNT + path.format(**ids))
            assert "Not found" not in driver.title, path
            # Nothing may be wider than the window (usable at 375 px); tables scroll inside their wrapper.
            overflow = driver.execute_script(
                "return document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert overflow <= 1, f"{path} is {overflow}px wider than the {width}px window"
            screenshot(driver, f"studio-{name}-{suffix}")
            if suffix == "desktop":
                audit(driver, f"studio {name}")
    driver.set_window_size(1280, 900)


def test_studio_console_setup_story_bookings_photos_keys_csrf_and_sign_out(server, browser_factory, tmp_path):
    base = server.base
    driver = browser_factory(width=1280, height=900)

    # Signed out: a console page sends the browser to the sign-in page and back afterwards.
    driver.get(base + MOUNT + "/settings/api-keys")
    wait_for(driver, lambda d: "/login" in d.current_url)
    for suffix, width in (("desktop", 1280), ("phone", 375)):
        driver.set_window_size(width, 900)
        screenshot(driver, f"studio-login-{suffix}")
    driver.set_window_size(1280, 900)
    driver.find_element(By.NAME, "username").send_keys("admin")
    driver.find_element(By.NAME, "password").send_keys("wrong password here")
    driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".form-error"))
    assert "Invalid username or password" in driver.find_element(By.CSS_SELECTOR, ".form-error").text
    driver.find_element(By.NAME, "password").send_keys(STUDIO_ADMIN_PASSWORD)
    driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    wait_for(driver, lambda d: d.current_url.endswith(MOUNT + "/settings/api-keys"))
    cookie = session_cookie(driver)

    # A service: the API's validation message appears next to its field, then it is created.
    name = f"Interior Deep Clean {uuid.uuid4().hex[:6]}"
    driver.get(base + MOUNT + "/services/new")
    driver.find_element(By.NAME, "name").send_keys(name)
    driver.find_element(By.NAME, "priceRub").send_keys("3200")
    driver.find_element(By.NAME, "durationMinutes").send_keys("62")
    driver.find_element(By.CSS_SELECTOR, "#service-form button[type=submit]").click()
    slot = wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, '[data-error-for="durationMinutes"]').text or None)
    assert slot == "Invalid field: durationMinutes (must be a multiple of 5)"
    field = driver.find_element(By.NAME, "durationMinutes")
    field.clear()
    field.send_keys("60")
    driver.find_element(By.CSS_SELECTOR, "#service-form button[type=submit]").click()
    wait_for(driver, lambda d: d.current_url.endswith(MOUNT + "/services"))
    link = driver.find_element(By.LINK_TEXT, name)
    service_id = link.get_attribute("href").rsplit("/", 1)[1]

    # The seed's page: create a key and read the full key from the page (shown once).
    driver.get(base + MOUNT + "/settings/api-keys")
    driver.find_element(By.NAME, "name").send_keys("iPhone app")
    driver.find_element(By.CSS_SELECTOR, "#key-create button[type=submit]").click()
    value = wait_for(driver, lambda d: d.find_element(By.ID, "new-key-value").text or None)
    assert re.fullmatch(r"org_\d{10}_[0-9a-f]{24}", value), value
    assert "only time" in driver.find_element(By.ID, "new-key").text
    screenshot(driver, "studio-settings-api-keys-created-desktop")
    reload_after(driver, lambda: driver.find_element(By.ID, "new-key-done").click())
    assert value not in driver.page_source, "the full key must never be shown again"
    row = driver.find_element(By.XPATH, f"//table[@id='keys']//tr[td[1][normalize-space()='iPhone app']]")
    assert value[:19] in row.text
    key_id = row.get_attribute("data-key-id")

    # The app books with the key (plain HTTP, the seed's body).
    day, free = first_free_slot(base, service_id)
    status, booked = api_json(base, "POST", "/api/client/appointments", headers={"X-API-Key": value}, body={
        "startIso": free["startIso"], "clientName": "Ivan Petrov", "phone": "+7 916 123-45-67",
        "carMake": "Toyota Camry", "carPlate": "а123вс 777", "serviceName": name, "notes": ""})
    assert status == 201, booked
    booking_id = booked["id"]

    # It is on the calendar of its week, placed in its day column.
    driver.get(f"{base}{MOUNT}/bookings?week={day}")
    entry = wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, f'a.booking[data-booking-id="{booking_id}"]'))
    assert "Ivan Petrov" in entry.text and free["startTime"] in entry.text
    assert entry.value_of_css_property("position") == "absolute"
    assert float(entry.value_of_css_property("height").rstrip("px")) >= 50, "a 60-minute booking has its height"
    # The list finds it by customer search and service.
    driver.get(f"{base}{MOUNT}/bookings/list?search=petrov&service={service_id}")
    assert len(driver.find_elements(By.CSS_SELECTOR, "#bookings tbody tr")) == 1

    # Its page: statuses move only as the admin API allows.
    driver.get(f"{base}{MOUNT}/bookings?week={day}")
    driver.find_element(By.CSS_SELECTOR, f'a.booking[data-booking-id="{booking_id}"]').click()
    wait_for(driver, lambda d: d.current_url.endswith(booking_id))

    def status_now():
        return driver.find_element(By.ID, "booking-status").get_attribute("data-status")

    assert status_now() == "new"
    assert {b.get_attribute("data-next-status") for b in driver.find_elements(By.CSS_SELECTOR, "[data-next-status]")} \
        == {"confirmed", "cancelled"}
    for target in ("confirmed", "in_progress"):
        reload_after(driver, lambda: driver.find_element(By.CSS_SELECTOR, f'[data-next-status="{target}"]').click())
        assert status_now() == target

    # Before and after photos through presign → PUT (progress bar) → link: the original comes back byte-identical,
    # the gallery shows a real thumbnail (320 px wide, cached under DATA_DIR).
    originals = {}
    for kind, colour in (("defect", "red"), ("work", "blue")):
        path = tmp_path / f"{kind}.jpg"
        originals[kind] = make_jpeg(path, colour)
        driver.find_element(By.ID, f"upload-{kind}").send_keys(str(path))
        reload_after(driver, lambda: driver.find_element(
            By.CSS_SELECTOR, f'form[data-kind="{kind}"] button[type=submit]').click())
        photos = driver.find_elements(By.CSS_SELECTOR, f"#photos-{kind} .photo")
        assert len(photos) == 1, driver.find_element(By.ID, f"photos-{kind}").text
        with urllib.request.urlopen(photos[0].find_element(By.TAG_NAME, "a").get_attribute("href"), timeout=30) as response:
            assert response.read() == originals[kind]
        image = photos[0].find_element(By.TAG_NAME, "img")
        wait_for(driver, lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth", image))
        assert driver.execute_script("return arguments[0].naturalWidth", image) == 320
        status, headers, thumb = raw_call(base, "GET", image.get_attribute("src").replace(base, ""), cookie=cookie)
        assert status == 200 and headers["Content-Type"] == "image/jpeg" and thumb[:2] == b"\xff\xd8"
        assert thumb != originals[kind]
        photo_id = photos[0].get_attribute("data-photo-id")
        assert (server.data_dir / "studio-thumbnails" / f"{photo_id}.jpg").read_bytes() == thumb

    reload_after(driver, lambda: driver.find_element(By.CSS_SELECTOR, '[data-next-status="done"]').click())
    assert status_now() == "done"
    assert not driver.find_elements(By.CSS_SELECTOR, "[data-next-status]")
    # The API agrees: the booking is done with one photo of each kind.
    status, seen = api_json(base, "GET", f"/api/client/appointments/{booking_id}", headers={"X-API-Key": value})
    assert status == 200 and seen["status"] == "done"
    assert len(seen["defectPhotos"]) == 1 and len(seen["workPhotos"]) == 1

    # CSRF: the cookie alone, or with a wrong token, is refused (403); with the page's token it works.
    csrf = csrf_of(driver)
    path = f"/api/admin/appointments/{booking_id}"
    assert raw_call(base, "PUT", path, cookie=cookie, body={"notes": "x"})[0] == 403
    assert raw_call(base, "PUT", path, cookie=cookie, csrf="0" * 64, body={"notes": "x"})[0] == 403
    status, _, answer = raw_call(base, "PUT", path, cookie=cookie, csrf=csrf, body={"notes": "Left wheel scratched"})
    assert status == 200, answer
    assert json.loads(answer)["notes"] == "Left wheel scratched"
    # A console form without its _csrf field is refused too.
    assert raw_call(base, "POST", MOUNT + "/logout", cookie=cookie)[0] == 403

    # A customer of the app, for the customer pages: message sent from the page.
    status, install = api_json(base, "POST", "/api/ios/init")
    assert status == 200, install
    app = {"X-API-Key": install["apiKey"]}
    status, profile = api_json(base, "POST", "/api/ios/profile", headers=app, body={
        "name": "Maria Ivanova", "carMake": "Kia Rio", "carPlate": "в456ор 199", "phone": "+7 903 555-01-01"})
    assert status == 200, profile
    day2, free2 = first_free_slot(base, service_id)
    status, app_booking = api_json(base, "POST", "/api/client/appointments", headers=app, body={
        "startIso": free2["startIso"], "clientName": "Maria Ivanova", "phone": "+7 903 555-01-01",
        "carMake": "Kia Rio", "carPlate": "в456ор 199", "serviceName": name})
    assert status == 201, app_booking
    driver.get(f"{base}{MOUNT}/customers?search=ivanova")
    driver.find_element(By.LINK_TEXT, "Maria Ivanova").click()
    wait_for(driver, lambda d: d.current_url.endswith(install["installId"]))
    assert app_booking["id"] in driver.find_element(By.ID, "bookings").get_attribute("innerHTML")
    driver.get(f"{base}{MOUNT}/customers/{install['installId']}")
    driver.find_element(By.NAME, "text").send_keys("Your car is ready.")
    reload_after(driver, lambda: driver.find_element(By.CSS_SELECTOR, "#message-form button[type=submit]").click())
    assert "Your car is ready." in driver.page_source
    status, messages = api_json(base, "GET", "/api/ios/messages", headers={"X-API-Key": install["apiKey"]})
    assert status == 200 and [m["text"] for m in messages["messages"]] == ["Your car is ready."], messages

    shoot_every_page(driver, base, {"day": day, "booking": booking_id, "service": service_id,
                                    "install": install["installId"]})

    # Revoking the app installation on its page stops its key at once; its booking stays.
    driver.get(f"{base}{MOUNT}/customers/{install['installId']}")
    revoke_install = driver.find_element(By.XPATH, "//button[normalize-space()='Revoke install']")

    def revoke_it():
        revoke_install.click()
        wait_for(driver, EC.alert_is_present()).accept()

    reload_after(driver, revoke_it)
    assert driver.current_url.endswith(MOUNT + "/customers")
    assert api_json(base, "GET", "/api/ios/profile", headers=app)[0] == 401
    status, _, kept = raw_call(base, "GET", f"/api/admin/appointments/{app_booking['id']}", cookie=cookie, csrf=csrf)
    assert status == 200 and json.loads(kept)["installId"] is None

    # Revoking the key on the page stops it at once.
    driver.get(base + MOUNT + "/settings/api-keys")
    button = driver.find_element(By.CSS_SELECTOR, f'tr[data-key-id="{key_id}"] button.danger')

    def revoke():
        button.click()
        wait_for(driver, EC.alert_is_present()).accept()

    reload_after(driver, revoke)
    assert "Revoked" in driver.find_element(By.CSS_SELECTOR, f'tr[data-key-id="{key_id}"]').text
    status, body = api_json(base, "GET", "/api/client/appointments", headers={"X-API-Key": value})
    assert (status, body) == (401, {"error": "Invalid API key"})

    # Sign-out ends the session: the old cookie opens no page and no API call any more.
    reload_after(driver, lambda: driver.find_element(By.CSS_SELECTOR, "form[action$='/logout'] button").click())
    assert driver.current_url.endswith(MOUNT + "/login")
    status, headers, _ = raw_call(base, "GET", MOUNT + "/bookings", cookie=cookie)
    assert status in (302, 303) and headers["Location"].startswith(MOUNT + "/login")
    assert raw_call(base, "PUT", path, cookie=cookie, csrf=csrf, body={"notes": "y"})[0] == 401
    status, _, answer = raw_call(base, "POST", "/api/admin/logout", headers={"Authorization": f"Bearer {cookie}"})
    assert status == 401, "the admin token behind the cookie is revoked as well"


def admin_token(base):
    status, body = api_json(base, "POST", "/api/admin/login", body={"username": "admin", "password": STUDIO_ADMIN_PASSWORD})
    assert status == 200, body
    return body["token"]


def test_studio_reschedule_offers_free_slots_moves_the_booking_and_gives_the_last_bay_to_one_admin(
        server, browser_factory):
    from concurrent.futures import ThreadPoolExecutor
    from datetime import date, timedelta

    base = server.base
    token = admin_token(base)
    name = f"Polish {uuid.uuid4().hex[:6]}"
    status, service = api_json(base, "POST", "/api/admin/services", token=token,
                               body={"name": name, "priceRub": 1000, "durationMinutes": 60})
    assert status == 201, service
    day = (date.today() + timedelta(days=6)).isoformat()
    status, availability = api_json(base, "GET", f"/api/client/availability?serviceId={service['id']}&date={day}")
    assert status == 200 and availability["workingHours"], availability
    capacity = availability["capacity"]
    starts = {slot["startTime"]: slot["startIso"] for slot in availability["slots"]}

    def book(time, client):
        status, body = api_json(base, "POST", "/api/admin/appointments", token=token, body={
            "startIso": starts[time], "clientName": client, "serviceName": name, "status": "confirmed"})
        assert status == 201, body
        return body["id"]

    # 12:00 keeps one bay free; three bookings elsewhere that day will want it.
    for index in range(capacity - 1):
        book("12:00", f"Filler {index}")
    moving, first, second = book("15:00", "Anna Moving"), book("17:00", "Boris Racer"), book("18:00", "Clara Racer")

    driver = browser_factory(width=1280, height=900)
    sign_in(driver, base, "admin", STUDIO_ADMIN_PASSWORD, mount=MOUNT)

    # The picker lists only slots with a free bay, then moves the booking to the one picked.
    driver.get(f"{base}{MOUNT}/bookings/{moving}")
    driver.find_element(By.CSS_SELECTOR, "[data-load-slots]").click()
    buttons = wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#reschedule button[data-start]"))
    offered = {b.get_attribute("data-start") for b in buttons}
    assert starts["12:00"] in offered and starts["15:00"] not in offered
    screenshot(driver, "studio-booking-reschedule-desktop")
    target = next(b for b in buttons if b.get_attribute("data-start") == starts["13:00"])

    def pick():
        target.click()
        wait_for(driver, EC.alert_is_present()).accept()

    reload_after(driver, pick)
    status, moved = api_json(base, "GET", f"/api/admin/appointments/{moving}", token=token)
    assert moved["startIso"] == starts["13:00"] and moved["endIso"] > moved["startIso"]
    assert moved["status"] == "confirmed" and moved["clientName"] == "Anna Moving"

    # Two admins move two bookings into the last bay at once: one wins, the other gets the API's 409 message.
    cookie = session_cookie(driver)
    csrf = csrf_of(driver)

    def move(booking):
        status, _, body = raw_call(base, "POST", f"{MOUNT}/bookings/{booking}/reschedule", cookie=cookie, csrf=csrf,
                                   body={"startIso": starts["12:00"]})
        return status, json.loads(body)

    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(move, [first, second]))
    assert sorted(status for status, _ in results) == [200, 409], results
    assert [body for status, body in results if status == 409] == [{"error": "Time slot is no longer available"}]
    # Without the CSRF header the console's own write is refused as well.
    assert raw_call(base, "POST", f"{MOUNT}/bookings/{first}/reschedule", cookie=cookie,
                    body={"startIso": starts["09:00"]})[0] == 403
    # The slot is full now: the loser's picker no longer offers it.
    loser = first if results[0][0] == 409 else second
    driver.get(f"{base}{MOUNT}/bookings/{loser}")
    driver.find_element(By.CSS_SELECTOR, "[data-load-slots]").click()
    buttons = wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#reschedule button[data-start]"))
    assert starts["12:00"] not in {b.get_attribute("data-start") for b in buttons}
    status, everything = api_json(base, "GET", f"/api/admin/appointments?date={day}&limit=200", token=token)
    assert sum(1 for a in everything if a["startIso"] == starts["12:00"] and a["status"] != "cancelled") == capacity

    # Studio settings: the API's message lands next to the weekday field it names; nothing is saved.
    driver.get(f"{base}{MOUNT}/settings/studio")
    close = driver.find_element(By.ID, "close-time-mon")
    close.clear()
    close.send_keys("08:00")
    driver.find_element(By.CSS_SELECTOR, "#settings-form button[type=submit]").click()
    message = wait_for(driver, lambda d: d.find_element(
        By.CSS_SELECTOR, '[data-error-for="workingHours.mon.close"]').text or None)
    assert message == "Invalid field: workingHours.mon.close (must be later than open)"
    status, settings = api_json(base, "GET", "/api/admin/settings", token=token)
    assert settings["workingHours"]["mon"]["close"] != "08:00"
    api_json(base, "POST", "/api/admin/logout", token=token)


def test_studio_week_calendar_places_bookings_by_local_time_across_a_dst_change_and_escapes_names(
        server, browser_factory):
    """Europe/Berlin springs forward on Sunday 2027-03-28: 10:00 local is 09:00Z on Saturday and 08:00Z on Sunday.
    Both bookings sit at the same height of their columns, and Sunday is marked as a 23-hour day. A client name
    made of markup is shown as text."""
    base = server.base
    token = admin_token(base)
    status, before = api_json(base, "GET", "/api/admin/settings", token=token)
    assert status == 200
    status, _ = api_json(base, "PUT", "/api/admin/settings", token=token, body={"timezone": "Europe/Berlin"})
    assert status == 200
    try:
        name = f"Wax {uuid.uuid4().hex[:6]}"
        status, service = api_json(base, "POST", "/api/admin/services", token=token,
                                   body={"name": name, "priceRub": 900, "durationMinutes": 90})
        assert status == 201, service
        hostile = '"><img src=x id=injected>'
        ids = {}
        for label, start in (("sat", "2027-03-27T09:00:00Z"), ("sun", "2027-03-28T08:00:00Z")):
            status, body = api_json(base, "POST", "/api/admin/appointments", token=token, body={
                "startIso": start, "clientName": hostile if label == "sun" else "Saturday Client",
                "serviceName": name})
            assert status == 201, body
            ids[label] = body["id"]

        driver = browser_factory(width=1280, height=900)
        sign_in(driver, base, "admin", STUDIO_ADMIN_PASSWORD, mount=MOUNT)
        driver.get(f"{base}{MOUNT}/bookings?week=2027-03-28")
        sat = driver.find_element(By.CSS_SELECTOR, f'a.booking[data-booking-id="{ids["sat"]}"]')
        sun = driver.find_element(By.CSS_SELECTOR, f'a.booking[data-booking-id="{ids["sun"]}"]')
        assert sat.text.startswith("10:00–11:30") and sun.text.startswith("10:00–11:30")
        assert sat.location["y"] == sun.location["y"], "the same local time sits at the same height"
        assert sun.location["x"] > sat.location["x"]
        assert sat.size["height"] == sun.size["height"]
        days = {d.get_attribute("data-day"): d for d in driver.find_elements(By.CSS_SELECTOR, ".week .day")}
        assert "23-hour day" in days["2027-03-28"].find_element(By.CSS_SELECTOR, ".day-head").text
        assert "clock change" not in days["2027-03-27"].find_element(By.CSS_SELECTOR, ".day-head").text
        assert hostile in sun.text and not driver.find_elements(By.ID, "injected")
        screenshot(driver, "studio-bookings-week-dst-desktop")
        driver.get(f"{base}{MOUNT}/bookings/{ids['sun']}")
        assert hostile in driver.find_element(By.TAG_NAME, "h1").text and not driver.find_elements(By.ID, "injected")
        for booking in ids.values():
            api_json(base, "PUT", f"/api/admin/appointments/{booking}", token=token, body={"status": "cancelled"})
    finally:
        api_json(base, "PUT", "/api/admin/settings", token=token, body={"timezone": before["timezone"]})
        api_json(base, "POST", "/api/admin/logout", token=token)


def test_studio_sign_in_failures_count_with_the_admin_apis_login_throttle(server, browser_factory):
    """Failures in the console and on POST /api/admin/login add up: 5 failed attempts per (username, IP) in 15
    minutes, then 429 even for the right password. A username of its own keeps `admin` usable for other tests."""
    base = server.base
    username = f"ghost{uuid.uuid4().hex[:6]}"
    driver = browser_factory(width=1280, height=900)

    def console_attempt():
        driver.get(base + MOUNT + "/login")
        driver.find_element(By.NAME, "username").send_keys(username)
        driver.find_element(By.NAME, "password").send_keys("not the password")
        driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
        return wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, ".form-error").text or None)

    for _ in range(3):
        assert console_attempt() == "Invalid username or password"
    for _ in range(2):
        status, body = api_json(base, "POST", "/api/admin/login", body={"username": username, "password": "nope"})
        assert (status, body) == (401, {"error": "Invalid username or password"})
    assert re.fullmatch(r"Too many requests\. Try again in \d+ seconds\.", console_attempt())
    status, body = api_json(base, "POST", "/api/admin/login", body={"username": username.upper(), "password": "x"})
    assert (status, body) == (429, {"error": "Too many requests"})
