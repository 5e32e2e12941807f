// store.watch() and store.observe() behind React's useSyncExternalStore: an offer that counts
// down and flips to "The offer has ended" the moment its key expires, and a list of items that
// shrinks as each one expires, in this tab and every other, with no polling of the store and
// without waiting for the reaper.
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

/** The live entries `query` names, kept current by store.observe(): told again only on a change. */
export function useView(store, query) {
  const id = JSON.stringify(query); // one view per query, not per render
  const source = useMemo(() => {
    let list = []; // the last list observe() told: a new frozen array at each change
    return {
      subscribe: (onChange) => store.observe(query, (l) => { list = l; onChange(); }),
      getSnapshot: () => list,
    };
  }, [store, id]);
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

/** Seconds left until `expiresAt` (Unix seconds), rounded up. */
const secondsLeft = (expiresAt) => Math.max(0, Math.ceil(expiresAt - Date.now() / 1000));

function Items({ store }) {
  const items = useView(store, { prefix: "item:" });
  const [apart, setApart] = useState(1);
  useTick(items.length > 0, 250);
  const add = () => {
    const batch = Date.now().toString(36); // keys sort by batch, then by expiry
    return store.setMany(Array.from({ length: 5 }, (_, i) => [`item:${batch}:${i + 1}`, { title: `Item ${i + 1} of ${new Date().toLocaleTimeString()}` }, { ttl: (i + 1) * apart }]));
  };
  return (
    <section>
      <h2>Items that leave on time <small>({items.length})</small></h2>
      <label>
        expiring <input data-testid="apart" type="number" min="0.5" step="0.5" value={apart} onChange={(e) => setApart(Number(e.target.value))} /> s apart
      </label>{" "}
      <button data-testid="add-items" onClick={add}>Add 5 items</button>
      {items.length === 0 ? <p data-testid="items-empty"><i>No items.</i></p> : (
        <ul data-testid="items">
          {items.map((e) => (
            <li key={e.key} data-testid="item" data-key={e.key} data-expires-at={e.expiresAt}>
              {e.value.title} <small>leaves in {secondsLeft(e.expiresAt)} s</small>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function App({ store }) {
  const [seconds, setSeconds] = useState(5);
  const start = () => store.set("offer", { title: `Offer of ${new Date().toLocaleTimeString()}`, until: Date.now() + seconds * 1000 }, { ttl: seconds });
  return (
    <main>
      <h1>idb-ttl + React: an offer and a list that end on time</h1>
      <Offer store={store} />
      <label>
        lasting <input data-testid="seconds" type="number" min="1" value={seconds} onChange={(e) => setSeconds(Number(e.target.value))} /> s
      </label>{" "}
      <button data-testid="start" onClick={start}>Start an offer</button>{" "}
      <button data-testid="end" onClick={() => store.delete("offer")}>End it now</button>
      <p><small>Open this page in two tabs: an offer started in one shows and ends in both.</small></p>
      <Items store={store} />
      <p><small>The list is <code>store.observe({"{ prefix: \"item:\" }"})</code>: items added in either tab show in both
        and leave both at their expiry, told by the store's one view timer.</small></p>
    </main>
  );
}

// autoReap: false only to show that the flip and the list do not wait for the reaper; a real app
// keeps it.
const store = await TtlStore.open("react-watch-example", { autoReap: false });
window.store = store; // for the page test and the console
createRoot(document.getElementById("root")).render(<StrictMode><App store={store} /></StrictMode>);
document.documentElement.dataset.state = "ready";
