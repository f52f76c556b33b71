// The Rommé table against the computer. The server is the only judge: this script shows the
// seat's view, lets the player build the turn's melding on the table (new melds, lay-offs,
// joker exchanges), sends it as one play when the player lays down or discards, and shows the
// computer's turns step by step. Everything works by pointer (click or drag) and by keyboard.

import { onPage } from "./site.js";
import {
  StepQueue,
  addLog,
  cardName,
  connect,
  draggable,
  el,
  faceText,
  getJSON,
  pageData,
  parseCard,
  postJSON,
  rankNumber,
  storage,
  store,
  texts,
} from "./table.js";
import {
  describe,
  displayTable,
  drawHand,
  drawMelds,
  drawOpponents,
  drawPiles,
  drawRoundEnd,
  seatName,
  sortCards,
} from "./romme-view.js";

class RommeTable {
  constructor(root) {
    this.root = root;
    const data = pageData(root);
    this.data = data;
    this.t = texts(data.messages);
    this.players = data.players;
    this.seat = data.seat;
    this.view = data.view;
    this.steps = [];
    this.selected = new Set();
    this.focus = null;
    this.fresh = new Set();
    this.sending = false;
    this.roundEndShown = null;
    this.sortMode = storage("rk-romme-sort", "suit");
    this.order = storage(`rk-order-${data.id}`, []);
    const q = (name) => root.querySelector(`[data-${name}]`);
    this.el = {
      round: q("round"),
      status: q("status"),
      error: q("error"),
      opponents: q("opponents"),
      stock: q("stock"),
      discard: q("discard-pile"),
      table: q("table"),
      newMeld: q("new-meld"),
      hand: q("hand"),
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

  // --- showing a view ----------------------------------------------------------------------

  show(view, { initial = false } = {}) {
    const before = this.view;
    const freshCards = new Set();
    if (!initial) {
      const had = new Set(before.table.flatMap((m) => m.cards));
      for (const meld of view.table) for (const code of meld.cards) if (!had.has(code)) freshCards.add(code);
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
    const hand = this.view.hand;
    if (newRound || !this.order.length) {
      this.order = sortCards(hand, this.sortMode);
    } else {
      const inHand = new Set(hand);
      this.order = this.order.filter((c) => inHand.has(c));
      const known = new Set(this.order);
      for (const code of hand) if (!known.has(code)) this.order.push(code);
    }
    store(`rk-order-${this.data.id}`, this.order);
  }

  handNow() {
    const shown = displayTable(this.view, this.steps);
    const hand = this.order.filter((c) => this.view.hand.includes(c) && !shown.used.has(c)).concat(shown.freed);
    return { shown, hand };
  }

  get myTurn() {
    return this.view.to_move === this.seat && !this.sending;
  }

  render() {
    const t = this.t;
    const view = this.view;
    const { shown, hand } = this.handNow();
    for (const code of [...this.selected]) if (!hand.includes(code)) this.selected.delete(code);
    const phase = view.phase;
    const canDraw = this.myTurn && phase === "draw";
    const canPlay = this.myTurn && phase === "play";
    const canDiscard = this.myTurn && (phase === "play" || phase === "discard");
    this.root.dataset.phase = phase;
    this.root.classList.toggle("my-turn", view.to_move === this.seat);
    this.el.round.textContent = view.rounds ? t("round_of", { round: view.round, rounds: view.rounds }) : t("round_n", { round: view.round });
    this.el.status.textContent = this.statusText();
    drawOpponents(this.el.opponents, t, this.players, view);
    drawPiles(this.el.stock, this.el.discard, t, view, {
      canStock: canDraw,
      canDiscard: canDraw && view.can_take_discard,
      dropDiscard: canDiscard,
    });
    drawMelds(this.el.table, t, this.players, shown.melds, shown.pending, { interactive: canPlay, fresh: this.fresh });
    this.el.newMeld.hidden = !canPlay;
    drawHand(this.el.hand, t, hand, { selected: this.selected, interactive: true, focus: this.focus, fresh: this.fresh, picked: view.picked });
    const me = this.seat;
    this.el.me.textContent = `${view.opened[me] ? t("opened") : t("not_opened")} · ${t("total")}: ${view.scores[me]}`;
    const selectedCount = this.selected.size;
    this.enable("meld", canPlay && selectedCount > 0);
    this.enable("commit", canPlay && this.steps.length > 0);
    this.enable("discard", canDiscard && selectedCount === 1);
    this.enable("undo", this.steps.length > 0);
    this.enable("reset", this.steps.length > 0);
    this.enable("hint", view.to_move === this.seat && !this.sending);
    this.buttons["sort-suit"].setAttribute("aria-pressed", String(this.sortMode === "suit"));
    this.buttons["sort-rank"].setAttribute("aria-pressed", String(this.sortMode === "rank"));
    const over = phase === "round_over" || phase === "game_over";
    this.buttons["scores"].hidden = !over;
    this.el.scores.replaceChildren(this.scoreSummary());
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
    if (view.to_move !== this.seat) return t("waiting_for", { name: seatName(this.players, view.to_move) });
    if (view.phase === "draw") return view.can_take_discard ? t("your_turn_draw") : t("your_turn_draw_stock");
    if (view.phase === "discard") return t("your_turn_discard");
    if (view.discard_count === 0) return t("your_turn_first");
    return t("your_turn_play");
  }

  scoreSummary() {
    const view = this.view;
    const rows = this.players.map((p, seat) => el("li", {}, el("span", {}, p.name), el("strong", { class: "num" }, String(view.scores[seat]))));
    return el("ol", { class: "score-summary" }, rows);
  }

  say(text) {
    this.el.announce.textContent = "";
    setTimeout(() => (this.el.announce.textContent = text), 30);
  }

  showError(text) {
    this.el.error.textContent = text;
    this.el.error.hidden = !text;
  }

  // --- the turn being built ----------------------------------------------------------------

  selectedCards() {
    const { hand } = this.handNow();
    return hand.filter((c) => this.selected.has(c));
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
    const { shown } = this.handNow();
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
    const { shown } = this.handNow();
    return {
      t: "play",
      melds: shown.pending.map((m) => ({ cards: m.cards })),
      layoffs: this.steps.filter((s) => s.t === "layoff").map((s) => (s.end ? { card: s.card, meld: s.meld, end: s.end } : { card: s.card, meld: s.meld })),
      exchanges: this.steps.filter((s) => s.t === "exchange").map((s) => ({ meld: s.meld, joker: s.joker, card: s.card })),
    };
  }

  // --- talking to the server ---------------------------------------------------------------

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
      this.showError(data.error.message);
    } else {
      this.showError(this.t("connection_lost"));
    }
    this.render();
    return false;
  }

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
    this.el.hintText.textContent = this.hintText(data.reason);
    this.el.hintBox.hidden = false;
    this.buttons["apply-hint"].hidden = !["play", "discard"].includes(data.action.t);
  }

  hintText(reason) {
    const t = this.t;
    const params = { ...reason };
    if (reason.card) params.card = faceText(reason.card, t);
    let text = t(`hint_${reason.code}`, params);
    const melds = (reason.melds ?? []).map((m) => m.map((c) => faceText(c, t)).join(" "));
    const layoffs = (reason.layoffs ?? []).map((c) => faceText(c, t));
    if (melds.length || layoffs.length) text += ` (${[...melds, ...layoffs].join(" · ")})`;
    return text;
  }

  hideHint() {
    this.el.hintBox.hidden = true;
    this.hintAction = null;
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
    this.el.hand.querySelector(`[data-code="${CSS.escape(code)}"]`)?.focus();
  }

  moveInHand(code, to) {
    const order = this.order.filter((c) => c !== code);
    const visible = this.handNow().hand.filter((c) => c !== code);
    const anchor = visible[to];
    const index = anchor === undefined ? order.length : order.indexOf(anchor);
    if (index < 0) return;
    order.splice(index, 0, code);
    this.order = order;
    store(`rk-order-${this.data.id}`, this.order);
  }

  sort(mode) {
    this.sortMode = mode;
    store("rk-romme-sort", mode);
    this.order = sortCards(this.view.hand, mode);
    store(`rk-order-${this.data.id}`, this.order);
    this.render();
  }

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
    const root = this.root;
    const { hand } = this.el;
    hand.addEventListener("click", (event) => {
      const card = event.target.closest("[data-code]");
      if (card) this.toggle(card.dataset.code);
    });
    hand.addEventListener("keydown", (event) => {
      const card = event.target.closest("[data-code]");
      if (!card) return;
      const codes = this.handNow().hand;
      const index = codes.indexOf(card.dataset.code);
      let next = null;
      if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
        const step = event.key === "ArrowLeft" ? -1 : 1;
        if (event.altKey || event.shiftKey) {
          const to = Math.max(0, Math.min(codes.length - 1, index + step));
          this.moveInHand(card.dataset.code, to);
          this.focus = card.dataset.code;
          this.render();
          this.say(this.t("moved", { card: cardName(this.t, card.dataset.code), n: to + 1 }));
          next = card.dataset.code;
        } else {
          next = codes[Math.max(0, Math.min(codes.length - 1, index + step))];
        }
      } else if (event.key === "Home") next = codes[0];
      else if (event.key === "End") next = codes[codes.length - 1];
      if (next) {
        event.preventDefault();
        this.focus = next;
        for (const node of hand.querySelectorAll("[data-code]")) node.tabIndex = node.dataset.code === next ? 0 : -1;
        hand.querySelector(`[data-code="${CSS.escape(next)}"]`)?.focus();
      }
    });
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
      this.onTable(target, { jokerCode: joker?.dataset.joker ?? null });
    });
    this.el.newMeld.addEventListener("click", () => this.meld());
    this.el.stock.addEventListener("click", () => this.draw("stock"));
    this.el.discard.addEventListener("click", () => {
      if (this.view.phase === "draw") this.draw("discard");
      else if (this.selected.size === 1) this.discard();
    });
    const act = {
      meld: () => this.meld(),
      commit: () => this.commit(),
      discard: () => this.discard(),
      undo: () => {
        this.steps.pop();
        this.render();
      },
      reset: () => {
        this.steps = [];
        this.render();
      },
      "sort-suit": () => this.sort("suit"),
      "sort-rank": () => this.sort("rank"),
      hint: () => this.hint(),
      "apply-hint": () => this.applyHint(),
      "next-round": () => this.nextRound(),
      scores: () => this.openRoundEnd(),
      "close-dialog": () => this.el.dialog.close(),
    };
    for (const [name, button] of Object.entries(this.buttons)) {
      if (act[name]) button.addEventListener("click", act[name]);
    }
    this.el.speed.addEventListener("change", () => {
      store("rk-speed", this.el.speed.value);
      this.queue.setSpeed(this.el.speed.value);
    });
    root.addEventListener("keydown", (event) => {
      if (event.target.closest("input, select, textarea, dialog") || event.ctrlKey && event.key !== "z" || event.metaKey) return;
      const key = event.key.toLowerCase();
      const shortcuts = {
        m: () => this.meld(),
        l: () => this.commit(),
        d: () => this.discard(),
        s: () => this.draw("stock"),
        p: () => this.draw("discard"),
        u: () => act.undo(),
        z: () => act.undo(),
        h: () => this.hint(),
        escape: () => {
          this.selected.clear();
          this.render();
        },
      };
      if (shortcuts[key] && !event.altKey) {
        event.preventDefault();
        shortcuts[key]();
      }
    });
    draggable(root, {
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
          if (payload.cards.length !== 1) return;
          const rects = [...this.el.hand.querySelectorAll("[data-code]")].filter((n) => n.dataset.code !== payload.cards[0]).map((n) => n.getBoundingClientRect());
          let to = rects.findIndex((r) => point.x < r.left + r.width / 2);
          if (to < 0) to = rects.length;
          this.moveInHand(payload.cards[0], to);
          this.render();
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

onPage((root) => {
  for (const node of root.querySelectorAll("[data-romme-table]:not([data-ready])")) {
    node.dataset.ready = "true";
    node.rummy = new RommeTable(node);
  }
});
