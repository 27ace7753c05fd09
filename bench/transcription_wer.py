#!/usr/bin/env python3
"""Word error rate of the whole transcription pipeline (`server transcribe`: ffmpeg, Whisper with the clinic's
prompt, the clinic-vocabulary corrector) over sentence sets, voices and noise, before and after the corrector.

Run by bench/transcription.sh with the transcription environment's Python (it has numpy):
  transcription_wer.py --server BIN SET.txt [SET.txt ...]
  transcription_wer.py --server BIN --models tiny.en,base SET.txt ...   several WHISPER_MODELs on the same audio

With --models, each recording goes through every model one after the other (same audio, same moment of the
machine's load), and each row also gives two real-time factors over the audio's seconds: the whole `server transcribe`
command (server start, engine probe, helper start, model load, decoding, corrector), and the worker's own figure that
the command reports (helper start, model load, decoding, corrector: what a visit's metadata shows).

Voices: espeak-ng en-us and en-gb-x-rp, flite slt; by name with --voices also the first benchmark's espeak-ng voice and
Festival's slt (HTS) and kal (diphone). Conditions: clean, and clinic-like noise (pink noise, mains hum, a monitor beep)
mixed in at 10 dB SNR. Per condition: WER before and after the corrector, and how many of the drug
names said were written exactly.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import wave

VOICES = [
    # The voice of the first benchmark (bench/transcription.sh, bench/results/2026-11-21-transcription.txt: WER 0.118
    # on the 22 base sentences): espeak-ng's default English with 30 ms gaps between words.
    ("espeak-ng en gaps", lambda text, out: ["espeak-ng", "-v", "en", "-s", "130", "-g", "3", "-w", out, text]),
    ("espeak-ng en-us", lambda text, out: ["espeak-ng", "-v", "en-us", "-s", "130", "-w", out, text]),
    ("espeak-ng en-gb-x-rp", lambda text, out: ["espeak-ng", "-v", "en-gb-x-rp", "-s", "140", "-w", out, text]),
    ("flite slt", lambda text, out: ["flite", "-voice", "slt", "-t", text, "-o", out]),
    # Festival's HTS voice of the same speaker: statistical-parametric, the most natural-sounding voice in Debian.
    ("festival slt hts", lambda text, out: ["sh", "-c", 'printf "%s" "$1" | text2wave -eval "(voice_cmu_us_slt_arctic_hts)" -o "$2"',
                                            "festival", text, out]),
    ("festival kal", lambda text, out: ["sh", "-c", 'printf "%s" "$1" | text2wave -eval "(voice_kal_diphone)" -o "$2"',
                                        "festival", text, out]),
]
# Voices measured only when asked for by name (--voices): kept out of the default run so its rows stay comparable
# with the earlier results files.
OPT_IN = {"espeak-ng en gaps", "festival slt hts", "festival kal"}
SNR_DB = 10.0
NOISE = ("anoisesrc=color=pink:amplitude=0.5:r=16000[n];sine=frequency=60:sample_rate=16000,volume=0.2[h];"
         "sine=frequency=1000:sample_rate=16000,volume='if(lt(mod(t,3),0.15),0.5,0)':eval=frame[b];"
         "[n][h][b]amix=inputs=3:normalize=0")

ONES = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
        "seventeen eighteen nineteen").split()
TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


def number_words(n):
    n = int(n)
    if n < 20:
        return ONES[n]
    if n < 100:
        return TENS[n // 10] + ("" if n % 10 == 0 else " " + ONES[n % 10])
    if n < 1000:
        return ONES[n // 100] + " hundred" + ("" if n % 100 == 0 else " " + number_words(n % 100))
    return number_words(n // 1000) + " thousand" + ("" if n % 1000 == 0 else " " + number_words(n % 1000))


# A unit written as the recogniser chose ("12 kg", "250mg") is the unit said ("12 kilograms"): one spelling each.
UNITS = {"milligram": "mg", "milligrams": "mg", "kilogram": "kg", "kilograms": "kg", "milliliter": "ml",
         "milliliters": "ml", "millilitre": "ml", "millilitres": "ml", "mls": "ml", "pound": "lb", "pounds": "lb",
         "lbs": "lb"}


def normalise(text, units_alike=True):
    """Numbers as words, no punctuation, "and" dropped (the normalisation of the earlier results, which is
    units_alike=False); and, since 2026-11-26, a unit's spellings counted as one word ("mg" = "milligrams"), as
    speech-recognition scoring counts format-only differences as no error. Results files give both."""
    text = text.lower()
    if units_alike:
        text = re.sub(r"(\d)(mg|kg|ml|lbs?)\b", r"\1 \2", text)
    text = text.replace("-", " ")
    text = re.sub(r"(\d+)\.(\d+)",
                  lambda m: number_words(m.group(1)) + " point " + " ".join(ONES[int(d)] for d in m.group(2)), text)
    text = re.sub(r"\d+", lambda m: number_words(m.group(0)), text.replace(",", ""))
    text = re.sub(r"[^a-z' ]", " ", text)
    words = [w for w in text.split() if w != "and"]
    return [UNITS.get(w, w) for w in words] if units_alike else words


def distance(a, b):
    d = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        prev, d[0] = d[0], i
        for j in range(1, len(b) + 1):
            cur = min(d[j] + 1, d[j - 1] + 1, prev + (a[i - 1] != b[j - 1]))
            prev, d[j] = d[j], cur
    return d[len(b)]


def read_wav(path):
    import numpy as np  # here, so bench/transcription.sh can import the scoring helpers with a bare python3

    with wave.open(path) as w:
        return np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16).astype(np.float64)


def write_wav(path, samples):
    import numpy as np

    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16000)
        w.writeframes(np.clip(samples, -32768, 32767).astype(np.int16).tobytes())


def run(command):
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def speak(voice, text, out, work):
    raw = os.path.join(work, "raw.wav")
    run(voice(text, raw))
    run(["ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-i", raw, "-ac", "1", "-ar", "16000", "-c:a", "pcm_s16le",
         out])


def add_noise(clean_path, out, work):
    import numpy as np

    speech = read_wav(clean_path)
    seconds = len(speech) / 16000 + 1
    noise_path = os.path.join(work, "noise.wav")
    run(["ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-filter_complex", NOISE, "-t", f"{seconds:.2f}",
         "-ac", "1", "-ar", "16000", "-c:a", "pcm_s16le", noise_path])
    noise = read_wav(noise_path)[: len(speech)]
    speech_power = np.mean(speech ** 2)
    noise_power = np.mean(noise ** 2) or 1.0
    noise *= np.sqrt(speech_power / (noise_power * 10 ** (SNR_DB / 10)))
    write_wav(out, speech + noise)


def drug_names(lexicon_path):
    names = set()
    for line in open(lexicon_path):
        line = line.split("#", 1)[0].strip()
        for form in line.split("|"):
            form = form.strip().lower()
            if form and " " not in form:
                names.add(form)
    return names


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True)
    parser.add_argument("--lexicon", default="Sources/Transcription/Resources/medications.txt")
    parser.add_argument("--models", default="",
                        help="comma-separated WHISPER_MODEL values to compare, or NAME=DIR for a model folder given as "
                             "WHISPER_MODEL_DIR; default: the configured model only")
    parser.add_argument("--voices", default="",
                        help="comma-separated voice names to run (e.g. 'flite slt,festival slt hts'); default: every voice not in OPT_IN")
    parser.add_argument("--errors", action="store_true",
                        help="also list every sentence written with a word error after the corrector")
    parser.add_argument("sets", nargs="+")
    args = parser.parse_args()
    drugs = drug_names(args.lexicon)
    wanted = [v.strip() for v in args.voices.split(",") if v.strip()]
    voices = [(name, voice) for name, voice in VOICES if name in wanted or not wanted and name not in OPT_IN]
    models = [m.strip() for m in args.models.split(",") if m.strip()] or [None]
    model_env = {}
    for spec in models:
        if spec is not None:
            name, _, folder = spec.partition("=")
            model_env[spec] = {"WHISPER_MODEL_DIR": os.path.abspath(folder)} if folder else {"WHISPER_MODEL": name}
    sentences = []
    for path in args.sets:
        sentences += [line.strip() for line in open(path) if line.strip() and not line.startswith("#")]
    env = dict(os.environ, DATA_DIR=tempfile.mkdtemp(prefix="bench-transcribe-"), LOG_LEVEL="error")
    print(f"{len(sentences)} sentences ({', '.join(os.path.basename(p) for p in args.sets)}), "
          f"{len(voices)} voices, clean and clinic noise at {SNR_DB:.0f} dB SNR"
          + (f", models {', '.join(models)} on the same audio" if models != [None] else ""), flush=True)
    misses = []
    wrong = []
    totals = {model: Tally() for model in models}
    with tempfile.TemporaryDirectory() as work:
        for voice_name, voice in voices:
            for condition in ("clean", f"noise {SNR_DB:.0f} dB"):
                tallies = {model: Tally() for model in models}
                for index, sentence in enumerate(sentences):
                    clean = os.path.join(work, f"clean-{index}.wav")
                    speak(voice, sentence, clean, work)
                    audio = clean
                    if condition != "clean":
                        audio = os.path.join(work, f"noisy-{index}.wav")
                        add_noise(clean, audio, work)
                    for model in models:
                        run_env = dict(env, **model_env.get(model, {}))
                        started = time.monotonic()
                        result = subprocess.run([args.server, "transcribe", audio, "--content-type", "audio/wav"],
                                                env=run_env, check=True, capture_output=True, text=True)
                        wall = time.monotonic() - started
                        output = json.loads(result.stdout.strip().splitlines()[-1])
                        if model is not None and not output["model"].endswith(model.partition("=")[0]):
                            sys.exit(f"{model_env[model]} ran model {output['model']!r}: is the server current?")
                        tally = tallies[model]
                        tally.model_name = output["model"]
                        reference = normalise(sentence)
                        written = normalise(output["text"])
                        heard = normalise(output["heard_text"])
                        tally.errors_before += distance(reference, heard)
                        tally.errors_after += distance(reference, written)
                        tally.errors_after_as_written += distance(normalise(sentence, units_alike=False),
                                                                  normalise(output["text"], units_alike=False))
                        tally.words += len(reference)
                        said = [w for w in reference if w in drugs]
                        tally.drugs_said += len(said)
                        tally.drugs_right += sum(1 for w in said if w in written)
                        tally.drugs_right_before += sum(1 for w in said if w in heard)
                        tally.audio_seconds += output["duration_seconds"]
                        tally.wall_seconds += wall
                        tally.engine_seconds += output["real_time_factor"] * output["duration_seconds"]
                        label = f"{voice_name}, {condition}" + (f", {model.partition('=')[0]}" if model else "")
                        if args.errors and written != reference:
                            wrong.append(f"{label}: {sentence!r} -> {output['text']!r}")
                        for w in said:
                            if w not in written:
                                misses.append(f"{label}: '{w}' -> {output['text']!r}")
                for model in models:
                    label = f"{voice_name:22} {condition:13}" + (f" {model.partition('=')[0]:8}" if model else "")
                    print(tallies[model].row(label, timing=model is not None), flush=True)
                    totals[model].add(tallies[model])
    if models != [None]:
        print("\nAll voices and conditions:")
        for model in models:
            print(totals[model].row(f"{totals[model].model_name:36}", timing=True))
    print("\nDrug names still wrong after the corrector:")
    for miss in misses:
        print("  " + miss)
    if args.errors:
        print("\nSentences with a word error after the corrector:")
        for line in wrong:
            print("  " + line)
    return 0


class Tally:
    """One model's counts over a set of recordings."""

    def __init__(self):
        self.model_name = ""
        self.errors_before = self.errors_after = self.words = 0
        self.errors_after_as_written = 0  # units counted as in the earlier results files
        self.drugs_said = self.drugs_right = self.drugs_right_before = 0
        self.audio_seconds = self.wall_seconds = self.engine_seconds = 0.0

    def add(self, other):
        self.model_name = other.model_name
        for key in ("errors_before", "errors_after", "errors_after_as_written", "words", "drugs_said", "drugs_right",
                    "drugs_right_before", "audio_seconds", "wall_seconds", "engine_seconds"):
            setattr(self, key, getattr(self, key) + getattr(other, key))

    def row(self, label, timing):
        text = (f"{label} WER {self.errors_before / self.words:.3f} -> {self.errors_after / self.words:.3f}"
                f" ({self.errors_after_as_written / self.words:.3f} units as written)"
                f"   drug names {self.drugs_right_before}/{self.drugs_said} -> {self.drugs_right}/{self.drugs_said}")
        if timing and self.audio_seconds:
            text += (f"   RTF {self.wall_seconds / self.audio_seconds:.2f} whole run,"
                     f" {self.engine_seconds / self.audio_seconds:.2f} worker")
        return text


if __name__ == "__main__":
    sys.exit(main())
