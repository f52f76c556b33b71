// The score sheet: the ± and "went out" helpers of the round form, more player fields on the
// new-sheet form, and live updates of the sheet from other phones.
import { follow } from "./live.js";
import { chipAction, drop, flush, handAction, keep, pending, sendAnyway } from "./outbox.js";
import { onPage } from "./site.js";

let live = null; // the connection of the sheet on screen

function toggleSign(input) {
  const value = input.value.trim().replace("−", "-");
  input.value = value.startsWith("-") ? value.slice(1) : `-${value.replace(/^\+/, "")}`;
  input.dispatchEvent(new Event("input", { bubbles: true }));
  input.focus();
}

function setUpRoundForm(form) {
  form.dataset.ready = "1";
  for (const button of form.querySelectorAll("[data-sign-for]")) {
    button.hidden = false;
    button.addEventListener("click", () => toggleSign(document.getElementById(button.dataset.signFor)));
  }
  const markOut = () => {
    for (const entry of form.querySelectorAll(".entry")) {
      const radio = entry.querySelector('input[name="out"]');
      entry.classList.toggle("is-out", radio.checked);
      const input = entry.querySelector('input[type="text"]');
      // Whoever went out has no cards left: 0, unless a credit was typed.
      if (radio.checked && !(Number.parseInt(input.value.replace("−", "-"), 10) < 0)) input.value = "0";
    }
  };
  for (const radio of form.querySelectorAll('input[name="out"]')) radio.addEventListener("change", markOut);
  form.addEventListener("input", () => (form.dataset.dirty = "1"));
  form.addEventListener("submit", () => delete form.dataset.dirty);
}

function setUpHandForm(form) {
  form.dataset.ready = "1";
  const input = form.querySelector('input[name="points"]');
  for (const button of form.querySelectorAll("[data-sign-for]")) {
    button.hidden = false;
    button.addEventListener("click", () => toggleSign(input));
  }
  const out = form.querySelector('input[name="out"]');
  out.addEventListener("change", () => {
    if (out.checked && !(Number.parseInt(input.value.replace("−", "-"), 10) < 0)) input.value = "0";
  });
  form.addEventListener("input", () => (form.dataset.dirty = "1"));
  form.addEventListener("submit", () => delete form.dataset.dirty);
}

function setUpNewSheet(form) {
  form.dataset.ready = "1";
  const other = form.querySelector("#limit_other");
  other.addEventListener("input", () => {
    if (other.value.trim()) form.querySelector('input[name="limit"][value="other"]').checked = true;
  });
  // Choosing a limit means the game ends by points; typing a number of rounds, by rounds.
  const rounds = form.querySelector("#rounds");
  rounds.addEventListener("input", () => {
    if (rounds.value.trim()) form.querySelector('input[name="end"][value="rounds"]').checked = true;
  });
  for (const input of form.querySelectorAll('input[name="limit"], #limit_other')) {
    input.addEventListener("input", () => {
      const end = form.querySelector('input[name="end"]:checked');
      if (end && end.value === "rounds") form.querySelector('input[name="end"][value="reach"]').checked = true;
    });
  }
  const list = form.querySelector("[data-player-fields]");
  const button = form.querySelector("[data-add-player]");
  const max = Number(list.dataset.max);
  button.hidden = false;
  button.addEventListener("click", () => {
    const items = list.querySelectorAll("li");
    if (items.length >= max) return;
    const item = items[items.length - 1].cloneNode(true);
    const n = items.length + 1;
    const input = item.querySelector("input");
    const label = item.querySelector("label");
    const text = input.dataset.placeholder.replace("{n}", n);
    input.id = `player-${n}`;
    input.value = "";
    input.placeholder = text;
    label.htmlFor = input.id;
    label.textContent = text;
    list.append(item);
    input.focus();
    button.hidden = n >= max;
  });
}

function isDirty(part) {
  const changedSelect = (form) =>
    [...form.querySelectorAll("select")].some((select) => [...select.options].some((o) => o.selected !== o.defaultSelected));
  return [...part.querySelectorAll("form")].some(
    (form) =>
      form.dataset.dirty ||
      changedSelect(form) ||
      [...form.querySelectorAll('input[type="text"]')].some((i) => i.value && i.defaultValue !== i.value),
  );
}

async function refresh(sheet) {
  const response = await fetch(location.pathname, { headers: { Accept: "text/html" }, cache: "no-store" });
  if (!response.ok) return;
  const page = new DOMParser().parseFromString(await response.text(), "text/html");
  const fresh = page.getElementById("sheet");
  if (!fresh) return;
  let kept = false;
  const freshIds = new Set([...fresh.querySelectorAll("[data-live-part]")].map((part) => part.id));
  for (const part of fresh.querySelectorAll("[data-live-part]")) {
    const old = document.getElementById(part.id);
    if (old && isDirty(old)) {
      // Never throw away what someone is typing: keep the form, say that the sheet moved on.
      const stale = old.querySelector("[data-stale]");
      if (stale) stale.hidden = false;
      kept = true;
      continue;
    }
    if (old) old.replaceWith(part);
    else if (part.id === "entry") document.getElementById("history")?.before(part);
    window.htmx?.process(part);
  }
  // Parts that no longer exist (the round form once the game is over) go, unless in use.
  for (const old of sheet.querySelectorAll("[data-live-part]")) {
    if (!freshIds.has(old.id) && !isDirty(old)) old.remove();
  }
  sheet.dataset.version = fresh.dataset.version;
  // "Round 3 saved" is old news once someone else has changed the sheet since.
  for (const notice of document.querySelectorAll(".notice[data-version]")) {
    if (Number(notice.dataset.version) < Number(fresh.dataset.version)) notice.remove();
  }
  if (kept) sheet.dataset.behind = "1";
  document.getElementById("live-status").textContent = sheet.dataset.msgUpdated;
  for (const part of document.querySelectorAll("[data-live-part]")) setUp(part);
}

function watch(sheet) {
  if (live && live.path === sheet.dataset.live) return;
  live?.stop();
  const badge = sheet.querySelector("[data-connection]");
  live = follow(sheet.dataset.live, {
    onVersion(version) {
      const current = document.getElementById("sheet");
      if (current && version > Number(current.dataset.version)) refresh(current);
    },
    onState(state) {
      if (state === "open") sendWaiting();
      const current = document.getElementById("sheet")?.querySelector("[data-connection]") || badge;
      current.hidden = state === "open";
      current.textContent = state === "open" ? "" : sheet.dataset.msgOffline;
    },
  });
}

// -- Offline: the service worker, and entries kept until the connection returns -------------

function registerWorker() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker
    .register("/sw.js", { scope: "/" })
    .then(() => navigator.serviceWorker.ready)
    .then((registration) => {
      // Keep this page and every file it loaded, so that it opens again without a connection.
      const files = performance.getEntriesByType("resource").map((entry) => entry.name);
      registration.active?.postMessage({ keep: [location.pathname, ...files] });
    })
    .catch(() => {});
}

function showOutbox() {
  const sheet = document.getElementById("sheet");
  const box = document.querySelector("[data-outbox]");
  if (!sheet || !box || !sheet.dataset.api) return;
  const items = pending(sheet.dataset.api);
  const list = box.querySelector("ul");
  list.replaceChildren();
  box.hidden = items.length === 0;
  for (const item of items) {
    const line = document.createElement("li");
    line.className = `outbox-item is-${item.state}`;
    line.dataset.outboxItem = item.state;
    const text = document.createElement("span");
    text.textContent = item.label;
    const badge = document.createElement("span");
    badge.className = "badge";
    badge.textContent = box.dataset[`msg${item.state[0].toUpperCase()}${item.state.slice(1)}`] || item.state;
    line.append(text, " ", badge);
    if (item.state !== "waiting") {
      const why = document.createElement("p");
      why.className = "field-error";
      why.setAttribute("role", "alert");
      why.textContent = item.message || "";
      line.append(why);
      if (item.state === "conflict") {
        line.append(outboxButton("secondary", box.dataset.msgSendAnyway, () => {
          sendAnyway(item.id);
          sendWaiting();
        }), " ");
      }
      line.append(outboxButton("danger", box.dataset.msgDrop, () => {
        drop(item.id);
        showOutbox();
      }));
    }
    list.append(line);
  }
}

/** A button of an entry waiting in the outbox (send it anyway, forget it). */
function outboxButton(className, text, onClick) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = className;
  button.textContent = text;
  button.addEventListener("click", onClick);
  return button;
}

let sending = false;

async function sendWaiting() {
  const sheet = document.getElementById("sheet");
  if (!sheet?.dataset.api || sending || !navigator.onLine) return;
  sending = true;
  try {
    const saved = await flush(sheet.dataset.api);
    if (saved) await refresh(sheet);
  } finally {
    sending = false;
    showOutbox();
  }
}

function keepOffline(form) {
  const sheet = document.getElementById("sheet");
  if (!sheet?.dataset.api) return false;
  if (form.querySelector('[name="do"]')) {
    const entry = chipAction(form);
    if (!entry) return false;
    keep(sheet.dataset.api, { version: entry.version, action: entry.action }, entry.label);
  } else {
    const entry = handAction(form);
    if (!entry) return false;
    const name = document.querySelector(`.hand-line[data-player="${entry.action.p}"] .player-name`)?.textContent || "";
    const star = entry.action.out ? " ★" : "";
    keep(sheet.dataset.api, entry, `${name}: ${entry.action.v}${star}`);
  }
  delete form.dataset.dirty;
  form.reset();
  showOutbox();
  return true;
}

// Before htmx sends it: a hand entered without a connection waits in the browser instead.
document.addEventListener(
  "submit",
  (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.matches("[data-offline]") || navigator.onLine) return;
    if (keepOffline(form)) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  },
  true,
);

// A connection that looked alive but failed on the way: the hand waits too.
document.addEventListener("htmx:sendError", (event) => {
  const form = event.detail?.elt?.closest?.("form");
  if (form?.matches("[data-offline]")) keepOffline(form);
});

window.addEventListener("online", () => sendWaiting());

function setUp(root) {
  for (const form of root.querySelectorAll("[data-round-form]:not([data-ready])")) setUpRoundForm(form);
  for (const form of root.querySelectorAll("[data-new-sheet]:not([data-ready])")) setUpNewSheet(form);
  for (const form of root.querySelectorAll("[data-hand-form]:not([data-ready])")) setUpHandForm(form);
}

onPage((root) => {
  setUp(root);
  const sheet = document.getElementById("sheet");
  if (sheet) {
    registerWorker();
    showOutbox();
    sendWaiting();
  }
  if (sheet) watch(sheet);
  else if (live) {
    live.stop();
    live = null;
  }
});
