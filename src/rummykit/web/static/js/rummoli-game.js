// The Rummoli table against the computer. The server decides everything: this script shows the
// seat's view, asks the player's decisions (the widow, the auction, the bets, a lead between
// cards of equal rank) and shows each step of the computer players and of the forced sequence
// card by card, at the pace chosen, with every event said in words.

import { setUpBoard } from "./rummoli-board.js";
import { loadWords } from "./rummoli-say.js";
import { ReplaySteps, TableBase, mount } from "./table-base.js";
import { addLog, el, storage, store } from "./table.js";

const PACE = { slow: 900, normal: 420, fast: 140, instant: 0 };
const PLAYS = new Set(["lead", "play", "colour_change"]);
// What the table is doing while a step passes, by the code of its event (see `stepStatus`).
const STAGES = {
  hand_start: "status_deal", ante: "status_deal", deal: "status_deal", player_out: "status_deal", players: "status_deal", hand_end: "status_deal",
  widow_swapped: "status_widow", widow_kept: "status_widow", widow_dead: "status_widow",
  bid: "status_auction", pass: "status_auction", auction_won: "status_auction",
  check: "status_poker", bet: "status_poker", call: "status_poker", raise: "status_poker", fold: "status_poker", poker_show: "status_poker", poker_won: "status_poker",
  extra_hands: "status_end", final_share: "status_end", final_show: "status_end", final_tie: "status_end", final_won: "status_end", cut: "status_end", game_end: "status_end", game_over: "status_end",
};
const SLOW_EVENTS = new Set(["lead", "play", "colour_change", "stop", "box_won", "poker_show", "poker_won", "went_out", "lead_passes", "blocked"]);
const SUIT_ORDER = "♣♠♥♦";
const RANK_ORDER = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function successor(code) {
  const rank = code.slice(0, -1);
  const i = RANK_ORDER.indexOf(rank);
  return i < 0 || i === RANK_ORDER.length - 1 ? null : RANK_ORDER[i + 1] + code.slice(-1);
}

// The runs of a hand's sequence: a new run starts whenever a card does not follow the last.
export function runsOf(plays) {
  const runs = [];
  let last = null;
  for (const [seat, code] of plays) {
    if (!last || successor(last) !== code) runs.push([]);
    runs[runs.length - 1].push([seat, code]);
    last = code;
  }
  return runs;
}

class RummoliTable extends TableBase {
  constructor(root, words, { replay = false } = {}) {
    super(root, {
      game: "rummoli",
      t: (key, params) => words.client(key, params),
      parts: { widow: "widow", say: "say", runs: "runs", hand: "hand", decide: "decide", standings: "standings" },
    });
    this.words = words;
    // The player's own seat is named as the sentences address the player ("you").
    this.names = this.players.map((p, seat) => (seat === this.seat ? words.client("you") : p.name));
    this.rules = { poker: this.view.poker, combos: this.view.combos };
    this.animating = false;
    this.waiting = [];
    this.endShown = false;
    this.board = setUpBoard(root.querySelector("[data-rm-board]"));
    if (replay) {
      // The replay of the finished game: each step as this seat saw it.
      const events = root.querySelector("[data-events]");
      this.replay = new ReplaySteps(root, {
        api: this.data.api,
        t: this.t,
        show: (frame, lines) => {
          events.replaceChildren(...lines.map((line) => el("li", {}, line)));
          this.fresh = new Set();
          this.render(frame, { passing: true });
          this.el.status.textContent = lines[lines.length - 1] ?? "";
        },
      });
      return;
    }
    // Whether the focus was last on a decision or the hand (see keepFocus).
    this.focusWaits = false;
    const follow = (event) => {
      if (!this.root.isConnected) return document.removeEventListener("focusin", follow);
      this.focusWaits = this.el.decide.contains(event.target) || this.el.hand.contains(event.target);
    };
    document.addEventListener("focusin", follow);
    // Whether the player uses the keys (then a focus moved for them is brought into sight) or
    // touches and clicks (then the page is never scrolled for them).
    this.keyed = false;
    const modality = (event) => {
      if (!this.root.isConnected) {
        document.removeEventListener("keydown", modality, true);
        document.removeEventListener("pointerdown", modality, true);
        return;
      }
      this.keyed = event.type === "keydown";
    };
    document.addEventListener("keydown", modality, true);
    document.addEventListener("pointerdown", modality, true);
    this.bindButtons({});
    // An option kept in this browser: stop at each card of the sequence the player holds, for
    // the player to play it (off: the forced cards pass at the chosen speed, like the others').
    this.ownCards = root.querySelector("[data-own-cards]");
    if (this.ownCards) {
      this.ownCards.checked = storage("rk-rummoli-own-cards", false);
      this.ownCards.addEventListener("change", () => store("rk-rummoli-own-cards", this.ownCards.checked));
    }
    this.chosen = null;
    this.start();
  }

  show(view, { initial = false } = {}) {
    if (!initial) {
      this.enqueue(view);
      return;
    }
    addLog(this.el.log, this.eventLines(view.events));
    this.render(view);
  }

  connection(state) {
    super.connection(state);
    if (state === "closed") this.el.status.textContent = this.t("connection_lost");
  }

  get pace() {
    return PACE[this.el.speed.value] ?? PACE.normal;
  }

  // --- the steps, one event at a time ----------------------------------------------------

  enqueue(view) {
    this.hideHint();
    this.waiting.push(view);
    if (!this.animating) this.animate();
  }

  async animate() {
    this.animating = true;
    try {
      while (this.waiting.length) {
        const view = this.waiting.shift();
        await this.playEvents(view);
        this.view = view;
        this.render(view);
      }
    } finally {
      this.animating = false;
      this.root.dataset.busy = "0";
    }
  }

  async playEvents(view) {
    const events = view.events ?? [];
    if (!view.step || !events.length) {
      addLog(this.el.log, this.eventLines(events));
      return;
    }
    this.root.dataset.busy = "1";
    const model = structuredClone(this.view);
    model.to_move = null;
    model.legal = [];
    model.choices = [];
    const said = [];
    let outcome = "";
    for (const event of events) {
      const line = event.text;
      said.push(line);
      if (event.code === "went_out" || event.code === "blocked") outcome = line;
      addLog(this.el.log, [line]);
      const mine = PLAYS.has(event.code) && event.seat === this.seat;
      if (mine && event.card === this.chosen) this.chosen = null;
      else if (mine && this.ownCards?.checked) {
        this.render(model, { passing: true });
        await this.pauseForOwnCard(event.card);
      }
      this.apply(model, event);
      this.el.say.textContent = line;
      this.el.status.textContent = this.stepStatus(event);
      if (event.code === "hand_end" && !view.is_over && this.pace > 0) {
        this.render(model, { passing: true });
        await this.pauseAtHandEnd(model, event, outcome);
        continue;
      }
      if (this.pace > 0 && SLOW_EVENTS.has(event.code)) {
        this.render(model, { passing: true });
        await sleep(this.pace);
      }
    }
    const others = events.some((e) => e.seat !== undefined && e.seat !== this.seat);
    if (others) this.el.announce.textContent = said.slice(-6).join(" ");
  }

  stepStatus(event) {
    // The table's status while the steps pass: what is being played, never "X is thinking".
    const w = this.words;
    if (PLAYS.has(event.code) || event.code === "stop" || event.code === "box_won") {
      return event.seat === this.seat && event.card ? w.client("status_own_card", { card: w.card(event.card) }) : w.client("status_sequence");
    }
    return w.client(STAGES[event.code] ?? "status_sequence");
  }

  pauseForOwnCard(code) {
    // The sequence reaches a card the player holds: the player plays it, with one tap on the
    // button or on the card, or Enter; the page does not scroll.
    return new Promise((resolve) => {
      const w = this.words;
      const go = () => {
        delete this.root.dataset.ownCard;
        this.el.decide.replaceChildren();
        resolve();
      };
      const button = el("button", { type: "button", class: "primary", "data-play-own": "" }, w.client("play_card", { card: w.card(code) }));
      button.addEventListener("click", go);
      this.el.decide.replaceChildren(el("p", { class: "rm-own-turn" }, w.client("your_card_now", { card: w.cardName(code) })), button);
      const card = this.el.hand.querySelector(`[data-code="${CSS.escape(code)}"]`);
      if (card) {
        card.classList.add("can-lead");
        card.addEventListener("click", go, { once: true });
      }
      this.el.status.textContent = w.client("your_card_now", { card: w.card(code) });
      this.root.dataset.ownCard = code;
      button.focus({ preventScroll: true });
    });
  }

  pauseAtHandEnd(model, event, outcome) {
    // Let the player see how the hand ended before the next deal.
    return new Promise((resolve) => {
      const button = el("button", { type: "button", class: "primary", "data-go-on": "" }, this.words.client("next_hand"));
      const note = el("p", { class: "rm-hand-over" }, this.words.client("hand_over", { hand: event.hand }), outcome ? el("span", {}, ` ${outcome}`) : null);
      this.el.decide.replaceChildren(note, button);
      this.el.status.textContent = this.words.client("hand_over", { hand: event.hand });
      this.root.dataset.paused = "1";
      button.addEventListener("click", () => {
        delete this.root.dataset.paused;
        this.keepFocus(() => this.el.decide.replaceChildren());
        resolve();
      });
      button.focus({ preventScroll: true });
    });
  }

  apply(model, event) {
    // The event's effect on what the table shows (the view that follows is the authority).
    const seat = event.seat;
    switch (event.code) {
      case "hand_start":
        model.hand_number = event.hand;
        model.dealer = event.dealer;
        model.plays = [];
        model.shows = {};
        model.won = {};
        model.passed = [];
        model.folded = [];
        model.contributed = model.contributed.map(() => 0);
        model.high_bid = 0;
        model.high_bidder = null;
        model.widow = null;
        this.fresh = new Set();
        break;
      case "ante":
        for (const s of event.seats) model.chips[s] -= event.chips;
        for (const box of Object.keys(model.board)) model.board[box] += event.seats.length;
        break;
      case "deal":
        model.hand_counts = event.cards.slice();
        model.widow_count = event.widow;
        if (model.hand_number !== this.view.hand_number) model.hand = [];
        break;
      case "bid":
        model.high_bid = event.chips;
        model.high_bidder = seat;
        break;
      case "pass":
        model.passed.push(seat);
        break;
      case "auction_won": // the widow's price, to the dealer
      case "payment": // a chip a card left in hand, to the player who went out
        model.chips[seat] -= event.chips;
        model.chips[event.to] += event.chips;
        break;
      case "fold":
        model.folded.push(seat);
        break;
      case "poker_show":
        model.shows[String(seat)] = { category: event.category, cards: event.cards };
        break;
      case "poker_won":
        for (const s of event.seats) {
          model.chips[s] += event.chips;
          model.board.poker -= event.chips;
        }
        break;
      case "box_won":
        model.chips[seat] += model.board[event.box];
        model.board[event.box] = 0;
        model.won[event.box] = seat;
        break;
      case "blocked_payment":
        model.chips[seat] -= event.chips;
        model.board.rummoli += event.chips;
        break;
      case "final_won":
        for (const box of Object.keys(model.board)) model.board[box] = 0;
        model.chips[seat] += event.chips;
        break;
      case "final_share": {
        // One event per player: each share leaves the board, box by box, until it is empty.
        let left = event.chips;
        for (const box of Object.keys(model.board)) {
          const taken = Math.min(left, model.board[box]);
          model.board[box] -= taken;
          left -= taken;
        }
        model.chips[seat] += event.chips;
        break;
      }
      default:
        if (PLAYS.has(event.code)) {
          model.plays.push([seat, event.card]);
          model.hand_counts[seat] = Math.max(0, model.hand_counts[seat] - 1);
          if (seat === this.seat) model.hand = model.hand.filter((c) => c !== event.card);
          this.fresh = new Set([event.card]);
        }
    }
  }

  // --- drawing -----------------------------------------------------------------------------

  face(code, { tag = "span", extra = "" } = {}) {
    const suit = code.slice(-1);
    const rank = this.words.rank(code.slice(0, -1));
    const red = suit === "♥" || suit === "♦";
    const attrs = { class: `pc pc-small ${red ? "pc-red" : "pc-black"} ${extra}`.trim(), dataset: { code }, "aria-label": this.words.cardName(code) };
    if (tag === "button") attrs.type = "button";
    else attrs.role = "img";
    return el(
      tag,
      attrs,
      el("span", { class: "pc-corner", "aria-hidden": "true" }, el("span", { class: "pc-rank" }, rank), el("span", { class: "pc-suit" }, suit)),
      el("span", { class: "pc-center", "aria-hidden": "true" }, suit),
    );
  }

  played(code, seat) {
    // A card of the sequence, named with who played it.
    const face = this.face(code, { extra: `${this.fresh.has(code) ? "fresh" : ""}${seat === this.seat ? " is-mine" : ""}` });
    face.setAttribute("aria-label", this.words.client("played_by", { card: this.words.cardName(code), name: this.names[seat] }));
    return face;
  }

  tiny(code, extra = "") {
    // A small face (the poker hands shown, the dead widow): rank over suit.
    const suit = code.slice(-1);
    const red = suit === "♥" || suit === "♦";
    return el(
      "span",
      { class: `rm-mini${red ? " rm-red" : ""} ${extra}`.trim(), role: "img", "aria-label": this.words.cardName(code), dataset: { code } },
      el("span", { "aria-hidden": "true" }, this.words.rank(code.slice(0, -1))),
      el("span", { "aria-hidden": "true" }, suit),
    );
  }

  render(model, { passing = false } = {}) {
    const w = this.words;
    const me = this.seat;
    const myTurn = !passing && model.to_move === me && !model.is_over;
    this.root.classList.toggle("my-turn", myTurn);
    this.root.dataset.phase = model.phase;
    this.root.dataset.hand = String(model.hand_number);
    this.el.round.textContent = model.hands
      ? w.client("hand_of", { hand: model.hand_number, hands: model.hands })
      : w.client("hand_n", { hand: model.hand_number });
    if (!passing) this.el.status.textContent = this.statusText(model);
    this.drawBoard(model);
    this.drawOpponents(model, passing);
    this.drawWidow(model);
    this.drawRuns(model);
    this.drawHand(model, myTurn);
    this.drawStandings(model);
    if (!passing) {
      this.enable("hint", myTurn && !this.sending);
      this.drawDecisions(model, myTurn);
      if (!model.plays.length && model.phase !== "lead") this.el.say.textContent = "";
    }
    if (!passing) {
      this.root.dataset.over = model.is_over ? "1" : "0";
      this.root.dataset.seq = String(model.seq);
    }
    if (model.is_over && !passing && !this.endShown) {
      this.endShown = true;
      this.openRoundEnd();
    }
  }

  statusText(model) {
    const w = this.words;
    if (model.is_over) return w.client("game_over");
    if (model.to_move !== this.seat) return w.client("waiting_for", { name: this.names[model.to_move] ?? "" });
    if (model.phase === "widow") return w.client("your_turn_widow");
    if (model.phase === "auction") {
      return model.high_bid ? w.client("your_turn_bid", { chips: w.chips(model.high_bid) }) : w.client("your_turn_bid_first");
    }
    if (model.phase === "betting") {
      const owed = model.bet_level - model.contributed[this.seat];
      return owed > 0 ? w.client("your_turn_call", { owed: w.chips(owed) }) : w.client("your_turn_bet");
    }
    return w.client("your_turn_lead");
  }

  drawBoard(model) {
    for (const [box, chips] of Object.entries(model.board)) {
      const button = this.board.button(box);
      button.querySelector("[data-chips]").textContent = this.words.chips(chips);
      const won = model.won?.[box];
      button.classList.toggle("is-won", won !== undefined);
      let tag = button.querySelector(".rm-box-tag");
      if (won !== undefined) {
        if (!tag) {
          tag = el("span", { class: "rm-box-tag" });
          button.append(tag);
        }
        tag.textContent = this.names[won];
      } else if (tag) tag.remove();
    }
    this.board.refresh();
  }

  drawOpponents(model, passing) {
    const w = this.words;
    const boxes = [];
    model.chips.forEach((chips, seat) => {
      if (seat === this.seat) return;
      const player = this.players[seat];
      const inGame = model.in_game[seat];
      const count = model.hand_counts[seat];
      const facts = [];
      if (seat === model.dealer) facts.push(el("span", { class: "badge badge-dealer" }, w.client("dealer")));
      if (!inGame) facts.push(el("span", { class: "badge" }, w.client("out_of_game")));
      if (model.phase === "auction" && model.passed.includes(seat)) facts.push(el("span", { class: "badge" }, w.client("passed")));
      if (model.high_bidder === seat && model.phase === "auction") facts.push(el("span", { class: "badge badge-open" }, w.client("bid_of", { chips: w.chips(model.high_bid) })));
      if (model.folded.includes(seat)) facts.push(el("span", { class: "badge" }, w.client("folded")));
      if (model.phase === "betting" && model.contributed[seat]) facts.push(el("span", { class: "badge badge-open" }, w.client("in_pot", { chips: w.chips(model.contributed[seat]) })));
      const show = model.shows?.[String(seat)];
      const fan = el("div", { class: "fan", "aria-hidden": "true" }, Array.from({ length: Math.min(count, 13) }, () => el("span", { class: "pc pc-back pc-mini" })));
      const onMove = !passing && model.to_move === seat && !model.is_over;
      boxes.push(
        el(
          "article",
          { class: `opponent rm-opponent${onMove ? " on-move" : ""}${inGame ? "" : " is-out"}`, dataset: { seat: String(seat) } },
          el("div", { class: "opponent-name" }, el("strong", {}, player.name), player.level ? el("span", { class: "level" }, player.level) : null),
          el("div", { class: "opponent-facts" }, el("span", { class: "rm-seat-chips" }, w.chips(chips)), el("span", {}, w.client("cards_in_hand", { cards: w.cards(count) })), facts),
          count ? fan : null,
          show ? el("div", { class: "rm-show" }, el("span", { class: "rm-poker-label" }, w.label(show.category)), el("span", { class: "rm-show-cards" }, show.cards.map((c) => this.tiny(c)))) : null,
        ),
      );
    });
    this.el.opponents.replaceChildren(...boxes);
  }

  drawWidow(model) {
    const w = this.words;
    if (model.widow) {
      this.el.widow.replaceChildren(
        el("p", { class: "rm-widow-label" }, w.client("widow_yours")),
        el("div", { class: "rm-widow-cards" }, model.widow.map((c) => this.tiny(c, "is-widow"))),
      );
      return;
    }
    const stack = el("div", { class: "rm-widow-stack", "aria-hidden": "true" }, Array.from({ length: Math.min(model.widow_count, 3) }, () => el("span", { class: "pc pc-back pc-mini" })));
    this.el.widow.replaceChildren(stack, el("p", { class: "rm-widow-label" }, w.client("widow_face_down", { cards: w.cards(model.widow_count) })));
  }

  drawRuns(model) {
    const runs = runsOf(model.plays ?? []);
    const items = runs.map((run) =>
      el(
        "li",
        { class: "rm-run" },
        el(
          "ol",
          { class: "rm-run-cards" },
          run.map(([seat, code]) =>
            el("li", { title: this.words.client("played_by", { card: this.words.card(code), name: this.names[seat] }) }, this.played(code, seat)),
          ),
        ),
      ),
    );
    this.el.runs.replaceChildren(...items);
  }

  drawHand(model, myTurn) {
    const w = this.words;
    const choices = new Set(myTurn && model.phase === "lead" ? model.choices : []);
    const mine = model.shows?.[String(this.seat)];
    const best = new Set(mine ? mine.cards : []);
    const cards = [...model.hand].sort((a, b) => SUIT_ORDER.indexOf(a.slice(-1)) - SUIT_ORDER.indexOf(b.slice(-1)) || RANK_ORDER.indexOf(a.slice(0, -1)) - RANK_ORDER.indexOf(b.slice(0, -1)));
    const nodes = cards.map((code) => {
      if (choices.has(code)) {
        const button = this.face(code, { tag: "button", extra: "can-lead" });
        button.setAttribute("aria-label", w.client("lead_card", { card: w.cardName(code) }));
        button.addEventListener("click", () => this.send({ t: "play", card: code }));
        return button;
      }
      return this.face(code, { extra: best.has(code) ? "is-best" : "" });
    });
    this.el.hand.replaceChildren(...nodes);
    const parts = [w.chips(model.chips[this.seat])];
    if (mine) parts.push(w.label(mine.category));
    if (this.seat === model.dealer) parts.push(w.client("dealer"));
    this.el.me.textContent = parts.join(" · ");
  }

  drawStandings(model) {
    const w = this.words;
    const order = model.chips.map((chips, seat) => ({ chips, seat })).sort((a, b) => b.chips - a.chips || a.seat - b.seat);
    const top = order.length ? order[0].chips : 0;
    const rows = order.map(({ chips, seat }) =>
      el("li", { class: chips === top ? "leader" : "" }, el("span", {}, this.names[seat]), el("strong", { class: "num" }, w.chips(chips))),
    );
    this.el.standings.replaceChildren(el("ol", { class: "score-summary rm-standings" }, rows));
  }

  drawDecisions(model, myTurn) {
    const w = this.words;
    const panel = this.el.decide;
    if (!myTurn) {
      panel.replaceChildren();
      return;
    }
    const legal = model.legal ?? [];
    const has = (t) => legal.some((a) => a.t === t);
    const amounts = (t) => legal.filter((a) => a.t === t).map((a) => a.chips);
    const items = [];
    const amountField = (t, label) => {
      const values = amounts(t);
      if (!values.length) return null;
      const id = `rm-${t}-amount`;
      const input = el("input", { type: "number", id, min: Math.min(...values), max: Math.max(...values), value: Math.min(...values), inputmode: "numeric", class: "rm-amount", "data-amount": t });
      const button = el("button", { type: "button", class: "primary", "data-action": t }, label);
      button.addEventListener("click", () => {
        const chips = Number.parseInt(input.value, 10);
        this.send({ t, chips });
      });
      return el("div", { class: "rm-amount-row" }, el("label", { for: id }, w.client("chips_label")), input, button);
    };
    const plain = (t, label, cls = "secondary") => {
      const button = el("button", { type: "button", class: cls, "data-action": t }, label);
      button.addEventListener("click", () => this.send({ t }));
      return button;
    };
    if (model.phase === "widow") {
      if (has("swap_widow")) items.push(plain("swap_widow", w.client("take_widow"), "primary"));
      items.push(plain("keep_hand", w.client("keep_hand")));
    } else if (model.phase === "auction") {
      items.push(amountField("bid", w.client("bid")));
      items.push(plain("pass", w.client("pass")));
    } else if (model.phase === "betting") {
      if (has("check")) items.push(plain("check", w.client("check")));
      if (has("call")) {
        const owed = Math.min(model.bet_level - model.contributed[this.seat], model.chips[this.seat]);
        items.push(plain("call", w.client("call", { chips: w.chips(owed) }), "primary"));
      }
      items.push(amountField("bet", w.client("bet")));
      items.push(amountField("raise", w.client("raise")));
      items.push(plain("fold", w.client("fold")));
    } else if (model.phase === "lead") {
      for (const code of model.choices) {
        const button = el("button", { type: "button", class: "secondary", "data-action": "play", "data-card": code }, w.client("lead_card", { card: w.card(code) }));
        button.addEventListener("click", () => this.send({ t: "play", card: code }));
        items.push(button);
      }
    }
    this.keepFocus(() => panel.replaceChildren(...items.filter(Boolean)));
  }

  keepFocus(redraw) {
    // A decision made from the keyboard (or a lead card chosen in the hand) takes its button
    // away; the focus then waits, and goes to the first of the next decisions asked, so that
    // the keys reach them without going round the page again.
    redraw();
    const now = document.activeElement;
    if (!this.focusWaits || (now && now !== document.body && now.isConnected)) return;
    this.el.decide.querySelector("button:not(:disabled), input:not(:disabled)")?.focus({ preventScroll: !this.keyed });
  }

  isOver(view) {
    return view.is_over;
  }

  drawRoundEnd(box) {
    // The end of the game: the chips of every player, the most first.
    const w = this.words;
    const order = this.view.chips.map((chips, seat) => ({ chips, seat })).sort((a, b) => b.chips - a.chips || a.seat - b.seat);
    const top = order[0].chips;
    const rows = order.map(({ chips, seat }) =>
      el("tr", { class: chips === top ? "winner" : "" }, el("th", { scope: "row" }, this.names[seat]), el("td", { class: "num" }, w.chips(chips)), el("td", {}, chips === top ? w.client("winner") : "")),
    );
    box.replaceChildren(el("table", { class: "standings" }, el("tbody", {}, rows)));
  }

  // --- acting -------------------------------------------------------------------------------

  canApplyHint() {
    return true;
  }

  applyHint() {
    // Gets the suggested decision ready (its amount filled in) and points at it; the player
    // still makes it.
    const action = this.hintAction;
    if (!action) return;
    this.hideHint();
    const panel = this.el.decide;
    const amount = panel.querySelector(`[data-amount="${action.t}"]`);
    if (amount && action.chips !== undefined) amount.value = String(action.chips);
    const card = action.card === undefined ? "" : `[data-card="${CSS.escape(action.card)}"]`;
    const button = panel.querySelector(`[data-action="${action.t}"]${card}`);
    for (const other of panel.querySelectorAll(".is-hinted")) other.classList.remove("is-hinted");
    button?.classList.add("is-hinted");
    button?.focus();
  }

  send(action) {
    if (this.sending || this.animating) return Promise.resolve(false);
    this.showError("");
    // A lead the player chose is not stopped at again when its step is shown.
    this.chosen = action.t === "play" ? action.card : null;
    return super.send(action);
  }

  refresh() {
    // While the steps of a view are shown, the view that follows them is drawn at their end.
    if (this.animating) return;
    this.render(this.view);
    if (this.sending) for (const button of this.el.decide.querySelectorAll("button")) button.disabled = true;
  }
}

mount("rummoli-table", async (node) => new RummoliTable(node, await loadWords(node.dataset.lang), { replay: node.hasAttribute("data-replay") }));

