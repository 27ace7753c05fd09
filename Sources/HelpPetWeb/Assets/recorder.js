// One pet's recorder on the appointment page: Record / Pause / Resume / Stop, a running timer and a live input
// level, then the upload with progress, the visit's state followed until it is transcribed, and playback. Every
// second of audio is in the vault (IndexedDB) before anything else happens to it.
import { api, toast } from "./console.js";
import { PermanentUploadError, sendWithRetry } from "./recorder-upload.js";

const LABELS = { none: "No recording", recording: "Recording", paused: "Paused", uploading: "Uploading",
  processing: "Processing", transcribed: "Transcribed", failed: "Failed", unsent: "Not sent yet", notes: "Notes" };
const TONES = { transcribed: "ok", notes: "ok", uploading: "info", processing: "info", recording: "bad", failed: "bad",
  unsent: "warn", paused: "warn" };

/** What the page's live region says when a pet's recorder enters a state (only on a change of state). */
const ANNOUNCED = {
  recording: (pet) => `Recording ${pet}`,
  paused: (pet) => `${pet}'s recording paused`,
  uploading: (pet) => `Uploading ${pet}'s recording`,
  processing: (pet) => `${pet}'s recording was uploaded`,
  transcribed: (pet) => `${pet}'s recording was transcribed`,
  unsent: (pet, message) => `${pet}'s recording was not sent${message ? `: ${message}` : ""}`,
  failed: (pet, message) => `${pet}'s transcription failed${message ? `: ${message}` : ""}`,
};

/** The container MediaRecorder can make here: webm/opus in Chromium and Firefox, mp4/aac in Safari. */
export function pickFormat() {
  const candidates = [
    ["audio/webm;codecs=opus", "audio/webm", "webm"], ["audio/webm", "audio/webm", "webm"],
    ["audio/mp4;codecs=mp4a.40.2", "audio/mp4", "m4a"], ["audio/mp4", "audio/mp4", "m4a"],
    ["audio/ogg;codecs=opus", "audio/ogg", "ogg"],
  ];
  for (const [mime, contentType, extension] of candidates) {
    if (MediaRecorder.isTypeSupported(mime)) return { mime, contentType, extension };
  }
  return null;
}

export function canRecord() {
  return Boolean(window.MediaRecorder && navigator.mediaDevices?.getUserMedia && window.indexedDB && pickFormat());
}

export function clock(ms) {
  const seconds = Math.floor(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

async function sha256(blob) {
  if (!crypto?.subtle) return "";
  const digest = await crypto.subtle.digest("SHA-256", await blob.arrayBuffer());
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export class PetRecorder {
  /** `page`: { vault, appointmentId, zone, visitLink, askConsent(): Promise<{consent}|null>, locks } */
  constructor(card, page) {
    this.card = card;
    this.page = page;
    this.petId = card.dataset.petId;
    this.petName = card.dataset.petName;
    this.part = (role) => card.querySelector(`[data-role="${role}"]`);
    this.button = (action) => card.querySelector(`[data-action="${action}"]`);
    this.busy = false;
    this.button("record").addEventListener("click", () => this.start());
    this.button("pause").addEventListener("click", () => this.pause());
    this.button("resume").addEventListener("click", () => this.resume());
    this.button("stop").addEventListener("click", () => this.stop());
    const state = card.dataset.state;
    if (["processing", "transcribed", "failed"].includes(state) || card.dataset.hasRecording === "true") {
      this.loadPlayback();
    }
    if (state === "processing") this.follow(card.dataset.visitId);
  }

  setState(state, message) {
    const previous = this.card.dataset.state;
    this.card.dataset.state = state;
    const spoken = ANNOUNCED[state];
    if (spoken && state !== previous) this.page.announce?.(spoken(this.petName, message));
    const badge = this.part("state");
    badge.textContent = LABELS[state] ?? state;
    badge.className = `badge ${TONES[state] ?? ""}`;
    if (message !== undefined) this.part("message").textContent = message;
  }

  show(action, visible) { this.button(action).hidden = !visible; }

  controls(mode) {
    this.show("record", mode === "idle");
    this.show("pause", mode === "recording");
    this.show("resume", mode === "paused");
    this.show("stop", mode === "recording" || mode === "paused");
    this.button("record").disabled = mode !== "idle";
    this.part("live").hidden = !(mode === "recording" || mode === "paused");
  }

  async start() {
    if (this.busy) return;
    const consent = await this.page.askConsent();
    if (!consent) return;
    this.busy = true;
    this.button("record").disabled = true;
    try {
      this.stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (error) {
      this.busy = false;
      this.button("record").disabled = false;
      this.setState(this.card.dataset.state, `No microphone: ${error.message}`);
      return;
    }
    const format = pickFormat();
    this.mediaRecorder = new MediaRecorder(this.stream, { mimeType: format.mime });
    const startedAt = Date.now();
    this.recording = {
      id: `${this.page.appointmentId}:${this.petId}:${startedAt}`, appointmentId: this.page.appointmentId,
      appointmentTitle: this.page.appointmentTitle, petId: this.petId, petName: this.petName, startedAt,
      mimeType: this.mediaRecorder.mimeType || format.mime, contentType: format.contentType,
      extension: format.extension, status: "recording", durationMs: 0,
      replace: this.card.dataset.hasRecording === "true", consent: consent.confirmed,
      visitId: null, postedKey: null, attempts: 0,
    };
    await this.page.vault.put(this.recording);
    // Held while this tab records or sends it, so another tab never offers (or sends) the same recording.
    this.releaseLock = await this.page.hold(this.recording.id);
    let seq = 0;
    this.writes = Promise.resolve();
    this.mediaRecorder.ondataavailable = (event) => {
      if (!event.data || event.data.size === 0) return;
      const n = seq++;
      this.recording.durationMs = this.elapsed();
      const snapshot = { ...this.recording };
      this.writes = this.writes.then(() => this.page.vault.addChunk(snapshot, n, event.data)).catch((error) => {
        this.part("message").textContent = `Could not save audio in this browser: ${error.message}`;
      });
    };
    this.stopped = new Promise((resolve) => { this.mediaRecorder.onstop = resolve; });
    this.accumulated = 0;
    this.segmentStart = performance.now();
    this.mediaRecorder.start(1000);
    this.startMeter();
    this.tick = setInterval(() => { this.part("timer").textContent = clock(this.elapsed()); }, 250);
    this.part("offer").hidden = true;
    this.part("player").hidden = true;
    this.controls("recording");
    this.setState("recording", "Recording… every second is saved in this browser.");
    this.page.recordingCount(+1);
    this.button("pause").focus();
  }

  elapsed() {
    return this.accumulated + (this.segmentStart === null ? 0 : performance.now() - this.segmentStart);
  }

  pause() {
    if (this.mediaRecorder?.state !== "recording") return;
    this.mediaRecorder.pause();
    this.accumulated = this.elapsed();
    this.segmentStart = null;
    this.controls("paused");
    this.setState("paused", "Paused.");
    this.button("resume").focus();
  }

  resume() {
    if (this.mediaRecorder?.state !== "paused") return;
    this.mediaRecorder.resume();
    this.segmentStart = performance.now();
    this.controls("recording");
    this.setState("recording", "Recording…");
    this.button("pause").focus();
  }

  async stop() {
    if (!this.mediaRecorder || this.mediaRecorder.state === "inactive") return;
    this.accumulated = this.elapsed();
    this.segmentStart = null;
    this.mediaRecorder.stop();
    await this.stopped;
    await this.writes;
    clearInterval(this.tick);
    this.stopMeter();
    for (const track of this.stream.getTracks()) track.stop();
    this.page.recordingCount(-1);
    this.recording.durationMs = this.accumulated;
    this.recording.status = "stopped";
    await this.page.vault.put(this.recording);
    this.part("timer").textContent = clock(this.accumulated);
    this.controls("busy");
    // The Stop button that had focus is hidden now: focus stays on this card (its status message) meanwhile.
    this.part("message").tabIndex = -1;
    this.part("message").focus();
    await this.send(this.recording);
  }

  /** Sends a stored recording (just stopped, or found unsent) until complete; the lock is already held. */
  async send(recording) {
    this.busy = true;
    // Set again once this upload is complete: until then the card must not report the previous one as done.
    delete this.card.dataset.uploadedVisit;
    this.controls("busy");
    const progress = this.part("progress");
    progress.hidden = false;
    const bar = progress.querySelector("span");
    this.setState("uploading", "Uploading…");
    try {
      const visit = await sendWithRetry(this.page.vault, recording, {
        onBlob: async (blob) => {
          // What exactly was sent, for the browser tests (and a support request): size and SHA-256.
          this.card.dataset.uploadedBytes = String(blob.size);
          this.card.dataset.uploadedSha256 = await sha256(blob);
          this.card.dataset.uploadedType = blob.type;
        },
        onProgress: (fraction) => {
          bar.style.width = `${Math.round(fraction * 100)}%`;
          progress.setAttribute("aria-valuenow", String(Math.round(fraction * 100)));
        },
        onPhase: (text) => this.setState("uploading", text),
        onRetry: (error, delay) => this.setState("unsent",
          `${error.message}. The recording is safe in this browser; retrying in ${Math.round(delay / 1000)} s.`),
      });
      this.card.dataset.visitId = visit.uuid;
      this.card.dataset.uploadedVisit = visit.uuid;
      this.card.dataset.hasRecording = "true";
      this.button("record").textContent = "Record again";
      const link = this.part("visit-link");
      link.href = this.page.visitLink.replace("{id}", visit.uuid);
      link.hidden = false;
      progress.hidden = true;
      this.setState(visit.state === "processed" ? "transcribed" : "processing", "Uploaded. Transcribing…");
      toast(`${recording.petName}'s recording was uploaded`);
      this.loadPlayback();
      this.follow(visit.uuid);
    } catch (error) {
      const reason = error instanceof PermanentUploadError ? error.message : `Upload stopped: ${error.message}`;
      this.setState("unsent", reason);
      this.offer(recording, reason);
    } finally {
      this.busy = false;
      this.controls("idle");
      this.releaseLock?.();
      this.releaseLock = null;
      // Stop hid the button that had focus: a keyboard user who is still on this card lands on its Record button
      // (never pulled away from another card or field they moved to meanwhile).
      const focus = document.activeElement;
      if (!focus || focus === document.body || this.card.contains(focus)) this.button("record").focus();
    }
  }

  /** An unsent recording found in the vault: "Upload the unsent recording of Bella from 10:42". */
  offer(recording, note = "") {
    const box = this.part("offer");
    const time = new Intl.DateTimeFormat([], { timeZone: this.page.zone, hour: "2-digit", minute: "2-digit" })
      .format(new Date(recording.startedAt));
    box.replaceChildren();
    const text = document.createElement("p");
    text.textContent = `Unsent recording of ${recording.petName} from ${time} (${clock(recording.durationMs)}).` +
      (note ? ` ${note}` : "");
    const upload = document.createElement("button");
    upload.className = "primary";
    upload.dataset.action = "upload-unsent";
    upload.textContent = `Upload the unsent recording of ${recording.petName} from ${time}`;
    const discard = document.createElement("button");
    discard.className = "danger";
    discard.dataset.action = "discard-unsent";
    discard.textContent = "Discard it";
    upload.addEventListener("click", async () => {
      const release = await this.page.hold(recording.id, true);
      if (!release) { toast("Another tab is already sending this recording."); return; }
      this.releaseLock = release;
      box.hidden = true;
      recording.status = "stopped";
      await this.page.vault.put(recording);
      await this.send(recording);
    });
    discard.addEventListener("click", async () => {
      if (!confirm(`Delete the unsent recording of ${recording.petName} from ${time}? It cannot be recovered.`)) return;
      await this.page.vault.remove(recording.id);
      box.hidden = true;
      this.setState(this.card.dataset.hasRecording === "true" ? "processing" : "none", "Unsent recording discarded.");
    });
    const row = document.createElement("div");
    row.className = "row";
    row.append(upload, discard);
    box.append(text, row);
    box.hidden = false;
    if (!this.busy) this.setState("unsent");
  }

  /** Follows the visit through processing → transcribed without a reload (the API's visit, every 3 s). */
  follow(visitId) {
    clearTimeout(this.following);
    const check = async () => {
      try {
        const visit = await api("GET", `/api/v1/visit-transcripts/${visitId}`);
        if (visit.state === "processed") {
          const empty = visit.metadata?.transcription_note === "no_speech";
          this.setState("transcribed", empty ? "No speech was found in the recording." : "Transcribed.");
          return;
        }
        if (visit.state === "failed") {
          this.setState("failed", visit.metadata?.transcription_error ?? "Transcription failed.");
          return;
        }
        if (visit.state === "processing") {
          const progress = visit.metadata?.transcription_progress;
          this.setState("processing", typeof progress === "number" && progress > 0
            ? `Transcribing… ${Math.round(progress * 100)}%` : "Transcribing…");
        }
      } catch { /* offline for a moment: ask again */ }
      this.following = setTimeout(check, 3000);
    };
    this.following = setTimeout(check, 1500);
  }

  async loadPlayback() {
    const visitId = this.card.dataset.visitId;
    if (!visitId) return;
    try {
      const answer = await api("GET", `/api/v1/visit-transcripts/audio/playback/${visitId}`);
      const player = this.part("player");
      player.src = answer.presigned_url;
      player.hidden = false;
    } catch { /* no audio yet (a replaced recording not uploaded): nothing to play */ }
  }

  startMeter() {
    try {
      this.audioContext = new AudioContext();
      const source = this.audioContext.createMediaStreamSource(this.stream);
      const analyser = this.audioContext.createAnalyser();
      analyser.fftSize = 1024;
      source.connect(analyser);
      const samples = new Uint8Array(analyser.fftSize);
      const meter = this.part("level");
      const draw = () => {
        analyser.getByteTimeDomainData(samples);
        let sum = 0;
        for (const sample of samples) { const v = (sample - 128) / 128; sum += v * v; }
        // RMS scaled so speech fills most of the bar.
        meter.value = Math.min(1, Math.sqrt(sum / samples.length) * 4);
        this.meterFrame = requestAnimationFrame(draw);
      };
      draw();
    } catch { /* the level is a help, not a requirement */ }
  }

  stopMeter() {
    cancelAnimationFrame(this.meterFrame);
    this.part("level").value = 0;
    this.audioContext?.close().catch(() => {});
    this.audioContext = null;
  }
}
