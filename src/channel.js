// BroadcastChannel for src/channel.rs: messages among the members of one database (tabs,
// iframes, workers). Every call that can throw is caught here, so nothing unwinds through wasm.

// Opens the channel `name`; `onMessage(data)` gets what other members post. Returns null where
// there is no BroadcastChannel (events then stay in their own context).
export function openChannel(name, onMessage) {
  let ch;
  try {
    ch = new BroadcastChannel(name);
  } catch {
    return null;
  }
  let open = true;
  ch.onmessage = (e) => {
    if (open) {
      try { onMessage(e.data); } catch { /* a closed store */ }
    }
  };
  return {
    // false if the message could not be cloned or the channel is closed.
    post(data) {
      try { ch.postMessage(data); return true; } catch { return false; }
    },
    close() {
      open = false;
      try { ch.close(); } catch { /* already closed */ }
    },
  };
}
