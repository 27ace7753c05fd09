// The visit page: plays the recording through a playback URL from the API, seeks when a transcript segment is
// clicked (and marks the segment being heard), re-transcribes, and reloads itself once a pending transcript lands.
import { api, registerShape, toast } from "./console.js";

const visit = document.getElementById("visit");
const player = document.getElementById("visit-player");
const message = document.getElementById("audio-message");
const visitId = visit?.dataset.visitId;

async function loadAudio() {
  if (!player) return;
  try {
    const answer = await api("GET", `/api/v1/visit-transcripts/audio/playback/${visitId}`);
    player.src = answer.presigned_url;
  } catch (error) {
    message.textContent = error.message;
  }
}

// A browser's MediaRecorder writes WebM with no duration and no cues: the player shows 0:00 and cannot seek.
// Asking for a time far past the end makes the browser read the file's end (a range request) and learn its real
// length; the player then goes back to where it was, or to a segment clicked meanwhile. The stored recording is
// never rewritten: it stays byte for byte what the browser uploaded.
let learning = null; // while the length is being learned: { at, play } to apply afterwards
player?.addEventListener("loadedmetadata", () => {
  if (Number.isFinite(player.duration)) return;
  learning = { at: player.currentTime, play: false };
  const learned = () => {
    if (!Number.isFinite(player.duration)) return;
    player.removeEventListener("durationchange", learned);
    const { at, play } = learning;
    learning = null;
    player.currentTime = at;
    if (play) player.play().catch(() => {});
  };
  player.addEventListener("durationchange", learned);
  player.currentTime = 1e101;
});

/** Plays from `seconds`, after the length is learned if that is still under way. */
function playFrom(seconds) {
  if (learning) {
    learning = { at: seconds, play: true };
    return;
  }
  player.currentTime = seconds;
  player.play().catch(() => {});
}

// Transcript segments and the note's sentences both carry the second they start at; only segments are marked.
const segments = [...document.querySelectorAll("button.segment")];
for (const button of document.querySelectorAll("button[data-start]")) {
  button.addEventListener("click", async () => {
    if (!player) return;
    if (!player.src) await loadAudio();
    playFrom(Number(button.dataset.start));
  });
}
player?.addEventListener("timeupdate", () => {
  let current = null;
  for (const button of segments) if (Number(button.dataset.start) <= player.currentTime + 0.05) current = button;
  for (const button of segments) button.classList.toggle("current", button === current);
});
// A playback URL lives 15 minutes: ask for a fresh one if the player's has expired.
player?.addEventListener("error", () => { if (player.src) { player.removeAttribute("src"); loadAudio(); } }, { once: true });

document.getElementById("retranscribe")?.addEventListener("click", async (event) => {
  const button = event.currentTarget;
  button.disabled = true;
  try {
    await api("POST", button.dataset.path);
    toast("Transcription started");
    visit.dataset.state = "processing";
    follow();
  } catch (error) {
    toast(error.message, true);
    button.disabled = false;
  }
});

/** While the transcript is pending, ask the API every 3 s; reload once it is there (the page is server-rendered). */
function follow() {
  const check = async () => {
    try {
      const answer = await api("GET", `/api/v1/visit-transcripts/${visitId}`);
      if (answer.state === "processed" || answer.state === "failed") { location.reload(); return; }
    } catch { /* try again */ }
    setTimeout(check, 3000);
  };
  setTimeout(check, 3000);
}

if (visit) {
  loadAudio();
  if (visit.dataset.state === "processing" || visit.dataset.state === "new") follow();
}

// "Correct the note": the form's fields become the JSON of PUT …/note (NoteCorrectionForm). Every vital is sent
// (empty = not measured, null), the medication list whole (rows without a drug are left out), the follow-up as
// null when no time is given.
registerShape("clinical-note", (_, form) => {
  const part = (root, name) => root.querySelector(`[data-part="${name}"]`)?.value.trim() ?? "";
  const note = { sections: {}, vitals: {}, medications: [] };
  for (const area of form.querySelectorAll("[data-section-key]")) note.sections[area.dataset.sectionKey] = area.value;
  for (const row of form.querySelectorAll("[data-vital]")) {
    const value = part(row, "value");
    note.vitals[row.dataset.vital] = value === "" ? null : { value: Number(value), unit: part(row, "unit") };
  }
  for (const row of form.querySelectorAll("[data-medication]")) {
    if (!part(row, "name")) continue;
    const medication = { name: part(row, "name") };
    for (const name of ["brand", "unit", "route", "frequency", "duration"]) {
      if (part(row, name)) medication[name] = part(row, name);
    }
    for (const name of ["dose", "dose_max"]) if (part(row, name)) medication[name] = Number(part(row, name));
    note.medications.push(medication);
  }
  const followUp = form.querySelector("[data-follow-up]");
  const days = part(followUp, "interval_days"), weekday = part(followUp, "weekday"), date = part(followUp, "date");
  if (!days && !weekday && !date) {
    note.follow_up = null;
  } else {
    note.follow_up = {};
    if (days) note.follow_up.interval_days = Number.parseInt(days, 10);
    if (weekday) note.follow_up.weekday = weekday;
    if (date) note.follow_up.date = date;
    for (const name of ["reason", "text"]) if (part(followUp, name)) note.follow_up[name] = part(followUp, name);
  }
  return note;
});
