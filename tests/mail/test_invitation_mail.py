"""Practice invitations end to end (docs/invitations.md): the invitation email arrives over SMTP, and the code read
from the parsed message alone lets a newly signed-up vet join the practice."""

from __future__ import annotations

import re
import uuid

from conftest import DEMO_PRACTICE, api_json, token


def test_an_invitation_emails_code_lets_a_new_vet_join_the_practice(server, smtp):
    admin = token(server.base, "admin", "admin123")
    address = f"new-vet-{uuid.uuid4().hex[:8]}@example.org"
    status, invite = api_json(server.base, "POST", f"/api/v1/practices/{DEMO_PRACTICE}/invites", admin,
                              {"email": address, "expiration_days": 2})
    assert status == 201, invite
    assert "code" not in invite

    received = smtp.handler.wait_for(lambda m: m.rcpt_tos == [address])[0]
    assert received.tls and received.authenticated
    message = received.message
    assert message["Subject"] == "You are invited to join HelpPet Demo Clinic on HelpPet"
    plain = message.get_body(("plain",)).get_content()
    html = message.get_body(("html",)).get_content()
    code = re.search(r"Code: ([A-Z2-9]{12})", plain).group(1)
    invite_id = re.search(r"Invitation: ([0-9a-f-]{36})", plain).group(1)
    assert invite_id == invite["id"]
    assert code in html

    # The new vet signs up with the invited address (PENDING: sees no practice data yet) ...
    username = "vet" + uuid.uuid4().hex[:8]
    status, signup = api_json(server.base, "POST", "/api/v1/auth/signup", body={
        "username": username, "password": "long-enough-pw", "email": address, "full_name": "New Vet"})
    assert status == 201, signup
    pending = signup["access_token"]
    status, _ = api_json(server.base, "GET", f"/api/v1/practices/{DEMO_PRACTICE}", pending)
    assert status == 403
    status, shown = api_json(server.base, "GET", f"/api/v1/invites/{invite_id}")
    assert status == 200 and shown["practice_name"] == "HelpPet Demo Clinic" and shown["status"] == "pending", shown

    # ... signs in, and accepts with the code from the email.
    signed_in = token(server.base, username, "long-enough-pw")
    status, wrong = api_json(server.base, "POST", f"/api/v1/invites/{invite_id}/accept", signed_in,
                             {"invite_code": "WRONGCODE234"})
    assert status == 403 and wrong["detail"] == "Invalid invitation code", wrong
    status, user = api_json(server.base, "POST", f"/api/v1/invites/{invite_id}/accept", signed_in,
                            {"invite_code": code})
    assert status == 200, user
    assert user["role"] == "VET_STAFF" and user["practice_id"] == DEMO_PRACTICE
    status, practice = api_json(server.base, "GET", f"/api/v1/practices/{DEMO_PRACTICE}", signed_in)
    assert status == 200, practice
    status, again = api_json(server.base, "POST", f"/api/v1/invites/{invite_id}/accept", signed_in,
                             {"invite_code": code})
    assert status == 410 and again["detail"] == "This invitation has already been used", again
