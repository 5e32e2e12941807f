// Web Locks for src/timer.rs: the reaper's leadership among the members of one database (tabs,
// iframes, workers). Every call that can throw is caught here, so nothing unwinds through wasm.

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
