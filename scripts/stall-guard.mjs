#!/usr/bin/env node
// node scripts/stall-guard.mjs SECONDS -- COMMAND [ARG ...]
//
// Runs COMMAND (in a process group of its own, stdin closed) with its output passed through, and
// stops it when it has printed nothing for SECONDS: a bound on a hang, not on speed. A browser
// suite prints a line per test as it ends, so a slow machine keeps the guard fed however long the
// whole run takes, while a page that never loads or a test that never ends is stopped. Exits with
// COMMAND's status, or 124 (as timeout(1) does) when it was stopped.
import { spawn } from "node:child_process";

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
let exitCode;
const arm = () => {
  clearTimeout(timer);
  if (exitCode !== undefined) return;
  timer = setTimeout(() => {
    stalled = true;
    process.stderr.write(`\nstall-guard: no output for ${limit} s from ${command.join(" ")}: stopping it (SIGTERM, then SIGKILL after 10 s)\n`);
    stop("SIGTERM");
    setTimeout(() => stop("SIGKILL"), 10_000).unref();
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
