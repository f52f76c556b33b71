// The table every game is played at: what the Rommé, tile and Rummoli tables share. A game's
// table extends `TableBase` and keeps only what is its own: how its hand (or rack) and board are
// drawn, and its moves. The base owns the construction from the page's data, the queue of steps
// shown at the chosen speed, the live connection with its resync, sending an action and showing
// a refusal, the hint box, the round-end dialog, the log and the screen-reader announcements,
// and the player's own order of the cards or tiles in hand.

import { onPage } from "./site.js";
import { StepQueue, addLog, connect, el, getJSON, pageData, postJSON, storage, store, texts } from "./table.js";

// The page elements every table has (data-<name> in game.html), by the name the code uses.
const PARTS = {
  round: "round",
  status: "status",
  error: "error",
  announce: "announce",
  opponents: "opponents",
  log: "log",
  speed: "speed",
  me: "me",
  scores: "scores",
  dialog: "round-end",
  dialogBody: "round-end-body",
  hintBox: "hint-box",
  hintText: "hint-text",
  lessonText: "lesson-text",
};

// How many of the last sentences said aloud the live region keeps.
const ANNOUNCED = 12;

export class TableBase {
  // `game`: its name (in the keys of what the browser keeps); `parts`: the game's own elements
  // (name in the code -> data-<name>); `t`: the texts (by default the page's messages);
  // `sorts`: the sort modes of the hand, the first the default, `sorter(codes, mode)` sorts it;
  // `held`: the field of the view that lists the hand.
  constructor(root, { game, parts = {}, t = null, sorts = [], sorter = null, held = "hand" } = {}) {
    this.root = root;
    this.game = game;
    const data = pageData(root);
    this.data = data;
    this.t = t ?? texts(data.messages);
    this.players = data.players;
    this.seat = data.seat;
    this.view = data.view;
    this.selected = new Set();
    this.focus = null;
    this.fresh = new Set();
    this.sending = false;
    this.roundEndShown = null;
    this.hintAction = null;
    this.sorts = sorts;
    this.sorter = sorter;
    this.held = held;
    this.sortMode = sorts.length ? storage(`rk-${this.game}-sort`, sorts[0]) : null;
    this.order = storage(this.orderKey, []);
    const q = (name) => root.querySelector(`[data-${name}]`);
    this.el = Object.fromEntries(Object.entries({ ...PARTS, ...parts }).map(([key, name]) => [key, q(name)]));
    this.buttons = Object.fromEntries([...root.querySelectorAll("[data-act]")].map((b) => [b.dataset.act, b]));
  }

  get orderKey() {
    return `rk-order-${this.data.id}`;
  }

  // --- the live game: steps at a readable pace, the connection -------------------------------

  start() {
    // Shows the page's view and follows the game from there.
    const speed = storage("rk-speed", "normal");
    this.el.speed.value = speed;
    this.el.speed.addEventListener("change", () => {
      store("rk-speed", this.el.speed.value);
      this.queue.setSpeed(this.el.speed.value);
    });
    this.queue = new StepQueue({
      current: this.view.seq,
      show: (view) => this.show(view),
      isComputerStep: (view) => this.othersActed(view.events),
      speed,
    });
    this.show(this.view, { initial: true });
    this.socket = connect(this.data.ws, {
      since: () => this.queue.current,
      onView: (view) => {
        if (!this.root.isConnected) {
          this.socket.stop();
          return;
        }
        this.queue.push(view);
      },
      onState: (state) => this.connection(state),
    });
    this.root.dataset.ready = "true";
  }

  connection(state) {
    this.root.classList.toggle("offline", state === "closed");
  }

  othersActed(events) {
    return (events ?? []).some((e) => e.seat !== undefined && e.seat !== this.seat);
  }

  newOnTable(before, view, initial, codesOf) {
    // What has come onto the table since the view before (drawn as just arrived).
    const fresh = new Set();
    if (initial) return fresh;
    const had = new Set(before.table.flatMap(codesOf));
    for (const group of view.table) for (const code of codesOf(group)) if (!had.has(code)) fresh.add(code);
    return fresh;
  }

  // --- words: the log, the announcements, errors ---------------------------------------------

  eventLines(events) {
    // Each event as the server tells it, in the page's language and to this seat.
    return (events ?? []).map((event) => event.text);
  }

  tell(view, { initial = false } = {}) {
    // A view's events into the log; each event of another seat (or of the game itself) is
    // also said aloud, in the order it happened.
    const lines = this.eventLines(view.events);
    addLog(this.el.log, lines);
    if (initial) return;
    (view.events ?? []).forEach((event, index) => {
      if (event.seat !== this.seat && lines[index]) this.say(lines[index]);
    });
  }

  say(text) {
    // Each sentence is a new line at the end of the live region (a log), so that a screen
    // reader reads every one, in order, even the same sentence twice; the oldest go. The line
    // is added a moment later: a region that has just appeared is not yet listened to.
    const region = this.el.announce;
    setTimeout(() => {
      region.append(el("p", {}, text));
      while (region.children.length > ANNOUNCED) region.firstElementChild.remove();
    }, 30);
  }

  showError(text) {
    // A refusal stands under the buttons; shown, it is brought into sight if it is not.
    this.el.error.textContent = text;
    this.el.error.hidden = !text;
    if (text) this.el.error.scrollIntoView({ block: "nearest" });
  }

  afresh(run) {
    // A player's action: the refusal of the one before goes (this one may say its own).
    return (...args) => {
      this.showError("");
      return run(...args);
    };
  }

  enable(name, on) {
    const button = this.buttons[name];
    if (button) button.disabled = !on;
  }

  // --- what the Rommé and tile tables draw alike ----------------------------------------------

  renderCommon(myTurn) {
    const t = this.t;
    const view = this.view;
    this.root.dataset.phase = view.phase;
    this.root.classList.toggle("my-turn", myTurn);
    this.el.round.textContent = view.rounds ? t("round_of", { round: view.round, rounds: view.rounds }) : t("round_n", { round: view.round });
    this.el.status.textContent = this.statusText();
    this.el.me.textContent = `${view.opened[this.seat] ? t("opened") : t("not_opened")} · ${t("total")}: ${view.scores[this.seat]}`;
    for (const mode of this.sorts) this.buttons[`sort-${mode}`].setAttribute("aria-pressed", String(this.sortMode === mode));
    this.buttons.scores.hidden = !this.isOver(view) && view.phase !== "round_over";
    const rows = this.players.map((p, seat) => el("li", {}, el("span", {}, p.name), el("strong", { class: "num" }, String(view.scores[seat]))));
    this.el.scores.replaceChildren(el("ol", { class: "score-summary" }, rows), el("p", { class: "score-rule" }, t(this.lowWins(view) ? "low_wins" : "high_wins")));
  }

  lowWins(view) {
    // Whether the lowest total wins the game (penalty points), as in Rommé.
    return true;
  }

  isOver(view) {
    return view.phase === "game_over";
  }

  // --- talking to the server -----------------------------------------------------------------

  async send(action) {
    this.sending = true;
    this.refresh();
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
      this.refresh();
      return true;
    }
    if (status === 409 && data?.view) {
      this.showError(data.error.message);
      this.queue.push(data.view);
    } else if (data?.error) {
      this.showError(this.refusal(data.error.message));
    } else {
      this.showError(this.t("connection_lost"));
    }
    this.refresh();
    return false;
  }

  refusal(message) {
    // A refused action in words (a game may say more about it).
    return message;
  }

  refresh() {
    this.render();
  }

  render() {
    // Draws the game's view (`drawView`); a focus the drawing took away (its element redrawn or
    // disabled) goes to the hand, so the next key still reaches the table.
    const before = document.activeElement;
    const held = before && before !== document.body && this.root.contains(before);
    this.drawView();
    if (this.guided) this.guide();
    if (held && this.focusLost()) this.focusHand();
  }

  // --- the guided first game (?guide=1) ----------------------------------------------------------

  get guided() {
    return new URLSearchParams(location.search).has("guide") || Boolean(this.data.lesson);
  }

  get inLesson() {
    // A lesson's game (the page's data names its lesson) until its last step is played.
    return Boolean(this.data.lesson) && !this.lessonDone;
  }

  async lessonStep() {
    // The lesson's step awaited: its words in the hint box (and said aloud), its cards or tiles
    // marked, its move ready for "Lay it out for me"; after the last step, the closing words.
    const { status, data } = await getJSON(this.data.lesson);
    if (status !== 200 || data.seq !== this.view.seq) return;
    this.step = data;
    if (data.done) {
      this.lessonDone = true;
      this.el.lessonText.textContent = data.text;
      this.el.lessonText.hidden = false;
      this.say(data.text);
      this.guidedSeq = null;
      return;
    }
    this.hintAction = data.action;
    this.el.hintText.textContent = data.text;
    this.el.hintBox.hidden = false;
    this.buttons["apply-hint"].hidden = !(data.action && this.canApplyHint(data.action));
    this.say(data.text);
  }

  guide() {
    // At each of the learner's decisions the hint is asked for once and stays on show, in the
    // page's language, and what it uses is marked: the cards or tiles in hand, the pile to draw
    // from. The learner still makes the move; a wrong one is refused with the engine's reason.
    // In a lesson, the lesson's step takes the hint's place until the last step is played.
    const view = this.view;
    const mine = view.to_move === this.seat && !this.isOver(view) && view.phase !== "round_over";
    const settled = !this.sending && !this.queue?.busy && this.guidedSeq !== view.seq;
    if (this.inLesson && settled && (mine || this.isOver(view))) {
      this.guidedSeq = view.seq;
      this.hideHint();
      this.step = null;
      this.lessonStep().then(() => this.guideAgain(this.step, view.seq));
      return;
    }
    if (this.inLesson) return this.mark(mine && this.step && !this.step.done ? this.step : null);
    if (mine && settled) {
      this.guidedSeq = view.seq;
      this.hint({ quiet: true }).then(() => this.guideAgain(this.hintAction, view.seq));
      return;
    }
    this.mark(null);
    const action = mine ? this.hintAction : null;
    if (!action) return;
    if (action.t === "draw") {
      const pile = action.source === "discard" ? this.root.querySelector("[data-discard-pile]") : this.root.querySelector("[data-stock]");
      (pile ?? this.buttons.draw)?.classList.add("guide-pick");
      return;
    }
    const codes = new Set();
    const collect = (value) => {
      if (typeof value === "string") codes.add(value);
      else if (Array.isArray(value)) value.forEach(collect);
      else if (value && typeof value === "object") Object.values(value).forEach(collect);
    };
    collect(action);
    for (const node of this.el.hand.querySelectorAll("[data-code]")) if (codes.has(node.dataset.code)) node.classList.add("guide-pick");
    this.showPicked();
  }

  guideAgain(came, seq) {
    // A lesson's step or a piece of advice that did not come for the position ``seq`` (the
    // server or the computer was busy) is asked for again a moment later, a dozen times at most.
    if (!came && this.view.seq === seq && (this.guideTries = (this.guideTries ?? 0) + 1) < 12) {
      setTimeout(() => {
        this.guidedSeq = null;
        this.render();
      }, 1500);
    } else this.guideTries = 0;
    this.render();
  }

  mark(step) {
    // A lesson's step: its cards or tiles in hand ringed in gold, and the pile when it is a draw.
    for (const node of this.root.querySelectorAll(".guide-pick")) {
      node.classList.remove("guide-pick");
      node.removeAttribute("aria-describedby");
    }
    if (!step) return;
    const codes = new Set(step.highlight);
    if (codes.has("stock")) (this.root.querySelector("[data-stock]") ?? this.buttons.draw)?.classList.add("guide-pick");
    // A ringed card read by a screen reader is followed by the step that uses it.
    for (const node of this.el.hand.querySelectorAll("[data-code]")) {
      if (!codes.has(node.dataset.code)) continue;
      node.classList.add("guide-pick");
      node.setAttribute("aria-describedby", this.el.hintText.id);
    }
    this.showPicked();
  }

  showPicked() {
    // A long hand scrolls sideways: the first ringed card is brought into its view (a card
    // just drawn goes to the end of the hand, out of sight on a narrow screen).
    this.el.hand.querySelector(".guide-pick")?.scrollIntoView({ block: "nearest", inline: "nearest" });
  }

  focusLost() {
    const now = document.activeElement;
    return !now || now === document.body || !now.isConnected || now.disabled === true;
  }

  focusHand() {
    // The focus on the hand: its card that the arrows last reached, or the hand itself.
    const hand = this.el.hand;
    if (!hand || this.el.dialog.open) return;
    const item = hand.querySelector('[data-code][tabindex="0"]') ?? hand.querySelector("[data-code]");
    (item ?? hand).focus();
  }

  async nextRound() {
    this.el.dialog.close();
    await this.send({ t: "next_round" });
    this.focusHand();
  }

  // --- the hint --------------------------------------------------------------------------------

  async hint({ quiet = false } = {}) {
    // `quiet`: advice that does not come says nothing (the guided game asks again by itself).
    this.hideHint();
    const { status, data } = await getJSON(`${this.data.api}/hint`);
    if (status !== 200) {
      if (data?.error && !quiet) this.showError(data.error.message);
      return;
    }
    if (data.seq !== this.view.seq) return;
    this.hintAction = data.action;
    this.el.hintText.textContent = data.text;
    this.el.hintBox.hidden = false;
    this.buttons["apply-hint"].hidden = !(data.action && this.canApplyHint(data.action));
  }

  hideHint() {
    this.hintAction = null;
    if (this.buttons["apply-hint"]) this.buttons["apply-hint"].hidden = true;
    // A lesson's step stays on show until the move is made.
    if (this.inLesson && this.step && !this.step.done && this.step.seq === this.view.seq) return;
    this.el.hintBox.hidden = true;
  }

  canApplyHint() {
    return false;
  }

  // --- the end of a round ----------------------------------------------------------------------

  openRoundEnd() {
    this.drawRoundEnd(this.el.dialogBody);
    const over = this.isOver(this.view);
    if (this.buttons["next-round"]) this.buttons["next-round"].hidden = over;
    this.root.querySelector("[data-replay-link]").hidden = !over;
    this.root.querySelector("[data-new-link]").hidden = !over;
    if (!this.el.dialog.open) this.el.dialog.showModal();
  }

  roundEndOnce() {
    // Opens the round-end dialog the first time the view shows that round's end.
    const view = this.view;
    const key = `${view.round}-${view.phase}`;
    if (view.round_end && this.roundEndShown !== key) {
      this.roundEndShown = key;
      this.openRoundEnd();
    }
  }

  // --- the player's own order of the hand --------------------------------------------------------

  mergeOrder(newRound) {
    // New cards go to the end; after a new deal (or without an order) the hand is sorted.
    const items = this.view[this.held];
    if (newRound || !this.order.length) {
      this.order = this.sorter(items, this.sortMode);
    } else {
      const held = new Set(items);
      this.order = this.order.filter((c) => held.has(c));
      const known = new Set(this.order);
      for (const code of items) if (!known.has(code)) this.order.push(code);
    }
    store(this.orderKey, this.order);
  }

  moveInOrder(code, to) {
    // Moves a card to place `to` among those shown in the hand now.
    const order = this.order.filter((c) => c !== code);
    const anchor = this.handNow().filter((c) => c !== code)[to];
    const index = anchor === undefined ? order.length : order.indexOf(anchor);
    if (index < 0) return;
    order.splice(index, 0, code);
    this.order = order;
    store(this.orderKey, this.order);
  }

  sort(mode) {
    this.sortMode = mode;
    store(`rk-${this.game}-sort`, mode);
    this.order = this.sorter(this.view[this.held], mode);
    store(this.orderKey, this.order);
    this.render();
  }

  // --- input -------------------------------------------------------------------------------------

  toggle(code) {
    if (this.selected.has(code)) this.selected.delete(code);
    else this.selected.add(code);
    this.focus = code;
    this.render();
    const selector = `[data-code="${CSS.escape(code)}"]`;
    (this.el.hand.querySelector(selector) ?? this.el.table.querySelector(selector))?.focus();
  }

  clearSelection() {
    this.selected.clear();
    this.render();
  }

  bindButtons(acts) {
    // The buttons of the page (data-act) with the game's own actions beside the shared ones.
    const moves = { "apply-hint": () => this.applyHint(), "next-round": () => this.nextRound(), ...acts };
    const act = {
      hint: () => this.hint(),
      scores: () => this.openRoundEnd(),
      "close-dialog": () => this.el.dialog.close(),
      ...Object.fromEntries(Object.entries(moves).map(([name, run]) => [name, this.afresh(run)])),
    };
    for (const [name, button] of Object.entries(this.buttons)) if (act[name]) button.addEventListener("click", act[name]);
  }

  bindKeys(shortcuts) {
    // One-letter shortcuts of the table, wherever the focus is on the page (not while typing
    // in a field, nor while a dialog is open, nor with Alt or the command key; with Ctrl only
    // Ctrl+Z). After a shortcut the focus is on the hand unless it is somewhere of use.
    const moves = Object.fromEntries(Object.entries(shortcuts).map(([key, run]) => [key, this.afresh(run)]));
    const keys = { h: () => this.hint(), escape: () => this.clearSelection(), ...moves };
    const listener = async (event) => {
      if (!this.root.isConnected) {
        document.removeEventListener("keydown", listener);
        return;
      }
      if (event.defaultPrevented || this.el.dialog.open || event.target.closest?.("input, select, textarea, dialog, [contenteditable]")) return;
      if ((event.ctrlKey && event.key !== "z") || event.metaKey || event.altKey) return;
      const run = keys[event.key.toLowerCase()];
      if (!run) return;
      event.preventDefault();
      await run();
      if (this.focusLost() || !this.root.contains(document.activeElement)) this.focusHand();
    };
    document.addEventListener("keydown", listener);
  }

  bindHand(nameOf) {
    // The hand by pointer and keyboard: a click selects, the arrows move along it (Home and End
    // to its ends), Shift or Alt with an arrow moves the card within it. Space selects as it goes
    // down, not through the click a button makes when it comes up: a step drawn in between (a
    // computer's move arriving) redraws the card, and the click of a key released on the new
    // card was lost.
    const hand = this.el.hand;
    hand.addEventListener("click", (event) => {
      const item = event.target.closest("[data-code]");
      if (item) this.toggle(item.dataset.code);
    });
    hand.addEventListener("keydown", (event) => {
      const item = event.target.closest("[data-code]");
      if (!item) return;
      const code = item.dataset.code;
      const codes = this.handNow();
      const index = codes.indexOf(code);
      const within = (i) => Math.max(0, Math.min(codes.length - 1, i));
      let next = null;
      if (event.key === " " && !event.shiftKey && !event.altKey) {
        event.preventDefault(); // no click when it comes up
        if (!event.repeat) this.toggle(code);
        return;
      }
      if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
        const step = event.key === "ArrowLeft" ? -1 : 1;
        if (event.shiftKey || event.altKey) {
          const to = within(index + step);
          this.moveInOrder(code, to);
          this.focus = code;
          this.render();
          this.say(this.t("moved", { card: nameOf(code), n: to + 1 }));
          next = code;
        } else next = codes[within(index + step)];
      } else if (event.key === "Home") next = codes[0];
      else if (event.key === "End") next = codes[codes.length - 1];
      if (next) {
        event.preventDefault();
        this.focus = next;
        for (const node of hand.querySelectorAll("[data-code]")) node.tabIndex = node.dataset.code === next ? 0 : -1;
        hand.querySelector(`[data-code="${CSS.escape(next)}"]`)?.focus();
      }
    });
  }

  dropInHand(code, point) {
    // A card dropped on the hand goes where it was let go (a hand may wrap onto more rows).
    const rects = [...this.el.hand.querySelectorAll("[data-code]")].filter((n) => n.dataset.code !== code).map((n) => n.getBoundingClientRect());
    const lastRow = Math.max(...rects.map((r) => r.bottom));
    let to = rects.findIndex((r) => (point.y < r.bottom || r.bottom >= lastRow) && point.x < r.left + r.width / 2);
    if (to < 0) to = rects.length;
    this.moveInOrder(code, to);
    this.render();
  }
}

export class ReplaySteps {
  // The replay of a finished game, step by step as the player's seat saw it: ◀ ▶, the slider,
  // and the arrow keys (Home and End jump to the start and the end). `show(frame, lines)` draws
  // a step with its events in words.
  constructor(root, { api, t, show }) {
    this.root = root;
    this.api = api;
    this.t = t;
    this.show = show;
    this.index = 0;
    this.frames = [];
    this.slider = root.querySelector("[data-slider]");
    if (this.slider) this.load();
  }

  async load() {
    const { status, data } = await getJSON(`${this.api}/replay`);
    if (status !== 200) {
      this.root.querySelector("[data-events]").textContent = data?.error?.message ?? "";
      return;
    }
    this.frames = data.frames;
    this.slider.max = String(this.frames.length - 1);
    this.bind();
    this.go(0);
    this.root.dataset.ready = "loaded";
  }

  go(index) {
    this.index = Math.max(0, Math.min(this.frames.length - 1, index));
    const frame = this.frames[this.index];
    this.slider.value = String(this.index);
    this.root.querySelector("[data-step]").textContent = this.t("step_of", { n: this.index, total: this.frames.length - 1 });
    const lines = this.index === 0 ? [this.t("start_of_game")] : frame.events.map((event) => event.text).filter(Boolean);
    this.show(frame, lines);
    this.root.dataset.step = String(this.index);
  }

  bind() {
    this.root.querySelector("[data-prev]").addEventListener("click", () => this.go(this.index - 1));
    this.root.querySelector("[data-next]").addEventListener("click", () => this.go(this.index + 1));
    this.slider.addEventListener("input", () => this.go(Number(this.slider.value)));
    document.addEventListener("keydown", (event) => {
      if (!this.root.isConnected || event.altKey || event.ctrlKey || event.metaKey) return;
      if (event.target.closest?.("input, select, textarea")) return;
      const moves = { ArrowLeft: this.index - 1, ArrowRight: this.index + 1, Home: 0, End: this.frames.length - 1 };
      if (!(event.key in moves)) return;
      event.preventDefault();
      this.go(moves[event.key]);
    });
  }
}

export function mount(name, create) {
  // Starts a table (or its replay) on every element data-<name> of the page, once each.
  onPage((root) => {
    for (const node of root.querySelectorAll(`[data-${name}]:not([data-started])`)) {
      node.dataset.started = "true";
      const table = create(node);
      if (table instanceof Promise) table.then((made) => (node.rummy = made));
      else node.rummy = table;
    }
  });
}
