// A worker on the same database as the page: it reads what the page wrote and writes back.
// (No top-level await, so Vite can bundle it in its default classic-worker format too.)
import { TtlStore } from "idb-ttl";

async function run() {
  const store = await TtlStore.open("app-cache");
  await store.set("from-worker", { at: Date.now() }, { ttl: "10 minutes" });
  return { session: await store.get("session"), ttl: await store.ttl("from-worker") };
}

run().then(
  (result) => postMessage(result),
  (e) => postMessage({ error: `${e.name}: ${e.message}` }),
);
