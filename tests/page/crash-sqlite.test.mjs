// The crash test (crash.test.mjs: Chromium SIGKILLed mid-write and relaunched on its profile, every
// acknowledged key and expiry checked) again on Chromium's SQLite IndexedDB backend, the one Chrome
// is rolling out for new data; crash.test.mjs itself runs on LevelDB. node --test runs each file in
// a process of its own, so the backend set here is this file's alone; the test checks that the
// SQLite backend wrote the profile. A file of its own so that it runs beside the other page tests.
process.env.IDB_BACKEND = "sqlite";
await import("./crash.test.mjs");
