// The Rummoli demonstration: step through the hand with the buttons or the arrow keys.
//
// The page is rendered for one step (the links work without JavaScript); this module shows any
// other step in place. Each step's table (chips, board, highlighted cards and players) comes
// from the JSON of the frames; elements shown from a step on carry data-from="<step>" (and
// data-until="<step>" when they go again), cards of the hands data-played-at="<step>", and the
// sentence of each step is the log's item.
import { setUpBoard } from "./rummoli-board.js";
import { onPage } from "./site.js";

const AUTO_DELAY = 1300;

function setUp(root) {
  root.dataset.ready = "1";
  const frames = JSON.parse(root.querySelector("#rm-frames").textContent);
  const last = frames.length - 1;
  const board = setUpBoard(root.querySelector("[data-rm-board]"));
  const say = root.querySelector("[data-say]");
  const counter = root.querySelector("[data-counter]");
  const logItems = [...root.querySelectorAll("[data-log] > li")];
  const appearing = [...root.querySelectorAll("[data-from]")];
  const played = [...root.querySelectorAll("[data-played-at]")];
  const cards = [...root.querySelectorAll(".rm-card")];
  const seats = [...root.querySelectorAll("[data-seat]")];
  const phases = [...root.querySelectorAll("[data-phase]")];
  const empty = root.querySelector("[data-until]");
  const links = Object.fromEntries([...root.querySelectorAll("[data-go]")].map((a) => [a.dataset.go, a]));
  const auto = root.querySelector("[data-auto]");
  const autoLabel = auto.querySelector("[data-auto-label]");
  let step = Number(root.dataset.step);
  let timer = null;

  const urlFor = (n) => {
    const url = new URL(window.location.href);
    url.searchParams.set("step", String(n));
    return url.pathname + url.search;
  };

  function show(n) {
    step = Math.max(0, Math.min(last, n));
    const frame = frames[step];
    root.dataset.step = String(step);
    counter.textContent = counter.dataset.msgCounter.replace("{n}", step + 1).replace("{total}", last + 1);
    say.innerHTML = logItems[step].querySelector("a").innerHTML;
    for (const [i, item] of logItems.entries()) {
      if (i === step) item.setAttribute("aria-current", "step");
      else item.removeAttribute("aria-current");
    }
    for (const el of appearing) {
      el.hidden = step < Number(el.dataset.from) || (el.dataset.until !== undefined && step >= Number(el.dataset.until));
    }
    if (empty) empty.hidden = step >= Number(empty.dataset.until) && root.querySelector(".rm-run:not([hidden])") !== null;
    for (const card of played) card.classList.toggle("is-played", step >= Number(card.dataset.playedAt));
    const marks = new Set(frame.marks);
    for (const card of cards) card.classList.toggle("is-marked", marks.has(card.dataset.card));
    for (const seat of seats) {
      const i = Number(seat.dataset.seat);
      seat.classList.toggle("is-acting", frame.seats.includes(i));
      seat.querySelector("[data-chips-of]").textContent = frame.chips_text[i];
    }
    for (const phase of phases) {
      if (phase.dataset.phase === frame.phase) phase.setAttribute("aria-current", "step");
      else phase.removeAttribute("aria-current");
    }
    for (const [box, text] of Object.entries(frame.board_text)) {
      const button = board.button(box);
      button.querySelector("[data-chips]").textContent = text;
      button.classList.toggle("is-won", frame.won === box);
    }
    board.refresh();
    links.first.href = urlFor(0);
    links.prev.href = urlFor(Math.max(0, step - 1));
    links.next.href = urlFor(Math.min(last, step + 1));
    links.last.href = urlFor(last);
    links.prev.setAttribute("aria-disabled", String(step === 0));
    links.first.setAttribute("aria-disabled", String(step === 0));
    links.next.setAttribute("aria-disabled", String(step === last));
    links.last.setAttribute("aria-disabled", String(step === last));
    root.classList.toggle("is-at-end", step === last);
    window.history.replaceState(window.history.state, "", urlFor(step));
    if (step === last) stopAuto();
  }

  function stopAuto() {
    if (timer === null) return;
    clearInterval(timer);
    timer = null;
    autoLabel.textContent = auto.dataset.msgPlay;
    auto.setAttribute("aria-pressed", "false");
  }

  const moves = {
    first: () => 0,
    prev: () => step - 1,
    next: () => step + 1,
    last: () => last,
  };
  for (const [name, link] of Object.entries(links)) {
    link.addEventListener("click", (event) => {
      event.preventDefault();
      stopAuto();
      show(moves[name]());
    });
  }
  for (const item of logItems) {
    item.querySelector("a").addEventListener("click", (event) => {
      event.preventDefault();
      stopAuto();
      show(Number(event.currentTarget.dataset.to));
    });
  }
  auto.hidden = false;
  auto.setAttribute("aria-pressed", "false");
  auto.addEventListener("click", () => {
    if (timer !== null) {
      stopAuto();
      return;
    }
    if (step === last) show(0);
    autoLabel.textContent = auto.dataset.msgPause;
    auto.setAttribute("aria-pressed", "true");
    timer = setInterval(() => (root.isConnected ? show(step + 1) : stopAuto()), AUTO_DELAY);
  });
  root.rmDemo = { show, step: () => step, stopAuto };
  show(step);
}

// The arrow keys step through the demonstration on screen, unless the focus is in a field.
document.addEventListener("keydown", (event) => {
  const root = document.querySelector("[data-rm-demo][data-ready]");
  if (!root || !root.rmDemo || event.altKey || event.ctrlKey || event.metaKey) return;
  const target = event.target;
  if (target instanceof HTMLElement && target.closest("input, select, textarea, [contenteditable]")) return;
  const demo = root.rmDemo;
  const moves = {
    ArrowRight: () => demo.step() + 1,
    ArrowLeft: () => demo.step() - 1,
    Home: () => 0,
    End: () => Number.MAX_SAFE_INTEGER,
  };
  const move = moves[event.key];
  if (!move) return;
  event.preventDefault();
  demo.stopAuto();
  demo.show(move());
});

onPage((root) => {
  for (const demo of root.querySelectorAll("[data-rm-demo]:not([data-ready])")) setUp(demo);
});
