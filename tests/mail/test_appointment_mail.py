"""Appointment emails through a real SMTP server (aiosmtpd with STARTTLS and AUTH) and as .eml files."""

from __future__ import annotations

import email
import email.policy
import email.utils
import time
import uuid

import icalendar

import datetime as dt
import sys
import urllib.request
from pathlib import Path

from conftest import (DEMO_PRACTICE, SMTP_PASSWORD, SMTP_USER, api_json, backdate_booking, book_for_new_owner,
                      implicit_tls_smtp, outbox_rows, plain_smtp, run_server, token, wait_until)

# The clinic console's plain-HTTP client (cookie session + CSRF token), shared with the browser suites.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "browser"))
from clinic_http import ConsoleClient  # noqa: E402


def unique_address(label: str) -> str:
    return f"{label}-{uuid.uuid4().hex[:8]}@example.org"


def calendar_of(message: email.message.EmailMessage) -> icalendar.Calendar:
    parts = [p for p in message.walk() if p.get_content_type() == "text/calendar"]
    assert len(parts) == 1, [p.get_content_type() for p in message.walk()]
    assert parts[0].get_filename() == "invite.ics"
    return icalendar.Calendar.from_ical(parts[0].get_payload(decode=True))


def event_of(calendar: icalendar.Calendar) -> icalendar.Event:
    events = [c for c in calendar.walk("VEVENT")]
    assert len(events) == 1
    return events[0]


def test_booking_moving_and_cancelling_send_a_request_an_update_and_a_cancellation(server, smtp):
    vet = token(server.base)
    address = unique_address("zoe")
    appointment = book_for_new_owner(server.base, vet, address, pets=("Bello", "Mia"))

    first = smtp.handler.wait_for(lambda m: m.rcpt_tos == [address])[0]
    assert first.tls, "the message must have been sent after STARTTLS"
    assert first.authenticated
    assert first.mail_from == "clinic@helppet.test"
    message = first.message
    # Headers: the non-ASCII name arrives as encoded words and decodes back.
    assert message["To"].addresses[0].display_name == "Zoë Müller"
    assert message["To"].addresses[0].addr_spec == address
    assert message["From"].addresses[0].display_name == "HelpPet Demo Clinic"
    assert "Bello and Mia" in message["Subject"]
    assert message["Message-ID"].startswith("<") and message["Message-ID"].endswith("@helppet.test>")
    sent = email.utils.parsedate_to_datetime(message["Date"])
    assert abs(time.time() - sent.timestamp()) < 300
    for line in first.data.split(b"\r\n"):
        assert len(line) <= 998
    # Both bodies, UTF-8.
    plain = message.get_body(("plain",))
    html = message.get_body(("html",))
    assert plain is not None and html is not None
    assert "Hello Zoë Müller" in plain.get_content()
    assert "Hello Zoë Müller" in html.get_content()
    assert "100 Market Street" in plain.get_content()

    calendar = calendar_of(message)
    assert str(calendar["METHOD"]) == "REQUEST"
    assert str(calendar["VERSION"]) == "2.0"
    assert [str(tz["TZID"]) for tz in calendar.walk("VTIMEZONE")] == ["America/Los_Angeles"]
    event = event_of(calendar)
    uid = str(event["UID"])
    assert appointment["id"] in uid
    assert int(event["SEQUENCE"]) == 0
    assert str(event["STATUS"]) == "CONFIRMED"
    assert event["DTSTART"].params["TZID"] == "America/Los_Angeles"
    assert event["DTSTART"].dt.utcoffset() is not None
    assert event["DTSTART"].dt.isoformat().startswith(appointment["appointment_date"][:10])
    assert (event["DTEND"].dt - event["DTSTART"].dt).total_seconds() == 1800
    assert "Bello" in str(event["SUMMARY"]) and "Mia" in str(event["SUMMARY"])
    assert "100 Market Street" in str(event["LOCATION"])
    assert "+1-555-010-0100" in str(event["DESCRIPTION"])
    assert str(event["ATTENDEE"]) == f"mailto:{address}"

    # Reschedule: same UID, SEQUENCE 1.
    status, body = api_json(server.base, "PUT", f"/api/v1/appointments/{appointment['id']}", vet,
                            {"appointment_date": appointment["appointment_date"].replace("T17:", "T19:")})
    assert status == 200, body
    moved = smtp.handler.wait_for(lambda m: m.rcpt_tos == [address] and "moved" in m.message["Subject"])[0]
    moved_event = event_of(calendar_of(moved.message))
    assert str(moved_event["UID"]) == uid
    assert int(moved_event["SEQUENCE"]) == 1
    assert str(calendar_of(moved.message)["METHOD"]) == "REQUEST"
    assert (moved_event["DTSTART"].dt - event["DTSTART"].dt).total_seconds() == 2 * 3600

    # A change that is not about the time sends nothing; a cancellation sends METHOD:CANCEL with SEQUENCE 2.
    status, body = api_json(server.base, "PUT", f"/api/v1/appointments/{appointment['id']}", vet, {"notes": "x"})
    assert status == 200, body
    status, body = api_json(server.base, "DELETE", f"/api/v1/appointments/{appointment['id']}", vet)
    assert status == 200, body
    cancelled = smtp.handler.wait_for(lambda m: m.rcpt_tos == [address] and "cancelled" in m.message["Subject"])[0]
    cancel_calendar = calendar_of(cancelled.message)
    assert str(cancel_calendar["METHOD"]) == "CANCEL"
    cancel_event = event_of(cancel_calendar)
    assert str(cancel_event["UID"]) == uid
    assert int(cancel_event["SEQUENCE"]) == 2
    assert str(cancel_event["STATUS"]) == "CANCELLED"
    assert len([m for m in smtp.handler.messages if m.rcpt_tos == [address]]) == 3
    rows = outbox_rows(server, address)
    assert [r["status"] for r in rows] == ["sent"] * 3
    assert [int(r["ics_sequence"]) for r in rows] == [0, 1, 2]


def test_owners_who_opted_out_or_prefer_another_channel_get_no_email(server, smtp):
    vet = token(server.base)
    muted = unique_address("muted")
    by_phone = unique_address("phone")
    book_for_new_owner(server.base, vet, muted, notifications_enabled=False)
    book_for_new_owner(server.base, vet, by_phone, preferred_communication="sms")
    control = unique_address("control")
    book_for_new_owner(server.base, vet, control, preferred_communication="email")
    smtp.handler.wait_for(lambda m: m.rcpt_tos == [control])
    # The outbox row is written with the booking, so none now means none ever.
    assert outbox_rows(server, muted) == [] and outbox_rows(server, by_phone) == []
    assert not [m for m in smtp.handler.messages if m.rcpt_tos in ([muted], [by_phone])]


def test_a_4yz_reply_is_retried_until_the_message_is_delivered(server, smtp):
    vet = token(server.base)
    address = unique_address("retry")
    smtp.handler.data_replies.extend(["451 4.3.0 Temporary local problem", "421 4.3.2 Service shutting down"])
    book_for_new_owner(server.base, vet, address)
    smtp.handler.wait_for(lambda m: m.rcpt_tos == [address])
    assert smtp.handler.attempts.count(address) == 3
    rows = outbox_rows(server, address)
    assert len(rows) == 1 and rows[0]["status"] == "sent" and int(rows[0]["attempts"]) == 3


def test_a_5yz_reply_dead_letters_the_message_with_the_servers_reason(server, smtp):
    vet = token(server.base)
    address = unique_address("rejected")
    smtp.handler.rcpt_replies[address] = "550 5.1.1 No such mailbox here"
    book_for_new_owner(server.base, vet, address)
    rows = wait_until(lambda: [r for r in outbox_rows(server, address) if r["status"] == "failed"], what="failed row")
    assert "550" in rows[0]["last_error"] and "No such mailbox here" in rows[0]["last_error"]
    assert int(rows[0]["attempts"]) == 1, "a permanent failure is not retried"
    assert address not in smtp.handler.attempts


def test_the_smtp_password_never_reaches_the_log(server, smtp):
    smtp.handler.wait_for(lambda m: True)
    assert SMTP_PASSWORD not in server.log.read_text(errors="replace")
    assert "Mail: outgoing email goes to SMTP smtp://***@localhost" in server.log.read_text(errors="replace")


def test_a_reminder_goes_once_when_the_lead_time_has_come(server, smtp):
    vet = token(server.base)
    address = unique_address("remind")
    soon = (dt.datetime.now(dt.timezone.utc) + dt.timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M:%SZ")
    appointment = book_for_new_owner(server.base, vet, address, start=soon)
    smtp.handler.wait_for(lambda m: m.rcpt_tos == [address] and "confirmed" in m.message["Subject"])
    # Booked inside the 24 h lead time: the confirmation is enough, no reminder follows.
    time.sleep(1)
    assert [r["kind"] for r in outbox_rows(server, address)] == ["appointment_confirmation"]
    # Booked two days ago instead: the next scan sends the reminder, once.
    backdate_booking(server, appointment["id"], days=2)
    reminder = smtp.handler.wait_for(lambda m: m.rcpt_tos == [address] and m.message["Subject"].startswith("Reminder:"))
    message = reminder[0].message
    assert message.get_content_type() == "multipart/alternative"
    assert message.get_body(("plain",)) is not None and message.get_body(("html",)) is not None
    assert not [p for p in message.walk() if p.get_content_type() == "text/calendar"]
    time.sleep(1)
    assert len([m for m in smtp.handler.messages if m.rcpt_tos == [address]]) == 2
    assert [r["kind"] for r in outbox_rows(server, address)] == ["appointment_confirmation", "appointment_reminder"]


def test_without_smtp_url_the_message_is_an_eml_file_under_data_dir_mail():
    srv, finish = run_server("eml")
    try:
        vet = token(srv.base)
        address = unique_address("eml")
        appointment = book_for_new_owner(srv.base, vet, address, first_name="José", last_name="Ñúñez")
        folder = srv.data_dir / "mail"
        files = wait_until(lambda: sorted(folder.glob("*.eml")) if folder.exists() else [], what=".eml file")
        assert len(files) == 1
        message = email.message_from_bytes(files[0].read_bytes(), policy=email.policy.default)
        assert message["To"].addresses[0].display_name == "José Ñúñez"
        assert message.get_body(("plain",)) is not None and message.get_body(("html",)) is not None
        event = event_of(calendar_of(message))
        assert appointment["id"] in str(event["UID"])
        assert f"files under {folder}" in srv.log.read_text(errors="replace")
    finally:
        finish()


def test_the_console_books_moves_and_cancels_with_the_same_emails(server, smtp):
    console = ConsoleClient(server.base)
    console.sign_in("vet1", "password123")
    address = unique_address("console")
    status, owner = console.api("POST", "/api/v1/pet-owners", {"first_name": "Ana", "last_name": "Łukasz",
                                                                "email": address})
    assert status == 201, owner
    status, pet = console.api("POST", "/api/v1/pets", {"name": "Kot", "species": "cat", "owner_id": owner["id"]})
    assert status == 201, pet
    when = (dt.datetime.now(dt.timezone.utc) + dt.timedelta(days=5)).replace(hour=18, minute=0, second=0,
                                                                               microsecond=0)
    status, appointment = console.api("POST", "/api/v1/appointments", {
        "practice_id": DEMO_PRACTICE, "pet_owner_id": owner["id"], "pet_ids": [pet["id"]],
        "appointment_date": when.strftime("%Y-%m-%dT%H:%M:%SZ"), "title": "Vaccination"})
    assert status == 201, appointment
    path = f"/api/v1/appointments/{appointment['id']}"
    status, body = console.api("PUT", path, {"appointment_date": (when + dt.timedelta(hours=1)).strftime(
        "%Y-%m-%dT%H:%M:%SZ"), "duration_minutes": 45})
    assert status == 200, body
    status, body = console.api("DELETE", path)
    assert status == 200, body
    messages = smtp.handler.wait_for(lambda m: m.rcpt_tos == [address] and "cancelled" in m.message["Subject"])
    received = [m for m in smtp.handler.messages if m.rcpt_tos == [address]]
    assert len(received) == 3
    events = [event_of(calendar_of(m.message)) for m in received]
    assert len({str(e["UID"]) for e in events}) == 1
    assert [int(e["SEQUENCE"]) for e in events] == [0, 1, 2]
    assert [str(calendar_of(m.message)["METHOD"]) for m in received] == ["REQUEST", "REQUEST", "CANCEL"]
    assert (events[1]["DTEND"].dt - events[1]["DTSTART"].dt).total_seconds() == 45 * 60
    assert messages[0].message["To"].addresses[0].display_name == "Ana Łukasz"


def test_metrics_count_queued_sent_and_failed_mail_by_channel(server, smtp):
    smtp.handler.wait_for(lambda m: True)
    with urllib.request.urlopen(server.base + "/metrics", timeout=10) as response:
        text = response.read().decode()
    for name in ("mail_messages_queued_total", "mail_messages_sent_total"):
        lines = [line for line in text.splitlines() if line.startswith(name + '{channel="email"}')]
        assert lines and float(lines[0].split()[-1]) >= 1, name


def test_smtps_sends_over_tls_from_the_first_byte(certificate):
    with implicit_tls_smtp(certificate) as smtps:
        srv, finish = run_server("smtps", SMTP_URL=f"smtps://{SMTP_USER}:{SMTP_PASSWORD}@localhost:{smtps.port}",
                                 SMTP_TLS_CA_FILE=str(smtps.ca_file), MAIL_FROM="clinic@helppet.test")
        try:
            address = unique_address("smtps")
            book_for_new_owner(srv.base, token(srv.base), address)
            received = smtps.handler.wait_for(lambda m: m.rcpt_tos == [address])[0]
            assert received.authenticated
            assert event_of(calendar_of(received.message))["SEQUENCE"] == 0
        finally:
            finish()


def test_a_certificate_the_server_does_not_trust_is_never_accepted(smtp):
    # No SMTP_TLS_CA_FILE: the test certificate is not among the system's roots, so STARTTLS fails and the message
    # waits for a retry instead of going out over an unverified connection.
    srv, finish = run_server("untrusted", SMTP_URL=f"smtp://{SMTP_USER}:{SMTP_PASSWORD}@localhost:{smtp.port}",
                             MAIL_FROM="clinic@helppet.test", MAIL_MAX_ATTEMPTS="2")
    try:
        address = unique_address("untrusted")
        book_for_new_owner(srv.base, token(srv.base), address)
        rows = wait_until(lambda: [r for r in outbox_rows(srv, address) if r["status"] == "failed"], what="failed")
        assert "gave up after 2 attempts" in rows[0]["last_error"]
        assert address not in smtp.handler.attempts
    finally:
        finish()


def test_plain_smtp_is_allowed_to_a_loopback_relay_without_starttls():
    with plain_smtp() as relay:
        srv, finish = run_server("plain", SMTP_URL=f"smtp://127.0.0.1:{relay.port}", MAIL_FROM="clinic@helppet.test")
        try:
            address = unique_address("plain")
            book_for_new_owner(srv.base, token(srv.base), address)
            received = relay.handler.wait_for(lambda m: m.rcpt_tos == [address])[0]
            assert not received.tls
            assert str(calendar_of(received.message)["METHOD"]) == "REQUEST"
        finally:
            finish()


def test_an_approved_note_reaches_the_owner_as_the_discharge_instructions_when_the_practice_sends_them(server, smtp):
    vet = token(server.base)
    admin = token(server.base, "admin", "admin123")
    address = unique_address("discharge")
    appointment = book_for_new_owner(server.base, vet, address, pets=("Bello",))
    pet_id = appointment["pets"][0]["id"]
    practice = f"/api/v1/practices/{DEMO_PRACTICE}"
    status, visit = api_json(server.base, "POST", "/api/v1/visit-transcripts", vet, {
        "pet_id": pet_id, "visit_date": int(time.time()), "full_text": "Bello was seen for a limp."})
    assert status in (200, 201), visit
    visit_id = visit["uuid"]
    status, body = api_json(server.base, "PUT", practice, admin, {"discharge_emails_enabled": True})
    assert status == 200 and body["discharge_emails_enabled"] is True, body
    try:
        written = "Mild sprain of the left foreleg. Rest for a week and short walks only."
        status, approved = api_json(server.base, "PUT", f"/api/v1/visit-transcripts/{visit_id}", vet,
                                    {"summary": written})
        assert status == 200, approved
        received = smtp.handler.wait_for(
            lambda m: m.rcpt_tos == [address] and b"Discharge instructions" in m.data)[0]
        message = email.message_from_bytes(received.data, policy=email.policy.default)
        assert message["Subject"] == "Discharge instructions for Bello from HelpPet Demo Clinic"
        assert message["To"].addresses[0].addr_spec == address
        assert message.get_content_type() == "multipart/alternative"
        status, page = api_json(server.base, "GET", f"/api/v1/visit-transcripts/{visit_id}/discharge-instructions",
                                vet)
        assert status == 200, page
        plain = message.get_body(preferencelist=("plain",)).get_content()
        assert plain.replace("\r\n", "\n").rstrip("\n") == page["text"], (plain, page["text"])
        assert written in plain
        html = message.get_body(preferencelist=("html",)).get_content()
        assert "Mild sprain of the left foreleg." in html
        assert [row["kind"] for row in outbox_rows(server, address)] == ["appointment_confirmation",
                                                                         "discharge_instructions"]
    finally:
        status, _ = api_json(server.base, "PUT", practice, admin, {"discharge_emails_enabled": False})
        assert status == 200
