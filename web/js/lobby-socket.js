// The lobby as the server pushes it (/api/socket/lobby): the quick-pairing
// pools, the seek list and the games being played, whenever one changes, so
// no page asks for them again and again. Reconnects after a drop.

const FIRST_RETRY_MS = 500;
const LAST_RETRY_MS = 10_000;

/** Calls `onLobby({pools, seeks, games})` at each change; returns a function that stops. */
export function followLobby(onLobby) {
  let socket = null;
  let stopped = false;
  let retry = FIRST_RETRY_MS;
  let timer = null;
  const open = () => {
    if (stopped) return;
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    socket = new WebSocket(`${scheme}://${location.host}/api/socket/lobby`);
    socket.onmessage = (event) => {
      retry = FIRST_RETRY_MS;
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message.t === 'lobby') onLobby(message);
    };
    socket.onclose = () => {
      if (stopped) return;
      timer = setTimeout(open, retry);
      retry = Math.min(retry * 2, LAST_RETRY_MS);
    };
  };
  open();
  return () => {
    stopped = true;
    clearTimeout(timer);
    if (socket) {
      socket.onclose = null;
      socket.close();
    }
  };
}
