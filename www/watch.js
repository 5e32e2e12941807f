// The demo's "Watch a key" panel: store.watch("offer", ...) drives a countdown that flips to
// "expired" when the offer's expiry comes, told by the store's watch timer (not the reaper, which
// may be paused; not a poll). An offer started in another tab shows here too.

import { errorText, formatLeft } from "./format.js";

const KEY = "offer";

export function mountWatch({ store, panel, logLine }) {
  const q = (id) => panel.querySelector(`[data-testid="${id}"]`);
  const state = q("watch-state");
  const countdown = q("watch-countdown");
  const start = q("watch-start");
  let deadlineMs = null; // when the offer shown expires (ms), null: no expiry or no offer
  let ticker = 0;

  const tick = () => {
    countdown.textContent = deadlineMs === null ? "" : `ends in ${formatLeft((deadlineMs - Date.now()) / 1000)}`;
  };

  store.watch(KEY, async (offer) => {
    clearInterval(ticker);
    deadlineMs = null;
    if (offer === undefined) {
      const was = state.dataset.state;
      state.dataset.state = was === "none" ? "none" : "expired";
      state.dataset.toldAt = String(Date.now());
      state.textContent = was === "none" ? "No offer." : "The offer has ended.";
      if (was === "live") logLine("watch", `watch("${KEY}") told: undefined (ended)`);
      tick();
      return;
    }
    state.dataset.state = "live";
    state.textContent = `Offer: ${offer.title}`;
    logLine("watch", `watch("${KEY}") told: ${JSON.stringify(offer)}`);
    try {
      const at = await store.expiresAt(KEY); // Unix seconds, null: no expiry
      if (typeof at === "number" && state.dataset.state === "live") {
        deadlineMs = at * 1000;
        ticker = setInterval(tick, 100);
      }
    } catch (e) {
      logLine("error", `expiresAt("${KEY}"): ${errorText(e)}`);
    }
    tick();
  });

  start.disabled = false;
  start.addEventListener("click", async () => {
    const ttl = Number(q("watch-ttl").value) || 5;
    try {
      await store.set(KEY, { title: `2 for 1, for ${ttl} s` }, { ttl });
    } catch (e) {
      logLine("error", `set("${KEY}"): ${errorText(e)}`);
    }
  });
}
