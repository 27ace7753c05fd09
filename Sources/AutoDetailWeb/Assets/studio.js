// The studio console's scripts. Every write is a call to /api/admin with the session cookie and CSRF token
// (console.js api()), so the page shows exactly the API's messages.
import { api, registerShape, showFormError, toast } from "./console.js";

/** Studio settings: the seven weekday rows become `workingHours` (null = closed). */
registerShape("settings", (body, form) => {
  const hours = {};
  for (const row of form.querySelectorAll("[data-day]")) {
    const day = row.dataset.day;
    const open = row.querySelector("[data-open-day]").checked;
    hours[day] = open ? { open: row.querySelector("[data-opens]").value.trim(),
      close: row.querySelector("[data-closes]").value.trim() } : null;
  }
  body.workingHours = hours;
  return body;
});

/** API keys: the full key of a new key is shown once, with a copy button. */
function bindKeyCreation() {
  const form = document.getElementById("key-create");
  if (!form) return;
  const box = document.getElementById("new-key");
  const value = document.getElementById("new-key-value");
  form.addEventListener("api:done", (event) => {
    value.textContent = event.detail.key;
    box.hidden = false;
    form.hidden = true;
    document.getElementById("copy-key").focus();
  });
  document.getElementById("copy-key").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(value.textContent);
      toast("Key copied");
    } catch {
      const range = document.createRange();
      range.selectNodeContents(value);
      getSelection().removeAllRanges();
      getSelection().addRange(range);
      toast("Select and copy the key (Ctrl+C / ⌘C)");
    }
  });
  document.getElementById("new-key-done").addEventListener("click", () => location.reload());
}

/** Week calendar: bookings are placed by their minutes since the view's start (server-computed, DST-correct);
 *  positions go through the CSSOM because the CSP forbids inline styles. */
function layoutCalendar() {
  for (const body of document.querySelectorAll("[data-cal-minutes]")) {
    body.style.setProperty("--cal-height", `${Number(body.dataset.calMinutes) * 0.9}px`);
  }
  for (const item of document.querySelectorAll("[data-cal-top]")) {
    const lanes = Number(item.dataset.calLanes) || 1;
    item.style.setProperty("--top", `${Number(item.dataset.calTop) * 0.9}px`);
    item.style.setProperty("--height", `${Math.max(Number(item.dataset.calLength) * 0.9, 18)}px`);
    item.style.setProperty("--left", `${(Number(item.dataset.calLane) / lanes) * 100}%`);
    item.style.setProperty("--width", `${100 / lanes}%`);
  }
}

/** Photo upload: presign → PUT to the presigned URL with a progress bar → link, for each chosen file. */
function bindPhotoUploads() {
  for (const form of document.querySelectorAll("form[data-photo-upload]")) {
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const input = form.querySelector('input[type="file"]');
      const bar = form.querySelector(".progress > span");
      const status = form.querySelector("[data-upload-status]");
      const submit = form.querySelector('[type="submit"]');
      const { booking, kind } = form.dataset;
      if (!input.files.length) { showFormError(form, new Error("Choose a photo first.")); return; }
      submit.disabled = true;
      try {
        const refs = [];
        for (const [index, file] of [...input.files].entries()) {
          status.textContent = `Uploading ${index + 1} of ${input.files.length}: ${file.name}`;
          const presigned = await api("POST", "/api/admin/uploads/presign", {
            appointmentId: booking, kind, filename: file.name.slice(0, 255) || "photo",
            contentType: file.type || "application/octet-stream", sizeBytes: file.size,
          });
          await put(presigned, file, (fraction) => {
            bar.style.width = `${Math.round(((index + fraction) / input.files.length) * 100)}%`;
          });
          refs.push(presigned.ref);
        }
        await api("POST", `/api/admin/appointments/${booking}/photos`, { kind, photoUrls: refs });
        bar.style.width = "100%";
        status.textContent = "Uploaded";
        location.reload();
      } catch (error) {
        status.textContent = "";
        showFormError(form, error);
        submit.disabled = false;
      }
    });
  }
}

function put(presigned, file, onProgress) {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("PUT", presigned.uploadUrl);
    // Content-Length is set by the browser from the body (scripts may not set it).
    for (const [name, value] of Object.entries(presigned.headers ?? {})) {
      if (name.toLowerCase() !== "content-length") request.setRequestHeader(name, value);
    }
    request.upload.addEventListener("progress", (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    });
    request.addEventListener("load", () => {
      if (request.status === 200) resolve();
      else {
        const code = /<Code>([^<]+)<\/Code>/.exec(request.responseText)?.[1];
        reject(new Error(`The upload was refused (${request.status}${code ? " " + code : ""}).`));
      }
    });
    request.addEventListener("error", () => reject(new Error("The upload failed: network error.")));
    request.send(file);
  });
}

/** Reschedule: the picker loads the free slots of a day (server fragment), a slot button moves the booking. */
function bindReschedule() {
  const picker = document.getElementById("reschedule");
  if (!picker) return;
  const date = picker.querySelector('input[type="date"]');
  const slots = picker.querySelector("[data-slots]");
  const message = picker.querySelector(".form-error");
  async function load() {
    message.textContent = "";
    slots.setAttribute("aria-busy", "true");
    try {
      const response = await fetch(`${picker.dataset.slotsUrl}?date=${encodeURIComponent(date.value)}`,
        { headers: { Accept: "text/html" }, credentials: "same-origin" });
      slots.innerHTML = response.ok ? await response.text() : "";
      if (!response.ok) message.textContent = "The slots could not be loaded.";
    } finally {
      slots.removeAttribute("aria-busy");
    }
  }
  date.addEventListener("change", load);
  picker.querySelector("[data-load-slots]").addEventListener("click", load);
  slots.addEventListener("click", async (event) => {
    const button = event.target.closest("button[data-start]");
    if (!button) return;
    if (!confirm(`Move the booking to ${button.dataset.label}?`)) return;
    button.disabled = true;
    try {
      await api("POST", picker.dataset.moveUrl, { startIso: button.dataset.start });
      location.reload();
    } catch (error) {
      message.textContent = error.message;
      button.disabled = false;
      load();
    }
  });
}

/** Bookings list filters: changing a select submits (a GET form, so the URL can be shared). */
function bindFilters() {
  for (const select of document.querySelectorAll("form.filters select")) {
    select.addEventListener("change", () => select.form.requestSubmit());
  }
}

bindKeyCreation();
layoutCalendar();
bindPhotoUploads();
bindReschedule();
bindFilters();
