// Follow a channel's version over a WebSocket, reconnecting after any loss.
//
// The server sends {"t": "v", "v": <version>} when the socket opens and after every change, so
// a reconnect tells at once whether anything was missed. `onVersion` decides what to reload;
// `onState` hears "open" and "closed" to show the connection's state.

export function follow(path, { onVersion, onState = () => {} }) {
  const channel = reconnecting(() => path, {
    onMessage: (message) => {
      if (message.t === "v" && Number.isInteger(message.v)) onVersion(message.v);
    },
    onState,
    maxDelay: 10000,
  });
  return { path, stop: channel.stop };
}

export function reconnecting(path, { onMessage, onState = () => {}, fatal = () => false, maxDelay = 10000 }) {
  // A WebSocket to `path()` (asked again at every connection) that reconnects after any loss,
  // waiting longer each time, unless the server closed it for good (`fatal(code)`). A phone
  // that wakes up or comes back online reconnects at once.
  let socket = null;
  let stopped = false;
  let delay = 500;
  let timer = null;

  function open() {
    if (stopped || (socket && socket.readyState <= WebSocket.OPEN)) return;
    clearTimeout(timer);
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    socket = new WebSocket(`${scheme}//${location.host}${path()}`);
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
      onMessage(message);
    });
    socket.addEventListener("close", (event) => {
      socket = null;
      if (stopped || fatal(event.code)) return;
      onState("closed");
      timer = setTimeout(open, delay);
      delay = Math.min(delay * 2, maxDelay);
    });
  }

  const wake = () => {
    if (document.visibilityState === "visible") open();
  };
  document.addEventListener("visibilitychange", wake);
  window.addEventListener("online", open);
  open();

  return {
    send(message) {
      // Sends a message now if the socket is open (nothing is queued while it is not).
      if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", wake);
      window.removeEventListener("online", open);
      if (socket) socket.close();
    },
  };
}
