import { TtlStore } from "idb-ttl";

const store = await TtlStore.open("app-cache");

await store.set("session", { user: 7 }, { ttl: 3600 });                        // seconds from now
await store.set("banner", "hello", { expiresAt: "2036-12-24T18:00:00+01:00" }); // ISO-8601
await store.set("token", "abc", { expiresAt: 2114380800 });                      // Unix seconds
await store.set("draft", "...", { ttl: "90 days" });                             // a duration

console.log(await store.get("session"));   // { user: 7 }, or undefined once expired or deleted
console.log(await store.ttl("session"));   // seconds left (3599.99...); null = no expiry

store.addEventListener("expired", (e) => console.log("expired:", e.detail.keys));
