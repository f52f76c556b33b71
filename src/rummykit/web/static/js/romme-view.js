// Drawing a Rommé view: opponents, stock and discard pile, the melds on the table, the hand.
// Used by the live table (romme.js) and by the replay viewer (table-replay.js).

import { cardBack, cardFace, cardName, drawOpponents as drawSeats, drawRoundEnd as drawScores, el, isRed, listItem, parseCard, rankNumber, seatName, sortBy } from "./table.js";

const SUIT_ORDER = { "♠": 0, "♥": 1, "♣": 2, "♦": 3 };

export function sortCards(cards, mode) {
  return sortBy(cards, (code) => {
    const card = parseCard(code);
    if (card.joker) return [1, 0, 0, code];
    const rank = rankNumber(card.rank);
    return mode === "rank" ? [0, rank, SUIT_ORDER[card.suit], code] : [0, SUIT_ORDER[card.suit], rank, code];
  });
}

export function jokerLabel(t, stands) {
  if (!stands || !stands.length) return t("joker");
  if (stands.length === 1) return t("joker_for", { card: stands[0].rank + stands[0].suit });
  return t("joker_for_any", { rank: stands[0].rank });
}

export function drawOpponents(container, t, players, view) {
  drawSeats(container, t, players, view, {
    counts: view.hand_sizes,
    one: "card_left",
    many: "cards_left",
    fan: (count) => el("span", { class: "fan", "aria-hidden": "true" }, Array.from({ length: Math.min(count, 9) }, () => cardBack("pc-mini"))),
  });
}

export function drawPiles(stock, discard, t, view, { canStock = false, canDiscard = false, dropDiscard = false } = {}) {
  stock.replaceChildren(
    el("span", { class: "pile-stack", "aria-hidden": "true" }, view.stock ? [cardBack(), cardBack(), cardBack()] : el("span", { class: "pc pc-empty" })),
    el("span", { class: "pile-count", "aria-hidden": "true" }, String(view.stock)),
  );
  stock.setAttribute("aria-label", t("stock_count", { n: view.stock }));
  stock.disabled = !canStock;
  stock.classList.toggle("can-act", canStock);
  const top = view.discard[view.discard.length - 1];
  const cards = view.discard.map((code, i) => cardFace(t, code, { label: false, extra: i === view.discard.length - 1 ? "pile-top" : "pile-under" }));
  discard.replaceChildren(
    el("span", { class: "pile-stack", "aria-hidden": "true" }, cards.length ? cards : el("span", { class: "pc pc-empty" })),
    el("span", { class: "pile-count", "aria-hidden": "true" }, String(view.discard_count)),
  );
  discard.setAttribute("aria-label", top ? t("discard_top", { card: cardName(t, top) }) + " · " + t("discard_count", { n: view.discard_count }) : t("discard_empty"));
  discard.disabled = !(canDiscard || dropDiscard);
  discard.classList.toggle("can-act", canDiscard);
  if (dropDiscard) discard.dataset.drop = "discard";
  else delete discard.dataset.drop;
}

export function drawMelds(container, t, players, melds, pending, { interactive = false, fresh = new Set() } = {}) {
  // melds: [{id, kind, owner, cards, stands, pendingCards:Set}], pending: [{cards}]. The table
  // is a list of melds, each named by its owner and its cards.
  container.setAttribute("role", "list");
  container.replaceChildren();
  const bySeat = new Map();
  for (const meld of melds) {
    if (!bySeat.has(meld.owner)) bySeat.set(meld.owner, []);
    bySeat.get(meld.owner).push(meld);
  }
  for (const meld of melds) {
    const owner = seatName(players, meld.owner);
    const cards = meld.cards.map((code, index) => {
      const isJoker = parseCard(code).joker;
      const extra = [meld.pendingCards?.has(code) ? "pending-card" : "", fresh.has(code) ? "fresh" : ""].filter(Boolean).join(" ");
      if (isJoker && interactive) {
        const button = cardFace(t, code, { tag: "button", extra: `${extra} table-joker` });
        button.setAttribute("aria-label", jokerLabel(t, meld.stands[index]));
        button.dataset.joker = code;
        button.dataset.meld = String(meld.id);
        return button;
      }
      const face = cardFace(t, code, { extra });
      if (isJoker) face.setAttribute("aria-label", jokerLabel(t, meld.stands[index]));
      if (isJoker && meld.stands[index]?.length === 1) {
        const s = meld.stands[index][0];
        face.append(el("span", { class: `stands${isRed(s.suit) ? " red" : ""}`, "aria-hidden": "true" }, s.rank + s.suit));
      }
      return face;
    });
    const names = meld.cards.map((c, i) => (parseCard(c).joker ? jokerLabel(t, meld.stands[i]) : cardName(t, c)));
    const box = el(
      "div",
      {
        class: `meld meld-${meld.kind}${meld.pendingCards?.size ? " has-pending" : ""}`,
        role: "group",
        "aria-label": `${t("meld_of", { name: owner })}: ${names.join(", ")}`,
        dataset: { meld: String(meld.id), kind: meld.kind, ...(interactive ? { drop: "meld" } : {}) },
        tabindex: interactive ? "0" : null,
      },
      el("span", { class: "meld-owner", "aria-hidden": "true" }, owner),
      el("span", { class: "meld-cards" }, cards),
    );
    container.append(listItem(box));
  }
  pending.forEach((meld, index) => {
    const box = el(
      "div",
      {
        class: "meld meld-new",
        role: "group",
        "aria-label": `${t("new_meld")}: ${meld.cards.map((c) => cardName(t, c)).join(", ")}`,
        dataset: { pending: String(index), ...(interactive ? { drop: "pending" } : {}) },
        tabindex: interactive ? "0" : null,
      },
      el("span", { class: "meld-owner", "aria-hidden": "true" }, t("new_meld")),
      el("span", { class: "meld-cards" }, meld.cards.map((code) => cardFace(t, code, { extra: "pending-card" }))),
    );
    container.append(listItem(box));
  });
  spreadMelds(container);
}

export function spreadMelds(container) {
  // The cards of a meld overlap only where the table lacks room: spread out, each card shows
  // its corner and a joker what it stands for, unless that takes the table more lines.
  container.classList.remove("melds-spread");
  const closed = container.offsetHeight;
  container.classList.add("melds-spread");
  if (container.offsetHeight > closed) container.classList.remove("melds-spread");
}

window.addEventListener("resize", () => {
  for (const container of document.querySelectorAll(".melds[data-table]")) spreadMelds(container);
});

export function drawHand(container, t, cards, { selected = new Set(), interactive = false, focus = null, fresh = new Set(), picked = null } = {}) {
  // A list of the cards, each named (screen readers say "list, 14 items").
  container.setAttribute("role", "list");
  container.replaceChildren();
  cards.forEach((code, index) => {
    const extra = [fresh.has(code) ? "fresh" : "", code === picked ? "picked" : ""].filter(Boolean).join(" ");
    const card = cardFace(t, code, { tag: interactive ? "button" : "span", extra });
    card.style.setProperty("--i", String(index));
    if (interactive) {
      card.setAttribute("aria-pressed", selected.has(code) ? "true" : "false");
      card.tabIndex = code === focus || (focus === null && index === 0) ? 0 : -1;
      card.dataset.index = String(index);
    }
    container.append(listItem(card));
  });
  if (interactive && cards.length && !cards.includes(focus) && focus !== null) {
    container.querySelector("[data-code]").tabIndex = 0;
  }
}

export function drawRoundEnd(box, t, players, view) {
  // The penalty of every hand card by card, Hand-Rommé, the running scores and the winners.
  const end = view.round_end;
  if (!end) return box.replaceChildren();
  const rows = end.hands.map((hand, seat) => {
    let note = "";
    if (seat === end.winner) note = end.penalties[seat] < 0 ? t("credit") : t("went_out");
    else if (end.flat[seat]) note = t("flat100");
    else if (end.hand_romme && end.penalties[seat] > 0) note = t("doubled");
    return { items: hand.map((item) => [cardFace(t, item.card, { extra: "pc-small" }), item.value]), total: end.penalties[seat], note };
  });
  const handRomme = end.winner !== null && end.winner !== undefined && end.hand_romme ? el("strong", { class: "hand-romme" }, ` ${t("ev_hand_romme")}`) : null;
  drawScores(box, t, players, view, { rows, winnerNote: handRomme });
}

export function displayTable(view, steps) {
  // The table and hand as they look with the turn's uncommitted steps.
  const melds = view.table.map((m) => ({ ...m, cards: [...m.cards], stands: [...m.stands], numbers: [...m.numbers], pendingCards: new Set() }));
  const byId = new Map(melds.map((m) => [m.id, m]));
  const pending = [];
  const used = new Set();
  const freed = [];
  for (const step of steps) {
    if (step.t === "exchange") {
      const meld = byId.get(step.meld);
      const index = meld.cards.indexOf(step.joker);
      meld.cards[index] = step.card;
      meld.stands[index] = null;
      meld.pendingCards.add(step.card);
      used.add(step.card);
      freed.push(step.joker);
    } else if (step.t === "meld") {
      pending.push({ cards: [...step.cards] });
      step.cards.forEach((c) => used.add(c));
    } else if (step.t === "add") {
      pending[step.meld].cards.push(step.card);
      used.add(step.card);
    } else if (step.t === "layoff") {
      const meld = byId.get(step.meld);
      if (step.end === "low") {
        meld.cards.unshift(step.card);
        meld.stands.unshift(null);
        meld.numbers.unshift(meld.numbers[0] - 1);
      } else {
        meld.cards.push(step.card);
        meld.stands.push(null);
        meld.numbers.push(meld.numbers[meld.numbers.length - 1] + 1);
      }
      meld.pendingCards.add(step.card);
      used.add(step.card);
    }
  }
  return { melds, pending, used, freed: freed.filter((j) => !used.has(j)) };
}
