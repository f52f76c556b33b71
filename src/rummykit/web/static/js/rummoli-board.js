// The Rummoli board: touching, clicking or focusing a box shows how it is won and the chips it
// holds, in the panel under the board. On the board page, the chip keeper remembers the chips
// on each box of a game played with real cards (in this browser's local storage).
import { onPage } from "./site.js";

const STORAGE_KEY = "rummykit.rummoli.board";

export function chipsText(n, one, many) {
  const rule = new Intl.PluralRules(document.documentElement.lang || "en").select(n);
  return (rule === "one" ? one : many).replace("{n}", String(n));
}

// Set up one board; returns { select(box), refresh(), selected() }.
export function setUpBoard(wrap) {
  if (wrap.rmBoard) return wrap.rmBoard;
  const info = wrap.querySelector("[data-rm-info]");
  const buttons = [...wrap.querySelectorAll(".rm-box")];
  let current = null;
  const listeners = [];

  function show(button) {
    current = button;
    for (const other of buttons) other.classList.toggle("is-selected", other === button);
    const name = button.querySelector(".rm-box-name").textContent;
    const how = document.getElementById(button.getAttribute("aria-describedby")).textContent;
    const chips = button.querySelector("[data-chips]");
    const tag = button.querySelector(".rm-box-tag:not([hidden])");
    info.replaceChildren();
    const title = document.createElement("p");
    title.className = "rm-info-title";
    title.textContent = name;
    const text = document.createElement("p");
    text.className = "rm-info-how";
    text.textContent = how;
    info.append(title, text);
    if (chips) {
      const held = document.createElement("p");
      held.className = "rm-info-chips";
      held.textContent = wrap.dataset.msgHolds
        ? wrap.dataset.msgHolds.replace("{chips}", chips.textContent.trim())
        : chips.textContent.trim();
      if (tag) held.textContent += ` · ${tag.textContent.trim()}`;
      info.append(held);
    }
    for (const listener of listeners) listener(button.dataset.box);
  }

  for (const button of buttons) {
    button.addEventListener("focus", () => show(button));
    button.addEventListener("click", () => show(button));
  }
  wrap.rmBoard = {
    select(box) {
      const button = buttons.find((b) => b.dataset.box === box);
      if (button) show(button);
    },
    refresh() {
      if (current) show(current);
    },
    selected() {
      return current ? current.dataset.box : null;
    },
    onSelect(listener) {
      listeners.push(listener);
    },
    button(box) {
      return buttons.find((b) => b.dataset.box === box);
    },
  };
  return wrap.rmBoard;
}

function load(boxes) {
  try {
    const data = JSON.parse(localStorage.getItem(STORAGE_KEY));
    if (data && typeof data === "object" && data.board) {
      const board = {};
      for (const box of boxes) board[box] = Math.max(0, Number.parseInt(data.board[box], 10) || 0);
      const players = Math.min(8, Math.max(2, Number.parseInt(data.players, 10) || 4));
      const undo = Array.isArray(data.undo) ? data.undo.slice(-50) : [];
      return { board, players, undo };
    }
  } catch {
    // A damaged or unavailable store starts an empty board.
  }
  return { board: Object.fromEntries(boxes.map((b) => [b, 0])), players: 4, undo: [] };
}

function setUpKeeper(section, board) {
  section.dataset.ready = "1";
  section.hidden = false;
  const msg = section.dataset;
  const boxes = [...document.querySelectorAll(".rm-box")].map((b) => b.dataset.box);
  const state = load(boxes);
  const players = section.querySelector("[data-players]");
  const status = section.querySelector("[data-status]");
  const take = section.querySelector("[data-take]");
  const add = section.querySelector("[data-add]");
  const remove = section.querySelector("[data-remove]");
  const undo = section.querySelector("[data-undo]");
  const selected = section.querySelector("[data-selected]");
  const chips = (n) => chipsText(n, msg.msgChipOne, msg.msgChipMany);
  const nameOf = (box) => board.button(box).querySelector(".rm-box-name").textContent;
  players.value = String(state.players);

  function save() {
    try {
      localStorage.setItem(STORAGE_KEY, JSON.stringify(state));
    } catch {
      // Private browsing may refuse storage: the board still works for this visit.
    }
  }

  function draw() {
    for (const box of boxes) {
      const button = board.button(box);
      button.querySelector("[data-chips]").textContent = chips(state.board[box]);
      button.classList.toggle("is-empty", state.board[box] === 0);
    }
    const box = board.selected();
    take.disabled = !box || state.board[box] === 0;
    add.disabled = !box;
    remove.disabled = !box || state.board[box] === 0;
    undo.disabled = state.undo.length === 0;
    if (box) {
      selected.textContent = `${nameOf(box)}: ${chips(state.board[box])}`;
      section.querySelector("[data-add-label]").textContent = msg.msgAdd.replace("{box}", nameOf(box));
      section.querySelector("[data-remove-label]").textContent = msg.msgRemove.replace("{box}", nameOf(box));
    }
    board.refresh();
  }

  function change(update, message) {
    state.undo.push({ ...state.board });
    state.undo = state.undo.slice(-50);
    update();
    status.textContent = message || "";
    save();
    draw();
  }

  players.addEventListener("change", () => {
    state.players = Number.parseInt(players.value, 10);
    save();
  });
  section.querySelector("[data-ante]").addEventListener("click", () => {
    const n = state.players;
    change(() => {
      for (const box of boxes) state.board[box] += n;
    }, msg.msgAnte.replace("{chips}", chips(n)));
  });
  take.addEventListener("click", () => {
    const box = board.selected();
    const amount = state.board[box];
    change(() => {
      state.board[box] = 0;
    }, msg.msgTaken.replace("{box}", nameOf(box)).replace("{chips}", chips(amount)));
  });
  add.addEventListener("click", () => {
    const box = board.selected();
    change(() => (state.board[box] += 1));
  });
  remove.addEventListener("click", () => {
    const box = board.selected();
    change(() => (state.board[box] = Math.max(0, state.board[box] - 1)));
  });
  undo.addEventListener("click", () => {
    const previous = state.undo.pop();
    if (previous) state.board = previous;
    status.textContent = "";
    save();
    draw();
  });
  section.querySelector("[data-clear]").addEventListener("click", () => {
    change(() => {
      for (const box of boxes) state.board[box] = 0;
    }, msg.msgEmpty);
  });
  board.onSelect(() => {
    // Drawing refreshes the panel, which calls this again: only update the controls.
    const box = board.selected();
    take.disabled = state.board[box] === 0;
    add.disabled = false;
    remove.disabled = state.board[box] === 0;
    selected.textContent = `${nameOf(box)}: ${chips(state.board[box])}`;
    section.querySelector("[data-add-label]").textContent = msg.msgAdd.replace("{box}", nameOf(box));
    section.querySelector("[data-remove-label]").textContent = msg.msgRemove.replace("{box}", nameOf(box));
  });
  draw();
}

onPage((root) => {
  for (const wrap of root.querySelectorAll("[data-rm-board]")) setUpBoard(wrap);
  for (const section of root.querySelectorAll("[data-rm-keeper]:not([data-ready])")) {
    const wrap = document.querySelector("[data-rm-board]");
    if (wrap) setUpKeeper(section, setUpBoard(wrap));
  }
});
