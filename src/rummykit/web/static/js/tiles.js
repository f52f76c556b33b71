// The tile-rummy table against the computer. The player reworks a copy of the table (move
// tiles between sets, split a set, start new sets, take rack tiles back), then sends the whole
// table as one play; the server judges it. "Reset turn" puts everything back as the turn began.

import { TableBase, mount } from "./table-base.js";
import { draggable, tileName } from "./table.js";
import { arrange, drawOpponents, drawRack, drawRoundEnd, drawSets, jokerMeanings, sortTiles } from "./tiles-view.js";

class TilesTable extends TableBase {
  constructor(root) {
    super(root, {
      game: "tiles",
      sorts: ["colour", "number"],
      sorter: sortTiles,
      held: "rack",
      parts: { pool: "pool", table: "table", newSet: "new-set", hand: "rack" },
    });
    this.history = [];
    this.startTurn();
    this.bind();
    this.start();
  }

  lowWins(view) {
    // The leaflet's scoring counts the racks left against their owners; the classic one scores
    // the winner the others' racks.
    return view.scoring !== "classic";
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
    const fresh = this.newOnTable(before, view, initial, (set) => set.tiles);
    if (!initial && view.last_drawn && view.last_drawn !== before.last_drawn) fresh.add(view.last_drawn);
    this.view = view;
    this.fresh = fresh;
    if (initial || view.seq !== before.seq) {
      this.hideHint();
      this.mergeOrder(before.round !== view.round);
      this.startTurn();
      this.selected.clear();
    }
    this.tell(view, { initial });
    this.render();
    this.roundEndOnce();
  }

  handNow() {
    // The rack in the player's order, with the tiles taken back from the table this turn.
    const inRack = new Set(this.rackTiles);
    const ordered = this.order.filter((c) => inRack.has(c));
    const rest = this.rackTiles.filter((c) => !ordered.includes(c));
    return ordered.concat(rest);
  }

  get myTurn() {
    return this.view.to_move === this.seat && this.view.phase === "play" && !this.sending;
  }

  drawView() {
    const t = this.t;
    const view = this.view;
    const mine = this.myTurn;
    this.renderCommon(view.to_move === this.seat && view.phase === "play");
    drawOpponents(this.el.opponents, t, this.players, view);
    this.el.pool.textContent = t("pool_count", { n: view.pool });
    const startSets = new Set(view.table.map((s) => s.tiles.join(" ")));
    const changed = new Set(this.sets.map((s, i) => (startSets.has(s.join(" ")) ? -1 : i)).filter((i) => i >= 0));
    const fromRack = new Set(this.sets.flat().filter((c) => this.startRack.has(c)));
    drawSets(this.el.table, t, this.sets, { interactive: mine, selected: this.selected, changed, fromRack, fresh: this.fresh, meanings: this.meanings });
    this.el.newSet.hidden = !mine;
    drawRack(this.el.hand, t, this.handNow(), { interactive: true, selected: this.selected, focus: this.focus, fresh: this.fresh });
    this.enable("done", mine && this.changed && fromRack.size > 0);
    // Drawing ends the turn: not while tiles are laid out (they would silently go back).
    this.enable("draw", mine && !this.changed);
    this.enable("undo", mine && this.changed);
    this.enable("reset", mine && this.changed);
    this.enable("to-rack", mine && this.selected.size > 0);
    this.enable("new-set", mine && this.selected.size > 0);
    this.enable("hint", mine);
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

  // --- talking to the server -------------------------------------------------------------

  refusal(message) {
    return this.t("rejected_tiles", { message });
  }

  async done() {
    if (!this.myTurn) return;
    await this.send({ t: "play", table: this.sets.map((s) => s.map((code) => this.written(code)).join(" ")) });
  }

  written(code) {
    // A tile as the play carries it. Before the first meld, a joker from the table keeps the
    // meaning it had there: the engine then judges the turn in its own order (a first meld may
    // not use the table) rather than first reading a set the player has broken up.
    const meaning = this.view.opened[this.seat] ? null : this.meanings.get(code);
    return meaning ? `${code}(${meaning.c ?? ""}${meaning.n})` : code;
  }

  async draw() {
    if (!this.myTurn) return;
    if (this.changed) return this.showError(this.t("draw_laid_out"));
    this.reset();
    await this.send({ t: "draw" });
  }

  canApplyHint(action) {
    return action.t === "play";
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

  drawRoundEnd(box) {
    drawRoundEnd(box, this.t, this.players, this.view);
  }

  // --- input -------------------------------------------------------------------------------

  bind() {
    this.bindHand((code) => tileName(this.t, code));
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
    this.bindButtons({
      done: () => this.done(),
      draw: () => this.draw(),
      undo: () => this.undo(),
      reset: () => this.reset(),
      "to-rack": () => this.moveTo("rack"),
      "new-set": () => this.moveTo("new"),
      "sort-colour": () => this.sort("colour"),
      "sort-number": () => this.sort("number"),
    });
    this.bindKeys({
      n: () => this.moveTo("new"),
      r: () => this.moveTo("rack"),
      d: () => this.draw(),
      f: () => this.done(),
      u: () => this.undo(),
    });
    draggable(this.root, {
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
            this.dropInHand(payload.tiles[0], point);
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

mount("tiles-table", (node) => new TilesTable(node));
