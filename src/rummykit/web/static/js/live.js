// Follow a channel's version over a WebSocket, reconnecting after any loss.
//
// The server sends {"t": "v", "v": <version>} when the socket opens and after every change, so
// a reconnect tells at once whether anything was missed. `onVersion` decides what to reload;
// `onState` hears "open" and "closed" to show the connection's state.

export function follow(path, { onVersion, onState = () => {} }) {
  let socket = null;
  let stopped = false;
  let delay = 500;
  let timer = null;

  const url = () => {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}${path}`;
  };

  function open() {
    if (stopped || (socket && socket.readyState <= WebSocket.OPEN)) return;
    clearTimeout(timer);
    socket = new WebSocket(url());
    socket.addEventListener("open", () => {
      delay = 500;
      onState("open");
    });
    socket.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message.t === "v" && Number.isInteger(message.v)) onVersion(message.v);
    });
    socket.addEventListener("close", () => {
      socket = null;
      if (stopped) return;
      onState("closed");
      timer = setTimeout(open, delay);
      delay = Math.min(delay * 2, 10000);
    });
  }

  // A phone that wakes up or comes back online reconnects at once.
  const wake = () => {
    if (document.visibilityState === "visible") open();
  };
  document.addEventListener("visibilitychange", wake);
  window.addEventListener("online", open);
  open();

  return {
    path,
    stop() {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", wake);
      window.removeEventListener("online", open);
      if (socket) socket.close();
    },
  };
}
