// The members of one database (tabs, iframes, workers): Web Locks for the reaper's leadership
// (src/timer.rs) and a BroadcastChannel for events and definitions (src/channel.rs). One file
// for both: every snippet is one more module request when the package loads. Every call that
// can throw is caught here, so nothing unwinds through wasm.

// Asks for the exclusive lock `name`, held until `release()`; `onGranted()` runs once it is held
// (at once, or when the holder releases it or its context goes away). Returns null where there
// is no Web Locks API (then every member leads: removal is re-checked, so that is safe).
export function leadership(name, onGranted) {
  let locks;
  try {
    locks = globalThis.navigator && globalThis.navigator.locks;
    if (!locks || typeof locks.request !== "function") return null;
  } catch {
    return null;
  }
  const abort = new AbortController();
  let released = false;
  let unlock;
  const held = new Promise((resolve) => { unlock = resolve; });
  try {
    locks.request(name, { signal: abort.signal }, () => {
      if (released) return undefined;
      try { onGranted(); } catch { /* a closed store; release() follows */ }
      return held;
    }).catch(() => { /* AbortError: released before it was granted */ });
  } catch {
    return null; // SecurityError: an opaque origin (sandboxed iframe, data: URL) has no locks
  }
  return {
    release() {
      released = true;
      abort.abort();
      unlock();
    },
  };
}

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
