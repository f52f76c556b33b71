// The Rommé table against the computer. The server is the only judge: this script shows the
// seat's view, lets the player build the turn's melding on the table (new melds, lay-offs,
// joker exchanges), sends it as one play when the player lays down or discards, and shows the
// computer's turns step by step. Everything works by pointer (click or drag) and by keyboard.

import { TableBase, mount } from "./table-base.js";
import { cardName, draggable, el, parseCard, postJSON, rankNumber, seatName } from "./table.js";
import {
  displayTable,
  drawHand,
  drawMelds,
  drawOpponents,
  drawPiles,
  drawRoundEnd,
  sortCards,
} from "./romme-view.js";

class RommeTable extends TableBase {
  constructor(root) {
    super(root, {
      game: "romme",
      sorts: ["suit", "rank"],
      sorter: sortCards,
      held: "hand",
      parts: { stock: "stock", discard: "discard-pile", table: "table", newMeld: "new-meld", hand: "hand", meldTotal: "meld-total", layNote: "lay-note" },
    });
    this.steps = [];
    // What the server (the engine) says the new melds being built are worth, for `key`.
    this.worth = { key: "", answer: null };
    this.bind();
    this.start();
  }

  // --- showing a view ----------------------------------------------------------------------

  show(view, { initial = false } = {}) {
    const before = this.view;
    const freshCards = this.newOnTable(before, view, initial, (meld) => meld.cards);
    if (!initial) {
      const inHand = new Set(before.hand);
      for (const code of view.hand) if (!inHand.has(code) && before.round === view.round) freshCards.add(code);
      const top = view.discard[view.discard.length - 1];
      if (top && top !== before.discard[before.discard.length - 1]) freshCards.add(top);
    }
    if (view.seq !== before.seq || view.round !== before.round) {
      this.steps = [];
      this.hideHint();
    }
    this.view = view;
    this.fresh = freshCards;
    this.mergeOrder(before.round !== view.round);
    this.tell(view, { initial });
    this.render();
    this.roundEndOnce();
  }

  working() {
    // The table and the hand as the turn being built leaves them.
    const shown = displayTable(this.view, this.steps);
    const hand = this.order.filter((c) => this.view.hand.includes(c) && !shown.used.has(c)).concat(shown.freed);
    return { shown, hand };
  }

  handNow() {
    return this.working().hand;
  }

  get myTurn() {
    return this.view.to_move === this.seat && !this.sending;
  }

  drawView() {
    const t = this.t;
    const view = this.view;
    const { shown, hand } = this.working();
    for (const code of [...this.selected]) if (!hand.includes(code)) this.selected.delete(code);
    const phase = view.phase;
    const canDraw = this.myTurn && phase === "draw";
    const canPlay = this.myTurn && phase === "play";
    const canDiscard = this.myTurn && (phase === "play" || phase === "discard");
    this.renderCommon(view.to_move === this.seat);
    drawOpponents(this.el.opponents, t, this.players, view);
    drawPiles(this.el.stock, this.el.discard, t, view, {
      canStock: canDraw,
      canDiscard: canDraw && view.can_take_discard,
      dropDiscard: canDiscard,
    });
    drawMelds(this.el.table, t, this.players, shown.melds, shown.pending, { interactive: canPlay, fresh: this.fresh });
    this.el.newMeld.hidden = !canPlay;
    this.showWorth(canPlay ? shown.pending : []);
    // The engine takes one play a turn: the page says so before it is laid down.
    this.el.layNote.hidden = !canPlay;
    drawHand(this.el.hand, t, hand, { selected: this.selected, interactive: true, focus: this.focus, fresh: this.fresh, picked: view.picked });
    const selectedCount = this.selected.size;
    this.enable("meld", canPlay && selectedCount > 0);
    this.enable("commit", canPlay && this.steps.length > 0);
    this.enable("discard", canDiscard && selectedCount === 1);
    this.enable("undo", this.steps.length > 0);
    this.enable("reset", this.steps.length > 0);
    this.enable("hint", view.to_move === this.seat && !this.sending);
  }

  statusText() {
    const t = this.t;
    const view = this.view;
    if (view.phase === "game_over") return t("game_over");
    if (view.phase === "round_over") return t("round_over");
    if (view.to_move !== this.seat) return t("waiting_for", { name: seatName(this.players, view.to_move) });
    if (view.phase === "draw") return view.can_take_discard ? t("your_turn_draw") : t("your_turn_draw_stock");
    if (view.phase === "discard") return t("your_turn_discard");
    if (view.discard_count === 0) return t("your_turn_first");
    return t("your_turn_play");
  }

  // --- what the new melds are worth ---------------------------------------------------------

  showWorth(pending) {
    // Each new meld's value, or why the rules refuse it, and the running total against the
    // opening minimum. The engine decides, through the server; the page only words it.
    const key = JSON.stringify(pending.map((m) => m.cards));
    if (key !== this.worth.key) {
      this.worth = { key, answer: null };
      if (pending.length) this.askWorth(key, pending);
    }
    const answer = this.worth.answer;
    const t = this.t;
    pending.forEach((meld, index) => {
      const box = this.el.table.querySelector(`[data-pending="${index}"]`);
      const found = answer?.melds[index];
      if (!box || !found) return;
      const text = found.error ? found.error.message : t("meld_value", { value: found.value });
      box.classList.toggle("meld-invalid", Boolean(found.error));
      box.append(el("span", { class: "meld-worth", dataset: { meldWorth: "" } }, text));
      box.setAttribute("aria-label", `${box.getAttribute("aria-label")} · ${text}`);
    });
    const total = this.el.meldTotal;
    total.hidden = !(pending.length && answer);
    if (total.hidden) return total.replaceChildren();
    const view = this.view;
    const minimum = view.opening_min;
    let text = t("melds_total", { value: answer.total });
    if (!view.opened[this.seat] && minimum > 0) {
      text = answer.total >= minimum ? t("opening_reached", { value: answer.total, minimum }) : t("opening_short", { value: answer.total, minimum });
    }
    total.classList.toggle("short", !view.opened[this.seat] && answer.total < minimum);
    total.textContent = text;
  }

  async askWorth(key, pending) {
    let answer;
    try {
      answer = await postJSON(`${this.data.api}/melds`, { melds: pending.map((m) => ({ cards: m.cards })) });
    } catch {
      return;
    }
    if (answer.status !== 200 || this.worth.key !== key) return;
    this.worth = { key, answer: answer.data };
    this.render();
  }

  // --- the turn being built ----------------------------------------------------------------

  selectedCards() {
    return this.handNow().filter((c) => this.selected.has(c));
  }

  meld(cards = this.selectedCards()) {
    if (!cards.length) return this.showError(this.t("select_first"));
    this.steps.push({ t: "meld", cards });
    this.selected.clear();
    this.showError("");
    this.render();
  }

  addToPending(index, cards = this.selectedCards()) {
    if (!cards.length) return this.showError(this.t("select_first"));
    for (const card of cards) this.steps.push({ t: "add", meld: index, card });
    this.selected.clear();
    this.showError("");
    this.render();
  }

  layOff(meldId, cards = this.selectedCards(), { lowSide = false } = {}) {
    if (!cards.length) return this.showError(this.t("select_first"));
    const { shown } = this.working();
    const meld = shown.melds.find((m) => m.id === meldId);
    if (!meld) return;
    if (meld.kind === "group") {
      for (const card of cards) this.steps.push({ t: "layoff", card, meld: meldId, end: null });
    } else {
      let low = meld.numbers[0];
      let high = meld.numbers[meld.numbers.length - 1];
      const naturals = cards.filter((c) => !parseCard(c).joker).sort((a, b) => rankNumber(parseCard(a).rank) - rankNumber(parseCard(b).rank));
      const below = naturals.filter((c) => this.runNumber(c, low, high) < low).reverse();
      const above = naturals.filter((c) => this.runNumber(c, low, high) >= low);
      for (const card of below) {
        this.steps.push({ t: "layoff", card, meld: meldId, end: "low" });
        low -= 1;
      }
      for (const card of above) {
        this.steps.push({ t: "layoff", card, meld: meldId, end: "high" });
        high += 1;
      }
      for (const card of cards.filter((c) => parseCard(c).joker)) {
        const end = lowSide || high >= 14 ? "low" : "high";
        this.steps.push({ t: "layoff", card, meld: meldId, end });
      }
    }
    this.selected.clear();
    this.showError("");
    this.render();
  }

  runNumber(code, low, high) {
    const rank = rankNumber(parseCard(code).rank);
    if (rank === 1) return low <= 2 && high < 13 ? 1 : 14;
    return rank;
  }

  exchange(meldId, joker, cards = this.selectedCards()) {
    const naturals = cards.filter((c) => !parseCard(c).joker);
    if (naturals.length !== 1 || cards.length !== 1) return this.showError(this.t("select_one_exchange"));
    this.steps.push({ t: "exchange", meld: meldId, joker, card: naturals[0] });
    this.selected.clear();
    this.showError("");
    this.render();
  }

  playAction() {
    const { shown } = this.working();
    return {
      t: "play",
      melds: shown.pending.map((m) => ({ cards: m.cards })),
      layoffs: this.steps.filter((s) => s.t === "layoff").map((s) => (s.end ? { card: s.card, meld: s.meld, end: s.end } : { card: s.card, meld: s.meld })),
      exchanges: this.steps.filter((s) => s.t === "exchange").map((s) => ({ meld: s.meld, joker: s.joker, card: s.card })),
    };
  }

  // --- talking to the server ---------------------------------------------------------------

  async commit() {
    if (!this.steps.length) return true;
    const action = this.playAction();
    this.sending = true;
    const ok = await this.send(action);
    if (!ok) {
      const message = this.el.error.textContent;
      this.steps = [];
      this.showError(this.t("rejected", { message }));
      this.render();
    }
    return ok;
  }

  async discard(card) {
    if (!card) {
      const cards = this.selectedCards();
      if (cards.length !== 1) return this.showError(this.t("select_one_discard"));
      card = cards[0];
    }
    if (this.steps.length) {
      if (this.steps.some((s) => s.card === card || s.cards?.includes(card))) return;
      const ok = await this.commit();
      if (!ok || this.view.phase !== "discard") return;
    }
    this.selected.delete(card);
    await this.send({ t: "discard", card });
  }

  async draw(source) {
    if (!(this.myTurn && this.view.phase === "draw")) return;
    await this.send({ t: "draw", source });
  }

  applyHint() {
    const action = this.hintAction;
    if (!action) return;
    if (action.t === "discard") {
      this.selected = new Set([action.card]);
      this.focus = action.card;
    } else if (action.t === "play") {
      this.steps = [];
      for (const x of action.exchanges) this.steps.push({ t: "exchange", meld: x.meld, joker: x.joker, card: x.card });
      for (const m of action.melds) this.steps.push({ t: "meld", cards: m.cards });
      for (const lo of action.layoffs) this.steps.push({ t: "layoff", card: lo.card, meld: lo.meld, end: lo.end ?? "high" });
    }
    this.hideHint();
    this.render();
  }

  canApplyHint(action) {
    return ["play", "discard"].includes(action.t);
  }

  drawRoundEnd(box) {
    drawRoundEnd(box, this.t, this.players, this.view);
  }

  // --- input -------------------------------------------------------------------------------

  onTable(target, { jokerCode = null, lowSide = false, cards } = {}) {
    if (!(this.myTurn && this.view.phase === "play")) return;
    if (target.dataset.pending !== undefined) return this.addToPending(Number(target.dataset.pending), cards);
    const meldId = Number(target.dataset.meld);
    if (jokerCode && (cards ?? this.selectedCards()).length === 1 && !parseCard((cards ?? this.selectedCards())[0]).joker) {
      return this.exchange(meldId, jokerCode, cards);
    }
    return this.layOff(meldId, cards, { lowSide });
  }

  bind() {
    this.bindHand((code) => cardName(this.t, code));
    this.el.table.addEventListener("click", (event) => {
      const joker = event.target.closest("[data-joker]");
      const target = event.target.closest("[data-meld], [data-pending]");
      if (target) this.onTable(target, { jokerCode: joker?.dataset.joker ?? null });
    });
    this.el.table.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" && event.key !== " ") return;
      const joker = event.target.closest("[data-joker]");
      const target = event.target.closest("[data-meld], [data-pending]");
      if (!target) return;
      event.preventDefault();
      // Shift+Enter lays a joker at the low end of a run, as dropping it on the run's left half.
      this.onTable(target, { jokerCode: joker?.dataset.joker ?? null, lowSide: event.shiftKey });
    });
    this.el.newMeld.addEventListener("click", () => this.meld());
    this.el.stock.addEventListener("click", () => this.draw("stock"));
    this.el.discard.addEventListener("click", () => {
      if (this.view.phase === "draw") this.draw("discard");
      else if (this.selected.size === 1) this.discard();
    });
    const undo = () => {
      this.steps.pop();
      this.render();
    };
    this.bindButtons({
      meld: () => this.meld(),
      commit: () => this.commit(),
      discard: () => this.discard(),
      undo,
      reset: () => {
        this.steps = [];
        this.render();
      },
      "sort-suit": () => this.sort("suit"),
      "sort-rank": () => this.sort("rank"),
    });
    this.bindKeys({
      m: () => this.meld(),
      l: () => this.commit(),
      d: () => this.discard(),
      s: () => this.draw("stock"),
      p: () => this.draw("discard"),
      u: undo,
      z: undo,
    });
    draggable(this.root, {
      selector: "[data-hand] [data-code], [data-stock], [data-discard-pile]",
      start: (source) => {
        if (source.matches("[data-stock]")) return this.myTurn && this.view.phase === "draw" ? { draw: "stock", count: 1 } : null;
        if (source.matches("[data-discard-pile]")) return this.myTurn && this.view.phase === "draw" && this.view.can_take_discard ? { draw: "discard", count: 1 } : null;
        const code = source.dataset.code;
        const cards = this.selected.has(code) ? this.selectedCards() : [code];
        return { cards, count: cards.length };
      },
      drop: (payload, target, point) => {
        if (!target) return;
        if (payload.draw) {
          if (target.dataset.drop === "hand") this.draw(payload.draw);
          return;
        }
        const kind = target.dataset.drop;
        if (kind === "hand") {
          if (payload.cards.length === 1) this.dropInHand(payload.cards[0], point);
        } else if (kind === "meld" || kind === "pending") {
          const under = document.elementFromPoint(point.x, point.y);
          const joker = under?.closest("[data-joker]");
          const rect = target.getBoundingClientRect();
          this.onTable(target, { jokerCode: joker?.dataset.joker ?? null, lowSide: point.x < rect.left + rect.width / 2, cards: payload.cards });
        } else if (kind === "new-meld") {
          if (this.myTurn && this.view.phase === "play") this.meld(payload.cards);
        } else if (kind === "discard") {
          if (payload.cards.length === 1) this.discard(payload.cards[0]);
        }
      },
    });
  }
}

mount("romme-table", (node) => new RommeTable(node));
