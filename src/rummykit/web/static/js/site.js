// Behaviour shared by every page. Page modules register with `onPage(init)`: `init(root)` runs
// for the document once and again for every piece of page that htmx swaps in, so it must only
// touch elements it has not set up yet (mark them, e.g. with a data attribute).

const initializers = [];

export function onPage(init) {
  initializers.push(init);
  init(document.body);
}

function run(root) {
  for (const init of initializers) init(root);
}

if (window.htmx) {
  window.htmx.onLoad((root) => run(root));
  // After a boosted navigation, move the focus to the new content for keyboard and
  // screen-reader users (the main landmark is focusable).
  document.body.addEventListener("htmx:afterSettle", (event) => {
    if (event.detail.boosted && event.detail.target === document.body) {
      const main = document.getElementById("main");
      if (main && !main.contains(document.activeElement)) main.focus({ preventScroll: true });
    }
  });
}

// A boosted request that never reached the server (no network at the table): htmx leaves the
// page as it was, so say so, and keep what was typed for the next try.
function showSendError() {
  const main = document.getElementById("main");
  let banner = document.getElementById("send-error");
  if (!banner) {
    banner = document.createElement("p");
    banner.id = "send-error";
    banner.className = "error-summary";
    banner.setAttribute("role", "alert");
    main.prepend(banner);
  }
  banner.textContent = document.body.dataset.msgSendError;
}

if (window.htmx) {
  document.body.addEventListener("htmx:sendError", showSendError);
  document.body.addEventListener("htmx:beforeRequest", () => document.getElementById("send-error")?.remove());
}

// A moment the server writes in UTC is shown in the reader's own time zone and language.
function localTimes(root) {
  const format = new Intl.DateTimeFormat(document.documentElement.lang || undefined, { dateStyle: "medium", timeStyle: "short" });
  for (const time of root.querySelectorAll("time[data-local]")) {
    const when = new Date(time.dateTime);
    if (!Number.isNaN(when.getTime())) time.textContent = format.format(when);
  }
}

// Buttons that only make sense with JavaScript are hidden in the markup and shown here.
onPage((root) => {
  localTimes(root);
  for (const button of root.querySelectorAll("[data-print][hidden]")) {
    button.hidden = false;
    button.addEventListener("click", () => window.print());
  }
  for (const button of root.querySelectorAll("[data-copy][hidden]")) {
    button.hidden = false;
    button.addEventListener("click", async () => {
      const field = document.getElementById(button.dataset.copy);
      try {
        await navigator.clipboard.writeText(field.value);
      } catch {
        field.select();
        document.execCommand("copy");
      }
      const label = button.textContent;
      button.textContent = button.dataset.copied;
      setTimeout(() => (button.textContent = label), 1500);
    });
  }
});
