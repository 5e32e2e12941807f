#!/usr/bin/env node
// node scripts/stall-guard.mjs SECONDS -- COMMAND [ARG ...]
//
// Runs COMMAND (in a process group of its own, stdin closed) with its output passed through, and
// stops it when it has printed nothing for SECONDS: a bound on a hang, not on speed. A browser
// suite prints a line per test as it ends, so a slow machine keeps the guard fed however long the
// whole run takes, while a page that never loads or a test that never ends is stopped. Exits with
// COMMAND's status, or 124 (as timeout(1) does) when it was stopped.
import { execFileSync, spawn } from "node:child_process";

const [limitArg, sep, ...command] = process.argv.slice(2);
const limit = Number(limitArg);
if (!(limit > 0) || sep !== "--" || command.length === 0) {
  console.error("usage: node scripts/stall-guard.mjs SECONDS -- COMMAND [ARG ...]");
  process.exit(2);
}

const child = spawn(command[0], command.slice(1), { stdio: ["ignore", "pipe", "pipe"], detached: true });
let stalled = false;
let timer;
const stop = (signal) => {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // the group has exited already
  }
};
// Every process's CPU time so far: pid -> { pgid, secs, args } (`ps`; empty if it cannot run).
const cpuTimes = () => {
  const map = new Map();
  try {
    for (const line of execFileSync("ps", ["-eo", "pid=,pgid=,times=,args="], { encoding: "utf8" }).split("\n")) {
      const m = line.match(/^\s*(\d+)\s+(\d+)\s+(\d+)\s+(.*)$/);
      if (m) map.set(Number(m[1]), { pgid: Number(m[2]), secs: Number(m[3]), args: m[4] });
    }
  } catch {
    // no ps: the stall is reported without it
  }
  return map;
};
let exitCode;
const arm = () => {
  clearTimeout(timer);
  if (exitCode !== undefined) return;
  timer = setTimeout(() => {
    stalled = true;
    process.stderr.write(`\nstall-guard: no output for ${limit} s from ${command.join(" ")}: stopping it (SIGTERM, then SIGKILL after 10 s)\n`);
    // What the machine was doing: a page spinning in a loop shows as a browser process using CPU,
    // a page waiting on an answer that never comes as one that does not.
    const before = cpuTimes();
    setTimeout(() => {
      const after = cpuTimes();
      const rows = [...after].map(([pid, p]) => ({ ...p, pid, used: p.secs - (before.get(pid)?.secs ?? p.secs) }))
        .filter((p) => p.used > 0 || p.pgid === child.pid)
        .sort((a, b) => b.used - a.used)
        .slice(0, 15);
      process.stderr.write(`stall-guard: CPU seconds used over the last 5 s (this command's process group is ${child.pid}):\n`);
      for (const p of rows) process.stderr.write(`  ${String(p.used).padStart(3)} s  pid ${p.pid} (group ${p.pgid}, ${p.secs} s in all) ${p.args.slice(0, 160)}\n`);
      stop("SIGTERM");
      setTimeout(() => stop("SIGKILL"), 10_000).unref();
    }, 5_000);
  }, limit * 1000);
};
child.stdout.on("data", (d) => { arm(); process.stdout.write(d); });
child.stderr.on("data", (d) => { arm(); process.stderr.write(d); });
child.on("error", (e) => {
  console.error(`stall-guard: could not start ${command[0]}: ${e.message}`);
  process.exit(127);
});
// Stopped from outside (Ctrl-C, the caller's trap): the whole group goes too.
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => { stop(signal); process.exit(130); });
// Exit with the command's status once its output is drained (or 5 s after it exited, if something it
// started still holds the pipes); whatever it left running in its group is stopped.
const finish = () => {
  clearTimeout(timer);
  stop("SIGTERM");
  process.exit(stalled ? 124 : exitCode);
};
child.on("exit", (code, signal) => {
  exitCode = code ?? (signal ? 128 : 1);
  clearTimeout(timer);
  setTimeout(finish, 5_000).unref();
});
child.on("close", () => {
  if (exitCode === undefined) exitCode = child.exitCode ?? 1;
  finish();
});
arm();
