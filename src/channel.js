// BroadcastChannel for src/channel.rs: messages among the members of one database (tabs,
// iframes, workers). Every call that can throw is caught here, so nothing unwinds through wasm.

// Opens the channel `name`. Another member's event is dispatched on `target` with the same
// detail plus `remote: true`; its definition changes go to `onDefinition(definition)`. Returns
// null where there is no BroadcastChannel (events then stay in their own context).
export function openChannel(name, target, onDefinition) {
  let ch;
  try {
    ch = new BroadcastChannel(name);
  } catch {
    return null;
  }
  let open = true;
  ch.onmessage = ({ data }) => {
    if (!open || !data) return;
    try {
      if (data.type === "definition") {
        onDefinition(data.definition);
      } else if (data.detail && (data.type === "expired" || data.type === "change")) {
        data.detail.remote = true;
        target.dispatchEvent(new CustomEvent(data.type, { detail: data.detail }));
      }
    } catch { /* a closed store */ }
  };
  return {
    // Sends { type, detail } (detail: an event's, or a definition); false if it cannot be cloned.
    post(type, detail) {
      try {
        ch.postMessage(type === "definition" ? { type, definition: detail } : { type, detail });
        return true;
      } catch {
        return false;
      }
    },
    close() {
      open = false;
      try { ch.close(); } catch { /* already closed */ }
    },
  };
}
