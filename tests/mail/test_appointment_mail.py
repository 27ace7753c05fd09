"""Appointment emails through a real SMTP server (aiosmtpd with STARTTLS and AUTH) and as .eml files."""

from __future__ import annotations

import email
import email.policy
import email.utils
import time
import uuid

import icalendar

import datetime as dt

from conftest import (SMTP_PASSWORD, api_json, backdate_booking, book_for_new_owner, outbox_rows, run_server, token,
                      wait_until)


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
    # The outbox delivers in order: once the later booking's message arrived, the earlier ones would have too.
    smtp.handler.wait_for(lambda m: m.rcpt_tos == [control])
    assert not [m for m in smtp.handler.messages if m.rcpt_tos in ([muted], [by_phone])]
    assert outbox_rows(server, muted) == [] and outbox_rows(server, by_phone) == []


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
