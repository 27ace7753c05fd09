#!/usr/bin/env python3
"""Faithfulness of the scribe's clinical note: spoken visits through the worker's exact pipeline
(`server transcribe`: ffmpeg, Whisper with the clinic prompt, the clinic-vocabulary corrector, the note drafter), each
note compared with the facts written for its visit (bench/data/scribe_visits.json).

  scribe_faithfulness.py [--server BIN] [--voices 'flite slt,...'] [--errors] [--out FILE]

For each voice:
  invented: a note field nobody said (a medication, dose, unit or frequency, a vital, a follow-up that the visit's
            facts do not have);
  missed:   a fact said but absent or wrong in the note (drug, dose, unit, frequency, vital value, follow-up).
Flags ("check before approving") are neither: they send the vet to the sentence and put nothing in the note.

Voices and speaking come from bench/transcription_wer.py. A script that measures and prints, not a timed test.
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from transcription_wer import VOICES, speak  # noqa: E402

DEFAULT_VOICES = ["espeak-ng en-us", "flite slt", "festival slt hts"]
VITALS = ["temperature", "weight", "heart_rate", "respiratory_rate"]


def close(a, b):
    return a is not None and b is not None and abs(float(a) - float(b)) < 1e-6


def score(visit, note):
    """(facts said, missed, invented): missed and invented as lists of readable strings."""
    facts, missed, invented = 0, [], []
    vitals = (note or {}).get("vitals") or {}
    for name in VITALS:
        said = visit["vitals"].get(name)
        got = vitals.get(name)
        if said is not None:
            facts += 1
            if got is None or not close(got["value"], said[0]) or got["unit"] != said[1]:
                missed.append(f"{name} {said[0]} {said[1]} -> " + (f"{got['value']} {got['unit']}" if got else "absent"))
        elif got is not None:
            invented.append(f"{name} {got['value']} {got['unit']}")
    meds = {m["name"]: m for m in (note or {}).get("medications") or []}
    for expected in visit["medications"]:
        got = meds.pop(expected["drug"], None)
        label = expected["drug"] + (f" ({expected['brand']})" if expected.get("brand") else "")
        facts += 1
        if got is None:
            missed.append(f"drug {label} -> absent")
        elif got.get("brand") != expected.get("brand"):
            missed.append(f"drug {label} -> brand {got.get('brand')!r}")
        for field, key in (("dose", "dose"), ("unit", "unit"), ("frequency", "frequency")):
            said = expected.get(key)
            value = got.get(key) if got else None
            if said is not None:
                facts += 1
                right = close(value, said) if field == "dose" else value == said
                if not right:
                    missed.append(f"{label} {field} {said} -> {value if value is not None else 'absent'}")
            elif value is not None:
                invented.append(f"{label} {field} {value} (none said)")
    for name, got in meds.items():
        invented.append(f"medication {name} (not said)")
    said = visit["follow_up"]
    got = (note or {}).get("follow_up")
    if said is not None:
        facts += 1
        right = got is not None and (
            got.get("interval_days") == said.get("days") if "days" in said else got.get("weekday") == said.get("weekday"))
        if not right:
            have = "absent" if got is None else (got.get("interval_days") or got.get("weekday") or got.get("date"))
            missed.append(f"follow-up {said} -> {have}")
    elif got is not None:
        invented.append(f"follow-up {got.get('interval_days') or got.get('weekday') or got.get('date')} "
                        f"from {got.get('text')!r}")
    return facts, missed, invented


def transcribe(server, audio, pet, env):
    result = subprocess.run([server, "transcribe", audio, "--content-type", "audio/wav", "--pet-name", pet],
                            env=env, check=True, capture_output=True, text=True)
    return json.loads(result.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", default=".build/debug/server")
    parser.add_argument("--data", default="bench/data/scribe_visits.json")
    parser.add_argument("--voices", default=",".join(DEFAULT_VOICES))
    parser.add_argument("--only", default="", help="comma-separated visit ids (a prefix is enough)")
    parser.add_argument("--errors", action="store_true", help="list every invented and missed fact with its transcript")
    parser.add_argument("--audio-cache", default="",
                        help="folder keeping each voice's recording of each visit between runs (speech synthesis is "
                             "deterministic; the pipeline still runs every time)")
    parser.add_argument("--out", default="", help="also write the report to this file")
    args = parser.parse_args()
    visits = json.load(open(args.data))["visits"]
    if args.only:
        prefixes = [p.strip() for p in args.only.split(",") if p.strip()]
        visits = [v for v in visits if any(v["id"].startswith(p) for p in prefixes)]
    wanted = [v.strip() for v in args.voices.split(",") if v.strip()]
    voices = [(name, voice) for name, voice in VOICES if name in wanted]
    if len(voices) != len(wanted):
        sys.exit(f"unknown voice in {wanted}; known: {[name for name, _ in VOICES]}")
    env = dict(os.environ, DATA_DIR=tempfile.mkdtemp(prefix="bench-scribe-"), LOG_LEVEL="error")
    lines = []

    def say(line=""):
        print(line, flush=True)
        lines.append(line)

    say(f"{len(visits)} visits ({os.path.basename(args.data)}), {len(voices)} voices, through `server transcribe`")
    rows, errors = [], []
    model = ""
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as work:
        cache = args.audio_cache or work
        os.makedirs(cache, exist_ok=True)
        for voice_name, voice in voices:
            facts = missed = invented = 0
            for visit in visits:
                digest = hashlib.sha1(f"{voice_name}\n{visit['text']}".encode()).hexdigest()[:16]
                audio = os.path.join(cache, f"{digest}.wav")
                if not os.path.exists(audio):
                    speak(voice, visit["text"], audio, work)
                output = transcribe(args.server, audio, visit["pet"], env)
                model = output["model"]
                n, m, i = score(visit, output.get("clinical_note"))
                facts, missed, invented = facts + n, missed + len(m), invented + len(i)
                for kind, items in (("INVENTED", i), ("missed", m)):
                    for item in items:
                        errors.append(f"{voice_name} | {visit['id']} | {kind}: {item}\n      heard: {output['text']!r}")
            rows.append((voice_name, facts, missed, invented))
            say(f"{voice_name:18} facts {facts:3}   missed {missed:3} ({missed / facts:6.1%})   invented {invented}")
    say(f"model {model}; {time.monotonic() - started:.0f} s in all")
    if args.errors:
        say("\nEvery invented and missed fact (voice | visit | what):")
        for line in errors:
            say("  " + line)
    if args.out:
        with open(args.out, "w") as f:
            f.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
