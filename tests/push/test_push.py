"""Pushes from the real `server` to an APNs stand-in over TLS and HTTP/2 (apns_standin.py)."""

from __future__ import annotations

import datetime as dt
import time

from conftest import (TOPIC, api_json, book_for_vet1, query, register_device, running_server, token, wait_until)


def vet1(server) -> str:
    return token(server.base, "vet1", "password123")


def admin(server) -> str:
    return token(server.base, "admin", "admin123")


def outbox_row(server, appointment_id: str) -> tuple:
    rows = [r for r in query(server, "SELECT payload, status, attempts, last_error FROM notification_outbox")
            if appointment_id in r[0]]
    assert len(rows) == 1, rows
    return rows[0][1:]


def test_an_appointment_booked_for_another_vet_reaches_apns_signed_and_complete(server, apns):
    device = register_device(server.base, vet1(server))
    appointment = book_for_vet1(server.base, admin(server), "Whiskers")

    request = wait_until(lambda: apns.to(device), what="the push")[0]
    assert request.problems == []
    assert request.status == 200
    assert request.http_version == "2"
    assert request.jwt_header == {"alg": "ES256", "kid": "PUSHKEY123"}
    assert request.claims["iss"] == "TEAMHP4567"
    assert request.headers["apns-topic"] == TOPIC
    assert request.headers["apns-push-type"] == "alert"
    assert request.headers["apns-priority"] == "10"
    assert int(request.headers["apns-expiration"]) > 0
    assert request.headers["apns-collapse-id"] == f"appointment-{appointment['id']}"
    payload = request.payload
    assert payload["type"] == "appointment_booked"
    assert payload["appointment_id"] == appointment["id"]
    assert payload["pet_owner_name"] == "Ada Lovelace"
    assert payload["pet_name"] == "Whiskers"
    assert payload["appointment_time"] == appointment["appointment_date"]
    assert payload["aps"]["alert"]["title"] == "New appointment"
    assert "Whiskers" in payload["aps"]["alert"]["body"]

    # The row is closed and APNs' id is kept as the record of the delivery.
    wait_until(lambda: outbox_row(server, appointment["id"])[0] == "sent", what="the row marked sent")
    assert (request.apns_id,) in query(server, "SELECT apns_id FROM push_deliveries")


def test_an_unregistered_device_token_is_deactivated(server, apns):
    vet = vet1(server)
    device = register_device(server.base, vet)
    other = register_device(server.base, vet)
    apns.answers[device] = [410]
    book_for_vet1(server.base, admin(server), "Mittens")

    wait_until(lambda: apns.to(device), what="the push")

    def active():
        status, tokens = api_json(server.base, "GET", "/api/v1/device-tokens/", vet)
        assert status == 200, tokens
        return {t["device_token"]: t["is_active"] for t in tokens}.get(device)
    wait_until(lambda: active() is False, what="the token deactivated")
    # A deactivated token gets nothing more.
    book_for_vet1(server.base, admin(server), "Socks")
    wait_until(lambda: [r for r in apns.to(other) if r.payload and r.payload.get("pet_name") == "Socks"],
               what="the next push to vet1's other device")
    assert len(apns.to(device)) == 1


def test_429_and_500_are_retried_and_then_delivered(server, apns):
    device = register_device(server.base, vet1(server))
    apns.answers[device] = [429, 500]
    appointment = book_for_vet1(server.base, admin(server), "Tiger")

    wait_until(lambda: [r for r in apns.to(device) if r.status == 200], what="the delivery after the retries")
    assert [r.status for r in apns.to(device)] == [429, 500, 200]
    assert all(r.problems == [] for r in apns.to(device))
    # The same notification each time.
    assert len({r.headers["apns-collapse-id"] for r in apns.to(device)}) == 1
    status, attempts, last_error = wait_until(
        lambda: (row := outbox_row(server, appointment["id"]))[0] == "sent" and row, what="the row marked sent")
    assert attempts == "3"
    assert last_error in ("", "None")


def test_the_vet_is_reminded_of_an_appointment_once_before_it_starts(apns, signing_key, folder):
    with running_server(apns, signing_key, folder, "reminders", PUSH_REMINDER_MINUTES="60",
                        PUSH_REMINDER_SCAN_SECONDS="0.2") as server:
        device = register_device(server.base, vet1(server))
        start = (dt.datetime.now(dt.timezone.utc) + dt.timedelta(minutes=40)).replace(second=0, microsecond=0)
        appointment = book_for_vet1(server.base, admin(server), "Pixel", when=start.strftime("%Y-%m-%dT%H:%M:%SZ"))

        def reminders():
            return [r for r in apns.to(device)
                    if r.payload and r.payload.get("type") == "appointment_reminder"
                    and r.payload.get("appointment_id") == appointment["id"]]
        request = wait_until(reminders, what="the reminder push")[0]
        assert request.problems == [] and request.status == 200
        assert request.headers["apns-collapse-id"] == f"reminder-{appointment['id']}"
        # Worth nothing once the appointment has begun.
        assert int(request.headers["apns-expiration"]) <= int(start.timestamp())
        alert = request.payload["aps"]["alert"]
        assert alert["title"] == "Coming up"
        assert "Pixel (Ada Lovelace) at " in alert["body"]
        assert request.payload["appointment_time"] == appointment["appointment_date"]

        # Once: the scan runs every 0.2 s, and the reminder stays the only one.
        time.sleep(1.5)
        assert len(reminders()) == 1
        rows = [status for payload, status in query(
            server, "SELECT payload, status FROM notification_outbox WHERE kind = 'appointment_reminder'")
            if appointment["id"] in payload]
        assert rows == ["sent"]
