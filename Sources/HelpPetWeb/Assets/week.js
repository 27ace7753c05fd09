// The week calendar: an empty slot opens the booking dialog (owner search and pets from the API; by click, or by
// keyboard: arrows between slots, Enter), an appointment can be dragged to another slot (PUT appointment_date) or resized by its lower edge (PUT duration_minutes).
// Every slot carries its instant (data-at), computed by the server in the practice's zone.
import { api, showFormError, toast } from "./console.js";

const week = document.getElementById("week");
const dialog = document.getElementById("new-appointment");
const form = document.getElementById("new-appointment-form");
const slotMinutes = Number(week?.dataset.slotMinutes ?? 15);

// The page's CSP allows no inline style: rows and positions arrive as data attributes.
if (week) {
  week.style.setProperty("--rows", week.dataset.rows);
  for (const block of week.querySelectorAll(".week-appointment")) {
    block.style.setProperty("--top", block.dataset.top);
    block.style.setProperty("--span", block.dataset.span);
    block.style.setProperty("--lane", block.dataset.lane);
    block.style.setProperty("--lanes", block.dataset.lanes);
  }
}

function slotAt(x, y) {
  const element = document.elementFromPoint(x, y);
  return element?.closest?.(".slot") ?? null;
}

// --- booking in an empty slot -------------------------------------------------------------------------------
let owners = [];
week?.addEventListener("click", (event) => {
  const slot = event.target.closest(".slot");
  if (!slot || dragState?.moved) return;
  openBooking(slot);
});

// Keyboard: the slots are buttons with one Tab stop for the whole calendar (a roving tabindex, so Tab does not walk
// through 364 rows); arrows move by a row or a day, Enter or Space books there.
if (week) {
  const days = [...week.querySelectorAll(".week-day")].map((day) => [...day.querySelectorAll(".slot")]);
  for (const slot of days.flat()) {
    slot.setAttribute("role", "button");
    slot.setAttribute("aria-label", `Book at ${slot.dataset.label}`);
    slot.tabIndex = -1;
  }
  if (days[0]?.[0]) days[0][0].tabIndex = 0;
  week.addEventListener("keydown", (event) => {
    const slot = event.target.closest?.(".slot");
    if (!slot) return;
    if (event.key === "Enter" || event.key === " ") { event.preventDefault(); openBooking(slot); return; }
    const day = days.findIndex((rows) => rows.includes(slot));
    const row = days[day].indexOf(slot);
    const moves = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
    const move = moves[event.key];
    if (!move) return;
    const next = days[day + move[0]]?.[row + move[1]];
    if (!next) return;
    event.preventDefault();
    slot.tabIndex = -1;
    next.tabIndex = 0;
    next.focus();
  });
}

function openBooking(slot) {
  form.reset();
  form.querySelectorAll("[data-error-for]").forEach((slot) => (slot.textContent = ""));
  form.querySelector(".form-error").textContent = "";
  form.elements.appointment_date.value = slot.dataset.at;
  document.getElementById("new-appointment-when").textContent = slot.dataset.label;
  document.getElementById("pet-choices").innerHTML = "<legend>Pets</legend><p class=\"muted\">Choose an owner first.</p>";
  dialog.showModal();
  form.elements.owner_search.focus();
}

dialog?.querySelector("[data-close]")?.addEventListener("click", () => dialog.close());

let searchTimer;
form?.elements.owner_search.addEventListener("input", () => {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(async () => {
    const text = form.elements.owner_search.value.trim();
    const chosen = owners.find((owner) => label(owner) === text);
    if (chosen) return choose(chosen);
    if (text.length < 2) return;
    try {
      owners = await api("GET", `/api/v1/pet-owners?search=${encodeURIComponent(text)}&limit=20`);
      const list = document.getElementById("owner-options");
      list.replaceChildren(...owners.map((owner) => Object.assign(document.createElement("option"), { value: label(owner) })));
      if (owners.length === 1 && label(owners[0]) === text) choose(owners[0]);
    } catch (error) { toast(error.message, true); }
  }, 250);
});

const label = (owner) => `${owner.first_name} ${owner.last_name} <${owner.email}>`;

async function choose(owner) {
  form.elements.pet_owner_id.value = owner.id;
  const pets = await api("GET", `/api/v1/pets/owner/${owner.id}`);
  const fieldset = document.getElementById("pet-choices");
  fieldset.innerHTML = "<legend>Pets</legend>";
  for (const pet of pets) {
    const row = document.createElement("label");
    row.className = "check";
    const box = Object.assign(document.createElement("input"), { type: "checkbox", value: pet.id, name: "pet" });
    row.append(box, ` ${pet.name} (${pet.species})`);
    fieldset.append(row);
  }
  if (!form.elements.title.value) form.elements.title.value = `Appointment - ${owner.last_name}`;
}

form?.addEventListener("submit", async (event) => {
  event.preventDefault();
  form.querySelectorAll("[data-error-for]").forEach((slot) => (slot.textContent = ""));
  const body = {
    practice_id: form.elements.practice_id.value,
    pet_owner_id: form.elements.pet_owner_id.value,
    appointment_date: form.elements.appointment_date.value,
    title: form.elements.title.value,
    appointment_type: form.elements.appointment_type.value,
    duration_minutes: Number.parseInt(form.elements.duration_minutes.value, 10),
    pet_ids: [...form.querySelectorAll('input[name="pet"]:checked')].map((box) => box.value),
  };
  if (form.elements.assigned_vet_user_id.value) body.assigned_vet_user_id = form.elements.assigned_vet_user_id.value;
  if (!body.pet_owner_id) { form.querySelector('[data-error-for="owner_search"]').textContent = "Choose an owner from the list"; return; }
  try {
    await api("POST", "/api/v1/appointments", body);
    dialog.close();
    location.reload();
  } catch (error) {
    showFormError(form, error);
  }
});

// --- moving and resizing by drag ---------------------------------------------------------------------------
let dragState = null;

week?.addEventListener("pointerdown", (event) => {
  const block = event.target.closest(".week-appointment");
  if (!block || event.button !== 0) return;
  const resizing = event.target.classList.contains("resize");
  // No native drag of the link or text selection: they would cancel the pointer stream mid-drag.
  event.preventDefault();
  dragState = { block, resizing, startY: event.clientY, moved: false, pointer: event.pointerId };
  block.setPointerCapture(event.pointerId);
});

week?.addEventListener("pointercancel", () => {
  if (dragState?.moved) location.reload();
  dragState = null;
});

week?.addEventListener("pointermove", (event) => {
  if (!dragState) return;
  const dy = event.clientY - dragState.startY;
  if (Math.abs(dy) > 4 || dragState.moved) {
    dragState.moved = true;
    dragState.block.classList.add("dragging");
    if (dragState.resizing) {
      const rowHeight = dragState.block.parentElement.querySelector(".slot").getBoundingClientRect().height;
      const span = Math.max(1, Math.round(Number(dragState.block.dataset.duration) / slotMinutes + dy / rowHeight));
      dragState.block.style.setProperty("--span", span);
      dragState.span = span;
    } else {
      dragState.block.style.translate = `0 ${dy}px`;
    }
  }
});

week?.addEventListener("pointerup", async (event) => {
  const state = dragState;
  if (!state) return;
  setTimeout(() => { dragState = null; }, 0);
  if (!state.moved) return;
  event.preventDefault();
  const id = state.block.dataset.appointment;
  let body;
  if (state.resizing) {
    body = { duration_minutes: state.span * slotMinutes };
  } else {
    state.block.style.visibility = "hidden";
    const rect = state.block.getBoundingClientRect();
    const slot = slotAt(event.clientX, rect.top + 2);
    state.block.style.visibility = "";
    if (!slot) { location.reload(); return; }
    body = { appointment_date: slot.dataset.at };
  }
  try {
    await api("PUT", `/api/v1/appointments/${id}`, body);
    location.reload();
  } catch (error) {
    toast(error.message, true);
    setTimeout(() => location.reload(), 1500);
  }
});

// A click that ended a drag must not follow the appointment's link.
week?.addEventListener("click", (event) => {
  if (event.target.closest(".week-appointment") && dragState?.moved) event.preventDefault();
}, true);
