// The replay of a finished game, step by step as the player's seat saw it: ◀ ▶, the slider,
// and the arrow keys (Home and End jump to the start and the end).

import { onPage } from "./site.js";
import { el, getJSON, pageData, texts } from "./table.js";
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

class Replay {
  constructor(root) {
    this.root = root;
    this.data = pageData(root);
    this.t = texts(this.data.messages);
    this.kind = root.dataset.kind;
    this.index = 0;
    this.frames = [];
    this.slider = root.querySelector("[data-slider]");
    if (!this.slider) return;
    this.load();
  }

  async load() {
    const { status, data } = await getJSON(`${this.data.api}/replay`);
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
    const t = this.t;
    this.index = Math.max(0, Math.min(this.frames.length - 1, index));
    const view = this.frames[this.index];
    this.slider.value = String(this.index);
    this.root.querySelector("[data-step]").textContent = t("step_of", { n: this.index, total: this.frames.length - 1 });
    this.root.querySelector("[data-round]").textContent = view.rounds ? t("round_of", { round: view.round, rounds: view.rounds }) : t("round_n", { round: view.round });
    const lines = this.index === 0 ? [t("start_of_game")] : view.events.map((event) => event.text).filter(Boolean);
    this.root.querySelector("[data-events]").textContent = lines.join(" ");
    (this.kind === "romme" ? drawRomme : drawTiles)(this.root, t, this.data.players, view);
    const rows = this.data.players.map((p, seat) => el("li", {}, el("span", {}, p.name), el("strong", { class: "num" }, String(view.scores[seat]))));
    this.root.querySelector("[data-scores]").replaceChildren(el("ol", { class: "score-summary" }, rows));
    this.root.dataset.step = String(this.index);
  }

  bind() {
    this.root.querySelector("[data-prev]").addEventListener("click", () => this.go(this.index - 1));
    this.root.querySelector("[data-next]").addEventListener("click", () => this.go(this.index + 1));
    this.slider.addEventListener("input", () => this.go(Number(this.slider.value)));
    document.addEventListener("keydown", (event) => {
      if (!this.root.isConnected || event.target === this.slider || event.target.closest?.("input, select, textarea")) return;
      const moves = { ArrowLeft: -1, ArrowRight: 1 };
      if (event.key in moves) {
        event.preventDefault();
        this.go(this.index + moves[event.key]);
      } else if (event.key === "Home") {
        event.preventDefault();
        this.go(0);
      } else if (event.key === "End") {
        event.preventDefault();
        this.go(this.frames.length - 1);
      }
    });
  }
}

onPage((root) => {
  for (const node of root.querySelectorAll("[data-replay]:not([data-started])")) {
    node.dataset.started = "true";
    node.rummy = new Replay(node);
  }
});
