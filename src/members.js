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
//
// Posting costs the sender ~160 us an event (a structured clone and a message to the browser;
// bench/profile-get.mjs), so events are posted only while another member is known. Members say
// "hello" when they join (answered by "here") and "bye" when they close; a member that vanished
// without a word stays known, which costs posts, never events. An event that found no member is
// kept for a few seconds, with its time, and sent to a member whose hello or here shows its
// channel was already open then (the two may have crossed), so no member misses an event that
// happened after it joined. Definitions are always posted.
// Two contexts' clocks (timeOrigin + now) agree to about a millisecond (timers are coarsened to
// 1 ms in Firefox and WebKit); the slack errs towards an event too many for a member that joined
// in those 50 ms, never one too few.
const MEMBER_SLACK_MS = 50;
const UNSENT_MS = 5000;
const UNSENT_MAX = 1000;

export function openChannel(name, target, onDefinition) {
  let ch;
  try {
    ch = new BroadcastChannel(name);
  } catch {
    return null;
  }
  const clock = () => performance.timeOrigin + performance.now();
  const me = `${clock()}-${Math.random()}`;
  const born = clock();
  const members = new Set();
  let unsent = [];   // [{ at, message }]
  let open = true;
  const send = (message) => {
    try {
      ch.postMessage(message);
      return true;
    } catch {
      return false;
    }
  };
  // Sends the kept events that happened after `since` (when another member's channel opened).
  // A post reaches every open channel, so what is sent is no longer kept; older ones stay for a
  // member born earlier whose hello or here is still on its way.
  const catchUp = (since) => {
    const now = clock();
    const keep = [];
    for (const u of unsent) {
      if (now - u.at >= UNSENT_MS) continue;
      if (u.at >= since - MEMBER_SLACK_MS) send(u.message);
      else keep.push(u);
    }
    unsent = keep;
  };
  ch.onmessage = ({ data }) => {
    if (!open || !data || typeof data.from !== "string") return;
    try {
      if (data.type === "bye") {
        members.delete(data.from);
        return;
      }
      members.add(data.from);
      if (data.type === "hello" || data.type === "here") {
        if (data.type === "hello") send({ type: "here", from: me, born });
        catchUp(Number(data.born));
      } else if (data.type === "definition") {
        onDefinition(data.definition);
      } else if (data.detail && (data.type === "expired" || data.type === "change" || data.type === "evicted")) {
        data.detail.remote = true;
        target.dispatchEvent(new CustomEvent(data.type, { detail: data.detail }));
      }
    } catch { /* a closed store */ }
  };
  send({ type: "hello", from: me, born });
  return {
    // Sends { type, detail } (detail: an event's, or a definition); false if it cannot be cloned.
    post(type, detail) {
      const message = type === "definition" ? { type, from: me, definition: detail } : { type, from: me, detail };
      if (type === "definition" || members.size > 0) return send(message);
      if (unsent.length >= UNSENT_MAX) unsent.shift();
      unsent.push({ at: clock(), message });
      return true;
    },
    close() {
      open = false;
      send({ type: "bye", from: me });
      try { ch.close(); } catch { /* already closed */ }
    },
  };
}
