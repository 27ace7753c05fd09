// The appointment page: notes and reschedule forms (console.js sends them to the API; here only the practice's
// wall time becomes an instant), the recording-consent question, one PetRecorder per pet, and the recordings this
// browser still holds from an earlier visit of the page (closed tab, crash, offline).
import { registerShape, toast } from "./console.js";
import { canRecord, PetRecorder } from "./recorder.js";
import { Vault } from "./recorder-vault.js";

/** Offset (ms) of `zone` from UTC at instant `ms`. */
function zoneOffset(ms, zone) {
  const parts = Object.fromEntries(new Intl.DateTimeFormat("en-US", {
    timeZone: zone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit",
    hour: "2-digit", minute: "2-digit", second: "2-digit",
  }).formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
  const asUTC = Date.UTC(+parts.year, +parts.month - 1, +parts.day, +parts.hour, +parts.minute, +parts.second);
  return asUTC - Math.floor(ms / 1000) * 1000;
}

/** "2025-01-15T09:00" on the practice's clock → ISO instant (DST-correct: the offset is checked at the result). */
export function practiceInstant(local, zone) {
  const [date, time] = local.split("T");
  const [y, m, d] = date.split("-").map(Number);
  const [hh, mm] = time.split(":").map(Number);
  const wall = Date.UTC(y, m - 1, d, hh, mm);
  let guess = wall - zoneOffset(wall, zone);
  guess = wall - zoneOffset(guess, zone);
  return new Date(guess).toISOString().replace(/\.\d{3}Z$/, "Z");
}

registerShape("appointmentReschedule", (body, form) => {
  if (body.appointment_date) body.appointment_date = practiceInstant(body.appointment_date, form.dataset.zone);
  return body;
});
registerShape("appointmentNotes", (body) => ({ notes: body.notes ?? null }));
for (const f of document.querySelectorAll("form[data-api]")) {
  f.addEventListener("api:done", () => setTimeout(() => location.reload(), 600));
}

const section = document.getElementById("recorders");
if (section) boot(section);

async function boot(section) {
  const cards = [...section.querySelectorAll(".recorder")];
  if (!canRecord()) {
    section.querySelector(".recorder-support").hidden = false;
    for (const card of cards) card.querySelector('[data-action="record"]').disabled = true;
    return;
  }
  let vault;
  try {
    vault = await Vault.open();
  } catch (error) {
    // Without the vault a recording could be lost, so the page does not record at all.
    section.querySelector(".recorder-support").hidden = false;
    section.querySelector(".recorder-support").textContent = `Recording is off: ${error.message}`;
    for (const card of cards) card.querySelector('[data-action="record"]').disabled = true;
    return;
  }
  let recordingNow = 0;
  const page = {
    vault,
    appointmentId: section.dataset.appointmentId,
    appointmentTitle: section.dataset.appointmentTitle,
    zone: section.dataset.practiceZone,
    visitLink: section.dataset.visitLink,
    askConsent: () => askConsent(section),
    announce: (text) => announce(section, text),
    hold,
    recordingCount(delta) { recordingNow += delta; },
  };
  window.addEventListener("beforeunload", (event) => {
    if (recordingNow > 0) { event.preventDefault(); event.returnValue = ""; }
  });
  const recorders = new Map(cards.map((card) => [card.dataset.petId, new PetRecorder(card, page)]));
  section.dataset.ready = "true";
  await resumeUnsent(vault, page, recorders);
}

/** Recordings of this appointment left in the vault. A stopped one (its upload had begun) is sent again at once;
 *  one cut off while recording is offered, so the vet decides. One held by another open tab is left to it. */
async function resumeUnsent(vault, page, recorders) {
  const unsent = (await vault.all()).filter((r) => r.appointmentId === page.appointmentId)
    .sort((a, b) => a.startedAt - b.startedAt);
  for (const recording of unsent) {
    const recorder = recorders.get(recording.petId);
    if (!recorder) continue;
    const release = await hold(recording.id, true);
    if (!release) continue;
    if (recording.status === "stopped") {
      recorder.releaseLock = release;
      toast(`Sending the unsent recording of ${recording.petName}`);
      recorder.send(recording);
    } else {
      release();
      recorder.offer(recording);
    }
  }
}

/** A Web Lock per recording: resolves to its release function, or null when `ifAvailable` and another tab holds it. */
function hold(id, ifAvailable = false) {
  if (!navigator.locks) return Promise.resolve(() => {});
  return new Promise((resolve) => {
    navigator.locks.request(`helppet-recording:${id}`, { ifAvailable }, (lock) => {
      if (!lock) { resolve(null); return undefined; }
      return new Promise((release) => resolve(release));
    });
  });
}

/** Before the appointment's first recording: did the owner agree? Resolves {confirmed} or null (cancelled). */
function askConsent(section) {
  if (section.dataset.consentGiven === "true" || section.dataset.consentSkipped === "true") {
    return Promise.resolve({ confirmed: section.dataset.consentConfirmedHere === "true" });
  }
  const dialog = document.getElementById("consent-dialog");
  if (!dialog?.showModal) return Promise.resolve({ confirmed: false });
  const agreed = dialog.querySelector("#consent-agreed");
  const confirmButton = dialog.querySelector('[data-role="consent-confirm"]');
  agreed.checked = false;
  confirmButton.disabled = true;
  agreed.onchange = () => { confirmButton.disabled = !agreed.checked; };
  dialog.returnValue = "";
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => {
      if (dialog.returnValue === "confirm" && agreed.checked) {
        section.dataset.consentGiven = "true";
        section.dataset.consentConfirmedHere = "true";
        resolve({ confirmed: true });
      } else if (dialog.returnValue === "skip" && section.dataset.consentRequired !== "true") {
        section.dataset.consentSkipped = "true";
        resolve({ confirmed: false });
      } else {
        resolve(null);
      }
    }, { once: true });
  });
}

/** Says `text` through the page's status region (role=status, polite). Emptied first, so that the same words
 *  twice in a row (two pets paused one after the other) are still announced. */
function announce(section, text) {
  const region = section.querySelector("#recorder-status");
  if (!region) return;
  region.textContent = "";
  setTimeout(() => { region.textContent = text; }, 50);
}
