// Sending one stored recording: initiate → presigned POST straight to storage (every `upload_fields` entry, then the
// file, as seed 002) → complete. Each step is safe to repeat, so a failure anywhere is simply retried later; the
// recording leaves the vault only once `complete` answered.
import { api, ApiError } from "./console.js";

const INITIATE = "/api/v1/visit-transcripts/audio/upload/initiate";

/** A failure that retrying cannot fix (the API refused the request itself): the recording stays in the vault. */
export class PermanentUploadError extends Error {}

export class StorageUploadError extends Error {
  constructor(status, text) {
    super(status === 0 ? "Storage could not be reached" : `Storage answered ${status}`);
    this.status = status;
    this.text = text;
  }
}

function fileName(recording) {
  const stamp = new Date(recording.startedAt).toISOString().replace(/[-:]/g, "").replace(/\..*/, "");
  const pet = recording.petName.toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_|_$/g, "") || "pet";
  return `appointment_${recording.appointmentId.slice(0, 8)}_pet_${pet}_${stamp}.${recording.extension}`;
}

/** The presigned POST with upload progress (fetch has none): fields first, the file last. */
function postToStorage(answer, blob, name, onProgress) {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    for (const [key, value] of Object.entries(answer.upload_fields)) form.append(key, value);
    form.append("file", blob, name);
    const xhr = new XMLHttpRequest();
    xhr.open("POST", answer.upload_url);
    xhr.upload.onprogress = (event) => { if (event.lengthComputable) onProgress(event.loaded / event.total); };
    xhr.onload = () => (xhr.status >= 200 && xhr.status < 300
      ? resolve() : reject(new StorageUploadError(xhr.status, xhr.responseText)));
    xhr.onerror = () => reject(new StorageUploadError(0, ""));
    xhr.ontimeout = () => reject(new StorageUploadError(0, "timeout"));
    xhr.send(form);
  });
}

function isPermanent(error) {
  if (!(error instanceof ApiError)) return false;
  // 408/429 and 5xx are worth retrying; 401/403 wait for a new sign-in (kept, offered again); the rest are final.
  return error.status >= 400 && error.status < 500 && ![408, 409, 429].includes(error.status);
}

async function complete(recording, blob) {
  return api("POST", `/api/v1/visit-transcripts/audio/upload/complete/${recording.visitId}`, {
    file_size_bytes: blob.size,
    duration_seconds: recording.durationMs > 0 ? Math.round(recording.durationMs / 100) / 10 : null,
    device_metadata: { client: "helppet-clinic-console", mime_type: recording.mimeType, user_agent: navigator.userAgent.slice(0, 300) },
  });
}

/** One attempt. `hooks`: onBlob(blob), onProgress(0…1), onPhase(text). Resolves with the completed visit. */
export async function sendOnce(vault, recording, hooks) {
  const blob = await vault.blob(recording);
  if (blob.size === 0) throw new PermanentUploadError("The recording is empty (no audio reached this browser).");
  await hooks.onBlob?.(blob);

  // An earlier attempt posted the file and then lost the answer: complete finds it (and is idempotent).
  if (recording.visitId && recording.postedKey) {
    try {
      const visit = await complete(recording, blob);
      if (visit?.metadata?.s3_key === recording.postedKey) return visit;
    } catch (error) {
      // 409: not landed (initiate below issues a fresh URL); 404: the reservation was cleared, start over.
      if (!(error instanceof ApiError) || ![404, 409].includes(error.status)) throw error;
      if (error.status === 404) { recording.visitId = null; recording.postedKey = null; }
    }
  }

  hooks.onPhase?.("Preparing upload…");
  const body = {
    pet_id: recording.petId, appointment_id: recording.appointmentId, filename: fileName(recording),
    content_type: recording.contentType, replace_existing: Boolean(recording.replace),
  };
  if (recording.durationMs > 0) body.estimated_duration_seconds = Math.max(0.1, recording.durationMs / 1000);
  if (recording.consent) body.owner_consent_confirmed = true;
  let answer;
  try {
    answer = await api("POST", INITIATE, body);
  } catch (error) {
    // Someone (another tab, the iPhone app) completed a recording for this pet meanwhile: ours replaces it, and
    // theirs is kept in previous_recordings, so nothing is lost either way.
    if (error instanceof ApiError && error.status === 409 && error.body?.visit_id && !body.replace_existing) {
      recording.replace = true;
      await vault.put(recording);
      answer = await api("POST", INITIATE, { ...body, replace_existing: true });
    } else {
      if (isPermanent(error)) throw new PermanentUploadError(error.message);
      throw error;
    }
  }
  recording.visitId = answer.visit_id;
  recording.postedKey = answer.s3_key;
  await vault.put(recording);

  hooks.onPhase?.("Uploading…");
  await postToStorage(answer, blob, fileName(recording), (fraction) => hooks.onProgress?.(fraction));
  hooks.onProgress?.(1);
  hooks.onPhase?.("Finishing…");
  const visit = await complete(recording, blob);
  await vault.remove(recording.id);
  return visit;
}

/** Retries with backoff (2 s doubling to 30 s, at once when the browser comes back online) until `complete`
 *  succeeded or a permanent refusal; never deletes anything itself. `shouldStop()` ends the loop early. */
export async function sendWithRetry(vault, recording, hooks, shouldStop = () => false) {
  let delay = 2000;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await sendOnce(vault, recording, hooks);
    } catch (error) {
      if (error instanceof PermanentUploadError) throw error;
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
        throw new PermanentUploadError(`${error.message}. Sign in again: the recording is kept in this browser.`);
      }
      recording.attempts = attempt;
      recording.lastError = error.message;
      await vault.put(recording).catch(() => {});
      hooks.onRetry?.(error, delay, attempt);
      await waitOnline(delay);
      if (shouldStop()) throw error;
      delay = Math.min(delay * 2, 30000);
    }
  }
}

function waitOnline(ms) {
  return new Promise((resolve) => {
    const finish = () => { clearTimeout(timer); window.removeEventListener("online", finish); resolve(); };
    const timer = setTimeout(finish, ms);
    window.addEventListener("online", finish);
  });
}
