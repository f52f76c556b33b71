// What every game table shares: texts, names of cards and tiles, drawing cards and tiles,
// the live connection with its queue of steps shown at a readable pace, dragging with a
// pointer (mouse, pen or finger), the score table, the log and the end-of-round dialog.

import { reconnecting } from "./live.js";

// --- texts -------------------------------------------------------------------------------

export function fill(text, params = {}) {
  // Fills the %(name)s placeholders of an already translated text.
  return text.replace(/%\((\w+)\)s/g, (_, name) => (name in params ? String(params[name]) : ""));
}

export function texts(messages) {
  // t("key", {name: ...}): the page's message `key`, filled.
  return (key, params = {}) => fill(messages[key] ?? key, params);
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function listItem(child) {
  // An item of a list (a hand, a rack, the melds on the table) that takes no room of its own:
  // the list's layout places the child as if it stood alone.
  return el("span", { role: "listitem", class: "list-item" }, child);
}

// --- cards ---------------------------------------------------------------------------------

const SUITS = "♣♠♥♦";

export function parseCard(code) {
  // "8♠#1" -> {rank: "8", suit: "♠", joker: false, face: "8♠"}
  const face = code.split("#")[0];
  if (face === "JK") return { face, joker: true, rank: "", suit: "" };
  const suit = face.slice(-1);
  return { face, joker: false, rank: face.slice(0, -1), suit };
}

export const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];

export function rankNumber(rank) {
  return RANKS.indexOf(rank) + 1;
}

export function cardName(t, code) {
  const card = parseCard(code);
  if (card.joker) return t("joker");
  const rank = t(`rank_${card.rank}`) === `rank_${card.rank}` ? card.rank : t(`rank_${card.rank}`);
  return t("card_name", { rank, suit: t(`suit_${card.suit}`) });
}

export function isRed(suit) {
  return suit === "♥" || suit === "♦";
}

export function cardFace(t, code, { tag = "span", label = true, extra = "" } = {}) {
  // A card drawn with CSS: rank and suit in two corners, a big pip in the middle.
  const card = parseCard(code);
  const classes = ["pc", card.joker ? "pc-joker" : isRed(card.suit) ? "pc-red" : "pc-black", extra]
    .filter(Boolean)
    .join(" ");
  const attrs = { class: classes, dataset: { code } };
  if (tag === "button") attrs.type = "button";
  if (label) attrs["aria-label"] = cardName(t, code);
  // A card that is not a button is a picture named by its label (a plain span may not be named).
  if (label && tag !== "button") attrs.role = "img";
  if (card.joker) {
    return el(
      tag,
      attrs,
      el("span", { class: "pc-corner", "aria-hidden": "true" }, el("span", { class: "pc-joker-word" }, "JOKER")),
      el("span", { class: "pc-center", "aria-hidden": "true" }, "★"),
      el("span", { class: "pc-corner pc-corner-end", "aria-hidden": "true" }, el("span", { class: "pc-joker-word" }, "JOKER")),
    );
  }
  return el(
    tag,
    attrs,
    el("span", { class: "pc-corner", "aria-hidden": "true" }, el("span", { class: "pc-rank" }, card.rank), el("span", { class: "pc-suit" }, card.suit)),
    el("span", { class: "pc-center", "aria-hidden": "true" }, ["J", "Q", "K"].includes(card.rank) ? el("span", { class: "pc-court" }, card.rank, el("small", {}, card.suit)) : card.suit),
    el("span", { class: "pc-corner pc-corner-end", "aria-hidden": "true" }, el("span", { class: "pc-rank" }, card.rank), el("span", { class: "pc-suit" }, card.suit)),
  );
}

export function cardBack(extra = "") {
  return el("span", { class: `pc pc-back ${extra}`.trim(), "aria-hidden": "true" });
}

// --- tiles ---------------------------------------------------------------------------------

export function parseTile(code) {
  const face = code.split("#")[0];
  if (face === "*") return { face, joker: true, colour: "", number: 0 };
  return { face, joker: false, colour: face[0], number: Number(face.slice(1)) };
}

export function tileName(t, code) {
  const tile = parseTile(code);
  if (tile.joker) return t("joker");
  return t("tile_name", { colour: t(`colour_${tile.colour}`), n: tile.number });
}

export function tileFace(t, code, { tag = "span", extra = "" } = {}) {
  const tile = parseTile(code);
  const attrs = {
    class: `tile ${tile.joker ? "tile-joker" : `tile-${tile.colour}`} ${extra}`.trim(),
    dataset: { code },
    "aria-label": tileName(t, code),
  };
  if (tag === "button") attrs.type = "button";
  else attrs.role = "img";
  // Beside its colour, each colour has a shape of its own (tileMark), so that no one needs to
  // tell the colours apart to play.
  return el(tag, attrs, el("span", { class: "tile-number", "aria-hidden": "true" }, tile.joker ? "☺" : String(tile.number)), tile.joker ? null : tileMark(tile.colour));
}

export function tileMark(colour) {
  // The shape that goes with a tile colour: a circle for red, a square for blue, a triangle
  // for black, a cross for yellow (drawn by the style sheet).
  return el("span", { class: `tile-mark tile-mark-${colour}`, "aria-hidden": "true" });
}

// --- the connection --------------------------------------------------------------------------

export function connect(path, { since, onView, onState = () => {} }) {
  // The game's WebSocket; reconnects after any loss, asking for what it has not seen (a seat
  // the server refuses, code 4403, is not asked again).
  return reconnecting(() => `${path}?since=${since()}`, {
    onMessage: (message) => {
      if (message.t === "view" && Number.isInteger(message.v)) onView(message.d);
    },
    onState,
    fatal: (code) => code === 4403,
    maxDelay: 8000,
  });
}

export const SPEEDS = { slow: 1400, normal: 750, fast: 250, instant: 0 };

export class StepQueue {
  // Views arrive as fast as the server makes them; they are shown one step at a time, each
  // computer step at least the chosen pace after the step before it, so a person can follow.
  constructor({ current, show, isComputerStep, speed = "normal" }) {
    this.current = current; // the seq shown
    this.show = show;
    this.isComputerStep = isComputerStep;
    this.speed = speed;
    this.pending = [];
    this.timer = null;
    this.lastShown = 0;
  }

  push(view) {
    if (!view.step) {
      // A full view (after a reconnect or a long absence): jump to it.
      if (view.seq < this.current) return;
      this.pending = this.pending.filter((v) => v.seq > view.seq);
      this.pending.unshift(view);
    } else {
      if (view.seq <= this.current || this.pending.some((v) => v.seq === view.seq)) return;
      this.pending.push(view);
      this.pending.sort((a, b) => a.seq - b.seq);
    }
    this.pump();
  }

  get busy() {
    return this.pending.length > 0;
  }

  setSpeed(speed) {
    this.speed = speed;
    this.restart();
  }

  restart() {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.pump();
  }

  later(wait) {
    this.timer = setTimeout(() => {
      this.timer = null;
      this.pump();
    }, wait);
  }

  pump() {
    if (this.timer) return;
    const next = this.pending[0];
    if (!next) return;
    if (next.step && next.seq > this.current + 1 && !this.waited) {
      // A step is missing: wait a moment for it (the server sends steps in order).
      this.waited = true;
      this.later(1500);
      return;
    }
    this.waited = false;
    const pace = next.step && this.isComputerStep(next) ? SPEEDS[this.speed] : 0;
    const wait = this.lastShown + pace - performance.now();
    if (wait > 0) {
      this.later(wait);
      return;
    }
    this.pending.shift();
    this.current = next.seq;
    this.lastShown = performance.now();
    this.show(next);
    this.pump();
  }

  skip(view) {
    // The answer to the page's own action: shown at once, unless already shown.
    if (view.seq <= this.current) return;
    this.pending = this.pending.filter((v) => v.seq > view.seq);
    this.current = view.seq;
    this.lastShown = performance.now();
    this.show(view);
    this.restart();
  }
}

// --- dragging ------------------------------------------------------------------------------

export function draggable(root, { selector, start, drop, hover = () => {}, threshold = 6 }) {
  // Pointer-based dragging, for mouse, pen and touch alike. `start(element)` returns what is
  // dragged (or null); `drop(payload, target, point)` receives the element under the pointer
  // that carries data-drop (or null). A press without movement stays a click.
  let drag = null;
  let suppressClick = false;

  root.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    const source = event.target.closest(selector);
    if (!source || !root.contains(source)) return;
    drag = { source, x: event.clientX, y: event.clientY, pointer: event.pointerId, moving: false };
  });

  root.addEventListener("pointermove", (event) => {
    if (!drag || event.pointerId !== drag.pointer) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (!drag.moving) {
      if (Math.hypot(dx, dy) < threshold) return;
      const payload = start(drag.source);
      if (!payload) {
        drag = null;
        return;
      }
      drag.moving = true;
      drag.payload = payload;
      const rect = drag.source.getBoundingClientRect();
      drag.offset = { x: drag.x - rect.left, y: drag.y - rect.top };
      drag.ghost = drag.source.cloneNode(true);
      drag.ghost.classList.add("drag-ghost");
      drag.ghost.removeAttribute("id");
      drag.ghost.style.width = `${rect.width}px`;
      drag.ghost.style.height = `${rect.height}px`;
      if (payload.count > 1) drag.ghost.dataset.count = String(payload.count);
      document.body.append(drag.ghost);
      drag.source.classList.add("dragging");
      try {
        drag.source.setPointerCapture(event.pointerId);
      } catch {
        /* the element may be gone */
      }
    }
    event.preventDefault();
    drag.ghost.style.transform = `translate(${event.clientX - drag.offset.x}px, ${event.clientY - drag.offset.y}px) rotate(3deg)`;
    const target = dropTarget(event.clientX, event.clientY, drag.ghost);
    if (target !== drag.target) {
      drag.target?.classList.remove("drop-over");
      target?.classList.add("drop-over");
      drag.target = target;
      hover(drag.payload, target);
    }
  });

  const finish = (event, cancelled) => {
    if (!drag || event.pointerId !== drag.pointer) return;
    const current = drag;
    drag = null;
    if (!current.moving) return;
    suppressClick = true;
    setTimeout(() => (suppressClick = false), 0);
    current.ghost.remove();
    current.source.classList.remove("dragging");
    current.target?.classList.remove("drop-over");
    if (!cancelled) drop(current.payload, current.target ?? null, { x: event.clientX, y: event.clientY });
  };
  root.addEventListener("pointerup", (event) => finish(event, false));
  root.addEventListener("pointercancel", (event) => finish(event, true));
  root.addEventListener(
    "click",
    (event) => {
      if (suppressClick) {
        event.stopPropagation();
        event.preventDefault();
      }
    },
    true,
  );
}

function dropTarget(x, y, ghost) {
  ghost.style.display = "none";
  const under = document.elementFromPoint(x, y);
  ghost.style.display = "";
  return under ? under.closest("[data-drop]") : null;
}

// --- shared panels ---------------------------------------------------------------------------

export function scoreTable(t, players, view, { lowWins = true } = {}) {
  const table = el("table", { class: "scores" });
  const head = el("tr", {}, el("th", { scope: "col" }, t("round")), players.map((p) => el("th", { scope: "col" }, p.name)));
  table.append(el("thead", {}, head));
  const body = el("tbody");
  view.round_scores.forEach((row, index) => {
    body.append(el("tr", {}, el("th", { scope: "row" }, String(index + 1)), row.map((n) => el("td", { class: "num" }, String(n)))));
  });
  table.append(body);
  const best = lowWins ? Math.min(...view.scores) : Math.max(...view.scores);
  const foot = el(
    "tr",
    {},
    el("th", { scope: "row" }, t("total")),
    view.scores.map((n) => el("td", { class: `num${view.round_scores.length && n === best ? " leader" : ""}` }, String(n))),
  );
  table.append(el("tfoot", {}, foot));
  return table;
}

export function sortBy(items, key) {
  // The items in the order of their keys (arrays compared item by item).
  return [...items].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    for (let i = 0; i < ka.length; i += 1) {
      if (ka[i] < kb[i]) return -1;
      if (ka[i] > kb[i]) return 1;
    }
    return 0;
  });
}

export function seatName(players, seat) {
  return players[seat]?.name ?? String(seat + 1);
}

export function drawOpponents(container, t, players, view, { counts, one, many, fan = null }) {
  // The other seats: name and level, how many cards (or tiles) they hold, opened or not, the
  // dealer, the total; `fan(count)` draws their hand face down.
  container.replaceChildren();
  for (let seat = 0; seat < view.players; seat += 1) {
    if (seat === view.seat) continue;
    const count = counts[seat];
    const player = players[seat] ?? {};
    container.append(
      el(
        "div",
        { class: `opponent${view.to_move === seat ? " on-move" : ""}`, dataset: { seat: String(seat) } },
        el("div", { class: "opponent-name" }, el("strong", {}, player.name ?? ""), player.level ? el("span", { class: "level" }, player.level) : null),
        fan ? fan(count) : null,
        el(
          "div",
          { class: "opponent-facts" },
          el("span", { class: "count", dataset: { count: String(count) } }, count === 1 ? t(one) : t(many, { n: count })),
          el("span", { class: `badge ${view.opened[seat] ? "badge-open" : "badge-closed"}` }, view.opened[seat] ? t("opened") : t("not_opened")),
          view.dealer === seat ? el("span", { class: "badge badge-dealer" }, t("dealer")) : null,
          el("span", { class: "score" }, `${t("total")}: ${view.scores[seat]}`),
        ),
      ),
    );
  }
}

export function drawRoundEnd(box, t, players, view, { rows, winnerNote = null, lowWins = true }) {
  // The end of a round: who won it, what each seat was left holding (each `rows[seat]`: its
  // `items` as [face, value], its `total` and a `note`), the score table, the game's winners.
  const end = view.round_end;
  box.replaceChildren();
  if (!end) return;
  const over = view.phase === "game_over";
  const winner = end.winner;
  box.append(el("h2", { id: "round-end-title" }, over ? t("game_over") : t("round_over")));
  let line = t("ev_round_end_blocked", { round: end.round });
  if (winner !== null && winner !== undefined) {
    line = winner === view.seat ? t("ev_round_end_you", { round: end.round }) : t("ev_round_end", { name: seatName(players, winner), round: end.round });
  }
  box.append(el("p", { class: "round-winner" }, line, winnerNote));
  const list = el("div", { class: "penalties" });
  rows.forEach((row, seat) => {
    list.append(
      el(
        "div",
        { class: `penalty-row${seat === winner ? " is-winner" : ""}`, dataset: { seat: String(seat) } },
        el("span", { class: "penalty-name" }, seatName(players, seat)),
        el("span", { class: "penalty-cards" }, row.items.map(([face, value]) => el("span", { class: "penalty-card" }, face, el("span", { class: "penalty-value" }, String(value))))),
        el("span", { class: "penalty-total" }, el("span", { class: "visually-hidden" }, `${t("penalty")}: `), String(row.total), row.note ? el("small", {}, ` ${row.note}`) : null),
      ),
    );
  });
  box.append(list);
  box.append(scoreTable(t, players, view, { lowWins }), el("p", { class: "score-rule" }, t(lowWins ? "low_wins" : "high_wins")));
  if (over) box.append(el("p", { class: "game-winners" }, t("won_by", { names: view.winners.map((s) => seatName(players, s)).join(", ") })));
}

export function nameList(players, seats) {
  return seats.map((s) => players[s]?.name ?? String(s)).join(", ");
}

export function addLog(list, lines, { limit = 80 } = {}) {
  for (const line of lines) {
    if (!line) continue;
    list.prepend(el("li", {}, line));
  }
  while (list.children.length > limit) list.lastElementChild.remove();
}

export function storage(key, fallback) {
  try {
    const value = localStorage.getItem(key);
    return value === null ? fallback : JSON.parse(value);
  } catch {
    return fallback;
  }
}

export function store(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    /* private browsing: not kept */
  }
}

async function answer(response) {
  // The status of a response and its JSON body (null when it has none).
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  return { status: response.status, data };
}

export async function postJSON(url, body) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    credentials: "same-origin",
    body: JSON.stringify(body),
  });
  return answer(response);
}

export async function getJSON(url) {
  return answer(await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } }));
}

export function pageData(root) {
  const script = root.querySelector("script[type='application/json'][data-game-data]");
  return JSON.parse(script.textContent);
}
