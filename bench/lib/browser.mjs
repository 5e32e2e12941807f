// One headless Chromium session with a persistent profile in a temp dir (TOOLCHAIN.md #8).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

export const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
// IDB_BACKEND=sqlite (scripts/bench.sh --backend sqlite): Chromium's SQLite IndexedDB backend.
const BACKEND = process.env.IDB_BACKEND || "leveldb";
if (!["leveldb", "sqlite"].includes(BACKEND)) throw new Error(`IDB_BACKEND=${BACKEND}: expected leveldb or sqlite`);
export const FLAGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
  ...(BACKEND === "sqlite" ? ["--enable-features=IdbSqliteBackingStore,IdbSqliteOnDiskRollout"] : []),
];

export async function launch() {
  const profile = mkdtempSync(join(tmpdir(), "idb-ttl-bench-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM, headless: true, args: FLAGS,
  });
  const version = context.browser()?.version() ?? null;
  return {
    context, profile, version,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
