// What each result file records about its run: when, on what, from which commit, under what load.
// scripts/bench.sh sets BENCH_COMMIT to the commit it built (with "+local changes" when src/,
// pkg-template/ or the Cargo files differed from it at build time); run alone, HEAD is read here
// and marked as such, since pkg/ may have been built from something else.
import { execFileSync } from "node:child_process";
import { cpus, loadavg, totalmem } from "node:os";
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

function git(...args) {
  try { return execFileSync("git", ["-C", repo, ...args], { encoding: "utf8" }).trim(); } catch { return null; }
}

/** `uptime`'s load averages now: "0.54, 3.86, 4.80" (1, 5 and 15 minutes). */
export function load() {
  try { return readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(", "); } catch {
    return loadavg().map((x) => x.toFixed(2)).join(", ");
  }
}

export function runMeta() {
  const commit = process.env.BENCH_COMMIT || `${git("rev-parse", "--short", "HEAD") ?? "unknown"} (HEAD when run; pkg/ not built by this run)`;
  return {
    date: new Date().toISOString(),
    commit,
    machine: `${cpus().length} cores (${cpus()[0]?.model ?? "unknown CPU"}), ${Math.round(totalmem() / 2 ** 30)} GiB, ` +
      `node ${process.version}`,
    loadAtStart: load(),
  };
}
