#!/usr/bin/env bash
# Transcription benchmark: the real-time factor of the Whisper engine (tiny.en, CPU) on a 60-second generated
# clip, and the word error rate over the fixed veterinary sentences in bench/data/vet_sentences.txt (speech
# generated with espeak-ng), for Whisper and pocketsphinx; then the whole pipeline (bench/transcription_wer.py) over
# two sentence sets, three voices, clean and noisy. Needs ffmpeg, espeak-ng, flite, pocketsphinx and the
# project's .venv-transcription (scripts/transcription/setup-venv). Writes bench/results/<date>-transcription.txt.
#
#   bench/transcription.sh              both engines
#   THREADS=2 bench/transcription.sh    CTranslate2 threads (default: all cores)
#   bench/transcription.sh --models tiny.en,base
#                                       Whisper models compared instead (WHISPER_MODEL values, or NAME=DIR for any
#                                       CTranslate2 folder; base needs scripts/transcription/setup-venv --model base):
#                                       the 60-second clip's real-time factor and the whole pipeline over the same
#                                       audio, model after model; writes bench/results/<date>-whisper-models.txt
set -euo pipefail
cd "$(dirname "$0")/.."
models=""
if [[ "${1:-}" == "--models" ]]; then
    models="${2:?--models needs a list such as tiny.en,base}"
fi
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
# The worker's prompt (MedicationLexicon.prompt): the drug list first, a plain sentence last.
print("Temperature in degrees Fahrenheit, weight in kilograms, heart rate in bpm. "
      "Medications: " + ", ".join(names[:40]) + ". Veterinary visit notes.")
PY
)"

if [[ -n "$models" ]]; then
    # Model comparison: each model on the same 60-second clip (the helper alone, three rounds, alternating so that a
    # load change of the shared machine falls on every model), then the whole pipeline over the same recordings.
    server="${SERVER_BINARY:-.build/debug/server}"
    [[ -x "$server" ]] || { echo "build the server first (swift build --product server)" >&2; exit 1; }
    command -v flite >/dev/null || { echo "flite is required (apt-get install flite)" >&2; exit 1; }
    out="bench/results/$(date -u +%Y-%m-%d)-whisper-models.txt"
    venv="$(dirname "$(dirname "$python")")"
    text=""
    while IFS= read -r line; do text+="$line "; done <"$sentences"
    espeak-ng -v en -s 130 -g 3 -w "$work/long.wav" "$text $text"
    ffmpeg -nostdin -loglevel error -y -i "$work/long.wav" -t 60 -ac 1 -ar 16000 -c:a pcm_s16le "$work/clip.wav"
    {
        echo "Whisper models compared, $(date -u '+%Y-%m-%d %H:%M UTC'); machine: $(uname -m), $(nproc) cores" \
            "(shared), load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
        echo
        echo "60-second clip (espeak-ng, the 22 base sentences), helper alone (Python start, model load, decoding)," \
            "threads ${THREADS:-0} (0 = all cores):"
    } | tee "$out"
    IFS=, read -ra names <<<"$models"
    for round in 1 2 3; do
        for spec in "${names[@]}"; do
            # NAME (a WHISPER_MODEL value) or NAME=DIR (a model folder, as WHISPER_MODEL_DIR)
            name="${spec%%=*}"
            dir_args=()
            if [[ "$spec" == *=* ]]; then
                dir_args=(--model-dir "${spec#*=}")
            elif [[ "$name" != tiny.en ]]; then
                dir_args=(--model-dir "$venv/share/whisper-models/whisper-$name")
            fi
            start=$(date +%s.%N)
            "$python" "$helper" --wav "$work/clip.wav" --prompt "$prompt" --threads "${THREADS:-0}" "${dir_args[@]}" \
                >"$work/clip-$name.json"
            end=$(date +%s.%N)
            python3 - "$name" "$round" "$start" "$end" "$work/clip-$name.json" "$sentences" <<'PY' | tee -a "$out"
import json, sys
sys.path.insert(0, "bench")
from transcription_wer import normalise, distance
name, round_, start, end, result, sentences = sys.argv[1:]
text = " ".join(l.strip() for l in open(sentences) if l.strip())
words = normalise(text + " " + text)  # the clip speaks the sentences twice and stops at 60 s, mid-text
heard = normalise(json.load(open(result))["text"])
# Scored against the reference prefix that fits best: where the clip stops is not known word-exactly.
errors, length = min((distance(words[:k], heard), k) for k in range(max(1, len(heard) - 20), len(heard) + 20))
seconds = float(end) - float(start)
print(f"  round {round_} {name:8} {seconds:5.1f} s -> RTF {seconds / 60:.3f}   ({len(heard)} words heard; "
      f"WER {errors / length:.3f} against the best-fitting {length} reference words)")
PY
        done
    done
    {
        echo
        echo "Pipeline (server transcribe: ffmpeg, Whisper with the clinic prompt, clinic-vocabulary corrector);"
        echo "WER before -> after the corrector; drug names written exactly, before -> after"
        "$python" bench/transcription_wer.py --server "$server" --models "$models" \
            "$sentences" bench/data/vet_sentences_doses.txt
        echo
        echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
    } | tee -a "$out"
    echo "saved to $out"
    exit 0
fi

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
