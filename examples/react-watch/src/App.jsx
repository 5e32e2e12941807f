// idb-ttl/react: state that persists with a shelf life. Every part asks useStore for the same
// store (one open, shared; closed once no part is shown) and shows what useEntry or useView tell:
// writes from any tab at once, and expiry at its moment, with no polling and without waiting for
// the reaper (the store is opened with `autoReap: false` to show it; a real app keeps it).
import { useEffect, useState } from "react";
import { useEntry, useStore, useView } from "idb-ttl/react";

/** The one store every part uses: useStore opens it once, however many parts ask. */
function useAppStore() {
  const store = useStore("react-watch-example", { autoReap: false });
  useEffect(() => {
    if (store) (window.stores ??= new Set()).add(store); // for the console and the tests
  }, [store]);
  return store;
}

/** Seconds left until `expiresAt` (Unix seconds), rounded up. */
const secondsLeft = (expiresAt) => Math.max(0, Math.ceil(expiresAt - Date.now() / 1000));

/** Re-renders every `ms` while `on`: only for the countdown's digits, never to notice expiry. */
function useTick(on, ms) {
  const [, setNow] = useState(0);
  useEffect(() => {
    if (!on) return undefined;
    const t = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(t);
  }, [on, ms]);
}

function Offer() {
  const store = useAppStore();
  const [offer, setOffer, { expiresAt, loading, error }] = useEntry(store, "offer");
  const [seconds, setSeconds] = useState(5);
  useTick(offer !== undefined, 250);
  useEffect(() => {
    if (!loading) document.documentElement.dataset.state = "ready";
  }, [loading]);
  return (
    <section>
      <h2>An offer that ends on time</h2>
      {loading ? <p data-testid="offer"><i>Opening the store…</i></p>
        : offer === undefined ? <p data-testid="offer"><i>The offer has ended</i></p>
        : <p data-testid="offer"><b>{offer.title}</b> ends in <span data-testid="left">{secondsLeft(expiresAt)}</span> s</p>}
      <label>
        lasting <input data-testid="seconds" type="number" min="1" value={seconds} onChange={(e) => setSeconds(Number(e.target.value))} /> s
      </label>{" "}
      <button data-testid="start" onClick={() => setOffer({ title: `Offer of ${new Date().toLocaleTimeString()}` }, { ttl: seconds })}>Start an offer</button>{" "}
      <button data-testid="end" onClick={() => setOffer(undefined)}>End it now</button>
      {error ? <p role="alert">{String(error)}</p> : null}
    </section>
  );
}

function Draft() {
  const store = useAppStore();
  // A useState that persists for a day after the last edit, and follows the other tabs.
  const [draft, setDraft, { ttl }] = useEntry(store, "draft", { initial: "", ttl: "1 day" });
  return (
    <section>
      <h2>A draft kept for a day</h2>
      <textarea data-testid="draft" rows="3" cols="60" value={draft} onChange={(e) => setDraft(e.target.value)} />
      <p><small data-testid="draft-ttl">{ttl ? `Kept ${Math.round(ttl / 3600)} h more.` : "Type: it survives a reload, for a day after the last edit."}</small></p>
    </section>
  );
}

function Likes() {
  const store = useAppStore();
  // An updater runs in one transaction (store.update): clicks in two tabs at once all count.
  const [likes, setLikes, { loading, error }] = useEntry(store, "likes", { initial: 0 });
  return (
    <section>
      <h2>A counter the tabs share</h2>
      <button data-testid="like" disabled={loading} onClick={() => setLikes((n) => n + 1)}>Like</button>{" "}
      <span data-testid="likes">{likes}</span> likes{" "}
      <button data-testid="unlike-all" disabled={loading} onClick={() => setLikes(undefined)}>Reset</button>
      {error ? <p role="alert">{String(error)}</p> : null}
    </section>
  );
}

function Items() {
  const store = useAppStore();
  const items = useView(store, { prefix: "item:" });
  const [apart, setApart] = useState(1);
  useTick(items.length > 0, 250);
  const add = () => {
    const batch = Date.now().toString(36); // keys sort by batch, then by expiry
    return store?.setMany(Array.from({ length: 5 }, (_, i) => [`item:${batch}:${i + 1}`, { title: `Item ${i + 1} of ${new Date().toLocaleTimeString()}` }, { ttl: (i + 1) * apart }]));
  };
  return (
    <section>
      <h2>Items that leave on time <small>({items.length})</small></h2>
      <label>
        expiring <input data-testid="apart" type="number" min="0.5" step="0.5" value={apart} onChange={(e) => setApart(Number(e.target.value))} /> s apart
      </label>{" "}
      <button data-testid="add-items" disabled={!store} onClick={add}>Add 5 items</button>
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

export function App() {
  const [shown, setShown] = useState(true);
  return (
    <main>
      <h1>idb-ttl/react: state with a shelf life</h1>
      <p><small>Open this page in two tabs: what one writes shows in both, and leaves both at its expiry.</small></p>
      <label>
        <input data-testid="shown" type="checkbox" checked={shown} onChange={(e) => setShown(e.target.checked)} /> Show the parts
        (untick: no part uses the store any more, and useStore closes it)
      </label>
      {shown ? <><Offer /><Draft /><Likes /><Items /></> : null}
    </main>
  );
}
