// Entries made without a connection: kept in the browser, shown as waiting, sent when the
// connection returns through the sheet's versioned API. A conflict (someone changed that entry
// in the meantime) or a refusal is shown with the choice to send it anyway or to drop it; an
// entry never disappears unless it was saved or someone chose to drop it.

const KEY = "rummykit-outbox";

function load() {
  try {
    const items = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(items) ? items : [];
  } catch {
    return [];
  }
}

function save(items) {
  localStorage.setItem(KEY, JSON.stringify(items));
}

function parsePoints(text, out) {
  const cleaned = text.trim().replace("−", "-").replace("–", "-").replace(/\s/g, "");
  if (!cleaned && out) return 0;
  return /^[+-]?[0-9]{1,6}$/.test(cleaned) ? Number.parseInt(cleaned, 10) : null;
}

// The action of a hand form, or null when the form cannot be read (it then goes the usual way).
export function handAction(form) {
  const field = (name) => form.querySelector(`[name="${name}"]`);
  const out = Boolean(field("out")?.checked);
  const points = parsePoints(field("points")?.value || "", out);
  const player = Number(field("player")?.value);
  const round = Number(field("round")?.value);
  const version = Number(field("version")?.value);
  if (points === null || !Number.isInteger(player) || !Number.isInteger(round)) return null;
  return { version, action: { t: "hand", round, p: player, v: points, out, by: null } };
}

const chosen = (select) => select?.selectedOptions?.[0]?.textContent?.trim() || "";

// The action of a chip keeper's form and the words for it, or null.
export function chipAction(form) {
  const field = (name) => form.querySelector(`[name="${name}"]`);
  const version = Number(field("version")?.value);
  const button = form.querySelector('button[type="submit"]')?.textContent?.trim() || "";
  const what = field("do")?.value;
  if (what === "ante") return { version, action: { t: "ante" }, label: button };
  if (what === "undo") return { version, action: { t: "undo", change: Number(field("change").value) }, label: button };
  if (what === "take") {
    const box = form.closest("[data-box]")?.querySelector(".box-name")?.textContent?.trim() || "";
    const n = Number(form.dataset.amount);
    return { version, action: { t: "move", from: field("box").value, to: field("to").value, n }, label: `${box} → ${chosen(field("to"))}: ${n}` };
  }
  if (what === "move") {
    const n = parsePoints(field("n")?.value || "", false);
    if (n === null || n < 1) return null;
    const label = `${chosen(field("from"))} → ${chosen(field("to"))}: ${n}`;
    return { version, action: { t: "move", from: field("from").value, to: field("to").value, n }, label };
  }
  return null;
}

export function keep(api, entry, label) {
  const items = load();
  items.push({ id: `${Date.now()}-${Math.random().toString(36).slice(2)}`, api, label, state: "waiting", ...entry });
  save(items);
}

export function pending(api) {
  return load().filter((item) => item.api === api);
}

function update(id, change) {
  save(load().map((item) => (item.id === id ? { ...item, ...change } : item)));
}

export function drop(id) {
  save(load().filter((item) => item.id !== id));
}

export function sendAnyway(id) {
  const item = load().find((i) => i.id === id);
  if (item) update(id, { state: "waiting", version: item.current ?? item.version, message: "" });
}

// Send what waits for this sheet, oldest first; stop at the first that cannot reach the server.
// Returns whether anything was saved.
export async function flush(api) {
  let saved = false;
  for (const item of pending(api)) {
    if (item.state !== "waiting") continue;
    let response;
    try {
      response = await fetch(`${api}/actions`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ version: item.version, action: item.action }),
        cache: "no-store",
      });
    } catch {
      return saved; // still offline: everything stays as it is
    }
    let body = {};
    try {
      body = await response.json();
    } catch {
      body = {};
    }
    if (response.ok) {
      drop(item.id);
      saved = true;
    } else if (response.status === 409) {
      update(item.id, { state: "conflict", current: body.version, message: body.error?.message || "" });
    } else if (response.status >= 400 && response.status < 500 && response.status !== 429) {
      update(item.id, { state: "refused", current: body.version, message: body.error?.message || "" });
    } else {
      return saved; // the server is unwell: try again later
    }
  }
  return saved;
}
