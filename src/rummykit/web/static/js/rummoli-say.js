// The words of the Rummoli table: cards with the ranks of the page's language, "n chips" and
// "n cards" in the right form, the poker hands and the table's own texts, translated, from
// /{lang}/rummoli/say.json. The sentences of the log come from the server with each event.

import { fill } from "./table.js";

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

  label(category) {
    return this.texts.labels[category] ?? category;
  }

  client(key, params = {}) {
    return fill(this.texts.client[key] ?? key, params);
  }
}

export async function loadWords(lang) {
  const response = await fetch(`/${lang}/rummoli/say.json`, { headers: { Accept: "application/json" } });
  return new Words(await response.json(), lang);
}
