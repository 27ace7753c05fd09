#!/usr/bin/env python3
"""Generates the OpenAPI 3.1 description of the HelpPet API.

The output, Sources/HelpPetAPI/Resources/openapi.json, is committed and served verbatim at
`GET /openapi.json` (Sources/HelpPetAPI/OpenAPIDocument.swift). The specification it describes is
shared/contracts/helppet-api.md; section numbers (§) below refer to that contract.

Usage:
    python3 scripts/openapi/generate_helppet.py            # write the document
    python3 scripts/openapi/generate_helppet.py --check    # exit 1 if the committed file is stale
    python3 scripts/openapi/generate_helppet.py --stdout [--include-recording-routes]

The builders and the command line shared with generate_autodetail.py are in openapi_builders.py (same folder);
the HelpPet-only helpers and conventions are here.

Python 3.11 standard library only. Output is deterministic: sorted keys, 2-space indent, trailing newline.
Tests/HelpPetAPITests/OpenAPIRouteCoverageTests.swift diffs the registered routes against this document.
"""

from __future__ import annotations

import argparse
import sys
from functools import partial
from pathlib import Path

# Python puts this folder on sys.path when the script is run, but not under `-P`/PYTHONSAFEPATH or when the script is
# imported from elsewhere; the shared module must be importable in every case.
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.dont_write_bytecode = True  # no __pycache__ in the checkout: the repository does not ignore it
import openapi_builders  # noqa: E402
from openapi_builders import (JSON, PAGINATION, PUBLIC, ROOT, Paths, array, boolean, date, header_ref,  # noqa: E402
                              integer, json_body, nullable, obj, path_param, query, ref, string, timestamp, uuid,
                              with_description)

# The recording routes of §4.9 (transcribe, delete), §4.10 and §4.11 are not implemented yet.
# The lead flips this to True when they are registered; the route coverage test then expects them.
INCLUDE_RECORDING_ROUTES = True

OUTPUT = ROOT / "Sources" / "HelpPetAPI" / "Resources" / "openapi.json"

# ---------------------------------------------------------------------------------------------------------------------
# Schema helpers (HelpPet only; the common ones are imported above)
# ---------------------------------------------------------------------------------------------------------------------


# At least one character that is not white space: a string empty after trimming is refused (§1.7). U+0085 (NEL) is
# white space to the server's trimming but not to a JSON Schema (ECMAScript) `\s`, so it is named.
NOT_BLANK = r"[^\s\u0085]"


def trimmed(min_length: int | None, max_length: int, description: str | None = None, **kwargs) -> dict:
    """A string that loses leading/trailing whitespace before validation (§1.7); with a minimum length it must keep
    a non-whitespace character (`{field} must not be empty` otherwise)."""
    note = "Trimmed before validation."
    if min_length and "pattern" not in kwargs:
        kwargs["pattern"] = NOT_BLANK
    return string(min_length, max_length, description=f"{note} {description}" if description else note, **kwargs)


def number(*, exclusive_minimum: float | None = None, minimum: float | None = None, maximum: float | None = None,
           description: str | None = None) -> dict:
    schema: dict = {"type": "number"}
    if minimum is not None:
        schema["minimum"] = minimum
    if exclusive_minimum is not None:
        schema["exclusiveMinimum"] = exclusive_minimum
    if maximum is not None:
        schema["maximum"] = maximum
    return with_description(schema, description)


def free_object(description: str | None = None, **extra) -> dict:
    """A free-form JSON object (`metadata`, `device_metadata`): client keys are kept verbatim (§1.4)."""
    return with_description({"type": "object", "additionalProperties": True, **extra}, description)


def datetime_input(description: str | None = None) -> dict:
    """A datetime the client sends: RFC 3339 with a zone, any fraction (truncated), 2000-01-01 … 2100-12-31 (§1.6)."""
    note = ("RFC 3339 with `Z` or `±HH:MM` (required); a fraction is truncated to whole seconds; "
            "2000-01-01T00:00:00Z … 2100-12-31T23:59:59Z.")
    return string(fmt="date-time", description=f"{note} {description}" if description else note)


# ---------------------------------------------------------------------------------------------------------------------
# Enums (§3.1; the order is the one used in error messages)
# ---------------------------------------------------------------------------------------------------------------------

USER_ROLES = ["VET_STAFF", "VET", "ADMIN", "PET_OWNER"]
APPOINTMENT_STATUSES = ["scheduled", "confirmed", "in_progress", "completed", "cancelled"]
APPOINTMENT_TYPES = ["checkup", "vaccination", "surgery", "emergency", "follow_up", "consultation", "grooming"]
VISIT_STATES = ["new", "processing", "processed", "failed"]
MEDICAL_RECORD_TYPES = ["checkup", "vaccination", "surgery", "emergency", "dental", "diagnostic", "treatment",
                        "follow_up", "lab_result", "visit_summary", "other", "grooming"]
APP_NOTE = "Added for the shipped iPhone app (docs/iphone-app-compatibility.md)."
AUDIO_CONTENT_TYPES = ["audio/m4a", "audio/mp4", "audio/x-m4a", "audio/aac", "audio/mpeg", "audio/wav",
                       "audio/x-wav", "audio/webm", "audio/ogg", "audio/flac"]

PHONE_PATTERN = r"^[0-9 +\-().]*$"
EMAIL_NOTE = "Trimmed; one `@`, non-empty local part, a domain containing a dot."

# ---------------------------------------------------------------------------------------------------------------------
# Component schemas: responses (§4.0 and the endpoint sections)
# ---------------------------------------------------------------------------------------------------------------------


def response_schemas() -> dict:
    s: dict = {}

    s["UserRole"] = string(enum=USER_ROLES)
    s["AppointmentStatus"] = string(enum=APPOINTMENT_STATUSES)
    s["AppointmentType"] = string(enum=APPOINTMENT_TYPES)
    s["VisitState"] = string(enum=VISIT_STATES)
    s["MedicalRecordType"] = string(enum=MEDICAL_RECORD_TYPES)

    s["Error"] = obj({"detail": string(description="Human-readable reason, e.g. `Pet not found`.")},
                     description="Body of every non-2xx response (§1.8).")
    s["Error500"] = obj({"detail": string(enum=["Internal server error"]),
                         "request_id": string(description="The `X-Request-ID` of the response.")},
                        description="Body of every 500; never a stack trace (§1.8).")

    s["User"] = obj({
        "id": uuid(),
        "username": string(description="As registered (case preserved)."),
        "email": string(description="Never null."),
        "full_name": string(),
        "role": string(enum=[*USER_ROLES, "PENDING"],
                       description="`PENDING`: signed up, not yet admitted to a practice by an ADMIN (sees no "
                                   "practice's data; `PENDING_INVITE` in the legacy client profile). Only answered "
                                   "for such a user; `GET /users` lists them only with `role=PENDING`."),
        "is_active": boolean(),
        "practice_id": nullable(uuid("Non-null exactly for VET and VET_STAFF.")),
        "pet_owner_id": nullable(uuid("The linked pet-owner record; non-null exactly for PET_OWNER.")),
        "created_at": timestamp(),
        "updated_at": timestamp(),
        "requested_role": string(enum=["VET_STAFF", "VET"], description="PENDING users only: the role they get "
                                 "when admitted."),
        "requested_practice_id": uuid("PENDING users only, once they asked to join a practice."),
    }, required=sorted(["id", "username", "email", "full_name", "role", "is_active", "practice_id", "pet_owner_id",
                        "created_at", "updated_at"]))
    s["SignupResponse"] = obj({
        **s["User"]["properties"],
        "access_token": string(description="HS256 JWT of the new user."),
        "token_type": string(enum=["bearer"]),
        "expires_in": integer(description="Seconds (28800)."),
    }, required=sorted([*s["User"]["required"], "access_token", "token_type", "expires_in"]),
        description=f"The new (PENDING) user and a token, in one object. {APP_NOTE}")

    s["Practice"] = obj({
        "id": uuid(),
        "uuid": uuid(f"Same value as `id`. {APP_NOTE}"),
        "name": string(),
        "timezone": string(description="IANA time zone identifier of the practice."),
        "phone": nullable(string()),
        "email": nullable(string()),
        "address": nullable(string()),
        "is_active": boolean(),
        "specialties": array(string(), description=f"Never null (default `[]`). {APP_NOTE}"),
        "accepts_new_patients": boolean(description=f"Default true. {APP_NOTE}"),
        "description": nullable(string()),
        "website": nullable(string()),
        "license_number": nullable(string()),
        "admin_user_id": nullable(uuid(f"The user who created the practice by self-service onboarding. {APP_NOTE}")),
        "recording_consent_required": boolean(description="Recording needs the owner's agreement, confirmed at "
                                              "initiate (`owner_consent_confirmed`). Default false (issue 15)."),
        "created_at": timestamp(),
        "updated_at": timestamp(),
    })

    s["RecordingRef"] = obj({"visit_id": uuid(), "state": ref("VisitState")},
                            description="The pet's visit for this appointment (PetSummary.recording).")
    s["PetSummary"] = obj({
        "id": uuid(),
        "name": string(),
        "species": string(),
        "breed": nullable(string()),
        "recording": with_description(
            nullable(ref("RecordingRef")),
            "This pet's visit for this appointment; null if none or if it is still pending (§4.10)."),
    }, description="A pet inside an Appointment.")

    s["Appointment"] = obj({
        "id": uuid(),
        "practice_id": uuid(),
        "pet_owner_id": uuid(),
        "assigned_vet_user_id": nullable(uuid()),
        "appointment_date": timestamp("Start instant."),
        "duration_minutes": integer(5, 480),
        "appointment_type": ref("AppointmentType"),
        "status": ref("AppointmentStatus"),
        "title": string(),
        "description": nullable(string()),
        "notes": nullable(string()),
        "pets": array(ref("PetSummary"), min_items=1,
                      description="In the order of `pet_ids`; inactive pets included."),
        "created_at": timestamp(),
        "updated_at": timestamp(),
    })

    s["OwnedPetSummary"] = obj({"id": uuid(), "name": string(), "species": string(), "breed": nullable(string())},
                               description="An active pet inside a PetOwner.")
    s["PetOwner"] = obj({
        "id": uuid(),
        "uuid": uuid(f"Same value as `id`. {APP_NOTE}"),
        "first_name": string(),
        "last_name": string(description="Empty for an owner created from a one-word `full_name`."),
        "full_name": string(description="`first_name + \" \" + last_name`, or `first_name` when the last name is empty."),
        "email": string(),
        "phone": nullable(string()),
        "secondary_phone": nullable(string()),
        "address": nullable(string()),
        "emergency_contact": nullable(string()),
        "preferred_communication": nullable(string(enum=["email", "sms", "phone"])),
        "notifications_enabled": boolean(description=f"Default true. {APP_NOTE}"),
        "user_id": nullable(uuid("The PET_OWNER login of this owner.")),
        "practice_ids": array(uuid(), description="Sorted ascending; members see only their own practice's id."),
        "pets": array(ref("OwnedPetSummary"), description="Active pets, sorted by name, then id."),
        "created_at": timestamp(),
        "updated_at": timestamp(),
    })

    s["PetOwnerBrief"] = obj({"id": uuid(), "first_name": string(), "last_name": string(), "full_name": string(),
                              "email": string(), "phone": nullable(string()), "user_id": nullable(uuid())},
                             description="The owner inside a Pet.")
    s["Pet"] = obj({
        "id": uuid(),
        "owner_id": uuid(),
        "name": string(),
        "species": string(description="Free text, stored as sent."),
        "breed": nullable(string()),
        "color": nullable(string()),
        "gender": nullable(string()),
        "date_of_birth": nullable(date()),
        "weight": nullable(number(description="Pounds.")),
        "microchip_number": nullable(string()),
        "microchip_id": nullable(string(description=f"Same value as `microchip_number`. {APP_NOTE}")),
        "allergies": nullable(string()),
        "spayed_neutered": nullable(boolean()),
        "medications": nullable(string()),
        "medical_notes": nullable(string()),
        "emergency_contact": nullable(string()),
        "emergency_phone": nullable(string()),
        "age_years": nullable(integer(0, description="Whole years since `date_of_birth`, counted in the practice's "
                                                   "time zone; null without a birth date.")),
        "display_name": string(description="`name (species)`."),
        "is_active": boolean(),
        "registration_date": date(),
        "owner": ref("PetOwnerBrief"),
        "created_at": timestamp(),
        "updated_at": timestamp(),
    })

    medical_record_properties = {
        "id": uuid(),
        "original_id": uuid("Id of version 1 of this record's lineage."),
        "version": integer(1),
        "pet_id": uuid(),
        "practice_id": uuid(),
        "record_type": ref("MedicalRecordType"),
        "title": string(),
        "description": nullable(string()),
        "diagnosis": nullable(string()),
        "treatment_plan": nullable(string()),
        "medications": array(string()),
        "notes": nullable(string()),
        "follow_up_date": nullable(date()),
        "is_current": boolean(),
        "created_by": uuid(),
        "created_at": timestamp("Creation of this version."),
        "updated_at": timestamp("Equals `created_at` until the version is superseded, then the supersede time."),
        "visit_date": timestamp("The visit (defaults to the creation time)."),
        "follow_up_required": boolean(description="True when a follow-up date exists unless set otherwise."),
        "created_by_user_id": uuid("Same value as `created_by`."),
        "treatment": nullable(string(description="Same value as `treatment_plan`.")),
        "is_follow_up_due": boolean(description="Current version with a follow-up date on or before today in the practice's "
                                    "time zone."),
        "days_since_visit": integer(description="Practice-local days from the visit day to today."),
        "veterinarian_name": nullable(string()),
        "clinic_name": nullable(string()),
        "weight": nullable(number()),
        "temperature": nullable(number()),
        "cost": nullable(number()),
        "medical_data": nullable(free_object()),
    }
    s["MedicalRecord"] = obj(medical_record_properties, description="One immutable version of a medical record.")
    s["MedicalRecordDetail"] = obj({
        **medical_record_properties,
        "pet": obj({"id": uuid(), "name": string(), "species": string()}),
        "created_by_user": obj({"id": uuid(), "full_name": string()}),
    }, description="A MedicalRecord plus its pet and author (only `GET /api/v1/medical-records/{record_id}`).")
    s["MedicalRecordsEnvelope"] = obj({
        "records": array(ref("MedicalRecord")),
        "total": integer(0, description="Matching records ignoring limit/offset (also `X-Total-Count`)."),
        "current_records_count": integer(0),
        "historical_records_count": integer(0),
    })

    s["VisitTranscript"] = obj({
        "uuid": uuid("The visit id (`visit_id` elsewhere)."),
        "pet_id": uuid(),
        "appointment_id": nullable(uuid()),
        "practice_id": uuid(),
        "visit_date": integer(description="Unix seconds (the only integer timestamp of the API)."),
        "full_text": string(description="Never null; empty until transcribed."),
        "audio_transcript_url": nullable(string(
            description="Storage object URL of the current recording (not directly playable; use playback), "
                        "or the URL given to a manual visit.")),
        "metadata": free_object("Never null: server-managed keys (§4.0) plus client keys."),
        "summary": nullable(string(description="Null for PET_OWNER callers while the summary is a draft.")),
        "state": ref("VisitState"),
        "created_at": timestamp(),
        "updated_at": timestamp(),
        "created_by": uuid(),
    }, description="One visit of one pet.")

    s["VisitTranscriptListItem"] = {"allOf": [ref("VisitTranscript"), obj({
        "has_audio": boolean(description="A recording's object is attached."),
        "chief_complaint": nullable(string(description="`metadata.chief_complaint` when it is a string.")),
    })], "description": f"An item of the visits of a pet. {APP_NOTE}"}
    s["DeviceToken"] = obj({
        "id": uuid(), "device_token": string(), "device_type": string(enum=["ios"]), "is_active": boolean(),
        "created_at": timestamp(), "updated_at": timestamp(),
        "deviceToken": string(description="= `device_token` (the app decodes camel-case keys here)."),
        "deviceType": string(enum=["ios"], description="= `device_type`."),
        "isActive": boolean(description="= `is_active`."),
        "createdAt": timestamp("= `created_at`."), "updatedAt": timestamp("= `updated_at`."),
    }, description=f"An APNs device token of the caller, under both key styles. {APP_NOTE}")

    s["VisitAddendum"] = obj({
        "id": uuid(), "visit_id": uuid(), "author_id": uuid(), "author_name": string(), "text": string(),
        "created_at": timestamp(),
    }, description="A correction appended to an approved visit note (append-only).")
    s["PracticeVocabulary"] = obj({
        "practice_id": uuid(), "terms": array(string(), description="In the order given, without repeats."),
        "updated_at": nullable(timestamp("Null until the list is first saved.")),
        "updated_by": nullable(uuid("Who saved the list last; null until then.")),
    }, description="A practice's own clinic terms for the transcription engine (hotwords and corrections).")
    s["PracticeDirectoryEntry"] = obj({
        "id": uuid(), "uuid": uuid("The same value as `id`."), "name": string(),
        "address": nullable(string()), "phone": nullable(string()), "email": nullable(string()),
    }, description=f"A practice in the public directory (no token): nothing else is shown. {APP_NOTE}")
    s["VetAvailability"] = obj({
        "id": uuid(), "vet_user_id": uuid(), "practice_id": uuid("The vet's practice."),
        "start_at": timestamp("Start of the window (UTC), inclusive."),
        "end_at": timestamp("End of the window (UTC), exclusive; after `start_at`."),
        "availability_type": ref("AvailabilityType"), "notes": nullable(string()), "is_active": boolean(),
        "created_at": timestamp(), "updated_at": timestamp(),
    }, description=f"An availability window of a vet. {APP_NOTE}")
    s["AvailabilityType"] = string(enum=["AVAILABLE", "SURGERY_BLOCK", "UNAVAILABLE", "EMERGENCY_ONLY"])
    s["VetAvailabilitySlot"] = obj({
        "start_time": timestamp(), "end_time": timestamp("30 minutes after `start_time`."),
        "available": boolean(description="Inside an AVAILABLE window and not occupied by an appointment."),
        "availability_type": ref("AvailabilityType"),
        "conflicting_appointment": nullable(uuid("The appointment occupying the slot.")),
        "notes": nullable(string(description="The window's notes.")),
    })
    s["VetAvailabilitySlots"] = obj({
        "vet_user_id": uuid(), "practice_id": uuid(), "date": date("The local day."),
        "timezone": string(description="The zone the day was taken in."),
        "slot_minutes": integer(description="Always 30."),
        "slots": array(ref("VetAvailabilitySlot")),
        "total_slots": integer(), "available_slots": integer(),
    }, description=f"The slot view of one local day (`slots=true`). {APP_NOTE}")

    s["LoginResponse"] = obj({
        "access_token": string(description="HS256 JWT."),
        "token_type": string(enum=["bearer"]),
        "expires_in": integer(description="Seconds (28800)."),
    })

    availability_windows = array(ref("VetAvailability"), description=(
        "The vet's active availability windows overlapping the day, by start "
        "(`GET /scheduling-unix/vet-availability/{vet_user_id}` for the practice's zone)."))
    s["DashboardScheduleResponse"] = obj({
        "date": date("The practice-local day used."),
        "timezone": string(description="The practice's time zone."),
        "today_appointments": array(ref("Appointment")),
        "stats": obj({"appointments_today": integer(0), "completed_visits": integer(0)}),
        "availability_windows": availability_windows,
    }, description="`GET /api/v1/dashboard/vet/{vet_user_id}`.")
    s["DashboardTodayResponse"] = obj({
        "date": date("The practice-local day used."),
        "timezone": string(description="The practice's time zone."),
        "appointments_today": array(ref("Appointment")),
        "next_appointment": nullable(ref("Appointment")),
        "current_appointment": nullable(ref("Appointment")),
        "completed_count": integer(0),
        "remaining_count": integer(0),
        "availability_windows": availability_windows,
    }, description="`GET /api/v1/dashboard/vet/{vet_user_id}/today`.")

    s["HealthResponse"] = obj({
        "status": string(enum=["ok"]),
        "version": string(),
        "time": timestamp(),
    }, description="Liveness only; touches no dependency.")
    checks = obj({
        "database": string(enum=["ok", "unavailable"]),
        "storage": string(enum=["ok", "unavailable"]),
        "transcription": string(enum=["ok", "unavailable", "off"]),
    }, required=["database"], description="One entry per checked part.")
    s["ReadinessChecks"] = checks
    s["ReadinessResponse"] = obj({
        "status": string(enum=["ready", "degraded"],
                         description="`degraded` when the transcription engine is unavailable."),
        "checks": ref("ReadinessChecks"),
    })
    s["ReadinessFailure"] = obj({
        "detail": string(enum=["Service not ready"]),
        "checks": ref("ReadinessChecks"),
    }, description="503 of `/health/ready`: the database or storage check failed.")
    return s


# ---------------------------------------------------------------------------------------------------------------------
# Component schemas: request bodies
# ---------------------------------------------------------------------------------------------------------------------

AT_LEAST_ONE = "Partial update (§1.7): absent keys are unchanged; at least one updatable field is required."


def partial_update(properties: dict, immutable: list[str], description: str = AT_LEAST_ONE) -> dict:
    """A PUT body (§1.7): every key optional, at least one of `properties` present (`anyOf` of single `required`
    lists: unknown and immutable keys do not count). The immutable keys are named in the description, not declared:
    they may be repeated with their current value only (a different value → 400 `{field} cannot be changed`), which
    a schema cannot state."""
    note = (f" Immutable, accepted only with their current value: {', '.join(f'`{name}`' for name in immutable)}."
            if immutable else "")
    schema = obj(properties, required=[], description=description + note)
    schema["anyOf"] = [{"required": [name]} for name in properties]
    return schema


def request_schemas() -> dict:
    s: dict = {}

    login_username = string(1, pattern=NOT_BLANK, description="Trimmed; matched case-insensitively.")
    login_password = string(1, description="Not trimmed; absent or empty → 400.")
    s["LoginForm"] = obj({
        "username": login_username,
        "password": login_password,
        "grant_type": string(enum=["password"]),
        "scope": string(description="Ignored."),
        "client_id": string(description="Ignored."),
        "client_secret": string(description="Ignored."),
    }, required=["username", "password"], description="OAuth2 password form (percent-encoded, `+` = space).")
    s["LoginJSON"] = obj({
        "username": login_username,
        "password": login_password,
        "grant_type": string(enum=["password"]),
    }, required=["username", "password"])

    password = string(8, 72, description="8–72 bytes of UTF-8 (72 characters can exceed 72 bytes).")
    s["UserCreate"] = obj({
        "username": trimmed(3, 50, pattern=r"^[A-Za-z0-9._-]+$"),
        "password": password,
        "email": string(max_length=254, fmt="email", description=EMAIL_NOTE),
        "full_name": trimmed(1, 100),
        "role": ref("UserRole"),
        "practice_id": nullable(uuid("Required for VET and VET_STAFF; absent or null for ADMIN and PET_OWNER.")),
        "pet_owner_id": nullable(uuid("Required for PET_OWNER; absent or null otherwise.")),
        "is_active": boolean(True),
    }, required=["username", "password", "email", "full_name", "role"])
    s["UserUpdate"] = partial_update({
        "email": string(max_length=254, fmt="email", description=EMAIL_NOTE),
        "full_name": trimmed(1, 100),
        "role": with_description(ref("UserRole"), "Cannot change to or from PET_OWNER."),
        "practice_id": nullable(uuid("The resulting user must satisfy the role/practice rules of create.")),
        "is_active": boolean(),
        "password": password,
    }, ["id", "username", "pet_owner_id"])

    practice_fields = {
        "name": trimmed(1, 200),
        "timezone": trimmed(1, 64, "A tz database identifier (`UTC` accepted, `Etc/…` refused)."),
        "phone": nullable(string(max_length=32, pattern=PHONE_PATTERN)),
        "email": nullable(string(max_length=254, fmt="email", description=EMAIL_NOTE)),
        "address": nullable(string(max_length=500)),
        "is_active": boolean(),
        "specialties": array(trimmed(1, 100), max_items=50),
        "accepts_new_patients": boolean(),
        "description": nullable(string(max_length=5000, description="`\"\"` clears it.")),
        "website": nullable(trimmed(None, 500, "`\"\"` clears it.")),
        "license_number": nullable(trimmed(None, 100, "`\"\"` clears it.")),
        "recording_consent_required": boolean(),
    }
    s["PracticeCreate"] = obj({**practice_fields, "is_active": boolean(True)}, required=["name", "timezone"],
                              description="`timezone` may be left out by a self-service create (a PENDING user, "
                                          "`HELPPET_SELF_SERVICE_PRACTICES=true`): it is then `UTC`.")
    s["Signup"] = obj({
        "username": trimmed(3, 50, pattern=r"^[A-Za-z0-9._@+-]+$"),
        "password": password,
        "email": string(max_length=254, fmt="email", description=EMAIL_NOTE),
        "full_name": trimmed(1, 100),
        "role": string(enum=["VET_STAFF", "VET"], description="Default VET_STAFF; ADMIN and PET_OWNER are refused."),
        "practice_id": nullable(uuid("An active practice to ask to join at once (as `PUT /auth/me/practice`).")),
    }, required=["username", "password", "email", "full_name"])
    s["PracticeMembershipRequest"] = obj({
        "practice_id": nullable(uuid("An active practice; null withdraws the request.")),
    }, required=["practice_id"])
    s["PracticeUpdate"] = partial_update(practice_fields, ["id"])

    appointment_fields = {
        "assigned_vet_user_id": nullable(uuid("An active VET or VET_STAFF user of the practice.")),
        # The years of the range as a pattern; an offset can still move a value across a bound (then 400
        # `appointment_date is out of range`).
        "appointment_date": {**datetime_input(), "pattern": r"^(20[0-9]{2}|2100)-"},
        "duration_minutes": integer(5, 480),
        "appointment_type": ref("AppointmentType"),
        "title": trimmed(1, 200),
        "description": nullable(string(max_length=2000)),
        "notes": nullable(string(max_length=5000)),
        "pet_ids": array(uuid(), min_items=1, max_items=20, unique=True,
                         description="Pets of the appointment's owner, in display order."),
    }
    s["AppointmentCreate"] = obj({
        "practice_id": nullable(uuid("Required for ADMIN; members: absent or their own practice (§2.5). "
                                     "`null` is read as absent.")),
        "pet_owner_id": uuid(),
        **appointment_fields,
        "duration_minutes": integer(5, 480, default=30),
        "appointment_type": {"allOf": [ref("AppointmentType")], "default": "checkup"},
        "status": string(enum=["scheduled", "confirmed"], default="scheduled"),
    }, required=["pet_owner_id", "appointment_date", "title", "pet_ids"])
    s["AppointmentUpdate"] = partial_update({
        **appointment_fields,
        "status": with_description(ref("AppointmentStatus"), "Transitions per §5.2."),
        "pet_ids": array(uuid(), min_items=1, max_items=20, unique=True,
                         description="Replaces the pet set and order when the set differs; the same set in "
                                     "another order is no change."),
    }, ["id", "practice_id", "pet_owner_id"])

    owner_fields = {
        "first_name": trimmed(1, 100),
        "last_name": trimmed(1, 100),
        "email": string(max_length=254, fmt="email", description=EMAIL_NOTE + " Not unique."),
        "phone": nullable(string(max_length=32, pattern=PHONE_PATTERN)),
        "address": nullable(string(max_length=500)),
        "full_name": trimmed(1, 201, "Instead of `first_name`/`last_name` (the iPhone app): the last name is the "
                                     "text after the last space, the first name the rest; without a space the last "
                                     "name is empty. Ignored when a name part is sent."),
        "secondary_phone": nullable(string(max_length=32, pattern=PHONE_PATTERN)),
        "emergency_contact": nullable(trimmed(None, 200)),
        "preferred_communication": nullable(string(enum=["email", "sms", "phone", ""])),
        "notifications_enabled": boolean(),
    }
    s["PetOwnerCreate"] = obj({
        **owner_fields,
        "practice_id": nullable(uuid("Required for ADMIN; members: absent or their own practice (§2.5). "
                                     "`null` is read as absent.")),
    }, required=["email"], description="`first_name` and `last_name`, or `full_name`, are required. `\"\"` for an "
                                       "optional text clears it (stored as null).")
    # Both name parts, or `full_name` alone (with a name part present, the parts are what counts).
    s["PetOwnerCreate"]["anyOf"] = [
        {"required": ["first_name", "last_name"]},
        {"required": ["full_name"], "not": {"anyOf": [{"required": ["first_name"]}, {"required": ["last_name"]}]}},
    ]
    s["PetOwnerUpdate"] = partial_update(owner_fields, ["id", "user_id"])
    s["PetOwnerPracticeLink"] = obj({"practice_id": uuid()})

    pet_fields = {
        "name": trimmed(1, 100),
        "species": trimmed(1, 50, "Free text."),
        "breed": nullable(trimmed(None, 100)),
        "color": nullable(trimmed(None, 50)),
        "gender": nullable(trimmed(None, 20)),
        # The pattern bounds the years (1900–2099); "today" moves, so later days of the current century still get
        # 400 `date_of_birth must be between 1900-01-01 and today`.
        "date_of_birth": nullable({**date("1900-01-01 … today (UTC)."), "pattern": r"^(19|20)[0-9]{2}-[0-9]{2}-[0-9]{2}$"}),
        "weight": nullable(number(minimum=0, maximum=1000, description="Pounds; 0 means not weighed (stored null).")),
        "microchip_number": nullable(trimmed(1, 50, "Unique (case-insensitive) across all practices.",
                                             pattern=r"^[A-Za-z0-9-]+$")),
        "microchip_id": nullable(trimmed(1, 50, "Alias of `microchip_number`; both only with the same value.",
                                         pattern=r"^[A-Za-z0-9-]+$")),
        "allergies": nullable(string(max_length=1000)),
        "spayed_neutered": nullable(boolean()),
        "medications": nullable(string(max_length=2000, description="`\"\"` clears it.")),
        "medical_notes": nullable(string(max_length=10000, description="`\"\"` clears it.")),
        "emergency_contact": nullable(trimmed(None, 100, "`\"\"` clears it.")),
        "emergency_phone": nullable(trimmed(None, 32, "`\"\"` clears it.")),
        "registration_date": date("Default: today in the caller's practice time zone."),
    }
    s["PetCreate"] = obj({"owner_id": uuid(), **pet_fields}, required=["owner_id", "name", "species"])
    s["PetUpdate"] = partial_update({**pet_fields, "is_active": boolean()}, ["id", "owner_id"])

    record_fields = {
        "record_type": ref("MedicalRecordType"),
        "title": trimmed(1, 200),
        "description": nullable(string(max_length=10000)),
        "diagnosis": nullable(string(max_length=5000)),
        "treatment_plan": nullable(string(max_length=5000)),
        "medications": {"anyOf": [array(trimmed(1, 200), max_items=50),
                                   string(description="The iPhone app's form: split on commas and line breaks "
                                                      "into trimmed non-empty items.")]},
        "notes": nullable(string(max_length=10000)),
        "follow_up_date": {"anyOf": [date(), string(fmt="date-time", description=(
            "A datetime (the iPhone app): its calendar day in the practice's time zone.")), {"type": "null"}]},
        "treatment": nullable(string(max_length=5000, description="Alias of `treatment_plan`.")),
        "visit_date": datetime_input("Default: the creation time."),
        "follow_up_required": boolean(description="Default: whether a follow-up date is set."),
        "veterinarian_name": nullable(trimmed(None, 200)),
        "clinic_name": nullable(trimmed(None, 200)),
        "weight": nullable(number(minimum=0, maximum=10000, description="0 is stored as null.")),
        "temperature": nullable(number(minimum=0, maximum=200, description="0 is stored as null.")),
        "cost": nullable(number(minimum=0, maximum=1000000000)),
        "medical_data": nullable(free_object("Serialized ≤ 16384 bytes.")),
    }
    s["MedicalRecordCreate"] = obj({
        "pet_id": uuid(),
        **record_fields,
        "medications": {"anyOf": [array(trimmed(1, 200), max_items=50), string()], "description": "Default `[]`."},
        "practice_id": nullable(uuid("Practice resolution (§2.5). `null` is read as absent.")),
    }, required=["pet_id", "record_type", "title"])
    s["MedicalRecordAmend"] = partial_update(
        record_fields, ["id", "original_id", "version", "pet_id", "practice_id", "is_current", "created_by"],
        AT_LEAST_ONE + " Creates a new version; the response is that new version.")

    metadata = free_object("Client keys only (server-managed keys are refused); serialized ≤ 65536 bytes.",
                           maxProperties=100)
    term_char = "A-Za-z0-9\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u024F'./+\\-"
    s["VisitAddendumCreate"] = obj({"text": trimmed(1, 5000)}, required=["text"])
    s["PracticeVocabularyReplace"] = obj({
        "terms": array(string(2, 60, pattern=f"^[{term_char}](?:[{term_char} ]*[{term_char}])?$",
                              description="Latin letters, digits, spaces and `- ' . / +`; no space at either end."),
                       max_items=200, description="The whole list; `[]` clears it. A repeat (ignoring case) is "
                                                  "dropped, the first spelling wins."),
    }, required=["terms"])
    s["DeviceTokenRegister"] = obj({
        "device_token": string(32, 200, pattern=r"^[0-9A-Fa-f]+$", description="Hexadecimal APNs token."),
        "device_type": string(enum=["ios"], default="ios"),
    }, required=["device_token"])
    s["VetAvailabilityCreate"] = obj({
        "vet_user_id": uuid("A VET or VET_STAFF user; members: of their own practice."),
        "practice_id": nullable(uuid("Optional; must be the vet's practice.")),
        "start_at": datetime_input(), "end_at": datetime_input("After `start_at`, at most 31 days later."),
        "availability_type": {**ref("AvailabilityType"), "default": "AVAILABLE"},
        "notes": nullable(string(max_length=2000, description="`\"\"` is stored as null.")),
        "is_active": boolean(default=True),
    }, required=["vet_user_id", "start_at", "end_at"])
    s["VetAvailabilityUpdate"] = partial_update({
        "start_at": datetime_input(), "end_at": datetime_input(),
        "availability_type": ref("AvailabilityType"),
        "notes": nullable(string(max_length=2000, description="`\"\"` is stored as null.")),
        "is_active": boolean(),
    }, ["id", "vet_user_id", "practice_id"])
    s["DeviceTokenUnregister"] = obj({"device_token": string(32, 200, pattern=r"^[0-9A-Fa-f]+$")},
                                     required=["device_token"])

    s["VisitTranscriptCreate"] = obj({
        "pet_id": uuid(),
        # The real bound moves (now + 1 day); beyond a 64-bit integer the value is not an integer to the server.
        "visit_date": integer(946684800, 9223372036854775807,
                              description="Unix seconds, at most the current time plus 86400."),
        "full_text": string(1, 200000),
        "summary": nullable(string(max_length=10000)),
        "audio_transcript_url": nullable(string(max_length=1000, fmt="uri",
                                                description="Absolute http or https URL.")),
        "metadata": {**metadata, "default": {}},
        "appointment_id": {"type": "null",
                           "description": "Must be absent or null; recordings use the audio upload flow."},
        "practice_id": nullable(uuid("Practice resolution (§2.5). `null` is read as absent.")),
    }, required=["pet_id", "visit_date", "full_text"], description="A manual transcript.")
    s["VisitTranscriptUpdate"] = partial_update({
        "full_text": string(max_length=200000, description="May be empty; refused while `processing`."),
        "summary": nullable(string(max_length=10000, description="Sending it approves the summary.")),
        "metadata": free_object("Merged by top-level key: a non-null value replaces the key whole, null removes "
                                "it, unmentioned keys stay. Server-managed keys are refused; ≤ 65536 bytes.",
                                maxProperties=100),
        "state": with_description(ref("VisitState"),
                                  "Only processing→processed, processing→failed, failed→processing, "
                                  "failed→processed or the current state (§5.1)."),
    }, ["uuid", "pet_id", "appointment_id", "practice_id", "visit_date", "audio_transcript_url", "created_by"])
    return s


# ---------------------------------------------------------------------------------------------------------------------
# Parameters, headers and standard responses
# ---------------------------------------------------------------------------------------------------------------------


def query_bool(name: str, default: bool, description: str | None = None) -> dict:
    note = "`true`/`false`/`1`/`0`, case-insensitive."
    return query(name, boolean(default), f"{description} {note}" if description else note)


DATE_QUERY = query("date", date(), "Practice-local day (`YYYY-MM-DD`); default: today in the practice's time zone.")


def parameters_components() -> dict:
    return {
        "limit": query("limit", integer(1, 200, default=50), "Page size (§1.11)."),
        # No bound in the contract; beyond a 64-bit integer the value is not an integer to the server (400).
        "offset": query("offset", integer(0, 9223372036854775807, default=0), "Items to skip (§1.11)."),
    }


def headers_components() -> dict:
    return {
        "X-Request-ID": {"description": "The request's id (echoed when it matches `^[A-Za-z0-9._-]{1,128}$`).",
                         "schema": string()},
        "X-Total-Count": {"description": "Number of matching items ignoring limit/offset.",
                          "schema": integer(0)},
        "WWW-Authenticate": {"description": "Always `Bearer`.", "schema": string(enum=["Bearer"])},
        "Retry-After": {"description": "Seconds to wait before retrying.", "schema": integer(1)},
    }


# Every response carries `X-Request-ID` (§1.12); `headers=` adds the response's own.
json_response = partial(openapi_builders.json_response, standard_headers=("X-Request-ID",))


def list_response(item: str, description: str) -> dict:
    """A paginated list: a bare JSON array plus `X-Total-Count` (§1.11)."""
    return json_response(description, array(ref(item)), headers=("X-Total-Count",))


ERROR_RESPONSES = {
    # status: (component name, description, extra headers)
    "400": ("BadRequest", "Malformed or invalid input (the detail names the field).", ()),
    "401": ("Unauthorized", "Missing, invalid or expired credentials, or an inactive user.", ("WWW-Authenticate",)),
    "403": ("Forbidden", "The caller's role may not perform this action.", ()),
    "404": ("NotFound", "Unknown id, or an entity outside the caller's visibility.", ()),
    "409": ("Conflict", "The request conflicts with the current state.", ()),
    "413": ("PayloadTooLarge", "Request body too large.", ()),
    "429": ("TooManyRequests", "Too many failed login attempts.", ("Retry-After",)),
    "503": ("ServiceUnavailable", "The database is unavailable (`Service temporarily unavailable`).",
            ("Retry-After",)),
}


def responses_components() -> dict:
    result = {name: json_response(description, ref("Error"), headers=headers)
              for name, description, headers in ERROR_RESPONSES.values()}
    result["InternalServerError"] = json_response("Unexpected server failure.", ref("Error500"))
    return result


def errors(*statuses: int, database: bool = True, overrides: dict | None = None) -> dict:
    """Standard error responses of an operation; every one can fail with 500, database routes with 503."""
    codes = [str(code) for code in statuses] + (["503"] if database else [])
    result = {code: {"$ref": f"#/components/responses/{ERROR_RESPONSES[code][0]}"} for code in codes}
    result["500"] = {"$ref": "#/components/responses/InternalServerError"}
    result.update(overrides or {})
    return result


# ---------------------------------------------------------------------------------------------------------------------
# Operations
# ---------------------------------------------------------------------------------------------------------------------

API = "/api/v1"

APPOINTMENT_ID = path_param("appointment_id", "Appointment id.")
OWNER_ID = path_param("owner_id", "Pet owner id.")
PET_ID = path_param("pet_id", "Pet id.")
PRACTICE_ID = path_param("practice_id", "Practice id.")
RECORD_ID = path_param("record_id", "Medical record id (any version).")
USER_ID = path_param("user_id", "User id.")
VET_USER_ID = path_param("vet_user_id", "User id of a VET or VET_STAFF user.")
VISIT_ID = path_param("visit_id", "Visit id (`uuid` of a VisitTranscript).")


def operational_routes(p: Paths) -> None:
    """§4.12: public, at the root; `/health` and `/health/ready` are shared with the other product."""
    health = dict(tag="Operations", summary="Liveness", security=PUBLIC,
                  responses={"200": json_response("Alive.", ref("HealthResponse")), **errors(database=False)})
    p.add("get", "/health", "getHealth", **health)
    p.add("get", f"{API}/health", "getHealthAlias", **health, description="Alias of `GET /health`.")
    p.add("get", "/health/ready", "getReadiness", tag="Operations", summary="Readiness", security=PUBLIC,
          description="Checks the database and the object store (2 s each) and reports the transcription engine; "
                      "an unavailable engine gives `degraded`, never 503.",
          responses={"200": json_response("Ready or degraded.", ref("ReadinessResponse")),
                     "503": json_response("The database or storage check failed.", ref("ReadinessFailure"),
                                          headers=("Retry-After",)),
                     **errors(database=False)})
    p.add("get", "/metrics", "getMetrics", tag="Operations", summary="Prometheus metrics",
          description="Prometheus text format 0.0.4. Public unless `METRICS_TOKEN` is configured; then it "
                      "requires `Authorization: Bearer <METRICS_TOKEN>`.",
          security=[{}, {"metricsToken": []}],
          responses={"200": {"description": "Metrics.", "headers": {"X-Request-ID": header_ref("X-Request-ID")},
                             "content": {"text/plain; version=0.0.4": {"schema": string()}}},
                     **errors(401, database=False)})
    p.add("get", "/openapi.json", "getOpenAPIDocument", tag="Operations", summary="This document", security=PUBLIC,
          responses={"200": json_response("OpenAPI 3.1 description of the HelpPet API.", free_object()),
                     **errors(database=False)})


def auth_routes(p: Paths) -> None:
    """§4.1."""
    p.add("post", f"{API}/auth/token", "login", tag="Auth", summary="Log in (OAuth2 password grant)",
          security=PUBLIC,
          description="Throttled per (username, client IP), per username and per IP (§2.3). An unknown user, a "
                      "wrong password and an inactive user all answer 401 `Incorrect username or password`.",
          body={"required": True, "content": {"application/x-www-form-urlencoded": {"schema": ref("LoginForm")},
                                              JSON: {"schema": ref("LoginJSON")}}},
          responses={"200": json_response("Token issued.", ref("LoginResponse")),
                     **errors(400, 401, 413, 429)})
    p.add("get", f"{API}/auth/me", "getCurrentUser", tag="Auth", summary="Current user",
          responses={"200": json_response("The caller.", ref("User")), **errors(401)})
    p.add("post", f"{API}/auth/signup", "signUp", tag="Auth", summary="Create an account (onboarding)",
          security=PUBLIC,
          description="Creates an active PENDING user without a practice, who sees no practice's data until an "
                      "ADMIN admits them (`PUT /users/{user_id}` with `practice_id`). Limited to 10 signups per "
                      f"hour per client IP, successful or not (429 with `Retry-After`). {APP_NOTE}",
          body=json_body("Signup"),
          responses={"201": json_response("Created, with a token.", ref("SignupResponse")),
                     **errors(400, 404, 409, 413, 429)})
    p.add("put", f"{API}/auth/me/practice", "requestPracticeMembership", tag="Auth",
          summary="Ask to join a practice",
          description="Records the PENDING caller's request; it grants nothing until an ADMIN admits them. A member "
                      "naming their own practice gets 200 (no change); another practice is 409, as for an ADMIN; a "
                      f"pet owner gets 403. {APP_NOTE}",
          body=json_body("PracticeMembershipRequest"),
          responses={"200": json_response("The caller.", ref("User")), **errors(400, 401, 403, 404, 409, 413)})


def user_routes(p: Paths) -> None:
    """§4.2: ADMIN only."""
    tag = "Users"
    p.add("get", f"{API}/users", "listUsers", tag=tag, summary="List users (ADMIN)",
          description="Ordered by lower(username), then id. An unknown `practice_id` yields `[]`. PENDING users "
                      "(signed up, not admitted) are listed only with `role=PENDING`.",
          parameters=[query("practice_id", uuid()), query("role", string(enum=[*USER_ROLES, "PENDING"])),
                      query_bool("is_active", None),
                      *PAGINATION],
          responses={"200": list_response("User", "Users."), **errors(400, 401, 403)})
    p.add("post", f"{API}/users", "createUser", tag=tag, summary="Create a user (ADMIN)",
          description="For PET_OWNER, the owner record's `user_id` is set to the new user.",
          body=json_body("UserCreate"),
          responses={"201": json_response("Created.", ref("User")), **errors(400, 401, 403, 404, 409, 413)})
    p.add("get", f"{API}/users/{{user_id}}", "getUser", tag=tag, summary="Get a user (ADMIN)",
          parameters=[USER_ID],
          responses={"200": json_response("The user.", ref("User")), **errors(400, 401, 403, 404)})
    p.add("put", f"{API}/users/{{user_id}}", "updateUser", tag=tag, summary="Update a user (ADMIN)",
          description="A new password invalidates earlier tokens; `is_active: false` makes every token fail. Giving a "
                      "PENDING user a `practice_id` admits them (role: `role` if given, else the one they signed up "
                      "for); admission keeps their tokens valid.",
          parameters=[USER_ID], body=json_body("UserUpdate"),
          responses={"200": json_response("Updated.", ref("User")), **errors(400, 401, 403, 404, 409, 413)})


def practice_routes(p: Paths) -> None:
    """§4.3."""
    tag = "Practices"
    p.add("get", f"{API}/practices", "listPractices", tag=tag, summary="List visible practices, or the directory",
          description="Ordered by name, then id. With a token: the practices visible to the caller "
                      "(`is_active` filters). Without a token: the public directory of active practices "
                      "(`PracticeDirectoryEntry`, nothing else), rate-limited to 60 requests per minute per client "
                      "IP (429 with `Retry-After`); `accepting_patients=true` keeps practices that accept new "
                      f"patients. {APP_NOTE}",
          security=[{}, {"bearerAuth": []}],
          parameters=[query_bool("is_active", None), query_bool("active_only", None, "Directory: accepted, always "
                      "true."), query_bool("accepting_patients", None, "Directory only."), *PAGINATION],
          responses={"200": json_response("Practices (with a token) or directory entries (without).",
                                          {"anyOf": [array(ref("Practice")), array(ref("PracticeDirectoryEntry"))]},
                                          headers=("X-Total-Count",)),
                     **errors(400, 401, 429)})
    p.add("post", f"{API}/practices", "createPractice", tag=tag, summary="Create a practice (ADMIN, or self-service)",
          description="A PENDING user may create one practice when `HELPPET_SELF_SERVICE_PRACTICES=true`: they become "
                      "its first member (the role they signed up for) and its `admin_user_id`; `timezone` defaults to "
                      "`UTC`. Otherwise 403.",
          body=json_body("PracticeCreate"),
          responses={"201": json_response("Created.", ref("Practice")), **errors(400, 401, 403, 413)})
    p.add("get", f"{API}/practices/{{practice_id}}", "getPractice", tag=tag, summary="Get a practice",
          parameters=[PRACTICE_ID],
          responses={"200": json_response("The practice.", ref("Practice")), **errors(400, 401, 404)})
    p.add("put", f"{API}/practices/{{practice_id}}", "updatePractice", tag=tag, summary="Update a practice (ADMIN)",
          parameters=[PRACTICE_ID], body=json_body("PracticeUpdate"),
          responses={"200": json_response("Updated.", ref("Practice")), **errors(400, 401, 403, 404, 413)})


def dashboard_routes(p: Paths) -> None:
    """§4.4: staff; members only their own dashboard."""
    tag = "Dashboard"
    note = ("Appointments assigned to the vet in the vet's practice on the practice-local day, all statuses, "
            "ordered by appointment_date, then id.")
    p.add("get", f"{API}/dashboard/vet/{{vet_user_id}}", "getVetDashboard", tag=tag,
          summary="A vet's schedule with stats", description=note, parameters=[VET_USER_ID, DATE_QUERY],
          responses={"200": json_response("The schedule.", ref("DashboardScheduleResponse")),
                     **errors(400, 401, 403, 404)})
    p.add("get", f"{API}/dashboard/vet/{{vet_user_id}}/today", "getVetDashboardToday", tag=tag,
          summary="A vet's work summary for the day", description=note, parameters=[VET_USER_ID, DATE_QUERY],
          responses={"200": json_response("The summary.", ref("DashboardTodayResponse")),
                     **errors(400, 401, 403, 404)})


def appointment_routes(p: Paths) -> None:
    """§4.5."""
    tag = "Appointments"
    p.add("post", f"{API}/appointments", "createAppointment", tag=tag, summary="Create an appointment (staff)",
          body=json_body("AppointmentCreate"),
          responses={"201": json_response("Created (every `recording` null).", ref("Appointment")),
                     **errors(400, 401, 403, 404, 409, 413)})
    p.add("get", f"{API}/appointments/{{appointment_id}}", "getAppointment", tag=tag, summary="Get an appointment",
          parameters=[APPOINTMENT_ID],
          responses={"200": json_response("The appointment.", ref("Appointment")), **errors(400, 401, 404)})
    p.add("put", f"{API}/appointments/{{appointment_id}}", "updateAppointment", tag=tag,
          summary="Update an appointment (staff)",
          description="Status transitions per §5.2; `pet_ids` replaces the pet set. Atomic; a request that "
                      "changes nothing is a no-op.",
          parameters=[APPOINTMENT_ID], body=json_body("AppointmentUpdate"),
          responses={"200": json_response("Updated.", ref("Appointment")), **errors(400, 401, 403, 404, 409, 413)})
    p.add("delete", f"{API}/appointments/{{appointment_id}}", "cancelAppointment", tag=tag,
          summary="Cancel an appointment (staff)",
          description="Equivalent to `PUT {\"status\":\"cancelled\"}`; nothing is deleted.",
          parameters=[APPOINTMENT_ID],
          responses={"200": json_response("Cancelled (or already cancelled).", ref("Appointment")),
                     **errors(400, 401, 403, 404, 409)})
    p.add("get", f"{API}/appointments/pet-owner/{{owner_id}}", "listAppointmentsForPetOwner", tag=tag,
          summary="Appointments of a pet owner",
          description="Ordered by appointment_date descending, then id. Members see only their practice's.",
          parameters=[OWNER_ID, *PAGINATION],
          responses={"200": list_response("Appointment", "Appointments."), **errors(400, 401, 404)})
    p.add("get", f"{API}/appointments/practice/{{practice_id}}", "listAppointmentsForPractice", tag=tag,
          summary="Appointments of a practice (staff)",
          description="All vets and statuses; with `date`, only that practice-local day. Ordered by "
                      "appointment_date, then id.",
          parameters=[PRACTICE_ID, query("date", date(), "Practice-local day (`YYYY-MM-DD`)."), *PAGINATION],
          responses={"200": list_response("Appointment", "Appointments."), **errors(400, 401, 403, 404)})


def pet_owner_routes(p: Paths, base: str, id_suffix: str = "", alias_of: str | None = None) -> None:
    """§4.6; registered under `/api/v1/pet-owners` and again under the alias `/api/v1/pet_owners`."""
    tag = "Pet owners"
    alias = f"Alias of the same operation under `{alias_of}`." if alias_of else None

    def describe(text: str | None) -> str | None:
        return " ".join(part for part in (text, alias) if part) or None

    p.add("get", base, f"listPetOwners{id_suffix}", tag=tag, summary="List pet owners (staff)",
          description=describe("Ordered by lower(last_name), lower(first_name), id."),
          parameters=[query("search", string(max_length=100),
                            "Case-insensitive substring of first name, last name, full name, email or phone."),
                      query("practice_id", uuid(),
                            "ADMIN: only that practice's clients; members: must be their own practice."),
                      *PAGINATION],
          responses={"200": list_response("PetOwner", "Pet owners."), **errors(400, 401, 403, 404)})
    p.add("post", base, f"createPetOwner{id_suffix}", tag=tag, summary="Create a pet owner (staff)",
          description=describe("The owner becomes a client of the resolved practice."),
          body=json_body("PetOwnerCreate"),
          responses={"201": json_response("Created.", ref("PetOwner")), **errors(400, 401, 403, 404, 413)})
    p.add("get", f"{base}/{{owner_id}}", f"getPetOwner{id_suffix}", tag=tag, summary="Get a pet owner",
          description=describe(None), parameters=[OWNER_ID],
          responses={"200": json_response("The pet owner.", ref("PetOwner")), **errors(400, 401, 404)})
    p.add("put", f"{base}/{{owner_id}}", f"updatePetOwner{id_suffix}", tag=tag, summary="Update a pet owner (staff)",
          description=describe(None), parameters=[OWNER_ID], body=json_body("PetOwnerUpdate"),
          responses={"200": json_response("Updated.", ref("PetOwner")), **errors(400, 401, 403, 404, 413)})
    p.add("post", f"{base}/{{owner_id}}/practices", f"addPetOwnerPractice{id_suffix}", tag=tag,
          summary="Make the owner a client of another practice (ADMIN)",
          description=describe("Repeating it is a no-op."), parameters=[OWNER_ID],
          body=json_body("PetOwnerPracticeLink"),
          responses={"200": json_response("The pet owner.", ref("PetOwner")), **errors(400, 401, 403, 404, 413)})


def pet_routes(p: Paths) -> None:
    """§4.7."""
    tag = "Pets"
    p.add("post", f"{API}/pets", "createPet", tag=tag, summary="Create a pet (staff)", body=json_body("PetCreate"),
          responses={"201": json_response("Created (`is_active: true`).", ref("Pet")),
                     **errors(400, 401, 403, 404, 409, 413)})
    p.add("get", f"{API}/pets/{{pet_id}}", "getPet", tag=tag, summary="Get a pet (inactive pets too)",
          parameters=[PET_ID], responses={"200": json_response("The pet.", ref("Pet")), **errors(400, 401, 404)})
    p.add("put", f"{API}/pets/{{pet_id}}", "updatePet", tag=tag, summary="Update a pet (staff)",
          parameters=[PET_ID], body=json_body("PetUpdate"),
          responses={"200": json_response("Updated.", ref("Pet")), **errors(400, 401, 403, 404, 409, 413)})
    p.add("delete", f"{API}/pets/{{pet_id}}", "deactivatePet", tag=tag, summary="Deactivate a pet (staff)",
          description="Sets `is_active = false`; repeating it is a no-op. Nothing is deleted.",
          parameters=[PET_ID],
          responses={"200": json_response("The deactivated pet.", ref("Pet")), **errors(400, 401, 403, 404)})
    p.add("get", f"{API}/pets/owner/{{owner_id}}", "listPetsForOwner", tag=tag, summary="Pets of an owner",
          description="Ordered by name, then id.",
          parameters=[OWNER_ID, query_bool("include_inactive", False), *PAGINATION],
          responses={"200": list_response("Pet", "Pets."), **errors(400, 401, 404)})


def medical_record_routes(p: Paths) -> None:
    """§4.8: versioned, immutable; no delete."""
    tag = "Medical records"
    envelope = json_response("Records with counts.", ref("MedicalRecordsEnvelope"), headers=("X-Total-Count",))
    p.add("get", f"{API}/medical-records/pet/{{pet_id}}", "listMedicalRecordsForPet", tag=tag,
          summary="Medical records of a pet", description="Ordered by created_at descending, then id.",
          parameters=[PET_ID,
                      query_bool("include_historical", True, "`false`: only current versions."),
                      query_bool("latest_only", False, "`true`: at most the latest current record; overrides "
                                                       "`include_historical`."),
                      *PAGINATION],
          responses={"200": envelope, **errors(400, 401, 404)})
    p.add("get", f"{API}/medical-records/pet/{{pet_id}}/history", "listMedicalRecordHistoryForPet", tag=tag,
          summary="Every version of every record of a pet, grouped by lineage",
          parameters=[PET_ID, *PAGINATION], responses={"200": envelope, **errors(400, 401, 404)})
    p.add("get", f"{API}/medical-records/{{record_id}}", "getMedicalRecord", tag=tag,
          summary="Get a medical record version", parameters=[RECORD_ID],
          responses={"200": json_response("The record.", ref("MedicalRecordDetail")), **errors(400, 401, 404)})
    p.add("post", f"{API}/medical-records", "createMedicalRecord", tag=tag, summary="Create a medical record (staff)",
          body=json_body("MedicalRecordCreate"),
          responses={"201": json_response("Created (version 1).", ref("MedicalRecord")),
                     **errors(400, 401, 403, 404, 413)})
    p.add("put", f"{API}/medical-records/{{record_id}}", "amendMedicalRecord", tag=tag,
          summary="Amend a medical record (staff)",
          description="Supersedes the addressed (current) version and returns the new version, whose id differs.",
          parameters=[RECORD_ID], body=json_body("MedicalRecordAmend"),
          responses={"200": json_response("The new version.", ref("MedicalRecord")),
                     **errors(400, 401, 403, 404, 409, 413)})


def visit_transcript_routes(p: Paths) -> None:
    """§4.9 without the recording operations (transcribe, delete), which live in the recording block."""
    tag = "Visit transcripts"
    p.add("get", f"{API}/visit-transcripts/pet/{{pet_id}}", "listVisitTranscriptsForPet", tag=tag,
          summary="Visits of a pet",
          description="Ordered by visit_date descending, created_at descending, uuid.",
          parameters=[PET_ID, query("state", ref("VisitState")),
                      query_bool("include_pending", False, "Include pending recording visits (§4.10)."),
                      *PAGINATION],
          responses={"200": list_response("VisitTranscriptListItem", "Visits."), **errors(400, 401, 404)})
    p.add("get", f"{API}/visit-transcripts/{{visit_id}}", "getVisitTranscript", tag=tag, summary="Get a visit",
          parameters=[VISIT_ID],
          responses={"200": json_response("The visit (pending visits included).", ref("VisitTranscript")),
                     **errors(400, 401, 404)})
    p.add("post", f"{API}/visit-transcripts", "createVisitTranscript", tag=tag,
          summary="Create a manual transcript (staff)", body=json_body("VisitTranscriptCreate"),
          responses={"201": json_response("Created (`state: processed`).", ref("VisitTranscript")),
                     **errors(400, 401, 403, 404, 413)})
    p.add("put", f"{API}/visit-transcripts/{{visit_id}}", "updateVisitTranscript", tag=tag,
          summary="Update a visit (staff)",
          description="Metadata is merged by top-level key; `failed` → `processing` re-queues transcription. "
                      "A body with `summary` approves the note (who and when go into metadata); on an approved "
                      "note it is refused with 409: corrections are addenda.",
          parameters=[VISIT_ID], body=json_body("VisitTranscriptUpdate"),
          responses={"200": json_response("Updated.", ref("VisitTranscript")),
                     **errors(400, 401, 403, 404, 409, 413)})
    addenda = f"{API}/visit-transcripts/{{visit_id}}/addenda"
    p.add("post", addenda, "addVisitAddendum", tag=tag, summary="Append an addendum to an approved note (staff)",
          description="Approving a note (a PUT with `summary`) locks it; corrections are addenda. 409 while the note "
                      "is not approved.",
          parameters=[VISIT_ID], body=json_body("VisitAddendumCreate"),
          responses={"201": json_response("Appended.", ref("VisitAddendum")), **errors(400, 401, 403, 404, 409, 413)})
    p.add("get", addenda, "listVisitAddenda", tag=tag, summary="Addenda of a visit's note, oldest first",
          description="A pet owner sees them once the note is approved (before that there are none).",
          parameters=[VISIT_ID],
          responses={"200": list_response("VisitAddendum", "Addenda, oldest first."), **errors(400, 401, 404)})
    p.add("get", f"{API}/visit-transcripts/appointments/{{appointment_id}}/visits", "listVisitsForAppointment",
          tag=tag, summary="Visits of an appointment (at most one per pet)",
          description="Ordered by visit_date descending, created_at descending, uuid.",
          parameters=[APPOINTMENT_ID, query("pet_id", uuid(), "Only this pet's visit."),
                      query_bool("include_pending", False, "Include pending recording visits (§4.10)."),
                      *PAGINATION],
          responses={"200": list_response("VisitTranscript", "Visits."), **errors(400, 401, 404)})


# =====================================================================================================================
# Recording routes (§4.9 transcribe/delete, §4.10, §4.11): included only when INCLUDE_RECORDING_ROUTES is True.
# =====================================================================================================================


def device_token_routes(p: Paths) -> None:
    """The iPhone app's push registration (docs/iphone-app-compatibility.md); any authenticated role."""
    tag = "Device tokens"
    body = json_body("DeviceTokenRegister")
    p.add("post", f"{API}/device-tokens/register", "registerDeviceToken", tag=tag, summary="Register an APNs token",
          description="Idempotent; a token belongs to the last user who registered it.", body=body,
          responses={"200": json_response("The token.", ref("DeviceToken")), **errors(400, 401, 413)})
    p.add("delete", f"{API}/device-tokens/unregister", "unregisterDeviceToken", tag=tag,
          summary="Unregister an APNs token", body=json_body("DeviceTokenUnregister"),
          description="JSON body `{device_token}`. Idempotent: 204 also when the token is not the caller's.",
          responses={"204": {"description": "Removed (or nothing to remove)."}, **errors(400, 401, 413)})
    p.add("get", f"{API}/device-tokens", "listDeviceTokens", tag=tag, summary="The caller's APNs tokens",
          responses={"200": list_response("DeviceToken", "Tokens, newest first."), **errors(401)})


def practice_vocabulary_routes(p: Paths) -> None:
    """A practice's clinic terms for transcription (docs/scribe.md); ADMIN and the practice's staff."""
    tag = "Practices"
    path = f"{API}/practices/{{practice_id}}/vocabulary"
    p.add("get", path, "getPracticeVocabulary", tag=tag, summary="A practice's clinic terms",
          parameters=[PRACTICE_ID],
          responses={"200": json_response("The terms.", ref("PracticeVocabulary")), **errors(400, 401, 403, 404)})
    p.add("put", path, "replacePracticeVocabulary", tag=tag, summary="Replace a practice's clinic terms",
          description="The transcription worker adds them to the decoder's hotwords and to the corrector's lexicon "
                      "for this practice's recordings.",
          parameters=[PRACTICE_ID], body=json_body("PracticeVocabularyReplace"),
          responses={"200": json_response("The saved terms.", ref("PracticeVocabulary")),
                     **errors(400, 401, 403, 404, 413)})


def vet_availability_routes(p: Paths) -> None:
    """The iPhone app's work-schedule screen (docs/iphone-app-compatibility.md); staff only."""
    tag = "Vet availability"
    base = f"{API}/scheduling-unix/vet-availability"
    p.add("post", base, "createVetAvailability", tag=tag, summary="Add an availability window",
          description="409 when it overlaps another active window of the same vet (half-open intervals).",
          body=json_body("VetAvailabilityCreate"),
          responses={"201": json_response("Created.", ref("VetAvailability")), **errors(400, 401, 403, 404, 409, 413)})
    p.add("get", f"{base}/{{id}}", "listVetAvailabilityForDay", tag=tag, summary="A vet's windows on one local day",
          description="Active windows of the vet that overlap `[start of date, start of date + 1)` in `timezone` "
                      "(DST-correct), ordered by start_at, then id.",
          parameters=[path_param("id", "User id of a VET or VET_STAFF user."),
                      query("date", date(), "Local day (`YYYY-MM-DD`); default: today in `timezone`."),
                      query("timezone", string(), "IANA zone (`Area/City`); default: the practice's."),
                      query_bool("slots", False, "The slot view instead of the windows: 30-minute slots laid from "
                                 "the start of each AVAILABLE (bookable) or EMERGENCY_ONLY (shown, not bookable) "
                                 "window, those starting on the day, minus the vet's appointments that are not "
                                 "cancelled.")],
          responses={"200": json_response("The windows, or the slots with `slots=true`.",
                                          {"anyOf": [array(ref("VetAvailability")), ref("VetAvailabilitySlots")]}),
                     **errors(400, 401, 403, 404)})
    p.add("put", f"{base}/{{id}}", "updateVetAvailability", tag=tag, summary="Change an availability window",
          parameters=[path_param("id", "Availability window id.")], body=json_body("VetAvailabilityUpdate"),
          responses={"200": json_response("Updated.", ref("VetAvailability")), **errors(400, 401, 403, 404, 409, 413)})
    p.add("delete", f"{base}/{{id}}", "deleteVetAvailability", tag=tag, summary="Delete an availability window",
          parameters=[path_param("id", "Availability window id.")],
          responses={"204": {"description": "Deleted."}, **errors(400, 401, 403, 404)})


def recording_schemas() -> dict:
    s: dict = {}
    s["AudioContentType"] = string(enum=AUDIO_CONTENT_TYPES)
    s["RecordingConflict"] = obj({
        "detail": string(description="`Recording already exists for this appointment and pet. Visit ID: {id}`, "
                                     "`Audio recording already exists for pet {pet_id} today. Visit ID: {id}` or "
                                     "`Recording upload already in progress for this appointment and pet. "
                                     "Visit ID: {id}`."),
        "visit_id": uuid("The existing visit of the slot."),
    }, description="409 of the recording endpoints.")
    s["AudioUploadRequest"] = obj({
        "pet_id": uuid(),
        "filename": trimmed(1, 255, "`/`, `\\`, `\"` and control characters are replaced by `_`."),
        "content_type": {"allOf": [ref("AudioContentType")], "default": "audio/m4a"},
        "estimated_duration_seconds": nullable(number(exclusive_minimum=0, maximum=14400)),
        "appointment_id": nullable(uuid("Links the recording to an appointment (slot per appointment and pet).")),
        "replace_existing": boolean(False, "Replace an already completed recording (same visit, next attempt)."),
        "owner_consent_confirmed": boolean(False, "The caller confirms the owner agreed to being recorded; the server "
                                           "stores `metadata.recording_consent` (who, when). Required (400) when the "
                                           "practice's `recording_consent_required` is true and no earlier "
                                           "confirmation exists for the appointment (issue 15)."),
        "practice_id": nullable(uuid("Without appointment: practice resolution (§2.5); with appointment: must "
                                     "equal the appointment's practice.")),
    }, required=["pet_id", "filename"])
    s["AudioUploadResponse"] = obj({
        "visit_id": uuid(),
        "upload_url": string(fmt="uri", description="Where to POST the form; opaque to clients."),
        "upload_fields": {"type": "object", "additionalProperties": string(),
                          "description": "Form fields to send verbatim before the `file` part; opaque."},
        "s3_key": string(description="Storage key of this upload."),
        "bucket": string(),
        "expires_in": integer(description="Always 3600."),
    })
    s["AudioUploadCompleteRequest"] = obj({
        "file_size_bytes": nullable(integer(1, 104857600)),
        "duration_seconds": nullable(number(exclusive_minimum=0, maximum=14400)),
        "device_metadata": nullable(free_object("Serialized ≤ 16384 bytes.")),
    }, required=[], description="Every field optional; `{}` or no body accepted.")
    s["AudioPlaybackResponse"] = obj({
        "presigned_url": string(fmt="uri", description="Presigned GET; supports HTTP Range."),
        "expires_in": integer(description="Always 900."),
        "visit_id": uuid(),
        "filename": string(),
    })
    s["LegacyAudioUploadForm"] = obj({
        "appointment_id": string(fmt="uuid", max_length=1024),
        "pet_id": string(fmt="uuid", max_length=1024),
        "bucket_name": string(max_length=1024, description="Accepted and ignored."),
        "audio": string(fmt="binary", description="Exactly one audio file, 1 byte – 100 MiB. A missing or "
                                                  "`application/octet-stream` type is inferred from the name."),
    }, required=["appointment_id", "pet_id", "audio"], description="Send the text parts before the file.")
    s["LegacyUploadResponse"] = obj({
        "message": string(enum=["File uploaded successfully"]),
        "file_url": string(description="Equals the visit's `audio_transcript_url`."),
        "file_key": string(description="The visit's storage key."),
        "visit_id": uuid(),
        "pet_id": uuid(),
        "appointment_id": uuid(),
    })
    s["VisitTranscriptDeleted"] = obj({
        "message": string(enum=["Visit transcript deleted"]),
        "visit_id": uuid(),
    })
    return s


def recording_conflict(description: str) -> dict:
    return json_response(description, {"anyOf": [ref("RecordingConflict"), ref("Error")]})


def recording_routes(p: Paths) -> None:
    tag = "Audio recordings"
    transcripts = f"{API}/visit-transcripts"
    p.add("post", f"{transcripts}/{{visit_id}}/transcribe", "transcribeVisit", tag="Visit transcripts",
          summary="Transcribe a visit's recording again (staff)",
          description="No body (any body is ignored). Re-queues the job of the current recording.",
          parameters=[VISIT_ID],
          responses={"202": json_response("Accepted (`state: processing`).", ref("VisitTranscript")),
                     **errors(400, 401, 403, 404, 409)})
    p.add("delete", f"{transcripts}/{{visit_id}}", "deleteVisitTranscript", tag="Visit transcripts",
          summary="Delete a visit (ADMIN)",
          description="Deletes the visit and its jobs, then its stored objects in the background; frees the slot.",
          parameters=[VISIT_ID],
          responses={"200": json_response("Deleted.", ref("VisitTranscriptDeleted")), **errors(400, 401, 403, 404)})
    p.add("post", f"{transcripts}/audio/upload/initiate", "initiateAudioUpload", tag=tag,
          summary="Start a recording upload for one pet (staff)",
          description="Idempotent while the upload is pending; returns a presigned POST (§4.10, §7.3).",
          body=json_body("AudioUploadRequest"),
          responses={"200": json_response("Upload form issued.", ref("AudioUploadResponse")),
                     **errors(400, 401, 403, 404, 413, overrides={
                         "409": recording_conflict("Recording exists or is being uploaded, or the appointment "
                                                   "is cancelled.")})})
    p.add("post", f"{transcripts}/audio/upload/complete/{{visit_id}}", "completeAudioUpload", tag=tag,
          summary="Complete a recording upload (staff)",
          description="Verifies the object in storage and queues transcription; idempotent once completed.",
          parameters=[VISIT_ID],
          body=json_body("AudioUploadCompleteRequest", required=False,
                         description="Optional; an empty body needs no Content-Type."),
          responses={"200": json_response("The completed visit.", ref("VisitTranscript")),
                     **errors(400, 401, 403, 404, 409, 413)})
    p.add("get", f"{transcripts}/audio/playback/{{visit_id}}", "getAudioPlayback", tag=tag,
          summary="Presigned playback URL of a visit's recording", parameters=[VISIT_ID],
          responses={"200": json_response("Playback URL (15 minutes).", ref("AudioPlaybackResponse")),
                     **errors(400, 401, 404)})
    p.add("post", f"{API}/upload/audio", "uploadAudioLegacy", tag=tag,
          summary="Legacy multipart upload of one pet's recording (staff)",
          description="All checks, including the duplicate check, happen before anything is stored (§4.11).",
          body={"required": True, "content": {"multipart/form-data": {
              "schema": ref("LegacyAudioUploadForm"),
              # `application/octet-stream` (or no type) is accepted too when the file name's extension names an
              # audio type (§4.11); a generator cannot pair the two, so only the audio types are listed.
              "encoding": {"audio": {"contentType": ", ".join(AUDIO_CONTENT_TYPES)}},
          }}},
          responses={"201": json_response("Stored and queued for transcription.", ref("LegacyUploadResponse")),
                     **errors(400, 401, 403, 404, 413, overrides={
                         "409": recording_conflict("Recording exists or is being uploaded, or the appointment "
                                                   "is cancelled."),
                         "413": json_response("File size too large. Maximum 100MB allowed.", ref("Error"))})})


# =====================================================================================================================
# Document
# =====================================================================================================================

TAGS = [
    ("Auth", "Log in and the current user (§4.1)."),
    ("Users", "User administration, ADMIN only (§4.2)."),
    ("Practices", "Practices (§4.3)."),
    ("Dashboard", "A vet's day (§4.4)."),
    ("Device tokens", "APNs tokens of the iPhone app; pushes themselves are not sent (outbox only)."),
    ("Vet availability", "A vet's availability windows, the iPhone app's work schedule (UTC instants)."),
    ("Appointments", "Appointments with one or more pets (§4.5)."),
    ("Pet owners", "Clients of a practice; also served under `/api/v1/pet_owners` (§4.6)."),
    ("Pets", "Pets (§4.7)."),
    ("Medical records", "Versioned, immutable medical records (§4.8)."),
    ("Visit transcripts", "One visit of one pet (§4.9)."),
    ("Audio recordings", "One recording per pet per visit, uploaded straight to storage (§4.10, §4.11)."),
    ("Operations", "Health, readiness, metrics and this document (§4.12)."),
]


def build_document(include_recording_routes: bool) -> dict:
    p = Paths()
    operational_routes(p)
    auth_routes(p)
    user_routes(p)
    practice_routes(p)
    dashboard_routes(p)
    appointment_routes(p)
    pet_owner_routes(p, f"{API}/pet-owners")
    pet_owner_routes(p, f"{API}/pet_owners", id_suffix="Alias", alias_of=f"{API}/pet-owners")
    pet_routes(p)
    medical_record_routes(p)
    visit_transcript_routes(p)
    device_token_routes(p)
    vet_availability_routes(p)
    practice_vocabulary_routes(p)

    schemas = {**response_schemas(), **request_schemas()}
    if include_recording_routes:
        recording_routes(p)
        schemas.update(recording_schemas())

    used_tags = {op["tags"][0] for item in p.paths.values() for op in item.values()}
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "HelpPet API",
            "version": "1.0.0",
            "summary": "Veterinary practice backend: schedule, appointments, pets, medical records, visit "
                       "recordings and transcripts.",
            "description": (
                "Specification: `contracts/helppet-api.md` (version 1). Every route is also served with one "
                "trailing slash. `/api/v1/pet_owners` is an alias of every `/api/v1/pet-owners` route. Errors are "
                "`{\"detail\": \"...\"}` (500 adds `request_id`); unknown routes answer 404 "
                "`{\"detail\":\"Not Found\"}`. Every response carries `X-Request-ID`; every `/api/v1` response "
                "`Cache-Control: no-store`. Nullable fields are always present (sent as null), arrays are never "
                "null. Datetimes are UTC `YYYY-MM-DDTHH:MM:SSZ`; `visit_date` is unix seconds. The embedded "
                "object store under `/storage/` is S3-compatible and not described here."
                + ("" if include_recording_routes else
                   " The recording routes (§4.10, §4.11, transcribe and delete of §4.9) are not available yet.")
            ),
        },
        "servers": [{"url": "https://api.helppet.ai", "description": "Production"},
                    {"url": "http://localhost:8080", "description": "Local default"}],
        "tags": [{"name": name, "description": description} for name, description in TAGS if name in used_tags],
        "security": [{"bearerAuth": []}],
        "paths": p.paths,
        "components": {
            "securitySchemes": {
                "bearerAuth": {"type": "http", "scheme": "bearer", "bearerFormat": "JWT",
                               "description": "Token from `POST /api/v1/auth/token` (HS256, valid 8 hours)."},
                "metricsToken": {"type": "http", "scheme": "bearer",
                                 "description": "`METRICS_TOKEN`, only when configured (`GET /metrics`)."},
            },
            "schemas": schemas,
            "parameters": parameters_components(),
            "headers": headers_components(),
            "responses": responses_components(),
        },
    }


def main() -> int:
    def add_arguments(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--include-recording-routes", action="store_true",
                            help="include the recording routes regardless of INCLUDE_RECORDING_ROUTES (preview)")

    return openapi_builders.main(
        lambda args: build_document(INCLUDE_RECORDING_ROUTES or args.include_recording_routes), OUTPUT,
        script=__file__, doc=__doc__, add_arguments=add_arguments)


if __name__ == "__main__":
    sys.exit(main())
