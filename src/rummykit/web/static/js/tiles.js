// The tile-rummy table against the computer. The player reworks a copy of the table (move
// tiles between sets, split a set, start new sets, take rack tiles back), then sends the whole
// table as one play; the server judges it. "Reset turn" puts everything back as the turn began.

import { onPage } from "./site.js";
import {
  StepQueue,
  addLog,
  connect,
  draggable,
  el,
  getJSON,
  pageData,
  parseTile,
  postJSON,
  storage,
  store,
  texts,
  tileName,
} from "./table.js";
import { arrange, describe, drawOpponents, drawRack, drawRoundEnd, drawSets, jokerMeanings, sortTiles } from "./tiles-view.js";

class TilesTable {
  constructor(root) {
    this.root = root;
    const data = pageData(root);
    this.data = data;
    this.t = texts(data.messages);
    this.players = data.players;
    this.seat = data.seat;
    this.view = data.view;
    this.selected = new Set();
    this.focus = null;
    this.fresh = new Set();
    this.sending = false;
    this.history = [];
    this.roundEndShown = null;
    this.sortMode = storage("rk-tiles-sort", "colour");
    this.order = storage(`rk-order-${data.id}`, []);
    const q = (name) => root.querySelector(`[data-${name}]`);
    this.el = {
      round: q("round"),
      status: q("status"),
      error: q("error"),
      opponents: q("opponents"),
      pool: q("pool"),
      table: q("table"),
      newSet: q("new-set"),
      rack: q("rack"),
      me: q("me"),
      log: q("log"),
      scores: q("scores"),
      dialog: q("round-end"),
      dialogBody: q("round-end-body"),
      hintBox: q("hint-box"),
      hintText: q("hint-text"),
      speed: q("speed"),
      announce: q("announce"),
    };
    this.buttons = Object.fromEntries([...root.querySelectorAll("[data-act]")].map((b) => [b.dataset.act, b]));
    const speed = storage("rk-speed", "normal");
    this.el.speed.value = speed;
    this.queue = new StepQueue({
      current: this.view.seq,
      show: (view) => this.show(view),
      isComputerStep: (view) => (view.events ?? []).some((e) => e.seat !== undefined && e.seat !== this.seat),
      speed,
    });
    this.startTurn();
    this.bind();
    this.show(this.view, { initial: true });
    this.socket = connect(data.ws, {
      since: () => this.queue.current,
      onView: (view) => {
        if (!root.isConnected) {
          this.socket.stop();
          return;
        }
        this.queue.push(view);
      },
      onState: (state) => root.classList.toggle("offline", state === "closed"),
    });
  }

  // --- the working table -----------------------------------------------------------------

  startTurn() {
    this.sets = this.view.table.map((s) => [...s.tiles]);
    this.rackTiles = [...this.view.rack];
    this.startRack = new Set(this.view.rack);
    this.meanings = jokerMeanings(this.view);
    this.history = [];
  }

  snapshot() {
    this.history.push({ sets: this.sets.map((s) => [...s]), rack: [...this.rackTiles] });
  }

  get changed() {
    return this.history.length > 0;
  }

  where(code) {
    if (this.rackTiles.includes(code)) return { rack: true };
    const index = this.sets.findIndex((s) => s.includes(code));
    return index >= 0 ? { set: index } : null;
  }

  take(codes) {
    for (const code of codes) {
      this.rackTiles = this.rackTiles.filter((c) => c !== code);
      this.sets = this.sets.map((s) => s.filter((c) => c !== code));
    }
  }

  tidy() {
    this.sets = this.sets.filter((s) => s.length > 0);
  }

  moveTo(target, codes = [...this.selected]) {
    if (!this.myTurn) return;
    if (!codes.length) return this.showError(this.t("select_tiles_first"));
    if (target === "rack" && codes.some((c) => !this.startRack.has(c))) return this.showError(this.t("table_tile_back"));
    this.snapshot();
    this.take(codes);
    if (target === "rack") {
      this.rackTiles.push(...codes);
    } else if (target === "new") {
      this.sets.push(arrange(codes, this.meanings));
    } else if (typeof target === "number" && this.sets[target]) {
      this.sets[target] = arrange([...this.sets[target], ...codes], this.meanings);
    }
    this.tidy();
    this.selected.clear();
    this.showError("");
    this.render();
  }

  split(index, position) {
    if (!this.myTurn) return;
    this.snapshot();
    const set = this.sets[index];
    this.sets.splice(index, 1, set.slice(0, position), set.slice(position));
    this.render();
  }

  undo() {
    const last = this.history.pop();
    if (!last) return;
    this.sets = last.sets;
    this.rackTiles = last.rack;
    this.selected.clear();
    this.render();
  }

  reset() {
    this.startTurn();
    this.selected.clear();
    this.showError("");
    this.render();
  }

  // --- showing a view ----------------------------------------------------------------------

  show(view, { initial = false } = {}) {
    const before = this.view;
    const fresh = new Set();
    if (!initial) {
      const had = new Set(before.table.flatMap((s) => s.tiles));
      for (const set of view.table) for (const code of set.tiles) if (!had.has(code)) fresh.add(code);
      if (view.last_drawn && view.last_drawn !== before.last_drawn) fresh.add(view.last_drawn);
    }
    this.view = view;
    this.fresh = fresh;
    if (initial || view.seq !== before.seq) {
      this.hideHint();
      this.mergeOrder(before.round !== view.round);
      this.startTurn();
      this.selected.clear();
    }
    const lines = (view.events ?? []).flatMap((ev) => describe(this.t, this.players, this.seat, ev));
    addLog(this.el.log, lines);
    if (!initial && lines.length && view.events.some((e) => e.seat !== this.seat)) this.say(lines.join(" "));
    this.render();
    if (view.round_end && this.roundEndShown !== `${view.round}-${view.phase}`) {
      this.roundEndShown = `${view.round}-${view.phase}`;
      this.openRoundEnd();
    }
  }

  mergeOrder(newRound) {
    const rack = this.view.rack;
    if (newRound || !this.order.length) {
      this.order = sortTiles(rack, this.sortMode);
    } else {
      const inRack = new Set(rack);
      this.order = this.order.filter((c) => inRack.has(c));
      const known = new Set(this.order);
      for (const code of rack) if (!known.has(code)) this.order.push(code);
    }
    store(`rk-order-${this.data.id}`, this.order);
  }

  rackNow() {
    const inRack = new Set(this.rackTiles);
    const ordered = this.order.filter((c) => inRack.has(c));
    const rest = this.rackTiles.filter((c) => !ordered.includes(c));
    return ordered.concat(rest);
  }

  get myTurn() {
    return this.view.to_move === this.seat && this.view.phase === "play" && !this.sending;
  }

  render() {
    const t = this.t;
    const view = this.view;
    const mine = this.myTurn;
    this.root.dataset.phase = view.phase;
    this.root.classList.toggle("my-turn", view.to_move === this.seat && view.phase === "play");
    this.el.round.textContent = t("round_of", { round: view.round, rounds: view.rounds });
    this.el.status.textContent = this.statusText();
    drawOpponents(this.el.opponents, t, this.players, view);
    this.el.pool.textContent = t("pool_count", { n: view.pool });
    const startSets = new Set(view.table.map((s) => s.tiles.join(" ")));
    const changed = new Set(this.sets.map((s, i) => (startSets.has(s.join(" ")) ? -1 : i)).filter((i) => i >= 0));
    const fromRack = new Set(this.sets.flat().filter((c) => this.startRack.has(c)));
    drawSets(this.el.table, t, this.sets, { interactive: mine, selected: this.selected, changed, fromRack, fresh: this.fresh, meanings: this.meanings });
    this.el.newSet.hidden = !mine;
    drawRack(this.el.rack, t, this.rackNow(), { interactive: true, selected: this.selected, focus: this.focus, fresh: this.fresh });
    const me = this.seat;
    this.el.me.textContent = `${view.opened[me] ? t("opened") : t("not_opened")} · ${t("total")}: ${view.scores[me]}`;
    this.enable("done", mine && this.changed && fromRack.size > 0);
    this.enable("draw", mine);
    this.enable("undo", mine && this.changed);
    this.enable("reset", mine && this.changed);
    this.enable("to-rack", mine && this.selected.size > 0);
    this.enable("new-set", mine && this.selected.size > 0);
    this.enable("hint", mine);
    this.buttons["sort-colour"].setAttribute("aria-pressed", String(this.sortMode === "colour"));
    this.buttons["sort-number"].setAttribute("aria-pressed", String(this.sortMode === "number"));
    this.buttons["scores"].hidden = !(view.phase === "round_over" || view.phase === "game_over");
    const rows = this.players.map((p, seat) => el("li", {}, el("span", {}, p.name), el("strong", { class: "num" }, String(view.scores[seat]))));
    this.el.scores.replaceChildren(el("ol", { class: "score-summary" }, rows));
  }

  enable(name, on) {
    const button = this.buttons[name];
    if (button) button.disabled = !on;
  }

  statusText() {
    const t = this.t;
    const view = this.view;
    if (view.phase === "game_over") return t("game_over");
    if (view.phase === "round_over") return t("round_over");
    if (view.to_move !== this.seat) return t("waiting_for", { name: this.players[view.to_move]?.name ?? "" });
    if (!view.opened[this.seat]) return t("your_turn_tiles_first", { minimum: view.opening_min });
    return t("your_turn_tiles");
  }

  say(text) {
    this.el.announce.textContent = "";
    setTimeout(() => (this.el.announce.textContent = text), 30);
  }

  showError(text) {
    this.el.error.textContent = text;
    this.el.error.hidden = !text;
  }

  // --- talking to the server -------------------------------------------------------------

  async send(action) {
    this.sending = true;
    this.render();
    this.el.status.textContent = this.t("sent");
    let answer;
    try {
      answer = await postJSON(`${this.data.api}/actions`, { seq: this.view.seq, action });
    } catch {
      answer = { status: 0, data: null };
    }
    this.sending = false;
    const { status, data } = answer;
    if (status === 200) {
      this.showError("");
      this.queue.skip(data);
      this.render();
      return true;
    }
    if (status === 409 && data?.view) {
      this.showError(data.error.message);
      this.queue.push(data.view);
    } else if (data?.error) {
      this.showError(this.t("rejected_tiles", { message: data.error.message }));
    } else {
      this.showError(this.t("connection_lost"));
    }
    this.render();
    return false;
  }

  async done() {
    if (!this.myTurn) return;
    await this.send({ t: "play", table: this.sets.map((s) => s.join(" ")) });
  }

  async draw() {
    if (!this.myTurn) return;
    this.reset();
    await this.send({ t: "draw" });
  }

  async nextRound() {
    this.el.dialog.close();
    await this.send({ t: "next_round" });
  }

  async hint() {
    this.hideHint();
    const { status, data } = await getJSON(`${this.data.api}/hint`);
    if (status !== 200) {
      if (data?.error) this.showError(data.error.message);
      return;
    }
    if (data.seq !== this.view.seq) return;
    this.hintAction = data.action;
    this.el.hintText.textContent = data.text;
    this.el.hintBox.hidden = false;
    this.buttons["apply-hint"].hidden = data.action.t !== "play";
  }

  hideHint() {
    this.el.hintBox.hidden = true;
    this.hintAction = null;
  }

  applyHint() {
    const action = this.hintAction;
    if (!action || action.t !== "play") return;
    this.snapshot();
    this.sets = action.table.map((s) => [...s.tiles]);
    const onTable = new Set(this.sets.flat());
    this.rackTiles = this.view.rack.filter((c) => !onTable.has(c));
    this.hideHint();
    this.render();
  }

  openRoundEnd() {
    drawRoundEnd(this.el.dialogBody, this.t, this.players, this.view);
    const over = this.view.phase === "game_over";
    this.buttons["next-round"].hidden = over;
    this.root.querySelector("[data-replay-link]").hidden = !over;
    this.root.querySelector("[data-new-link]").hidden = !over;
    if (!this.el.dialog.open) this.el.dialog.showModal();
  }

  // --- input -------------------------------------------------------------------------------

  toggle(code) {
    if (this.selected.has(code)) this.selected.delete(code);
    else this.selected.add(code);
    this.focus = code;
    this.render();
    this.root.querySelector(`[data-rack] [data-code="${CSS.escape(code)}"], [data-table] [data-code="${CSS.escape(code)}"]`)?.focus();
  }

  sort(mode) {
    this.sortMode = mode;
    store("rk-tiles-sort", mode);
    this.order = sortTiles(this.view.rack, mode);
    store(`rk-order-${this.data.id}`, this.order);
    this.render();
  }

  moveInRack(code, to) {
    const visible = this.rackNow().filter((c) => c !== code);
    visible.splice(to, 0, code);
    const rest = this.order.filter((c) => !visible.includes(c));
    this.order = visible.concat(rest);
    store(`rk-order-${this.data.id}`, this.order);
  }

  bind() {
    const root = this.root;
    this.el.rack.addEventListener("click", (event) => {
      const tile = event.target.closest("[data-code]");
      if (tile) this.toggle(tile.dataset.code);
    });
    this.el.rack.addEventListener("keydown", (event) => {
      const tile = event.target.closest("[data-code]");
      if (!tile) return;
      const codes = this.rackNow();
      const index = codes.indexOf(tile.dataset.code);
      let next = null;
      if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
        const step = event.key === "ArrowLeft" ? -1 : 1;
        if (event.shiftKey || event.altKey) {
          const to = Math.max(0, Math.min(codes.length - 1, index + step));
          this.moveInRack(tile.dataset.code, to);
          this.focus = tile.dataset.code;
          this.render();
          this.say(this.t("moved", { card: tileName(this.t, tile.dataset.code), n: to + 1 }));
          next = tile.dataset.code;
        } else next = codes[Math.max(0, Math.min(codes.length - 1, index + step))];
      }
      if (next) {
        event.preventDefault();
        this.focus = next;
        for (const node of this.el.rack.querySelectorAll("[data-code]")) node.tabIndex = node.dataset.code === next ? 0 : -1;
        this.el.rack.querySelector(`[data-code="${CSS.escape(next)}"]`)?.focus();
      }
    });
    this.el.table.addEventListener("click", (event) => {
      const split = event.target.closest("[data-split]");
      if (split) {
        const [index, position] = split.dataset.split.split(":").map(Number);
        this.split(index, position);
        return;
      }
      const add = event.target.closest("[data-add-to]");
      if (add) {
        this.moveTo(Number(add.dataset.addTo));
        return;
      }
      const tile = event.target.closest("[data-code]");
      if (tile && this.myTurn) {
        this.toggle(tile.dataset.code);
        return;
      }
      const set = event.target.closest("[data-set]");
      if (set && this.selected.size) this.moveTo(Number(set.dataset.set));
    });
    this.el.table.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" && event.key !== " ") return;
      const set = event.target.closest("[data-set]");
      if (!set || event.target !== set) return;
      event.preventDefault();
      this.moveTo(Number(set.dataset.set));
    });
    this.el.newSet.addEventListener("click", () => this.moveTo("new"));
    const act = {
      done: () => this.done(),
      draw: () => this.draw(),
      undo: () => this.undo(),
      reset: () => this.reset(),
      "to-rack": () => this.moveTo("rack"),
      "new-set": () => this.moveTo("new"),
      "sort-colour": () => this.sort("colour"),
      "sort-number": () => this.sort("number"),
      hint: () => this.hint(),
      "apply-hint": () => this.applyHint(),
      "next-round": () => this.nextRound(),
      scores: () => this.openRoundEnd(),
      "close-dialog": () => this.el.dialog.close(),
    };
    for (const [name, button] of Object.entries(this.buttons)) if (act[name]) button.addEventListener("click", act[name]);
    this.el.speed.addEventListener("change", () => {
      store("rk-speed", this.el.speed.value);
      this.queue.setSpeed(this.el.speed.value);
    });
    root.addEventListener("keydown", (event) => {
      if (event.target.closest("input, select, textarea, dialog") || event.ctrlKey || event.metaKey || event.altKey) return;
      const shortcuts = {
        n: () => this.moveTo("new"),
        r: () => this.moveTo("rack"),
        d: () => this.draw(),
        f: () => this.done(),
        u: () => this.undo(),
        h: () => this.hint(),
        escape: () => {
          this.selected.clear();
          this.render();
        },
      };
      const run = shortcuts[event.key.toLowerCase()];
      if (run) {
        event.preventDefault();
        run();
      }
    });
    draggable(root, {
      selector: "[data-rack] [data-code], [data-table] [data-code]",
      start: (source) => {
        const code = source.dataset.code;
        if (!this.myTurn) {
          return source.closest("[data-rack]") ? { tiles: [code], count: 1, reorder: true } : null;
        }
        const tiles = this.selected.has(code) ? [...this.selected] : [code];
        return { tiles, count: tiles.length };
      },
      drop: (payload, target, point) => {
        if (!target) return;
        const kind = target.dataset.drop;
        if (kind === "rack") {
          const inRack = payload.tiles.every((c) => this.rackTiles.includes(c));
          if (inRack && payload.tiles.length === 1) {
            const rects = [...this.el.rack.querySelectorAll("[data-code]")].filter((n) => n.dataset.code !== payload.tiles[0]).map((n) => n.getBoundingClientRect());
            let to = rects.findIndex((r) => point.y < r.bottom && point.x < r.left + r.width / 2);
            if (to < 0) to = rects.length;
            this.moveInRack(payload.tiles[0], to);
            this.render();
          } else if (!payload.reorder) this.moveTo("rack", payload.tiles);
        } else if (payload.reorder) {
          return;
        } else if (kind === "set") {
          this.moveTo(Number(target.dataset.set), payload.tiles);
        } else if (kind === "new-set") {
          this.moveTo("new", payload.tiles);
        }
      },
    });
  }
}

onPage((root) => {
  for (const node of root.querySelectorAll("[data-tiles-table]:not([data-ready])")) {
    node.dataset.ready = "true";
    node.rummy = new TilesTable(node);
  }
});

export { parseTile };
