// Shared by both consoles: JSON calls to the product's API with the session cookie and the CSRF token, forms
// that show the API's messages next to their fields, a toast, and polling with ETag.
const csrf = () => document.querySelector('meta[name="csrf-token"]')?.content ?? "";

export class ApiError extends Error {
  constructor(status, message, body) { super(message); this.status = status; this.body = body; }
}

/** The message of an error body of either product ({"detail": ...} or {"error": ...}). */
export function messageOf(body, status) {
  if (!body) return `Request failed (${status})`;
  const detail = body.detail ?? body.error ?? body.message;
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) return detail.map((d) => d.msg ?? JSON.stringify(d)).join("; ");
  return `Request failed (${status})`;
}

export async function api(method, path, body) {
  const headers = { "X-CSRF-Token": csrf(), Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method, headers, credentials: "same-origin", body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed = null;
  try { parsed = text ? JSON.parse(text) : null; } catch { parsed = null; }
  if (!response.ok) throw new ApiError(response.status, messageOf(parsed, response.status), parsed);
  return parsed;
}

export function toast(message, bad = false) {
  const box = document.getElementById("toast");
  if (!box) return;
  box.textContent = message;
  box.classList.toggle("bad", bad);
  box.classList.add("show");
  clearTimeout(box._timer);
  box._timer = setTimeout(() => box.classList.remove("show"), bad ? 6000 : 3000);
}

/** The fields a validation message names, in either product's words: FastAPI-style `loc`; HelpPet's
 *  "weight must be …" (the field leads the message); AutoDetail's "Invalid field: name (…)" and
 *  "Missing required fields: a, b". */
function fieldsOf(form, detail, message) {
  const loc = detail?.loc;
  if (Array.isArray(loc) && loc.length) return [String(loc[loc.length - 1])];
  const invalid = /^Invalid field: ([\w.]+) \(/.exec(message);
  if (invalid) return [invalid[1]];
  const missing = /^Missing required fields: (.+)$/.exec(message);
  if (missing) return missing[1].split(",").map((name) => name.trim());
  const first = String(message).split(/[\s:]/)[0];
  return form.querySelector(`[data-error-for="${CSS.escape(first)}"]`) ? [first] : [];
}

/** Puts an API error's message next to the field it names (or the nearest enclosing name: `workingHours.mon.close`
 *  → `workingHours.mon` → `workingHours`), else in the form's general message place, else in a toast. */
export function showFormError(form, error) {
  const details = Array.isArray(error.body?.detail) ? error.body.detail : [null];
  let placed = false;
  for (const detail of details) {
    const message = detail?.msg ?? error.message;
    for (const name of fieldsOf(form, detail, message)) {
      for (let candidate = name; candidate && !placed;
        candidate = candidate.includes(".") ? candidate.slice(0, candidate.lastIndexOf(".")) : "") {
        const slot = form.querySelector(`[data-error-for="${CSS.escape(candidate)}"]`);
        if (slot) { slot.textContent = message; placed = true; }
      }
    }
  }
  if (!placed) {
    const general = form.querySelector(".form-error");
    if (general) general.textContent = error.message; else toast(error.message, true);
  }
}

/** Named reshapings of a form's JSON before it is sent (`data-shape="name"`), registered by page modules. */
const shapes = {};
export function registerShape(name, reshape) { shapes[name] = reshape; }

/** Reads a form into JSON: `data-type="number|integer|boolean|json|lines|datetime"` converts a field; empty → omitted,
 *  unless `data-null-when-empty` asks for null. */
export function formJSON(form) {
  const body = {};
  for (const element of form.elements) {
    if (!element.name || element.name === "_csrf" || element.disabled) continue;
    if (element.type === "checkbox") { body[element.name] = element.checked; continue; }
    let value = element.value;
    if (value === "") { if (element.dataset.nullWhenEmpty !== undefined) body[element.name] = null; continue; }
    switch (element.dataset.type) {
      case "number": value = Number(value); break;
      case "integer": value = Number.parseInt(value, 10); break;
      case "boolean": value = value === "true"; break;
      case "json": value = JSON.parse(value); break;
      case "lines": value = value.split("\n").map((line) => line.trim()).filter(Boolean); break;
      case "datetime": value = new Date(value).toISOString(); break;
    }
    body[element.name] = value;
  }
  return body;
}

/** `<form data-api="POST /api/v1/pets" data-then="/clinic/pets/{id}">`: submits as JSON (reshaped by
 *  `data-shape`), shows the API's message next to the field it names, then follows `data-then` ({id} is the
 *  answer's id), or shows `data-done` and sends an `api:done` event with the answer. */
export function bindApiForms(root = document) {
  for (const form of root.querySelectorAll("form[data-api]")) {
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const [method, path] = form.dataset.api.split(" ");
      for (const slot of form.querySelectorAll("[data-error-for]")) slot.textContent = "";
      const general = form.querySelector(".form-error");
      if (general) general.textContent = "";
      const submit = form.querySelector('[type="submit"]');
      if (submit) submit.disabled = true;
      try {
        let body = formJSON(form);
        if (form.dataset.shape) body = shapes[form.dataset.shape](body, form);
        const answer = await api(method, path, method === "DELETE" ? undefined : body);
        if (form.dataset.then) {
          location.href = form.dataset.then.replace("{id}", answer?.id ?? "");
          return;
        }
        toast(form.dataset.done ?? "Saved");
        form.dispatchEvent(new CustomEvent("api:done", { detail: answer }));
      } catch (error) {
        showFormError(form, error);
      } finally {
        if (submit) submit.disabled = false;
      }
    });
  }
}

/** Calls `onChange(text)` whenever the resource changes, asking every `seconds` with If-None-Match. */
export function poll(url, seconds, onChange, initialEtag = null) {
  let etag = initialEtag;
  let stopped = false;
  async function tick() {
    if (stopped) return;
    try {
      const headers = { Accept: "text/html" };
      if (etag) headers["If-None-Match"] = etag;
      const response = await fetch(url, { headers, credentials: "same-origin" });
      if (response.status === 200) {
        etag = response.headers.get("ETag");
        onChange(await response.text());
      } else if (response.status === 401) {
        stopped = true;
        toast("Your session has ended. Sign in again.", true);
        return;
      }
    } catch { /* offline for a moment: the next tick tries again */ }
    setTimeout(tick, seconds * 1000);
  }
  setTimeout(tick, seconds * 1000);
  return () => { stopped = true; };
}

/** Buttons `data-api-action="POST /path"` with optional `data-confirm`: one call, then reload (or `data-then`). */
export function bindApiButtons(root = document) {
  for (const button of root.querySelectorAll("[data-api-action]")) {
    button.addEventListener("click", async () => {
      if (button.dataset.confirm && !confirm(button.dataset.confirm)) return;
      const [method, path] = button.dataset.apiAction.split(" ");
      button.disabled = true;
      try {
        const body = button.dataset.body ? JSON.parse(button.dataset.body) : undefined;
        await api(method, path, body);
        if (button.dataset.then) location.href = button.dataset.then; else location.reload();
      } catch (error) {
        toast(error.message, true);
        button.disabled = false;
      }
    });
  }
}

bindApiForms();
bindApiButtons();
