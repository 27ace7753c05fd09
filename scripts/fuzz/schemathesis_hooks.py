"""schemathesis hooks of scripts/fuzz/schemathesis (loaded through SCHEMATHESIS_HOOKS).

One hook, `filter_failure`, which drops exactly three kinds of failure, each only with the answer the contract
prescribes:

- `positive_data_acceptance` (ST202, a request that matches the schema was answered 400) when the server's error
  message is one the contract mandates for a rule a JSON Schema cannot state: a rule on the current date, on another
  field or on stored data (the time-zone database, booking slots, which pets belong to an appointment). Each entry of
  CONTRACT_REJECTIONS names the operation, the exact message pattern and the contract section. Also when the stateful
  phase put a non-UUID (a `null` of an earlier response) into a path id and HelpPet answered `Invalid … ID format`.
- `unsupported_method` (ST204, an undocumented method was not answered 405) outside `/storage/`: both contracts
  answer a known path with a method it does not serve with 404 in the path's error format (HelpPet §1.2,
  AutoDetail §1.1), never 405; only the object store answers 405 (§7.4 of both), and there the check stays.
  (`--checks all` on the command line overrides a per-operation `enabled = false` in schemathesis.toml.)

- `use_after_free` (ST301, a resource still readable after its DELETE) for the DELETEs the contracts define as soft
  (SOFT_DELETES), when the GET shows the resource in its deleted state (inactive, revoked, cancelled).

Every other failure, and any other status or message on these operations, still fails the run.

What a schema can say is said in the OpenAPI documents instead (Sources/*API/Resources/openapi.yaml): lengths, patterns,
formats, enums, ranges, at-least-one-field bodies.
"""

from __future__ import annotations

import json
import os
import re

import schemathesis

# (operation label regex, error message regex, contract reference). The message is HelpPet's `detail` or
# AutoDetail's `error`.
CONTRACT_REJECTIONS: list[tuple[str, str, str]] = [
    # --- HelpPet (shared/contracts/helppet-api.md) ---
    # §1.6: datetimes between 2000-01-01T00:00:00Z and 2100-12-31T23:59:59Z after conversion to UTC (an offset moves
    # a value across the bound, which a pattern on the text cannot follow).
    (r"^(POST|PUT) /api/v1/appointments", r"^appointment_date is out of range$", "§1.6"),
    # §4.7: 1900-01-01 … today (a bound that moves every day).
    (r"^(POST|PUT) /api/v1/pets", r"^date_of_birth must be between 1900-01-01 and today$", "§4.7"),
    # §4.9: at most the current time plus 86400 seconds (moves every second).
    (r"^POST /api/v1/visit-transcripts$",
     r"^visit_date must be between 946684800 and the current time plus 86400 seconds$", "§4.9"),
    # §1.7/§4.2: 8–72 bytes of UTF-8; a schema counts characters (72 characters can be up to 288 bytes).
    (r"^(POST|PUT) /api/v1/users", r"^password must be between 8 and 72 bytes$", "§4.2"),
    # Onboarding: the signup's password follows the same byte rule.
    (r"^POST /api/v1/auth/signup$", r"^password must be between 8 and 72 bytes$", "docs/iphone-app-compatibility.md"),
    # Forgotten password: a token is good only while it matches an emailed link that is unused and unexpired (stored
    # data); the new password follows the byte rule of §4.2.
    (r"^POST /api/v1/auth/password-reset/confirm$",
     r"^(This password reset link is invalid, already used or expired\. Ask for a new one\."
     r"|new_password must be between 8 and 72 bytes)$", "docs/login-and-sessions.md"),
    # §1.6: time zones are checked against the server's tz database.
    (r"^(POST|PUT) /api/v1/practices", r"^Invalid timezone: '.*'$", "§1.6, §4.3"),
    # §4.2: the role decides which of practice_id / pet_owner_id must be set (a rule across fields).
    (r"^(POST|PUT) /api/v1/users",
     r"^(practice_id is required for VET and VET_STAFF users|practice_id must be null for ADMIN and PET_OWNER users"
     r"|pet_owner_id is required for PET_OWNER users|pet_owner_id is only allowed for PET_OWNER users"
     r"|Cannot change role to or from PET_OWNER)$", "§4.2"),
    # §4.11: a file part with no bytes.
    (r"^POST /api/v1/upload/audio$", r"^Audio file is empty$", "§4.11"),
    # §1.10 step 7: relationships between entities (a pet of another owner, a vet of another practice …).
    (r"^(POST|PUT) /api/v1/appointments", r"^(One or more pets not found or don't belong to this owner"
     r"|Pet owner is not a client of this practice|Pet [0-9a-f-]{36} is inactive"
     r"|assigned_vet_user_id must reference an active VET or VET_STAFF user of the practice)$", "§4.5"),
    # The iPhone app's aliases: both names of one field sent with different values (a rule across fields).
    (r"^(POST|PUT) /api/v1/pets", r"^microchip_id and microchip_number must be the same when both are given$",
     "docs/iphone-app-compatibility.md"),
    (r"^(POST|PUT) /api/v1/medical-records", r"^treatment and treatment_plan must be the same when both are given$",
     "docs/iphone-app-compatibility.md"),
    # Vet availability: a window ends after it starts (a rule across fields); its instants and the
    # medical record's visit_date are in the §1.6 range after conversion to UTC; the zone is a tz database name.
    (r"^(POST|PUT) /api/v1/scheduling-unix/vet-availability", r"^end_at must be after start_at$", "docs/iphone-app-compatibility.md"),
    (r"^(POST|PUT) /api/v1/scheduling-unix/vet-availability", r"^An availability window may last at most 31 days$",
     "docs/iphone-app-compatibility.md"),
    (r"^(POST|PUT) /api/v1/scheduling-unix/vet-availability", r"^(start_at|end_at) is out of range$", "§1.6"),
    (r"^(POST|PUT) /api/v1/medical-records", r"^visit_date is out of range$", "§1.6"),
    (r"^GET /api/v1/scheduling-unix/vet-availability/\{id\}$",
     r"^timezone must be an IANA time zone name such as America/Los_Angeles$", "§1.6"),
    (r"^GET /api/v1/visit-transcripts/appointments/\{appointment_id\}/visits$",
     r"^Pet [0-9a-f-]{36} is not associated with appointment [0-9a-f-]{36}$", "§4.9"),
    # The note correction (docs/scribe.md): rules across fields, and the note's own section keys (stored data).
    (r"^PUT /api/v1/visit-transcripts/\{visit_id\}/note$",
     r"^(medications\[\d+\]\.dose_max (needs a dose|must be greater than dose)"
     r"|follow_up needs interval_days, date or weekday \(or null for no follow-up\)"
     r"|Unknown note section: '.*'\. Allowed: .*|This note has no sections to correct)$", "docs/scribe.md"),
    # --- AutoDetail Hub (shared/contracts/autodetail-api.md) ---
    # §6: a start that is not a free slot of the studio's schedule (working hours, step, lead time, window).
    (r"^POST /api/(admin|client)/appointments$", r"^Invalid time slot$", "§6"),
    # §4.4.1: the service is named by an active service's name or id (data the schema cannot know).
    (r"^POST /api/(admin|client)/appointments$",
     r"^(Unknown or inactive service|serviceId and serviceName do not match)$", "§4.4.1"),
    # §4.7.4: `date` and `from`/`to` exclude each other.
    (r"^GET /api/admin/appointments$", r"^Invalid parameter: date \(cannot be combined with from/to\)$", "§4.7.4"),
    # §4.7.6: time zones are checked against the server's tz database; a day closes later than it opens.
    (r"^PUT /api/admin/settings$", r"^Invalid field: timezone \(unknown time zone\)$", "§4.7.6"),
    (r"^PUT /api/admin/settings$",
     r"^Invalid field: workingHours\.(mon|tue|wed|thu|fri|sat|sun)\.close \(must be later than open\)$", "§3.2"),
    # §4.7.1: the current password must be the stored one, and the new one must differ from it.
    (r"^POST /api/admin/password$", r"^(Current password is incorrect"
     r"|Invalid field: newPassword \(must differ from the current password\))$", "§4.7.1"),
]

_COMPILED = [(re.compile(operation), re.compile(message), reference)
             for operation, message, reference in CONTRACT_REJECTIONS]


def _error_message(response) -> str | None:
    body = _json(response)
    if not isinstance(body, dict):
        return None
    message = body.get("detail", body.get("error"))
    return message if isinstance(message, str) else None


UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")

# The 404 bodies of an unknown route or method (HelpPet §1.2 and the root paths; AutoDetail §1.1 under /api/).
NOT_FOUND_BODIES = ({"detail": "Not Found"}, {"error": "Not found"})


# DELETE operations the contracts define as soft: the resource stays readable with this state (use_after_free,
# ST301, expects it gone). (GET operation path, field, value after the DELETE, contract section.)
SOFT_DELETES = [
    ("/api/admin/services/{serviceId}", "active", False, "AutoDetail §4.7.3: soft delete, also inactive on GET"),
    ("/api/admin/api-keys/{keyId}", "revoked", True, "AutoDetail §4.7.2: revocation keeps the key listed"),
    ("/api/v1/pets/{pet_id}", "is_active", False, "HelpPet §4.7: DELETE deactivates"),
    ("/api/v1/appointments/{appointment_id}", "status", "cancelled", "HelpPet §4.5: DELETE cancels"),
]


def _soft_deleted(case, response) -> bool:
    body = _json(response)
    return case.method.upper() == "GET" and response.status_code == 200 and isinstance(body, dict) and any(
        case.operation.path == path and field in body and body[field] == value
        for path, field, value, _reference in SOFT_DELETES)


def _is_not_found_error(body) -> bool:
    return (isinstance(body, dict) and len(body) == 1 and isinstance(body.get("error"), str)
            and body["error"].endswith(" not found"))


def _json(response):
    try:
        return json.loads(response.content or b"null")
    except (ValueError, TypeError):
        return None


def _log_drop(code: str, case, reason: str) -> None:
    """One line per dropped failure into $FUZZ_DROPPED_LOG (the script prints a tally), so every run shows which
    exceptions it used and how often."""
    path = os.environ.get("FUZZ_DROPPED_LOG")
    if path:
        with open(path, "a", encoding="utf-8") as log:
            log.write(f"{code}\t{case.method.upper()} {case.operation.path}\t{reason}\n")


@schemathesis.hook
def filter_failure(context, failure, case, response) -> bool:
    """False (drop) only for the contract's answers described above; True keeps every other failure."""
    reason = _contract_answer(failure, case, response)
    if reason is not None:
        _log_drop(getattr(failure, "code", "?"), case, reason)
    return reason is None


def _contract_answer(failure, case, response) -> str | None:
    """Why this failure is the answer the contract prescribes, or None (keep the failure)."""
    code = getattr(failure, "code", None)
    if code == "ST301":
        return "soft delete: the resource stays readable in its deleted state" if _soft_deleted(case, response) \
            else None
    if code == "ST204":
        # The 404 of an unknown route, or the resource's not-found message when the method matches a sibling route
        # with a path parameter (`DELETE /api/admin/ios-users/stats` is `DELETE …/{installId}` for id `stats`, and
        # a malformed path id answers like an unknown one, AutoDetail §1.4).
        body = _json(response)
        if (response.status_code == 404 and not case.operation.path.startswith("/storage/")
                and (body in NOT_FOUND_BODIES or _is_not_found_error(body))):
            return "unsupported method answered 404 (HelpPet §1.2, AutoDetail §1.1)"
        return None
    if code != "ST202" or response.status_code != 400:
        return None
    message = _error_message(response)
    if message is None:
        return None
    # The stateful phase fills path parameters from earlier responses without checking them against the schema
    # (a `null` id becomes `None`); such a request was never schema-valid, and HelpPet §1.5 answers a malformed
    # path id with 400 `Invalid … ID format`.
    if re.fullmatch(r"Invalid [a-z ]+ ID format", message) and any(
            not (isinstance(value, str) and UUID.fullmatch(value))
            for value in (case.path_parameters or {}).values()):
        return "stateful phase sent a non-UUID path id (HelpPet §1.5)"
    label = f"{case.method.upper()} {case.operation.path}"
    for operation, pattern, reference in _COMPILED:
        if operation.search(label) and pattern.search(message):
            return f"400 {pattern.pattern} ({reference})"
    return None
