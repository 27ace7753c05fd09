// The visit page: plays the recording through a playback URL from the API, seeks when a transcript segment is
// clicked (and marks the segment being heard), re-transcribes, and reloads itself once a pending transcript lands.
import { api, toast } from "./console.js";

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

// Transcript segments and the note's sentences both carry the second they start at; only segments are marked.
const segments = [...document.querySelectorAll("button.segment")];
for (const button of document.querySelectorAll("button[data-start]")) {
  button.addEventListener("click", async () => {
    if (!player) return;
    if (!player.src) await loadAudio();
    player.currentTime = Number(button.dataset.start);
    player.play().catch(() => {});
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
