#!/usr/bin/env bash
# Transcription benchmark: the real-time factor of the Whisper engine (tiny.en, CPU) on a 60-second generated
# clip, and the word error rate over the fixed veterinary sentences in bench/data/vet_sentences.txt (speech
# generated with espeak-ng), for Whisper and pocketsphinx; then the whole pipeline (bench/transcription_wer.py) over
# two sentence sets, three voices, clean and noisy. Needs ffmpeg, espeak-ng, flite, pocketsphinx and the
# project's .venv-transcription (scripts/transcription/setup-venv). Writes bench/results/<date>-transcription.txt.
#
#   bench/transcription.sh              both engines
#   THREADS=2 bench/transcription.sh    CTranslate2 threads (default: all cores)
set -euo pipefail
cd "$(dirname "$0")/.."
python="${TRANSCRIPTION_PYTHON:-./.venv-transcription/bin/python3}"
helper=Sources/Transcription/Resources/whisper_transcribe.py
sentences=bench/data/vet_sentences.txt
for tool in ffmpeg espeak-ng pocketsphinx_continuous; do
    command -v "$tool" >/dev/null || { echo "$tool is required" >&2; exit 1; }
done
[[ -x "$python" ]] || { echo "run scripts/transcription/setup-venv first" >&2; exit 1; }

work="$(mktemp -d "${TMPDIR:-/tmp}/helppet-bench-transcription.XXXXXX")"
trap 'rm -rf "$work"' EXIT
mkdir -p bench/results
out="bench/results/$(date -u +%Y-%m-%d)-transcription.txt"
prompt="$("$python" - <<'PY'
names = []
for line in open("Sources/Transcription/Resources/medications.txt"):
    line = line.split("#", 1)[0].strip()
    if line:
        names.append(line.split("|")[0].strip())
print("Veterinary visit notes. Temperature in degrees Fahrenheit, weight in kilograms, heart rate in bpm. "
      "Medications: " + ", ".join(names[:40]) + ".")
PY
)"

speak() {  # text → 16 kHz mono WAV (the worker's format), via the m4a the app uploads
    espeak-ng -v en -s 130 -g 3 -w "$work/s.wav" "$1"
    ffmpeg -nostdin -loglevel error -y -i "$work/s.wav" -c:a aac -b:a 64k "$work/s.m4a"
    ffmpeg -nostdin -loglevel error -y -protocol_whitelist file,pipe -f mov -i "$work/s.m4a" -vn -ac 1 -ar 16000 \
        -c:a pcm_s16le -f wav "$2"
}

echo "==> 60-second clip"
text=""
while IFS= read -r line; do text+="$line "; done <"$sentences"
espeak-ng -v en -s 130 -g 3 -w "$work/long.wav" "$text $text"
ffmpeg -nostdin -loglevel error -y -i "$work/long.wav" -t 60 -ac 1 -ar 16000 -c:a pcm_s16le "$work/clip.wav"
threads="${THREADS:-0}"
start=$(date +%s.%N)
"$python" "$helper" --wav "$work/clip.wav" --prompt "$prompt" --threads "$threads" >"$work/clip.json"
end=$(date +%s.%N)
rtf=$(python3 -c "print(f'{($end - $start) / 60:.3f}')")
elapsed=$(python3 -c "print(f'{$end - $start:.1f}')")

echo "==> word error rate over $(grep -c . "$sentences") sentences"
: >"$work/whisper.txt"
: >"$work/sphinx.txt"
n=0
while IFS= read -r line; do
    [[ -n "$line" ]] || continue
    n=$((n + 1))
    speak "$line" "$work/$n.wav"
    "$python" "$helper" --wav "$work/$n.wav" --prompt "$prompt" --threads "$threads" \
        | python3 -c 'import json,sys; print(json.load(sys.stdin)["text"])' >>"$work/whisper.txt"
    pocketsphinx_continuous -infile "$work/$n.wav" -logfn /dev/null 2>/dev/null | tr '\n' ' ' >>"$work/sphinx.txt"
    echo >>"$work/sphinx.txt"
done <"$sentences"

python3 - "$sentences" "$work/whisper.txt" "$work/sphinx.txt" "$rtf" "$elapsed" "$out" "$(nproc)" <<'PY'
import re, sys, datetime, platform
ref_path, whisper_path, sphinx_path, rtf, elapsed, out, cores = sys.argv[1:]
sys.path.insert(0, "bench")
from transcription_wer import normalise as norm, distance  # one scoring rule for both WER tables
refs = [l.strip() for l in open(ref_path) if l.strip()]
lines = ["HelpPet transcription benchmark, " + datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M UTC"),
         f"machine: {platform.machine()}, {cores} cores (shared); speech: espeak-ng -v en -s 130 -g 3 -> AAC m4a -> 16 kHz WAV",
         "",
         f"Whisper tiny.en (faster-whisper 1.2.1, CTranslate2 int8, CPU): 60 s clip in {elapsed} s -> real-time factor {rtf} "
         "(whole helper run: Python start, model load, decoding)", ""]
for name, path in (("Whisper tiny.en", whisper_path), ("pocketsphinx en-us", sphinx_path)):
    hyps = [l.rstrip("\n") for l in open(path)]
    errors = total = 0
    for r, h in zip(refs, hyps):
        rw, hw = norm(r), norm(h)
        errors += distance(rw, hw)
        total += len(rw)
    lines.append(f"{name}: WER {errors / total:.3f} ({errors} errors / {total} words, {len(refs)} sentences)")
lines.append("")
lines.append("Whisper hypotheses:")
lines += ["  " + l.rstrip() for l in open(whisper_path)]
text = "\n".join(lines) + "\n"
open(out, "w").write(text)
print(text)
print("saved to " + out)
PY

# The whole pipeline (`server transcribe`: Whisper with the clinic prompt, then the clinic-vocabulary corrector) over
# the base sentences and the doses/vaccines/lab sentences, three voices, clean and with clinic noise at 10 dB SNR.
server="${SERVER_BINARY:-.build/debug/server}"
if [[ ! -x "$server" ]]; then
    echo "==> building the server"
    swift build --product server 2>&1 | tail -n 1
fi
command -v flite >/dev/null || { echo "flite is required (apt-get install flite)" >&2; exit 1; }
echo "==> pipeline WER: voices x noise, before and after the vocabulary corrector"
{
    echo
    echo "Pipeline (server transcribe: ffmpeg, Whisper tiny.en with the clinic prompt, clinic-vocabulary corrector);"
    echo "WER before -> after the corrector; drug names written exactly, before -> after"
    "$python" bench/transcription_wer.py --server "$server" "$sentences" bench/data/vet_sentences_doses.txt
} | tee -a "$out"
