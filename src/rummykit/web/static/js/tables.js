// A table with friends, beside the game: the lobby before the start (seats filling up live,
// the nickname kept in this browser) and, once started, the strip above the game's own table:
// each seat's presence, the turn's countdown with "More time" (key T), the messages (preset
// phrases and emotes that every reader sees in their own language, free text when the table
// allows it, mute per player), the standings and the rematch. The table's socket brings every
// change; the game itself keeps its own socket (the game's script).

import { reconnecting } from "./live.js";
import { onPage } from "./site.js";
import { el, fill, postJSON, storage, store } from "./table.js";

const WARN_SECONDS = 20;
const NICKNAME_KEY = "rk-nickname";

function remember(root) {
  // Nickname fields start with the last nickname used in this browser and keep the new one.
  for (const input of root.querySelectorAll("input[data-nickname]:not([data-kept])")) {
    input.dataset.kept = "true";
    if (!input.value) input.value = storage(NICKNAME_KEY, "");
    input.form?.addEventListener("submit", () => store(NICKNAME_KEY, input.value.trim()));
  }
}

class Table {
  constructor(root) {
    this.root = root;
    const data = JSON.parse(root.querySelector("script[data-table-data]").textContent);
    this.data = data;
    this.view = data.view;
    this.lobby = root.hasAttribute("data-table-lobby");
    this.offset = this.view.now - Date.now();
    this.mute = new Set(storage(this.muteKey, []));
    this.lastMessage = Math.max(0, ...this.view.messages.map((m) => m.n));
    this.warned = null;
    this.part = (name) => root.querySelector(`[data-${name}]`);
    this.announcer = this.part("table-announce") ?? this.part("announce");
    this.errorBox = this.part("table-error") ?? this.part("error");
    this.bind();
    this.render();
    this.socket = reconnecting(() => `${data.ws}?since=${this.view.version}&lang=${data.lang}`, {
      onMessage: (message) => {
        // A socket's first view is whole ("d"); the next ones bring what changed since ("p"),
        // laid over the last view of the same socket (a new socket starts whole again).
        if (message.t !== "table") return;
        if (message.d) this.sent = message.d;
        else if (message.p && this.sent) this.sent = { ...this.sent, ...message.p };
        else return;
        this.update(this.sent);
      },
      onState: (state) => this.connection(state),
      fatal: (code) => code === 4403,
      maxDelay: 8000,
    });
    this.ping = setInterval(() => this.socket.send({ t: "ping" }), 20000);
    this.tick = setInterval(() => this.drawClock(), 250);
    root.dataset.ready = "true";
  }

  get muteKey() {
    return `rk-mute-${this.data.id}`;
  }

  t(key, params = {}) {
    return fill(this.data.texts[key] ?? key, params);
  }

  say(text) {
    // Emptied first, so that the same sentence twice is read twice.
    if (!this.announcer || !text) return;
    this.announcer.textContent = "";
    setTimeout(() => (this.announcer.textContent = text), 30);
  }

  showError(text) {
    if (!this.errorBox) return;
    this.errorBox.textContent = text ?? "";
    this.errorBox.hidden = !text;
  }

  connection(state) {
    // A lost table socket is said once; its return too (the socket reconnects by itself).
    const lost = state === "closed";
    if (lost === this.root.classList.contains("table-offline")) return;
    this.root.classList.toggle("table-offline", lost);
    this.say(this.t(lost ? "connection_lost" : "connection_back"));
  }

  stopped() {
    if (this.root.isConnected) return false;
    this.socket.stop();
    clearInterval(this.ping);
    clearInterval(this.tick);
    return true;
  }

  // --- changes of the table ------------------------------------------------------------------

  update(view) {
    // A form of the page being sent (start, join, leave) leads to the next page itself.
    if (this.stopped() || this.navigating || view.version < this.view.version) return;
    const reload = this.reloadReason(this.view, view);
    if (reload) {
      // The page is replaced; until then it keeps showing the table it was served with, so that
      // nothing reads a view the new page has not drawn yet.
      this.navigating = true;
      if (reload === "starting") this.say(this.t("starting"));
      location.reload();
      return;
    }
    const before = this.view;
    this.view = view;
    this.offset = view.now - Date.now();
    this.tellChanges(before, view);
    this.render();
  }

  reloadReason(before, view) {
    // The changes that make this page another page: the game started (the lobby becomes the
    // game's table), a rematch (a new game of the same table, seats rotated), a seat taken here.
    if (this.lobby && view.status !== "open" && (view.me !== null || view.settings.spectators)) {
      return "starting";
    }
    if (!this.lobby && view.game_id !== before.game_id && view.game_id) return "rematch";
    if (this.lobby && before.me === null && view.me !== null) return "joined";
    return null;
  }

  name(seat) {
    // The nickname, else the name the page was served with ("Computer 1", "Seat 3").
    return this.view.seats[seat]?.nickname ?? this.data.names[seat] ?? this.t("seat_n", { n: seat + 1 });
  }

  tellChanges(before, view) {
    // What changed at the table, said to screen readers: arrivals, absences, returns, departures.
    const lines = [];
    for (const seat of view.seats) {
      const old = before.seats[seat.seat];
      if (!old || seat.seat === view.me) continue;
      const name = seat.nickname ?? this.name(seat.seat);
      if (old.free && !seat.free && seat.nickname) lines.push(this.t("joined", { name }));
      else if (old.presence !== seat.presence) {
        if (seat.presence === "away") lines.push(this.t("is_away", { name }));
        else if (seat.presence === "connected" && old.presence === "away") lines.push(this.t("is_back", { name }));
        else if (seat.presence === "gone") lines.push(this.t("has_left", { name }));
      }
      if (seat.standin && !old.standin && seat.presence !== "gone") lines.push(this.t("standin_plays", { name }));
    }
    for (const message of view.messages) {
      if (message.n <= this.lastMessage) continue;
      if (message.seat !== view.me && !this.mute.has(message.nickname)) {
        lines.push(this.t("said", { name: message.nickname, text: message.text }));
      }
    }
    this.lastMessage = Math.max(this.lastMessage, ...view.messages.map((m) => m.n));
    if (view.status === "over" && before.status !== "over") {
      lines.push(this.t(view.me === view.host ? "game_over_rematch" : "game_over_wait"));
    }
    if (lines.length) this.say(lines.join(" "));
  }

  // --- drawing -------------------------------------------------------------------------------

  render() {
    this.drawSeats();
    if (this.lobby) {
      this.drawLobby();
      return;
    }
    this.drawClock();
    this.drawMessages();
    this.drawStandings();
    const over = this.view.status === "over";
    const host = this.view.me !== null && this.view.me === this.view.host;
    const rematch = this.part("rematch");
    rematch.hidden = !(over && host);
    const note = this.part("over-note");
    note.hidden = !over;
    note.textContent = over ? this.t(host ? "game_over_rematch" : "game_over_wait") : "";
  }

  presenceText(seat) {
    if (seat.kind === "computer") return this.t("computer");
    if (seat.free) return this.t("free");
    if (seat.standin && seat.presence !== "gone") return `${this.t(seat.presence ?? "away")} · ${this.t("standin")}`;
    return this.t(seat.presence ?? "away");
  }

  drawSeats() {
    const list = this.part("seats") ?? this.part("strip-seats");
    const view = this.view;
    const items = view.seats.map((seat) => {
      const presence = seat.kind === "computer" ? "computer" : seat.free ? "free" : seat.presence ?? "away";
      const badges = [];
      if (seat.host) badges.push(el("span", { class: "badge" }, this.t("host")));
      if (seat.seat === view.me) badges.push(el("span", { class: "badge" }, this.t("you")));
      const classes = [seat.seat === view.me ? "mine" : "", view.turn?.seat === seat.seat ? "on-turn" : "", seat.standin ? "standin" : ""];
      const item = el(
        "li",
        { dataset: { seat: String(seat.seat), presence }, class: classes.filter(Boolean).join(" ") || null, "aria-current": view.turn?.seat === seat.seat ? "true" : null },
        el("span", { class: "seat-name" }, this.name(seat.seat)),
        badges,
        el("span", { class: `presence presence-${presence}` }, this.presenceText(seat)),
      );
      if (!this.lobby && seat.kind === "person" && seat.nickname && seat.seat !== view.me) {
        const muted = this.mute.has(seat.nickname);
        item.append(
          el(
            "button",
            {
              type: "button",
              class: "secondary small mute",
              "aria-pressed": String(muted),
              "aria-label": this.t("mute", { name: seat.nickname }),
              dataset: { mute: seat.nickname },
            },
            muted ? "🔇" : "🔈",
          ),
        );
      }
      return item;
    });
    list.replaceChildren(...items);
  }

  drawLobby() {
    const status = this.part("lobby-status");
    if (status && this.view.me !== null && this.view.me !== this.view.host) status.textContent = this.t("lobby_waiting");
  }

  remaining() {
    const deadline = this.view.turn?.deadline;
    if (!deadline) return null;
    return Math.max(0, Math.ceil((deadline - (Date.now() + this.offset)) / 1000));
  }

  drawClock() {
    if (this.lobby || this.stopped()) return;
    const view = this.view;
    const turn = view.turn;
    const clock = this.part("countdown");
    const button = this.part("more-time");
    const mine = turn !== null && turn !== undefined && turn.seat === view.me && view.status === "playing";
    const left = this.remaining();
    const who = turn ? (mine ? this.t("your_turn") : this.t("turn_of", { name: this.name(turn.seat) })) : "";
    if (!turn || view.status !== "playing") clock.textContent = "";
    else if (left === null) clock.textContent = `${who} · ${this.t("timer_off")}`;
    else clock.textContent = `${who} · ${this.t("seconds_left", { seconds: left })}`;
    const warn = mine && left !== null && left <= WARN_SECONDS;
    this.part("clock").classList.toggle("warn", warn);
    this.root.dataset.secondsLeft = left === null ? "" : String(left);
    const extra = turn?.extra_left ?? 0;
    button.hidden = !(mine && left !== null);
    button.disabled = extra <= 0;
    button.firstChild.textContent = `${this.t("extra_left", { n: extra })} `;
    if (warn && this.warned !== turn.seq && left > 0) {
      this.warned = turn.seq;
      this.say(this.t("time_warning", { seconds: left }));
    }
  }

  drawMessages() {
    const list = this.part("messages");
    const lines = this.view.messages
      .filter((m) => !this.mute.has(m.nickname) || m.seat === this.view.me)
      .map((m) =>
        el(
          "li",
          { dataset: { n: String(m.n), phrase: m.phrase ?? "" }, class: m.seat === this.view.me ? "mine" : null },
          el("strong", {}, m.nickname),
          " ",
          el("span", { class: "said" }, m.text),
        ),
      );
    list.replaceChildren(...lines);
    list.scrollTop = list.scrollHeight;
    const phrases = this.part("phrases");
    if (phrases && !phrases.children.length) {
      for (const phrase of this.view.phrases) {
        phrases.append(el("button", { type: "button", class: "secondary small phrase", dataset: { phrase: phrase.code } }, phrase.text));
      }
    }
    const free = this.part("free-text");
    if (free) free.hidden = !this.view.settings.free_text;
  }

  drawStandings() {
    const rows = (this.view.standings ?? []).map((s) =>
      el("tr", {}, el("th", { scope: "row" }, s.nickname ?? this.name(s.seat)), el("td", { class: "num" }, String(s.games_won)), el("td", { class: "num" }, String(s.points))),
    );
    this.part("standings").replaceChildren(...rows);
  }

  // --- acting --------------------------------------------------------------------------------

  async post(step, body = {}) {
    let answer;
    try {
      answer = await postJSON(`${this.data.api}/${step}`, body);
    } catch {
      answer = { status: 0, data: null };
    }
    if (answer.status >= 200 && answer.status < 300) {
      this.showError("");
      const view = answer.data?.table ?? answer.data;
      if (view && Number.isInteger(view.version)) this.update(view);
      return true;
    }
    this.showError(answer.data?.error?.message ?? this.t("connection_lost"));
    return false;
  }

  bind() {
    this.root.addEventListener("submit", (event) => {
      if (event.target.method === "post" && !event.defaultPrevented) this.navigating = true;
    });
    this.root.addEventListener("click", (event) => {
      const phrase = event.target.closest("[data-phrase]");
      if (phrase && phrase.tagName === "BUTTON") {
        this.post("say", { phrase: phrase.dataset.phrase });
        return;
      }
      const mute = event.target.closest("[data-mute]");
      if (mute) {
        const name = mute.dataset.mute;
        if (this.mute.has(name)) this.mute.delete(name);
        else {
          this.mute.add(name);
          this.say(this.t("muted", { name }));
        }
        store(this.muteKey, [...this.mute]);
        this.render();
        this.root.querySelector(`[data-mute="${CSS.escape(name)}"]`)?.focus();
      }
    });
    const more = this.part("more-time");
    more?.addEventListener("click", () => this.post("extra-time"));
    this.part("rematch")?.addEventListener("click", () => this.post("rematch"));
    const free = this.part("free-text");
    free?.addEventListener("submit", async (event) => {
      event.preventDefault();
      const input = free.querySelector("input");
      const text = input.value.trim();
      if (text && (await this.post("say", { text }))) input.value = "";
    });
    const keys = (event) => {
      if (this.stopped()) {
        document.removeEventListener("keydown", keys);
        return;
      }
      if (event.key.toLowerCase() !== "t" || event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
      if (event.target.closest?.("input, select, textarea, [contenteditable]") || document.querySelector("dialog[open]")) return;
      if (!more || more.hidden || more.disabled) return;
      event.preventDefault();
      this.post("extra-time");
    };
    if (!this.lobby) document.addEventListener("keydown", keys);
  }
}

onPage((root) => {
  remember(root);
  for (const node of root.querySelectorAll("[data-table-lobby]:not([data-started]), [data-table-strip]:not([data-started])")) {
    node.dataset.started = "true";
    node.table = new Table(node);
  }
});
