#!/usr/bin/env python3
"""Generates the OpenAPI 3.1 description of the AutoDetail Hub API.

The output, Sources/AutoDetailAPI/Resources/openapi.json, is committed and served verbatim at
`GET /openapi/autodetail.json` (Sources/AutoDetailAPI/OpenAPIDocument.swift). The specification it describes is
shared/contracts/autodetail-api.md; section numbers (§) below refer to that contract.

Usage:
    python3 scripts/openapi/generate_autodetail.py            # write the document
    python3 scripts/openapi/generate_autodetail.py --check    # exit 1 if the committed file is stale
    python3 scripts/openapi/generate_autodetail.py --stdout

The builders and the command line shared with generate_helppet.py are in openapi_builders.py (same folder);
the AutoDetail-only helpers and conventions are here.

Python 3.11 standard library only. Output is deterministic: sorted keys, 2-space indent, trailing newline.
Tests/AutoDetailAPITests/OpenAPIRouteCoverageTests.swift diffs the registered routes against this document.
"""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path

# Python puts this folder on sys.path when the script is run, but not under `-P`/PYTHONSAFEPATH or when the script is
# imported from elsewhere; the shared module must be importable in every case.
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.dont_write_bytecode = True  # no __pycache__ in the checkout: the repository does not ignore it
import openapi_builders  # noqa: E402
from openapi_builders import (PAGINATION, PUBLIC, ROOT, Paths, array, boolean, date, header_ref,  # noqa: E402
                              integer, nullable, path_param, query, ref, string, uuid, with_description)
from openapi_builders import timestamp as instant  # noqa: E402  (the contract's word, §1.3)

OUTPUT = ROOT / "Sources" / "AutoDetailAPI" / "Resources" / "openapi.json"

# ---------------------------------------------------------------------------------------------------------------------
# Schema helpers (AutoDetail only; the common ones are imported above)
# ---------------------------------------------------------------------------------------------------------------------

# `required` lists implied by `obj` keep the declaration order of the properties (HelpPet's are sorted); the
# committed document depends on that order.
obj = partial(openapi_builders.obj, sort_required=False)


# §1.2 rules 7 and 9 as patterns: whitespace at either end is trimmed before validation (so `\n` or `\t` there is
# harmless); inside, single-line fields refuse U+0000–U+001F and U+007F, multi-line ones allow `\t`, `\n`, `\r`.
_EDGE = r"[\t\n\x0B\x0C\r ]*"
_SINGLE_LINE = r"[^\x00-\x1F\x7F]"
_MULTI_LINE = r"[^\x00-\x08\x0B\x0C\x0E-\x1F\x7F]"


def text_pattern(min_length: int, *, multiline: bool = False, blank: bool = False) -> str:
    """With a minimum length the value neither starts nor ends with whitespace, so the lengths a schema counts are
    the lengths the server counts after trimming; `blank`: an optional create field, where a blank value means
    absent (rule 7)."""
    char = _MULTI_LINE if multiline else _SINGLE_LINE
    if min_length == 0:
        return f"^{_EDGE}{char}*{_EDGE}$"
    solid = f"[^\\s{char[2:-1]}]"
    core = f"{solid}({char}*{solid})?" if min_length == 1 else f"{solid}{char}*{solid}"
    return f"^({core}|{_EDGE})$" if blank else f"^{core}$"


def text(min_length: int, max_length: int, description: str | None = None, *, multiline: bool = False,
         blank: bool = False) -> dict:
    """A trimmed string whose length is counted in characters after trimming (§1.2 rules 7–9). A blank value counts
    as missing (required fields) or is refused (`must be <min>-<max> characters`), except with `blank` (an optional
    create field: stored as null)."""
    note = "Trimmed; length in characters; " + (
        "`\\n`, `\\r`, `\\t` allowed, other control characters refused." if multiline
        else "control characters refused.")
    return string(min_length, max_length, pattern=text_pattern(min_length, multiline=multiline, blank=blank),
                  description=f"{note} {description}" if description else note)


def telegram(description: str | None = None) -> dict:
    """§1.12: one optional `@`, then `^[A-Za-z0-9_]{5,32}$`; optional everywhere, so blank means absent."""
    return string(pattern=rf"^{_EDGE}(@?[A-Za-z0-9_]{{5,32}})?{_EDGE}$", description=description)


def plate(*, blank: bool = False) -> dict:
    """§1.12 car plate: letters of any script, digits, space and `-` (runs of whitespace collapse to one space), 2–20.
    A pattern cannot name "letters of any script" portably (`\\p{L}` is not in every regex dialect a fuzzer or
    validator uses), so it lists the Latin and Cyrillic letters of the plates this studio sees; the server accepts
    every script."""
    char = "[A-Za-z\u0401\u0410-\u044F\u04510-9-]"
    core = f"{char}({char}| )*{char}"
    return string(2, 20, pattern=f"^({core}|{_EDGE})$" if blank else f"^{core}$",
                  description="Trimmed; normalised: whitespace collapsed, upper case; letters, digits, space, `-`.")


def one_service(schema: dict) -> dict:
    """§4.4.1: `serviceName` or `serviceId`, at least one of them (a blank name or a `null` counts as absent)."""
    schema["anyOf"] = [{"required": ["serviceId"], "properties": {"serviceId": uuid()}},
                       {"required": ["serviceName"], "properties": {"serviceName": string(pattern=r"\S")}}]
    return schema


def create_body(properties: dict, required: list[str], description: str | None = None) -> dict:
    """A create body (§1.2 rule 5): an optional field sent as `null` is treated as absent, so every optional property
    admits `null`; a required one sent as `null` counts as missing."""
    properties = {name: schema if name in required or _admits_null(schema) else nullable(schema)
                  for name, schema in properties.items()}
    return obj(properties, required, description=description)


def _admits_null(schema: dict) -> bool:
    types = schema.get("type")
    return "null" in (types if isinstance(types, list) else [types]) or any(
        branch.get("type") == "null" for branch in schema.get("anyOf", []))


def optional_query(schema: dict) -> dict:
    """An optional query parameter: a blank value means absent (§1.5, the parameters are trimmed)."""
    return {"anyOf": [schema, string(max_length=0)]}


# §1.12: after removing whitespace and `-().` `/`, an optional `+` or `00`, then 7–15 digits, the first not 0
# (an 11-digit number starting with 8 becomes `+7…`, still 11 digits). Control characters (tabs, newlines) are
# refused inside (rule 9) and trimmed at the ends (rule 7).
_PHONE_SEP = r"[ \-().\/]*"
_PHONE = rf"{_EDGE}{_PHONE_SEP}(\+|00)?{_PHONE_SEP}[1-9]({_PHONE_SEP}[0-9]){{6,14}}{_PHONE_SEP}{_EDGE}"


def phone(description: str | None = None, *, blank: bool = False) -> dict:
    """`blank`: a query parameter, where a blank value means absent."""
    return string(pattern=f"^({_PHONE}|{_EDGE})$" if blank else f"^{_PHONE}$", description=description)


def http_url(*, https_only: bool = False, presets: bool = False, blank: bool = False,
             description: str | None = None) -> dict:
    """§1.12 URLs: absolute `http`/`https` (`https` only for profile photos, or `preset:<name>`), ≤ 2048 characters;
    `blank`: an optional field where a blank string means absent (§1.2 rule 7)."""
    # What `URLComponents` parses with a host, in plain ASCII (RFC 3986 unreserved and sub-delimiter characters).
    scheme = "https" if https_only else "https?"
    path_char = r"[A-Za-z0-9._~!$&'()*+,;=:@/-]"
    alternatives = [rf"{scheme}://[A-Za-z0-9._~-]+(/{path_char}*)?(\?({path_char}|\?)*)?"]
    if presets:
        alternatives.append(r"preset:[a-z0-9_]{1,32}")
    core = f"({'|'.join(alternatives)})"
    if blank:
        core = f"({core})?"
    return string(max_length=2048, pattern=f"^{_EDGE}{core}{_EDGE}$", description=description)


def partial_update(properties: dict, description: str) -> dict:
    """A partial-update body: at least one known field (`anyOf` of single `required` lists), else `Nothing to
    update`."""
    schema = obj(properties, [], description=description)
    schema["anyOf"] = [{"required": [name]} for name in properties]
    return schema


def instant_input(description: str | None = None) -> dict:
    note = ("`YYYY-MM-DDTHH:MM:SS`, optional `.` and 1–9 digits, then `Z` or `±HH:MM` (§1.3); "
            "`T` and `Z` upper case.")
    return string(fmt="date-time", description=f"{note} {description}" if description else note)


def wall_time(description: str | None = None) -> dict:
    return string(pattern=r"^([01]\d|2[0-3]):[0-5]\d$|^24:00$", description=description)


STATUSES = ["new", "confirmed", "in_progress", "done", "cancelled"]
SOURCES = ["ios", "api", "admin"]
KINDS = ["work", "defect"]
PRIORITIES = ["normal", "high", "blocked"]
CONTENT_TYPES = ["image/jpeg", "image/png", "image/heic"]
DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
API_KEY_PATTERN = r"^(org|ios)_[0-9]{10}_[0-9a-f]{24}$"
PHONE_NOTE = "Normalised (§1.12): spaces and `-().` / removed, `00` → `+`, 11 digits starting with 8 → `+7…`."

# ---------------------------------------------------------------------------------------------------------------------
# Component schemas
# ---------------------------------------------------------------------------------------------------------------------


def photo(admin: bool) -> dict:
    properties = {
        "id": uuid("Stable across reads."),
        "url": string(fmt="uri", description="Presigned GET URL valid 3600 s, signed fresh for every response (§7.5)."),
        "createdAt": instant("Time of linking."),
    }
    if admin:
        properties["mismatch"] = boolean(description="The object no longer matches what was linked (§7.5).")
    return obj(properties)


def appointment(admin: bool) -> dict:
    properties = {
        "id": uuid(),
        "source": string(enum=SOURCES),
        "status": string(enum=STATUSES),
        "startIso": instant("A slot start (§6)."),
        "endIso": nullable(instant("`startIso` + the service duration at booking time; never null in practice.")),
        "clientName": string(2, 100),
        "phone": nullable(string(description="E.164-like, normalised (§1.12).")),
        "telegram": nullable(string(description="Without `@`.")),
        "carMake": nullable(string(2, 50)),
        "carPlate": nullable(string(2, 20, description="Normalised, upper case (§1.12).")),
        "serviceId": uuid(),
        "serviceName": string(description="Snapshot at booking time."),
        "priceRub": integer(0, description="Snapshot at booking time."),
        "notes": nullable(string(0, 500)),
        "workPhotos": array(ref("AdminPhoto" if admin else "Photo"), description="In linking order."),
        "defectPhotos": array(ref("AdminPhoto" if admin else "Photo"), description="In linking order."),
        "createdAt": instant(),
        "updatedAt": instant("Bumped by every change (status, notes, photos)."),
    }
    if admin:
        properties["installId"] = nullable(uuid("Owning install; null for `api`/`admin` bookings or a deleted install."))
    return obj(properties)


def api_key(created: bool) -> dict:
    properties = {
        "id": uuid(),
        "kind": string(enum=["org", "ios"]),
        "name": string(),
        "keyPrefix": string(19, 19, description="Kind, timestamp and the first 4 hex characters."),
        "fullAccess": boolean(),
    }
    if created:
        properties["key"] = string(pattern=API_KEY_PATTERN, description="The full key; returned only here, once.")
    properties.update({
        "createdAt": instant(),
        "lastUsedAt": nullable(instant("May lag up to 10 s (§2.3).")),
        "requestCount": integer(0, description="May lag up to 10 s (§2.3)."),
        "revoked": boolean(),
        "revokedAt": nullable(instant()),
    })
    return obj(properties)


def ios_user(with_messages: bool) -> dict:
    properties = {
        "id": uuid("The install id."),
        "keyPrefix": string(19, 19),
        "name": nullable(string()),
        "carMake": nullable(string()),
        "carPlate": nullable(string()),
        "phone": nullable(string()),
        "telegram": nullable(string()),
        "profilePhotoUrl": nullable(string()),
        "priority": string(enum=PRIORITIES),
        "createdAt": instant(),
        "updatedAt": instant(),
        "lastSeenAt": nullable(instant()),
        "lastActivityPath": nullable(string(max_length=200, description="`<METHOD> <path>` of the latest use.")),
        "requestCount": integer(0),
        "appointmentCount": integer(0, description="All statuses."),
        "unreadMessages": integer(0),
    }
    if with_messages:
        properties["messages"] = array(ref("AdminMessage"), max_items=100, description="Latest 100, newest first.")
    return obj(properties)


def day_hours() -> dict:
    return obj({"open": string(pattern=r"^([01]\d|2[0-3]):[0-5]\d$", description="`00:00`–`23:59`."),
                "close": wall_time("`00:01`–`24:00`, later than `open`.")})


def working_hours() -> dict:
    return obj({day: nullable(ref("DayHours")) for day in DAYS},
               description="The seven weekdays; `null` = closed.")


def response_schemas() -> dict:
    return {
        "Error": obj({"error": string(description="A stable English message (§1.5).")},
                     description="Every 4xx/5xx body of the `/api/` routes."),
        "ValidateKeyError": obj({"valid": boolean(description="Always `false`."), "error": string()}),
        "RootError": obj({"detail": string()}, description="Errors of the root paths (`/health…`, `/openapi…`)."),
        "Service": obj({
            "id": uuid(),
            "name": string(2, 100),
            "description": string(0, 2000, description="`\"\"` when none."),
            "priceRub": integer(0, 10_000_000),
            "durationMinutes": integer(15, 720, multiple_of=5, description="The slot length (§6)."),
            "imageUrl": nullable(string(fmt="uri")),
            "active": boolean(description="`false` = soft-deleted."),
            "createdAt": instant(),
            "updatedAt": instant(),
        }),
        "Photo": photo(admin=False),
        "AdminPhoto": photo(admin=True),
        "Appointment": appointment(admin=False),
        "AdminAppointment": appointment(admin=True),
        "Availability": obj({
            "date": date(),
            "serviceId": uuid(),
            "timezone": string(description="Studio IANA zone."),
            "durationMinutes": integer(15, 720),
            "capacity": integer(1, 20),
            "workingHours": nullable(ref("DayHours")),
            "slots": array(ref("Slot"), description="Every grid slot of the day, chronological."),
        }),
        "Slot": obj({
            "startIso": instant(),
            "endIso": instant(),
            "startTime": wall_time(),
            "endTime": wall_time("`00:00` for a slot ending at midnight."),
            "available": boolean(),
            "remaining": integer(0, description="Free bays for the whole slot (§6 rule 8)."),
            "unavailableReason": nullable(string(enum=["outside_window", "lead_time", "full"])),
        }),
        "ValidateKeyResponse": obj({
            "valid": boolean(description="Always `true`."),
            "message": string(enum=["API key is valid"]),
            "timestamp": instant(),
            "keyType": string(enum=["org", "ios"]),
        }),
        "InstallInitResponse": obj({
            "apiKey": string(pattern=API_KEY_PATTERN, description="The install key, shown only here."),
            "baseUrl": string(fmt="uri", description="`PUBLIC_BASE_URL` or scheme + host of the request."),
            "installId": uuid(),
        }),
        "PresignResponse": obj({
            "uploadUrl": string(fmt="uri", description="Presigned PUT URL, valid 900 s; write-once (§7.4)."),
            "method": string(enum=["PUT"]),
            "headers": {"type": "object", "additionalProperties": {"type": "string"},
                        "description": "Headers the PUT must carry: `Content-Type`, and `Content-Length` when "
                                       "`sizeBytes` was given."},
            "ref": string(description="Opaque photo reference for the link call."),
            "expiresIn": integer(900, 900),
            "expiresAt": instant(),
        }),
        "InstallProfile": obj({
            "id": uuid(),
            "name": nullable(string()),
            "carMake": nullable(string()),
            "carPlate": nullable(string()),
            "phone": nullable(string()),
            "telegram": nullable(string()),
            "profilePhotoUrl": nullable(string()),
            "createdAt": instant(),
            "updatedAt": instant(),
            "unreadMessages": integer(0),
        }),
        "AppMessage": obj({"id": uuid(), "text": string(1, 2000), "createdAt": instant(), "read": boolean()}),
        "AdminMessage": obj({"id": uuid(), "installId": uuid(), "text": string(1, 2000), "createdAt": instant(),
                             "read": boolean(), "readAt": nullable(instant())}),
        "MessageList": obj({"messages": array(ref("AppMessage")),
                            "unreadCount": integer(0, description="All unread messages of the install.")}),
        "AdminLoginResponse": obj({
            "token": string(pattern=r"^adm_[0-9a-f]{64}$"),
            "expiresIn": integer(43200, 43200),
            "expiresAt": instant(),
        }),
        "ApiKey": api_key(created=False),
        "CreatedApiKey": api_key(created=True),
        "IosUser": ios_user(with_messages=False),
        "IosUserDetail": ios_user(with_messages=True),
        "InstallStats": obj({"total": integer(0), "active30d": integer(0), "highPriority": integer(0),
                             "blocked": integer(0)}),
        "DayHours": day_hours(),
        "WorkingHours": working_hours(),
        "StudioSettings": obj({
            "studioName": string(2, 100),
            "timezone": string(description="tz database identifier (not `Etc/…`) or `UTC`."),
            "workingHours": ref("WorkingHours"),
            "slotStepMinutes": integer(5, 240, multiple_of=5),
            "capacity": integer(1, 20),
            "bookingWindowDays": integer(1, 365),
            "leadTimeMinutes": integer(0, 10080),
            "updatedAt": instant(),
        }),
        "Ping": obj({"message": string(description="`PING_MESSAGE`, default `pong`.")}),
        "Health": obj({"status": string(enum=["ok"]), "version": string(), "time": instant()}),
        "Readiness": obj({"status": string(enum=["ready", "degraded"]),
                          "checks": {"type": "object", "additionalProperties": {"type": "string",
                                                                                "enum": ["ok", "unavailable", "off"]}}}),
        "ReadinessFailure": obj({"detail": string(enum=["Service not ready"]),
                                 "checks": {"type": "object", "additionalProperties": {"type": "string"}}}),
    }


def booking_properties(admin: bool) -> dict:
    properties = {
        "startIso": instant_input("Must be a bookable slot start (§6)."),
        "clientName": text(2, 100),
        "phone": phone(PHONE_NOTE),
        "carMake": text(2, 50, blank=admin),
        "carPlate": plate(blank=admin),
        "serviceName": text(0, 100, "Active service, matched case-insensitively; one of `serviceName`/`serviceId`."),
        "serviceId": uuid("Active service; if both are sent they must denote the same service."),
        "notes": text(0, 500, "Blank → null.", multiline=True),
        "telegram": telegram("Stored without `@`."),
    }
    if admin:
        properties["status"] = string(enum=["new", "confirmed"], description="Default `new`.")
    return properties


def request_schemas() -> dict:
    return {
        "ValidateKeyRequest": obj({"apiKey": string(pattern=r"\S", description="Any non-blank string; only keys of "
                                                                             "the §2.2 grammar can be valid.")},
                                  ["apiKey"]),
        "BookingRequest": one_service(create_body(
            booking_properties(False), ["startIso", "clientName", "phone", "carMake", "carPlate"],
            description="Exactly the seed's body shape is accepted (§9.2). `null` = absent.")),
        "AdminBookingRequest": one_service(create_body(booking_properties(True), ["startIso", "clientName"])),
        "PresignRequest": create_body({
            "appointmentId": uuid(),
            "kind": string(enum=KINDS),
            "filename": text(1, 255, "Informational only."),
            "contentType": string(enum=CONTENT_TYPES, description="Case-insensitive, no parameters."),
            "sizeBytes": integer(1, 15_728_640, description="When given, `Content-Length` is signed; larger → 413."),
        }, ["appointmentId", "kind", "filename", "contentType"]),
        "LinkPhotosRequest": obj({
            "kind": string(enum=KINDS),
            "photoUrls": array(string(), min_items=1, max_items=10,
                               description="`ref` values from presign; duplicates are collapsed."),
        }, ["kind", "photoUrls"]),
        "ProfileRequest": create_body({
            "name": text(2, 100),
            "carMake": text(2, 50),
            "carPlate": plate(),
            "phone": phone(PHONE_NOTE, blank=True),
            "telegram": telegram(),
            "profilePhotoUrl": http_url(https_only=True, presets=True, blank=True,
                                        description="`https` URL or `preset:<name>` (`^[a-z0-9_]{1,32}$`)."),
        }, ["name", "carMake", "carPlate"], description="Creates or replaces the profile."),
        "AdminLoginRequest": obj({"username": string(pattern=r"\S", description="Case-insensitive after trimming."),
                                  "password": string(1, 128, description="Never trimmed.")},
                                 ["username", "password"]),
        "PasswordChangeRequest": obj({"currentPassword": string(1), "newPassword": string(12, 128)},
                                     ["currentPassword", "newPassword"]),
        "CreateApiKeyRequest": create_body({"name": text(2, 100), "fullAccess": boolean(False)}, ["name"]),
        "CreateServiceRequest": create_body({
            "name": text(2, 100),
            "description": text(0, 2000, "Default `\"\"`.", multiline=True),
            "priceRub": integer(0, 10_000_000),
            "durationMinutes": integer(15, 720, multiple_of=5),
            "imageUrl": http_url(blank=True),
            "active": boolean(True),
        }, ["name", "priceRub", "durationMinutes"]),
        "UpdateServiceRequest": partial_update({
            "name": text(2, 100),
            "description": nullable(text(0, 2000, "`null` stores `\"\"`.", multiline=True)),
            "priceRub": integer(0, 10_000_000),
            "durationMinutes": integer(15, 720, multiple_of=5),
            "imageUrl": nullable(http_url(blank=True, description="`null` or blank clears.")),
            "active": boolean(),
        }, "Partial: absent fields are unchanged; no known field → `400 Nothing to update`."),
        "UpdateAppointmentRequest": partial_update({
            "status": string(enum=STATUSES, description="Must be allowed by §5, else 409."),
            "notes": nullable(text(0, 500, "Blank or `null` clears.", multiline=True)),
        }, "Partial; no known field → `400 Nothing to update`."),
        "PriorityRequest": obj({"priority": string(enum=PRIORITIES)}, ["priority"]),
        "MessageRequest": obj({"text": text(1, 2000, multiline=True)}, ["text"]),
        "UpdateSettingsRequest": partial_update({
            "studioName": text(2, 100),
            "timezone": string(),
            "workingHours": with_description(ref("WorkingHours"),
                                             "Replaces all seven days; every day key is required."),
            "slotStepMinutes": integer(5, 240, multiple_of=5),
            "capacity": integer(1, 20),
            "bookingWindowDays": integer(1, 365),
            "leadTimeMinutes": integer(0, 10080),
        }, "Partial at the top level; runs under the booking lock; no known field → `400 Nothing to update`."),
    }


# ---------------------------------------------------------------------------------------------------------------------
# Parameters, headers, responses
# ---------------------------------------------------------------------------------------------------------------------


IDEMPOTENCY = {"name": "Idempotency-Key", "in": "header", "required": False,
               "schema": string(1, 100, pattern=r"^[A-Za-z0-9._:-]{1,100}$"),
               "description": "Replays within 24 h answer the same appointment with `Idempotent-Replayed: true`."}


def headers_components() -> dict:
    return {
        "X-Request-Id": {"description": "The request's id (echoed when it matches `^[A-Za-z0-9._-]{1,128}$`).",
                         "schema": string()},
        "X-Total-Count": {"description": "Items matching the filters before paging.", "schema": integer(0)},
        "Location": {"description": "Path of the created resource.", "schema": string()},
        "Retry-After": {"description": "Seconds to wait (at least 1).", "schema": integer(1)},
        "Idempotent-Replayed": {"description": "`true` when answered from an idempotency record.",
                                "schema": string(enum=["true"])},
        "Cache-Control": {"description": "`public, max-age=300` on the client service routes, else `no-store`.",
                          "schema": string()},
        "ETag": {"description": "Quoted hex MD5 of the stored bytes.", "schema": string()},
    }


# Every JSON response carries `X-Request-Id` and `Cache-Control` (§1.9); `headers=` adds the response's own.
json_response = partial(openapi_builders.json_response, standard_headers=("X-Request-Id", "Cache-Control"))


def no_content(description: str) -> dict:
    return {"description": description, "headers": {"X-Request-Id": header_ref("X-Request-Id")}}


ERROR_RESPONSES = {
    "400": ("BadRequest", "Missing or invalid input (`Missing required fields: …`, `Invalid field: …`, "
                          "`Invalid JSON body`, …).", ()),
    "401": ("Unauthorized", "Missing or invalid credential.", ()),
    "403": ("Forbidden", "Blocked install, or an organisation key on an install route.", ()),
    "404": ("NotFound", "Unknown route or id, or an id the caller may not see.", ()),
    "409": ("Conflict", "Capacity exhausted, illegal transition, cancelled appointment, photo limit, name clash, "
                        "idempotency-key reuse.", ()),
    "413": ("PayloadTooLarge", "JSON body over 64 KiB, or a photo over 15 MiB.", ()),
    "415": ("UnsupportedMediaType", "`Content-Type must be application/json`.", ()),
    "429": ("TooManyRequests", "`Too many requests`.", ("Retry-After",)),
    "503": ("ServiceUnavailable", "`Service temporarily unavailable` (database unavailable).", ("Retry-After",)),
}


def responses_components() -> dict:
    result = {name: json_response(description, ref("Error"), headers=headers)
              for name, description, headers in ERROR_RESPONSES.values()}
    result["InternalServerError"] = json_response("`Internal server error`.", ref("Error"))
    return result


def errors(*statuses: int, body: bool = False) -> dict:
    """Error responses of an operation; body routes add 413/415, every route 500 and 503."""
    codes = [str(code) for code in statuses]
    if body:
        codes += ["413", "415"]
    codes.append("503")
    result = {code: {"$ref": f"#/components/responses/{ERROR_RESPONSES[code][0]}"} for code in sorted(set(codes))}
    result["500"] = {"$ref": "#/components/responses/InternalServerError"}
    return result


# `required`: an empty body (0 bytes) is read as `{}` (§1.2 rule 11), and no operation accepts `{}` (each has a
# required field or answers `Nothing to update`).
json_body = partial(openapi_builders.json_body)


# ---------------------------------------------------------------------------------------------------------------------
# Operations
# ---------------------------------------------------------------------------------------------------------------------

KEY = [{"apiKey": []}, {"apiKeyBearer": []}]
ADMIN = [{"adminToken": []}]


APPOINTMENT_ID = path_param("appointmentId", "Appointment id (malformed ids answer 404).")
SERVICE_ID = path_param("serviceId", "Service id.")
KEY_ID = path_param("keyId", "Organisation key id.")
INSTALL_ID = path_param("installId", "Install id.")
MESSAGE_ID = path_param("messageId", "Message id.")
PHOTO_ID = path_param("photoId", "Photo id.")


def operational_routes(p: Paths) -> None:
    """§4.8: shared root routes and ping."""
    tag = "Operations"
    p.add("get", "/health", "getHealth", tag=tag, summary="Liveness", security=PUBLIC,
          description="Shared with the other product; touches no dependency.",
          responses={"200": json_response("Alive.", ref("Health"))})
    p.add("get", "/health/ready", "getReadiness", tag=tag, summary="Readiness", security=PUBLIC,
          description="Database and object store (2 s each); the other product's transcription engine is "
                      "reported but only makes the answer `degraded`.",
          responses={"200": json_response("Ready or degraded.", ref("Readiness")),
                     "503": json_response("A dependency is down.", ref("ReadinessFailure"), headers=("Retry-After",))})
    p.add("get", "/openapi/autodetail.json", "getOpenAPIDocument", tag=tag, summary="This document", security=PUBLIC,
          responses={"200": json_response("OpenAPI 3.1 description of AutoDetail Hub.",
                                          {"type": "object", "additionalProperties": True})})
    p.add("get", "/api/ping", "ping", tag=tag, summary="Ping", security=PUBLIC,
          responses={"200": json_response("`{\"message\": PING_MESSAGE}`.", ref("Ping"))})


def key_routes(p: Paths) -> None:
    """§4.1."""
    tag = "Keys"
    p.add("post", "/api/auth/validate-key", "validateKey", tag=tag, summary="Check an API key", security=PUBLIC,
          description="Public; 30 requests per client IP per 60 s. Every non-200 answer carries `\"valid\": false` "
                      "next to `error`. A 200 is a use of the key.",
          body=json_body("ValidateKeyRequest"),
          responses={"200": json_response("The key is valid.", ref("ValidateKeyResponse")),
                     **{code: json_response(text_, ref("ValidateKeyError"), headers=headers)
                        for code, text_, headers in [
                            ("400", "Missing or invalid `apiKey`, or an invalid JSON body.", ()),
                            ("401", "`Invalid API key` (wrong shape, unknown or revoked).", ()),
                            ("403", "`This app installation has been blocked`.", ()),
                            ("413", "`Request body too large`.", ()),
                            ("415", "`Content-Type must be application/json`.", ()),
                            ("429", "`Too many requests`.", ("Retry-After",)),
                            ("500", "`Internal server error`.", ()),
                            ("503", "`Service temporarily unavailable`.", ("Retry-After",))]}})
    p.add("post", "/api/ios/init", "initInstall", tag=tag, summary="Mint an install key", security=PUBLIC,
          description="No body. 10 requests per client IP per hour. Creates an `ios` key (shown only here) and an "
                      "empty install profile.",
          responses={"200": json_response("A new install identity.", ref("InstallInitResponse")),
                     **errors(429)})


def catalogue_routes(p: Paths) -> None:
    """§4.2, §4.3."""
    tag = "Catalogue"
    p.add("get", "/api/client/services", "listServices", tag=tag, summary="Active services", security=PUBLIC,
          description="Sorted by the normalised name, then id; `Cache-Control: public, max-age=300`.",
          responses={"200": json_response("Active services.", array(ref("Service"))), **errors()})
    p.add("get", "/api/client/services/{serviceId}", "getService", tag=tag, summary="One active service",
          security=PUBLIC, parameters=[SERVICE_ID],
          responses={"200": json_response("The service.", ref("Service")), **errors(404)})
    p.add("get", "/api/client/availability", "getAvailability", tag=tag, summary="Slots of one day",
          security=PUBLIC,
          description="Every grid slot of a studio-local date (§6), with remaining bays and the first reason it "
                      "cannot be booked. Advisory only: bookings re-check under the booking lock.",
          parameters=[query("serviceId", uuid(), "An active service.", required=True),
                      query("date", date(), "Studio-local date.", required=True)],
          responses={"200": json_response("The day's slots.", ref("Availability")), **errors(400, 404)})


def client_routes(p: Paths) -> None:
    """§4.4, §4.5."""
    tag = "Appointments"
    p.add("post", "/api/client/appointments", "createAppointment", tag=tag, summary="Book a slot", security=KEY,
          description="Capacity is enforced in one serialised transaction (§3.9 rule 5). `source` is `ios` for "
                      "install keys, `api` for organisation keys.",
          parameters=[IDEMPOTENCY], body=json_body("BookingRequest"),
          responses={"201": json_response("Booked (or replayed).", ref("Appointment"),
                                          headers=("Location", "Idempotent-Replayed")),
                     **errors(400, 401, 403, 409, body=True)})
    p.add("get", "/api/client/appointments", "listAppointments", tag=tag, summary="The key's appointments",
          security=KEY, description="`startIso` descending, then id; organisation keys with `fullAccess` see all.",
          parameters=[query("status", optional_query(string(enum=STATUSES))), query("phone", phone(PHONE_NOTE, blank=True)),
                      *PAGINATION],
          responses={"200": json_response("Appointments.", array(ref("Appointment")), headers=("X-Total-Count",)),
                     **errors(400, 401, 403)})
    p.add("get", "/api/client/appointments/{appointmentId}", "getAppointment", tag=tag, summary="One appointment",
          security=KEY, parameters=[APPOINTMENT_ID],
          responses={"200": json_response("The appointment, photo URLs freshly signed.", ref("Appointment")),
                     **errors(401, 403, 404)})
    p.add("post", "/api/client/appointments/{appointmentId}/cancel", "cancelAppointment", tag=tag,
          summary="Cancel before the start", security=KEY, parameters=[APPOINTMENT_ID],
          description="No body. An already cancelled appointment answers 200 unchanged.",
          responses={"200": json_response("Cancelled.", ref("Appointment")), **errors(401, 403, 404, 409)})
    tag = "Photos"
    p.add("post", "/api/uploads/presign", "presignUpload", tag=tag, summary="Presigned PUT for one photo",
          security=KEY, body=json_body("PresignRequest"),
          responses={"200": json_response("Upload URL and ref.", ref("PresignResponse")),
                     **errors(400, 401, 403, 404, 409, body=True)})
    p.add("post", "/api/client/appointments/{appointmentId}/photos", "linkPhotos", tag=tag,
          summary="Link uploaded photos", security=KEY, parameters=[APPOINTMENT_ID],
          description="Refs checked in order (HEAD before the transaction); all or nothing; already linked refs "
                      "are skipped.",
          body=json_body("LinkPhotosRequest"),
          responses={"200": json_response("The updated appointment.", ref("Appointment")),
                     **errors(400, 401, 403, 404, 409, body=True)})


def install_routes(p: Paths) -> None:
    """§4.6: install keys only."""
    tag = "Install"
    p.add("get", "/api/ios/profile", "getProfile", tag=tag, summary="The install's profile", security=KEY,
          responses={"200": json_response("Profile.", ref("InstallProfile")), **errors(401, 403)})
    p.add("post", "/api/ios/profile", "replaceProfile", tag=tag, summary="Create or replace the profile",
          security=KEY, body=json_body("ProfileRequest"),
          responses={"200": json_response("Profile.", ref("InstallProfile")), **errors(400, 401, 403, body=True)})
    p.add("get", "/api/ios/messages", "listMessages", tag=tag, summary="Messages from the studio", security=KEY,
          description="Newest first; `X-Total-Count` counts the messages matching `unreadOnly`.",
          parameters=[query("unreadOnly", boolean(False)), *PAGINATION],
          responses={"200": json_response("Messages.", ref("MessageList"), headers=("X-Total-Count",)),
                     **errors(400, 401, 403)})
    p.add("post", "/api/ios/messages/{messageId}/read", "readMessage", tag=tag, summary="Mark a message read",
          security=KEY, parameters=[MESSAGE_ID],
          responses={"200": json_response("The message.", ref("AppMessage")), **errors(401, 403, 404)})


def admin_routes(p: Paths) -> None:
    """§4.7."""
    tag = "Admin: session"
    p.add("post", "/api/admin/login", "adminLogin", tag=tag, summary="Log in", security=PUBLIC,
          description="Rate-limited per IP, per (username, IP) failures and per username failures (§2.7).",
          body=json_body("AdminLoginRequest"),
          responses={"200": json_response("Token (12 h).", ref("AdminLoginResponse")),
                     **errors(400, 401, 429, body=True)})
    p.add("post", "/api/admin/logout", "adminLogout", tag=tag, summary="Revoke the token", security=ADMIN,
          responses={"204": no_content("Logged out."), **errors(401)})
    p.add("post", "/api/admin/password", "adminChangePassword", tag=tag, summary="Change the password",
          security=ADMIN, description="Every other session of the admin is revoked.",
          body=json_body("PasswordChangeRequest"),
          responses={"204": no_content("Changed."), **errors(400, 401, body=True)})

    tag = "Admin: API keys"
    p.add("get", "/api/admin/api-keys", "adminListApiKeys", tag=tag, summary="Organisation keys", security=ADMIN,
          parameters=[query("revoked", boolean()), *PAGINATION],
          responses={"200": json_response("Newest first.", array(ref("ApiKey")), headers=("X-Total-Count",)),
                     **errors(400, 401)})
    p.add("post", "/api/admin/api-keys", "adminCreateApiKey", tag=tag, summary="Create an organisation key",
          security=ADMIN, body=json_body("CreateApiKeyRequest"),
          responses={"201": json_response("Created; the full key is shown once.", ref("CreatedApiKey"),
                                          headers=("Location",)),
                     **errors(400, 401, body=True)})
    p.add("get", "/api/admin/api-keys/{keyId}", "adminGetApiKey", tag=tag, summary="One organisation key",
          security=ADMIN, parameters=[KEY_ID],
          responses={"200": json_response("The key.", ref("ApiKey")), **errors(401, 404)})
    p.add("delete", "/api/admin/api-keys/{keyId}", "adminRevokeApiKey", tag=tag, summary="Revoke a key",
          security=ADMIN, parameters=[KEY_ID],
          responses={"204": no_content("Revoked (also when already revoked)."), **errors(401, 404)})

    tag = "Admin: services"
    p.add("get", "/api/admin/services", "adminListServices", tag=tag, summary="All services", security=ADMIN,
          parameters=[query("active", boolean())],
          responses={"200": json_response("Services.", array(ref("Service"))), **errors(400, 401)})
    p.add("post", "/api/admin/services", "adminCreateService", tag=tag, summary="Create a service", security=ADMIN,
          body=json_body("CreateServiceRequest"),
          responses={"201": json_response("Created.", ref("Service"), headers=("Location",)),
                     **errors(400, 401, 409, body=True)})
    p.add("get", "/api/admin/services/{serviceId}", "adminGetService", tag=tag, summary="One service",
          security=ADMIN, parameters=[SERVICE_ID],
          responses={"200": json_response("The service (also inactive).", ref("Service")), **errors(401, 404)})
    p.add("put", "/api/admin/services/{serviceId}", "adminUpdateService", tag=tag, summary="Update a service",
          security=ADMIN, parameters=[SERVICE_ID], body=json_body("UpdateServiceRequest"),
          responses={"200": json_response("Updated.", ref("Service")), **errors(400, 401, 404, 409, body=True)})
    p.add("delete", "/api/admin/services/{serviceId}", "adminDeleteService", tag=tag, summary="Soft delete",
          security=ADMIN, parameters=[SERVICE_ID],
          responses={"204": no_content("Inactive."), **errors(401, 404)})

    tag = "Admin: appointments"
    p.add("get", "/api/admin/appointments", "adminListAppointments", tag=tag, summary="All appointments",
          security=ADMIN, description="`startIso` ascending, then id.",
          parameters=[query("date", optional_query(date()), "Studio-local day; not with from/to."),
                      query("from", optional_query(date())), query("to", optional_query(date())), query("status", optional_query(string(enum=STATUSES))),
                      query("phone", phone(PHONE_NOTE, blank=True)),
                      query("search", string(max_length=100, description="Substring of name, plate, phone or "
                                                                          "service; blank = absent.")),
                      query("installId", optional_query(uuid())), *PAGINATION],
          responses={"200": json_response("Appointments.", array(ref("AdminAppointment")),
                                          headers=("X-Total-Count",)),
                     **errors(400, 401)})
    p.add("post", "/api/admin/appointments", "adminCreateAppointment", tag=tag, summary="Book from the console",
          security=ADMIN, description="Slot rules of §6 rule 16; same capacity lock as client bookings.",
          parameters=[IDEMPOTENCY], body=json_body("AdminBookingRequest"),
          responses={"201": json_response("Booked.", ref("AdminAppointment"), headers=("Location", "Idempotent-Replayed")),
                     **errors(400, 401, 409, body=True)})
    p.add("get", "/api/admin/appointments/{appointmentId}", "adminGetAppointment", tag=tag,
          summary="One appointment", security=ADMIN, parameters=[APPOINTMENT_ID],
          responses={"200": json_response("The appointment.", ref("AdminAppointment")), **errors(401, 404)})
    p.add("put", "/api/admin/appointments/{appointmentId}", "adminUpdateAppointment", tag=tag,
          summary="Status and notes", security=ADMIN, parameters=[APPOINTMENT_ID],
          body=json_body("UpdateAppointmentRequest"),
          responses={"200": json_response("Updated.", ref("AdminAppointment")),
                     **errors(400, 401, 404, 409, body=True)})
    p.add("post", "/api/admin/uploads/presign", "adminPresignUpload", tag=tag, summary="Presign (console)",
          security=ADMIN, body=json_body("PresignRequest"),
          responses={"200": json_response("Upload URL and ref.", ref("PresignResponse")),
                     **errors(400, 401, 404, 409, body=True)})
    p.add("post", "/api/admin/appointments/{appointmentId}/photos", "adminLinkPhotos", tag=tag,
          summary="Link photos (console)", security=ADMIN, parameters=[APPOINTMENT_ID],
          body=json_body("LinkPhotosRequest"),
          responses={"200": json_response("The updated appointment.", ref("AdminAppointment")),
                     **errors(400, 401, 404, 409, body=True)})
    p.add("delete", "/api/admin/appointments/{appointmentId}/photos/{photoId}", "adminDeletePhoto", tag=tag,
          summary="Remove a photo", security=ADMIN, parameters=[APPOINTMENT_ID, PHOTO_ID],
          description="The object is deleted after the transaction has committed.",
          responses={"204": no_content("Removed."), **errors(401, 404)})

    tag = "Admin: installs"
    p.add("get", "/api/admin/ios-users", "adminListInstalls", tag=tag, summary="App installations",
          security=ADMIN, description="`lastSeenAt` descending (nulls last), `createdAt` descending, id.",
          parameters=[query("search", string(max_length=100, description="Blank = absent.")),
                      query("priority", optional_query(string(enum=PRIORITIES))), *PAGINATION],
          responses={"200": json_response("Installs.", array(ref("IosUser")), headers=("X-Total-Count",)),
                     **errors(400, 401)})
    p.add("get", "/api/admin/ios-users/stats", "adminInstallStats", tag=tag, summary="Counts", security=ADMIN,
          responses={"200": json_response("Counts.", ref("InstallStats")), **errors(401)})
    p.add("get", "/api/admin/ios-users/{installId}", "adminGetInstall", tag=tag, summary="One installation",
          security=ADMIN, parameters=[INSTALL_ID],
          responses={"200": json_response("With the latest 100 messages.", ref("IosUserDetail")), **errors(401, 404)})
    p.add("delete", "/api/admin/ios-users/{installId}", "adminDeleteInstall", tag=tag, summary="Delete",
          security=ADMIN, parameters=[INSTALL_ID],
          description="Revokes the key, deletes the profile and its messages; appointments keep `installId = null`.",
          responses={"204": no_content("Deleted."), **errors(401, 404)})
    p.add("put", "/api/admin/ios-users/{installId}/priority", "adminSetInstallPriority", tag=tag,
          summary="Priority (blocking)", security=ADMIN, parameters=[INSTALL_ID], body=json_body("PriorityRequest"),
          responses={"200": json_response("The install.", ref("IosUser")), **errors(400, 401, 404, body=True)})
    p.add("post", "/api/admin/ios-users/{installId}/message", "adminSendMessage", tag=tag, summary="Send a message",
          security=ADMIN, parameters=[INSTALL_ID], body=json_body("MessageRequest"),
          responses={"201": json_response("Sent.", ref("AdminMessage"), headers=("Location",)),
                     **errors(400, 401, 404, body=True)})

    tag = "Admin: settings"
    p.add("get", "/api/admin/settings", "adminGetSettings", tag=tag, summary="Studio settings", security=ADMIN,
          responses={"200": json_response("Settings.", ref("StudioSettings")), **errors(401)})
    p.add("put", "/api/admin/settings", "adminUpdateSettings", tag=tag, summary="Update studio settings",
          security=ADMIN, body=json_body("UpdateSettingsRequest"),
          responses={"200": json_response("Settings.", ref("StudioSettings")), **errors(400, 401, body=True)})


def storage_routes(p: Paths) -> None:
    """§4.5.2, §7.4: the embedded object store (S3 XML errors; presigned query authentication only)."""
    tag = "Object store"
    xml_error = {"description": "S3 error document (`<Error><Code>…</Code>…</Error>`).",
                 "content": {"application/xml": {"schema": string()}}}
    key_param = {"name": "key", "in": "path", "required": True, "schema": string(),
                 "description": "Object key, e.g. `appointments/{id}/{kind}/{uuid}.jpg`."}
    bucket_param = {"name": "bucket", "in": "path", "required": True, "schema": string()}
    common = dict(tag=tag, security=PUBLIC, parameters=[bucket_param, key_param])
    errors_xml = {code: xml_error for code in ("400", "403", "404", "405", "411", "413", "416")}
    p.add("put", "/storage/{bucket}/{key}", "storagePut", summary="Presigned upload", **common,
          description="The signature in the URL authorises the request; `Content-Length` required, at most 15 MiB "
                      "for the AutoDetail bucket; write-once (a second PUT answers 403 `AccessDenied`).",
          body={"required": True, "content": {"image/*": {"schema": string(fmt="binary")}}},
          responses={"200": {"description": "Stored; empty body.", "headers": {"ETag": header_ref("ETag")}},
                     **errors_xml})
    p.add("get", "/storage/{bucket}/{key}", "storageGet", summary="Presigned download", **common,
          description="`Range` supported; `Cache-Control: private, max-age=3600`.",
          responses={"200": {"description": "The bytes.", "content": {"image/*": {"schema": string(fmt="binary")}}},
                     "206": {"description": "A byte range."}, **errors_xml})
    p.add("head", "/storage/{bucket}/{key}", "storageHead", summary="Presigned metadata", **common,
          responses={"200": {"description": "Headers only."}, **errors_xml})
    not_allowed(p, "/storage/{bucket}/{key}", ["post", "delete", "options", "patch"], "GET, HEAD, PUT")
    bucket_only = dict(tag=tag, security=PUBLIC, parameters=[bucket_param])
    p.add("post", "/storage/{bucket}", "storagePostForm", summary="Presigned POST form (other product)",
          **bucket_only, description="Used by the other product's recordings; AutoDetail uses presigned PUT.",
          responses={"204": {"description": "Stored."}, **errors_xml})
    not_allowed(p, "/storage/{bucket}", ["get", "head", "put", "delete", "options", "patch"], "POST")


def not_allowed(p: Paths, path: str, methods: list[str], allow: str) -> None:
    """The store's routes for the methods it refuses (§7.4: `405 MethodNotAllowed` in S3 XML, with `Allow`). They
    are not operations (nothing but the 405 can happen), so they are listed in the path's `x-methods-not-allowed`
    instead: a client or fuzzer sees exactly the methods that work, and Tests/AutoDetailAPITests/
    OpenAPIRouteCoverageTests.swift counts these as documented routes."""
    item = p.paths[path]
    item["x-methods-not-allowed"] = [method.upper() for method in methods]
    item["description"] = (f"Other methods ({', '.join(method.upper() for method in methods)}) answer 405 "
                           f"`MethodNotAllowed` (S3 XML) with `Allow: {allow}`.")


def build_document() -> dict:
    p = Paths(require_security=True)  # there is no document-wide `security`: every operation states its own
    operational_routes(p)
    key_routes(p)
    catalogue_routes(p)
    client_routes(p)
    install_routes(p)
    admin_routes(p)
    storage_routes(p)
    schemas = {**response_schemas(), **request_schemas()}
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "AutoDetail Hub API",
            "version": "1.0.0",
            "description": "Bookings without double booking, photos uploaded straight to object storage, per-install "
                           "API keys and the studio's console API. Specification: "
                           "shared/contracts/autodetail-api.md. Every 4xx/5xx body of the `/api/` routes is "
                           "`{\"error\": \"<message>\"}` (validate-key adds `\"valid\": false`).",
        },
        "servers": [{"url": "http://localhost:8080", "description": "Development"}],
        "paths": p.paths,
        "components": {
            "securitySchemes": {
                "apiKey": {"type": "apiKey", "in": "header", "name": "X-API-Key",
                           "description": "Organisation key (`org_…`) or install key (`ios_…`), §2.4."},
                "apiKeyBearer": {"type": "http", "scheme": "bearer",
                                 "description": "The same API key as `Authorization: Bearer`, used when "
                                                "`X-API-Key` is absent."},
                "adminToken": {"type": "http", "scheme": "bearer",
                               "description": "`adm_…` token from `POST /api/admin/login` (12 h)."},
            },
            "schemas": schemas,
            "parameters": {
                "limit": query("limit", integer(1, 200, default=50), "Page size (§1.8)."),
                "offset": query("offset", integer(0, 2147483647, default=0), "Items to skip (§1.8)."),
            },
            "headers": headers_components(),
            "responses": responses_components(),
        },
    }


def main() -> int:
    return openapi_builders.main(lambda args: build_document(), OUTPUT, script=__file__, doc=__doc__)


if __name__ == "__main__":
    sys.exit(main())
