#!/usr/bin/env python3
"""Does cleaning the audio before Whisper help? The pipeline's WER (`server transcribe`, after the corrector) on the
same recordings with ffmpeg filters applied first: none, a 100 Hz high-pass (mains hum), and the high-pass with
ffmpeg's FFT denoiser (afftdn, with and without noise tracking). Scored like bench/transcription_wer.py.

  transcription_filters.py --server BIN --voices 'espeak-ng en-us,flite slt' --conditions noise,clean

Run with the transcription environment's Python (numpy). Results: bench/results/2026-11-26-transcription-filters.txt.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from transcription_wer import VOICES, add_noise, distance, drug_names, normalise, run, speak  # noqa: E402

FILTERS = {"none": None, "highpass 100 Hz": "highpass=f=100",
           "highpass + afftdn": "highpass=f=100,afftdn=nf=-25",
           "highpass + afftdn tracking": "highpass=f=100,afftdn=nf=-25:tn=1"}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True)
    parser.add_argument("--voices", default="espeak-ng en-us,flite slt")
    parser.add_argument("--conditions", default="noise,clean")
    parser.add_argument("sets", nargs="*", default=["bench/data/vet_sentences.txt",
                                                    "bench/data/vet_sentences_doses.txt"])
    args = parser.parse_args()
    voices = [v for v in VOICES if v[0] in args.voices.split(",")]
    sentences = []
    for path in args.sets:
        sentences += [line.strip() for line in open(path) if line.strip() and not line.startswith("#")]
    drugs = drug_names("Sources/Transcription/Resources/medications.txt")
    env = dict(os.environ, DATA_DIR=tempfile.mkdtemp(prefix="bench-filters-"), LOG_LEVEL="error")
    with tempfile.TemporaryDirectory() as work:
        for voice_name, voice in voices:
            for condition in args.conditions.split(","):
                tally = {name: [0, 0, 0, 0] for name in FILTERS}  # errors, words, drugs said, drugs right
                for index, sentence in enumerate(sentences):
                    audio = os.path.join(work, f"clean-{index}.wav")
                    speak(voice, sentence, audio, work)
                    if condition == "noise":
                        noisy = os.path.join(work, f"noisy-{index}.wav")
                        add_noise(audio, noisy, work)
                        audio = noisy
                    reference = normalise(sentence)
                    for name, chain in FILTERS.items():
                        filtered = audio
                        if chain:
                            filtered = os.path.join(work, f"filtered-{index}.wav")
                            run(["ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-i", audio, "-af", chain,
                                 "-ac", "1", "-ar", "16000", "-c:a", "pcm_s16le", filtered])
                        result = subprocess.run([args.server, "transcribe", filtered, "--content-type", "audio/wav"],
                                                env=env, check=True, capture_output=True, text=True)
                        heard = normalise(json.loads(result.stdout.strip().splitlines()[-1])["text"])
                        counts = tally[name]
                        counts[0] += distance(reference, heard)
                        counts[1] += len(reference)
                        said = [w for w in reference if w in drugs]
                        counts[2] += len(said)
                        counts[3] += sum(1 for w in said if w in heard)
                for name, (errors, words, said, right) in tally.items():
                    print(f"{voice_name:18} {condition:6} {name:28} WER {errors / words:.3f}   drug names {right}/{said}",
                          flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
