// The loop of the A/B tools (bench/ab-*.mjs): one headless Chromium session on one page of the
// repo, the builds interleaved (in reverse order every other repetition, so that no build always
// runs first), 1 warm-up + `reps` repetitions, then each measure's median (min-max) in ms, a line
// per build, and for each build after the first its paired ratio to the build before it: the
// median over repetitions of (this build / the one before) in the same repetition, which a machine
// loaded by other work disturbs less than the medians.
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { launch } from "./browser.mjs";
import { startServer } from "./server.mjs";
import { median } from "./stats.mjs";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * Runs `measure` in the page (`page.evaluate(measure, [pkg, j, rep, ...extra])`, resolving to
 * `{ name: ms }`) for every build `pkgs[j]` (package directories relative to the repo) in every
 * repetition, after opening `path` and waiting for `ready` there; prints the medians.
 */
export async function ab(pkgs, { path, ready, reps, extra = [] }, measure) {
  const server = await startServer(repo, repo);
  const browser = await launch();
  const res = {};
  try {
    const page = await browser.context.newPage();
    await page.goto(server.url + path);
    await page.waitForFunction(ready);
    for (let rep = 0; rep <= reps; rep++) {
      const order = [...pkgs.entries()];
      if (rep % 2) order.reverse();
      for (const [j, pkg] of order) {
        const r = await page.evaluate(measure, [pkg, j, rep, ...extra]);
        if (rep === 0) continue;
        for (const [k, v] of Object.entries(r)) ((res[pkg] ??= {})[k] ??= []).push(v);
      }
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  const names = [...new Set(pkgs)].filter((pkg) => res[pkg]);
  for (const pkg of names) {
    const r = res[pkg];
    console.log(pkg, Object.entries(r).map(([k, v]) => `${k}=${median(v).toFixed(1)} (${Math.min(...v).toFixed(0)}-${Math.max(...v).toFixed(0)})`).join(" "));
  }
  for (let j = 1; j < names.length; j++) {
    const [a, b] = [res[names[j - 1]], res[names[j]]];
    const paired = Object.keys(b).map((k) => `${k}=${median(b[k].map((v, i) => v / a[k][i])).toFixed(3)}`);
    console.log(`${names[j]} / ${names[j - 1]} (paired median):`, paired.join(" "));
  }
}
