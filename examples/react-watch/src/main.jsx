// store.watch() behind React's useSyncExternalStore: an offer that counts down and flips to
// "The offer has ended" the moment its key expires (in this tab or another), with no polling of
// the store and without waiting for the reaper.
import { StrictMode, useEffect, useMemo, useState, useSyncExternalStore } from "react";
import { createRoot } from "react-dom/client";
import { TtlStore } from "idb-ttl";

/** The value of `key`, kept current by store.watch(): set, deleted or expired, here or elsewhere. */
export function useStored(store, key) {
  const source = useMemo(() => {
    let value; // the last value watch() told
    return {
      subscribe: (onChange) => store.watch(key, (v) => { value = v; onChange(); }),
      getSnapshot: () => value,
    };
  }, [store, key]);
  return useSyncExternalStore(source.subscribe, source.getSnapshot);
}

/** Re-renders every `ms` while `on`: only for the countdown's digits, never to notice expiry. */
function useTick(on, ms) {
  const [, setNow] = useState(0);
  useEffect(() => {
    if (!on) return undefined;
    const t = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(t);
  }, [on, ms]);
}

function Offer({ store }) {
  const offer = useStored(store, "offer");
  useTick(offer !== undefined, 250);
  if (offer === undefined) return <p data-testid="offer"><i>The offer has ended</i></p>;
  const left = Math.max(0, Math.ceil((offer.until - Date.now()) / 1000));
  return (
    <p data-testid="offer">
      <b>{offer.title}</b> ends in <span data-testid="left">{left}</span> s
    </p>
  );
}

function App({ store }) {
  const [seconds, setSeconds] = useState(5);
  const start = () => store.set("offer", { title: `Offer of ${new Date().toLocaleTimeString()}`, until: Date.now() + seconds * 1000 }, { ttl: seconds });
  return (
    <main>
      <h1>idb-ttl + React: an offer that ends on time</h1>
      <Offer store={store} />
      <label>
        lasting <input data-testid="seconds" type="number" min="1" value={seconds} onChange={(e) => setSeconds(Number(e.target.value))} /> s
      </label>{" "}
      <button data-testid="start" onClick={start}>Start an offer</button>{" "}
      <button data-testid="end" onClick={() => store.delete("offer")}>End it now</button>
      <p><small>Open this page in two tabs: an offer started in one shows and ends in both.</small></p>
    </main>
  );
}

// autoReap: false only to show that the flip does not wait for the reaper; a real app keeps it.
const store = await TtlStore.open("react-watch-example", { autoReap: false });
window.store = store; // for the page test and the console
createRoot(document.getElementById("root")).render(<StrictMode><App store={store} /></StrictMode>);
document.documentElement.dataset.state = "ready";
