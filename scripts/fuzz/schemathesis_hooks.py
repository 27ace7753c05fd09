"""schemathesis hooks of scripts/fuzz/schemathesis (loaded through SCHEMATHESIS_HOOKS).

One hook, `filter_failure`, and it only ever drops one kind of failure: `positive_data_acceptance` (ST202, a request
that matches the schema was answered 400) when the server's error message is one the contract mandates for a rule a
JSON Schema cannot state: a rule on the current date, on another field or on stored data (the time-zone database,
booking slots, which pets belong to an appointment, the value an immutable field has now). Each entry below names
the operation, the exact message pattern and the contract section. Every other failure, and a 400 with any other
message on these operations, still fails the run.

What a schema can say is said in the OpenAPI documents instead (scripts/openapi/generate_*.py): lengths, patterns,
formats, enums, ranges, at-least-one-field bodies.
"""

from __future__ import annotations

import json
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
    # §1.6: time zones are checked against the server's tz database.
    (r"^(POST|PUT) /api/v1/practices", r"^Invalid timezone: '.*'$", "§1.6, §4.3"),
    # §1.10 step 7: relationships between entities (a pet of another owner, a vet of another practice …).
    (r"^GET /api/v1/visit-transcripts/appointments/\{appointment_id\}/visits$",
     r"^Pet [0-9a-f-]{36} is not associated with appointment [0-9a-f-]{36}$", "§4.9"),
    # --- AutoDetail Hub (shared/contracts/autodetail-api.md) ---
    # §6: a start that is not a free slot of the studio's schedule (working hours, step, lead time, window).
    (r"^POST /api/(admin|client)/appointments$", r"^Invalid time slot$", "§6"),
    # §4.7.4: `date` and `from`/`to` exclude each other.
    (r"^GET /api/admin/appointments$", r"^Invalid parameter: date \(cannot be combined with from/to\)$", "§4.7.4"),
    # §4.7.6: time zones are checked against the server's tz database; a day closes later than it opens.
    (r"^PUT /api/admin/settings$", r"^Invalid field: timezone \(unknown time zone\)$", "§4.7.6"),
    (r"^PUT /api/admin/settings$",
     r"^Invalid field: workingHours\.(mon|tue|wed|thu|fri|sat|sun)\.close \(must be later than open\)$", "§3.2"),
    # §4.7.1: the new password must differ from the current one.
    (r"^POST /api/admin/password$", r"^Invalid field: newPassword \(must differ from the current password\)$",
     "§4.7.1"),
]

_COMPILED = [(re.compile(operation), re.compile(message), reference)
             for operation, message, reference in CONTRACT_REJECTIONS]


def _error_message(response) -> str | None:
    try:
        body = json.loads(response.content or b"null")
    except (ValueError, TypeError):
        return None
    if not isinstance(body, dict):
        return None
    message = body.get("detail", body.get("error"))
    return message if isinstance(message, str) else None


@schemathesis.hook
def filter_failure(context, failure, case, response) -> bool:
    """False (drop) only for a contract-mandated 400 to schema-valid data; True keeps every other failure."""
    if getattr(failure, "code", None) != "ST202" or response.status_code != 400:
        return True
    message = _error_message(response)
    if message is None:
        return True
    label = f"{case.method.upper()} {case.operation.path}"
    for operation, pattern, _reference in _COMPILED:
        if operation.search(label) and pattern.search(message):
            return False
    return True
