// The replay of a finished Rommé or tile-rummy game: each step drawn as the seat saw it.

import { ReplaySteps, mount } from "./table-base.js";
import { el, pageData, texts } from "./table.js";
import * as romme from "./romme-view.js";
import * as tiles from "./tiles-view.js";

function drawRomme(root, t, players, view) {
  const q = (name) => root.querySelector(`[data-${name}]`);
  romme.drawOpponents(q("opponents"), t, players, view);
  romme.drawPiles(q("stock"), q("discard-pile"), t, view);
  const melds = view.table.map((m) => ({ ...m, pendingCards: new Set() }));
  romme.drawMelds(q("table"), t, players, melds, []);
  romme.drawHand(q("hand"), t, romme.sortCards(view.hand, "suit"));
}

function drawTiles(root, t, players, view) {
  const q = (name) => root.querySelector(`[data-${name}]`);
  tiles.drawOpponents(q("opponents"), t, players, view);
  q("pool").textContent = t("pool_count", { n: view.pool });
  tiles.drawSets(q("table"), t, view.table.map((s) => s.tiles), { meanings: tiles.jokerMeanings(view) });
  tiles.drawRack(q("hand"), t, tiles.sortTiles(view.rack, "colour"));
}

function replay(root) {
  const data = pageData(root);
  const t = texts(data.messages);
  const draw = root.dataset.kind === "romme" ? drawRomme : drawTiles;
  return new ReplaySteps(root, {
    api: data.api,
    t,
    show: (view, lines) => {
      root.querySelector("[data-round]").textContent = view.rounds ? t("round_of", { round: view.round, rounds: view.rounds }) : t("round_n", { round: view.round });
      root.querySelector("[data-events]").textContent = lines.join(" ");
      draw(root, t, data.players, view);
      const rows = data.players.map((p, seat) => el("li", {}, el("span", {}, p.name), el("strong", { class: "num" }, String(view.scores[seat]))));
      root.querySelector("[data-scores]").replaceChildren(el("ol", { class: "score-summary" }, rows));
    },
  });
}

mount("replay", replay);
