// Drawing a tile-rummy view: opponents, pool, the sets on the table, the rack; the end of a
// round. Used by the live table (tiles.js) and the replay viewer.

import { drawOpponents as drawSeats, drawRoundEnd as drawScores, el, listItem, parseTile, sortBy, tileFace, tileMark, tileName } from "./table.js";

const COLOURS = "rbky";

export function sortTiles(tiles, mode) {
  return sortBy(tiles, (code) => {
    const tile = parseTile(code);
    if (tile.joker) return [1, 0, 0, code];
    const colour = COLOURS.indexOf(tile.colour);
    return mode === "number" ? [0, tile.number, colour, code] : [0, colour, tile.number, code];
  });
}

export function arrange(tiles, meanings = new Map(), numbers = 13) {
  // The order a set is laid in: a group by colour, a run by number with each joker where it
  // stood before (when it still can) and new jokers in the gaps, then at the ends. Only a
  // convenience for the player: the server judges the set as it is sent.
  const naturals = tiles.filter((c) => !parseTile(c).joker);
  const jokers = tiles.filter((c) => parseTile(c).joker);
  if (!naturals.length) return [...tiles];
  const nums = new Set(naturals.map((c) => parseTile(c).number));
  const colours = new Set(naturals.map((c) => parseTile(c).colour));
  if (nums.size === 1) return [...sortTiles(naturals, "colour"), ...jokers];
  if (colours.size !== 1) return sortTiles(tiles, "number");
  const colour = [...colours][0];
  const place = new Map();
  for (const code of naturals) {
    const n = parseTile(code).number;
    if (place.has(n)) return sortTiles(tiles, "number");
    place.set(n, code);
  }
  const rest = [];
  for (const joker of jokers) {
    const meaning = meanings.get(joker);
    if (meaning && meaning.c === colour && !place.has(meaning.n)) place.set(meaning.n, joker);
    else rest.push(joker);
  }
  let low = Math.min(...place.keys());
  let high = Math.max(...place.keys());
  for (let n = low; n <= high && rest.length; n += 1) if (!place.has(n)) place.set(n, rest.shift());
  while (rest.length) {
    if (high < numbers) place.set(++high, rest.shift());
    else if (low > 1) place.set(--low, rest.shift());
    else break;
  }
  const out = [];
  for (let n = low; n <= high; n += 1) if (place.has(n)) out.push(place.get(n));
  return out.concat(rest);
}

export function drawOpponents(container, t, players, view) {
  drawSeats(container, t, players, view, { counts: view.rack_sizes, one: "tile_left", many: "tiles_left" });
}

export function drawSets(container, t, sets, { interactive = false, selected = new Set(), changed = new Set(), fromRack = new Set(), fresh = new Set(), meanings = new Map() } = {}) {
  // The table is a list of sets, each named by its number and its tiles.
  container.setAttribute("role", "list");
  container.replaceChildren();
  sets.forEach((tiles, index) => {
    const parts = [];
    tiles.forEach((code, position) => {
      if (interactive && position > 0) {
        parts.push(el("button", { type: "button", class: "split", dataset: { split: `${index}:${position}` }, "aria-label": t("split_here", { before: tileName(t, tiles[position - 1]), after: tileName(t, code) }) }, "✂"));
      }
      const extra = [fromRack.has(code) ? "moved-tile" : "", fresh.has(code) ? "fresh" : ""].filter(Boolean).join(" ");
      const tile = tileFace(t, code, { tag: interactive ? "button" : "span", extra });
      if (interactive) tile.setAttribute("aria-pressed", selected.has(code) ? "true" : "false");
      const meaning = meanings.get(code);
      if (meaning) tile.append(el("span", { class: `stands${meaning.c ? ` tile-${meaning.c}` : ""}`, "aria-hidden": "true" }, meaning.c ? tileMark(meaning.c) : null, String(meaning.n)));
      parts.push(tile);
    });
    if (interactive && selected.size && !tiles.every((c) => selected.has(c))) {
      parts.push(el("button", { type: "button", class: "add-to-set", dataset: { addTo: String(index) }, "aria-label": t("add_to_set", { n: index + 1 }) }, "+"));
    }
    container.append(listItem(
      el(
        "div",
        {
          class: `tile-set${changed.has(index) ? " changed" : ""}`,
          role: "group",
          "aria-label": `${t("set_n", { n: index + 1 })}: ${tiles.map((c) => tileName(t, c)).join(", ")}`,
          tabindex: interactive ? "0" : null,
          dataset: { set: String(index), ...(interactive ? { drop: "set" } : {}) },
        },
        parts,
      ),
    ));
  });
}

export function drawRack(container, t, tiles, { interactive = false, selected = new Set(), focus = null, fresh = new Set() } = {}) {
  // A list of the tiles, each named.
  container.setAttribute("role", "list");
  container.replaceChildren();
  tiles.forEach((code, index) => {
    const tile = tileFace(t, code, { tag: interactive ? "button" : "span", extra: fresh.has(code) ? "fresh" : "" });
    if (interactive) {
      tile.setAttribute("aria-pressed", selected.has(code) ? "true" : "false");
      tile.tabIndex = code === focus || (focus === null && index === 0) ? 0 : -1;
    }
    container.append(listItem(tile));
  });
  if (interactive && tiles.length && focus !== null && !tiles.includes(focus)) container.querySelector("[data-code]").tabIndex = 0;
}

export function drawRoundEnd(box, t, players, view) {
  const end = view.round_end;
  if (!end) return box.replaceChildren();
  const rows = end.racks.map((rack, seat) => ({
    items: rack.map((item) => [tileFace(t, item.tile, { extra: "tile-small" }), item.value]),
    total: end.scores[seat],
    note: seat === end.winner ? t("went_out") : "",
  }));
  drawScores(box, t, players, view, { rows, lowWins: view.scoring !== "classic" });
}

export function jokerMeanings(view) {
  // Each joker on the table with what it stands for, from the view (the turn's start).
  const meanings = new Map();
  for (const set of view.table) {
    let j = 0;
    for (const code of set.tiles) {
      if (parseTile(code).joker) meanings.set(code, set.jokers[j++]);
    }
  }
  return meanings;
}
