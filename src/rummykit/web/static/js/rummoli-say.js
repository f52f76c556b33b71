// The words of the Rummoli table: each event of the engine's log as a sentence, cards with the
// ranks of the page's language, "n chips" and "n cards" in the right form.
//
// `sentence` is the same function as `sentence` in rummykit/web/rummoli.py (a browser test
// checks that both say the same thing about the same events); the texts come translated from
// /{lang}/rummoli/say.json.

const SEAT_PARAMS = new Set(["seat", "to", "dealer"]);
const CARD_PARAMS = new Set(["card", "missing"]);
const COUNT_PARAMS = new Set(["widow", "most", "fewest"]);
const CHIP_PARAMS = new Set(["chips", "total", "remainder"]);
const SIMPLE = new Set(["player_out", "widow_kept", "widow_swapped", "bid", "pass", "check", "bet"]);
const SIMPLE_TOO = new Set(["raise", "fold", "sequence_start", "lead", "play", "went_out", "cut"]);
const PLAIN = new Set(["ante", "widow_dead", "blocked", "final_tie"]);

export function sentence(event, me = null) {
  const code = String(event.code);
  const seat = event.seat;
  const you = seat !== undefined && seat !== null && seat === me ? "_you" : "";
  const raw = { ...event };
  delete raw.code;
  if (code === "hand_start") {
    const dealer = event.dealer === me ? "_you" : "";
    return [(event.extra ? "hand_start_extra" : "hand_start") + dealer, raw];
  }
  if (SIMPLE.has(code) || SIMPLE_TOO.has(code)) return [code + you, raw];
  if (code === "final_won" || code === "final_share" || code === "blocked_payment" || code === "box_won") {
    if (code === "box_won" && event.chips === 0) return ["box_empty" + you, raw];
    return [code + you, raw];
  }
  if (PLAIN.has(code)) return [code, raw];
  if (code === "deal") {
    const dealt = event.cards.map(Number).filter((c) => c);
    if (new Set(dealt).size === 1) return ["deal", { cards: dealt[0], widow: event.widow }];
    return ["deal_uneven", { most: Math.max(...dealt), fewest: Math.min(...dealt), widow: event.widow }];
  }
  if (code === "auction_won") {
    if (!you && event.to === me) return ["auction_won_to_you", raw];
    return ["auction_won" + you, raw];
  }
  if (code === "call") return [(event.all_in ? "call_all_in" : "call") + you, raw];
  if (code === "poker_show" || code === "final_show") return ["show" + you, raw];
  if (code === "poker_won") {
    const winners = event.seats;
    if (Number(event.pot ?? 0) > 0) return ["poker_side_pot", raw];
    if (winners.length > 1) return ["poker_split", raw];
    return [winners[0] === me ? "poker_won_you" : "poker_won", raw];
  }
  if (code === "colour_change") return [`colour_${event.colour}${you}`, raw];
  if (code === "stop") {
    const key = { ace: "stop_ace", in_widow: "stop_widow" }[event.reason] ?? "stop_played";
    return [key, raw];
  }
  if (code === "lead_passes") {
    const toYou = !you && event.to === me ? "_to_you" : "";
    return [`lead_passes_${event.colour}${you || toYou}`, raw];
  }
  if (code === "payment") {
    if (!you && event.to === me) return ["payment_to_you", raw];
    return ["payment" + you, raw];
  }
  if (code === "hand_end") return [event.outcome === "blocked" ? "hand_end_blocked" : "hand_end", raw];
  if (code === "game_end") return [event.reason === "hands" ? "game_end_hands" : "game_end_players", raw];
  if (code === "extra_hands") return ["extra_hands", { n: event.count }];
  if (code === "game_over") {
    const winners = event.winners;
    if (me !== null && winners.length === 1 && winners[0] === me) return ["game_over_you", raw];
    return ["game_over", { seats: winners }];
  }
  return ["unknown", { code }];
}

function fill(text, params) {
  return text.replace(/%\((\w+)\)s/g, (_, name) => (name in params ? String(params[name]) : ""));
}

export class Words {
  constructor(texts, lang) {
    this.texts = texts;
    this.plurals = new Intl.PluralRules(lang);
  }

  plural(key, n) {
    const forms = this.texts.plural[key];
    return fill(this.plurals.select(n) === "one" ? forms.one : forms.other, { n });
  }

  chips(n) {
    return this.plural("chips", n);
  }

  cards(n) {
    return this.plural("cards", n);
  }

  rank(rank) {
    return this.texts.ranks[rank] ?? rank;
  }

  card(code) {
    return this.rank(code.slice(0, -1)) + code.slice(-1);
  }

  cardName(code) {
    return this.texts.names[code] ?? code;
  }

  box(name) {
    return this.texts.boxes[name] ?? name;
  }

  how(box, rules) {
    return this.texts.how[`${box}:${rules.poker}:${rules.combos}`] ?? "";
  }

  label(category) {
    return this.texts.labels[category] ?? category;
  }

  client(key, params = {}) {
    return fill(this.texts.client[key] ?? key, params);
  }

  join(items) {
    if (items.length <= 1) return items.join("");
    return fill(this.texts.and, { first: items.slice(0, -1).join(", "), last: items[items.length - 1] });
  }

  words(name, value, names) {
    if (SEAT_PARAMS.has(name) && Number.isInteger(value)) return names[value] ?? String(value);
    if (name === "seats" && Array.isArray(value)) return this.join(value.map((s) => names[s]));
    if (CARD_PARAMS.has(name) && typeof value === "string") return this.card(value);
    if (name === "cards" && Array.isArray(value)) return value.map((c) => this.card(c)).join(" ");
    if ((name === "cards" || COUNT_PARAMS.has(name)) && Number.isInteger(value)) return this.cards(value);
    if (CHIP_PARAMS.has(name) && Number.isInteger(value)) return this.chips(value);
    if (name === "hand" && typeof value === "string") return this.texts.categories[value] ?? value;
    if (name === "box" && typeof value === "string") return this.box(value);
    return String(value);
  }

  say(key, raw, names) {
    const params = {};
    for (const [name, value] of Object.entries(raw)) params[name] = this.words(name, value, names);
    if (key.startsWith("show")) params.hand = this.words("hand", raw.category, names);
    if (key === "extra_hands") return fill(this.pluralSay(key, Number(raw.n)), params);
    if (key === "game_over") return fill(this.pluralSay(key, raw.seats.length), params);
    let text = fill(this.texts.say[key], params);
    if (key.startsWith("poker_") && Number(raw.remainder ?? 0)) text += ` ${fill(this.texts.say.poker_remainder, params)}`;
    return text;
  }

  pluralSay(key, n) {
    const forms = this.texts.plural[key];
    return this.plurals.select(n) === "one" ? forms.one : forms.other;
  }

  describe(event, names, me = null) {
    const [key, raw] = sentence(event, me);
    return this.say(key, raw, names);
  }
}

export async function loadWords(lang) {
  const response = await fetch(`/${lang}/rummoli/say.json`, { headers: { Accept: "application/json" } });
  return new Words(await response.json(), lang);
}
