// A Vite app as `npm create vite` makes it, plus `npm i idb-ttl`: no plugin, no vite.config.
// readme.js is the first example of the package README, as it stands there; then the same
// database from a module worker.
import "./readme.js";
import { TtlStore } from "idb-ttl";

const app = document.querySelector("#app");
const store = await TtlStore.open("app-cache");
const session = await store.get("session");
app.textContent = `session: ${JSON.stringify(session)}; waiting for the worker…`;

const worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
worker.onmessage = async ({ data }) => {
  const fromWorker = await store.get("from-worker");
  app.textContent = `session: ${JSON.stringify(session)}; the worker read ${JSON.stringify(data.session)} and wrote ${JSON.stringify(fromWorker)}`;
  Object.assign(app.dataset, {
    state: data.error ? "error" : "ready",
    session: JSON.stringify(session),
    worker: JSON.stringify(data),
    fromWorker: JSON.stringify(fromWorker),
  });
};
worker.onerror = (e) => {
  app.textContent = `worker failed: ${e.message}`;
  app.dataset.state = "error";
};
