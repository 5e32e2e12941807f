// A service worker whose HTTP cache is idb-ttl: it answers GET requests for /api/ from the store,
// and stores each response (status, headers, body: a structured-clone value) for as long as its
// headers say it stays fresh (ttlFromHeaders, RFC 9111). What must not be stored (no-store), says
// nothing about freshness, or is already stale passes through untouched. Registered as a module
// worker: navigator.serviceWorker.register("./sw.js", { type: "module" }).
import { TtlStore, ttlFromHeaders } from "./idb-ttl/index.js";

const CACHED = "/api/"; // the paths answered from the store
const DB = "sw-http-cache";
const BORN = `${Date.now()}-${Math.random()}`; // this life of the worker (GET /sw/life)

// One store per life of the worker. The browser stops an idle worker after some seconds and
// starts it again, from the top of this file, for its next event: the store's background reaper
// runs on timers, which die with the worker. So the first event of each life (fetch, activate,
// periodicsync) runs a reaper pass, which removes what expired while the worker was stopped, and
// keeps the worker alive until it ends (waitUntil). Reads are right meanwhile anyway: a store
// never returns an expired entry.
let life;
function wake(event) {
  if (!life) {
    const store = TtlStore.open(DB);
    store.catch(() => { life = undefined; }); // not opened: try again on the next event
    life = { store, caughtUp: store.then((s) => s.reap()).catch((e) => console.warn("idb-ttl: no catch-up pass", e)) };
  }
  event.waitUntil(life.caughtUp);
  return life.store;
}

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(Promise.all([self.clients.claim(), wake(event)])));

// Chromium wakes an installed app's worker now and then if the page registered this tag
// (registration.periodicSync.register("idb-ttl-reap", { minInterval })): one pass each time.
self.addEventListener("periodicsync", (event) => {
  if (event.tag === "idb-ttl-reap") event.waitUntil(wake(event).then((s) => s.reap()));
});

self.addEventListener("fetch", (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (url.origin === location.origin && url.pathname === "/sw/life") {
    // Which life of the worker answers (the page shows restarts); waking catches up, as any event.
    wake(event);
    event.respondWith(Response.json({ born: BORN }));
    return;
  }
  if (request.method !== "GET" || url.origin !== location.origin || !url.pathname.startsWith(CACHED)) return;
  event.respondWith(answer(event, request));
});

async function answer(event, request) {
  let store;
  try {
    store = await wake(event);
    // A request that asks for the network (reload, no-store, no-cache) does not read the store.
    const hit = request.cache === "default" || request.cache === "force-cache" ? await store.get(request.url) : undefined;
    if (hit) return fromStored(hit);
  } catch (e) {
    console.warn("idb-ttl cache unavailable, using the network:", e);
  }
  const response = await fetch(request);
  let ttl;
  try {
    ttl = store && storable(response) ? ttlFromHeaders(response.headers) : undefined;
  } catch (e) {
    console.warn("idb-ttl: not storing", request.url, e);
  }
  if (store && ttl) {
    // 0 (no-cache, max-age=0) and undefined are not stored. The body is copied after the
    // response has gone to the page; the worker stays alive until it is stored.
    const copy = response.clone();
    event.waitUntil(toStored(copy).then((v) => store.set(request.url, v, { ttl })).catch((e) => console.warn("idb-ttl: not stored", e)));
  }
  return response;
}

// The URL is the key, so a response that varies by request headers (other than the encoding,
// which fetch undoes) is not stored; nor is a partial or opaque one.
function storable(response) {
  if (response.status !== 200 || response.type !== "basic") return false;
  const vary = response.headers.get("vary");
  return !vary || vary.split(",").every((v) => v.trim().toLowerCase() === "accept-encoding");
}

async function toStored(response) {
  return {
    status: response.status,
    statusText: response.statusText,
    headers: [...response.headers],
    body: await response.arrayBuffer(),
    storedAt: Date.now() / 1000,
  };
}

// A stored response, with its Age (RFC 9111 5.1: a cache says how long it kept it) and a marker.
function fromStored(v) {
  const headers = new Headers(v.headers);
  const age = (Number(headers.get("age")) || 0) + Math.max(0, Math.floor(Date.now() / 1000 - v.storedAt));
  headers.set("age", String(age));
  headers.set("x-idb-ttl", "hit");
  return new Response(v.body, { status: v.status, statusText: v.statusText, headers });
}
