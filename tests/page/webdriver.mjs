// A minimal W3C WebDriver client for the page tests in Firefox (geckodriver) and WebKit
// (WebKitWebDriver + MiniBrowser under Xvfb). Playwright drives only its own patched Firefox and
// WebKit builds, which cannot be downloaded here; Debian's browsers speak plain WebDriver.
// Not a test file itself (`node --test` only runs *.test.mjs).

import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { homedir } from "node:os";
import { join } from "node:path";

/** The engines besides Chromium, with where their driver and browser live on Debian. */
export const ENGINES = {
  firefox: {
    driver: () => process.env.GECKODRIVER || join(homedir(), ".cargo/bin/geckodriver"),
    args: (port) => ["--host", "127.0.0.1", "--port", String(port)],
    capabilities: () => ({
      browserName: "firefox",
      "moz:firefoxOptions": {
        binary: process.env.FIREFOX_PATH || "/usr/bin/firefox-esr",
        args: ["-headless"],
        // No network beyond loopback here: keep Firefox from phoning home at start.
        prefs: {
          "app.update.enabled": false,
          "browser.safebrowsing.malware.enabled": false,
          "browser.safebrowsing.phishing.enabled": false,
          "datareporting.policy.dataSubmissionEnabled": false,
          "network.captive-portal-service.enabled": false,
          "network.connectivity-service.enabled": false,
        },
      },
    }),
  },
  webkit: {
    driver: () => process.env.WEBKIT_DRIVER || "/usr/bin/WebKitWebDriver",
    // WebKitGTK has no headless mode: the driver (and the MiniBrowser it starts) run under Xvfb.
    wrap: true,
    args: (port) => [`--port=${port}`, "--host=127.0.0.1", "--replace-on-new-session"],
    capabilities: () => ({
      browserName: "MiniBrowser",
      "webkitgtk:browserOptions": {
        binary: process.env.MINIBROWSER_PATH || "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser",
        args: ["--automation"],
      },
    }),
  },
};

/** Whether `engine`'s driver and browser are installed (scripts/setup.sh installs both). */
export function available(engine) {
  const e = ENGINES[engine];
  const caps = e.capabilities();
  const binary = caps["moz:firefoxOptions"]?.binary ?? caps["webkitgtk:browserOptions"]?.binary;
  return existsSync(e.driver()) && existsSync(binary) && (!e.wrap || spawnSync("which", ["xvfb-run"]).status === 0);
}

/** A free TCP port on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts the driver for `engine` and opens a session. Returns a `Session`; call `quit()` in
 * `finally` (it ends the session and stops the driver). `prefs` are added to Firefox's (e.g.
 * `dom.quotaManager.temporaryStorage.fixedLimit` for a small quota).
 */
export async function launch(engine, { prefs } = {}) {
  const e = ENGINES[engine];
  const port = await freePort();
  const cmd = e.wrap ? "xvfb-run" : e.driver();
  const args = e.wrap ? ["-a", e.driver(), ...e.args(port)] : e.args(port);
  // detached: the driver (and xvfb-run's Xvfb) form one process group, killed together by quit().
  const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"], detached: true });
  let log = "";
  child.stdout.on("data", (d) => { log += d; });
  child.stderr.on("data", (d) => { log += d; });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${engine} driver exited (${child.exitCode}): ${log}`);
    try {
      const r = await fetch(`${base}/status`);
      if (r.ok) break;
    } catch { /* not listening yet */ }
    if (Date.now() > deadline) { kill(child); throw new Error(`${engine} driver did not start within 60 s: ${log}`); }
    await sleep(100);
  }
  const session = new Session(engine, base, child, () => log);
  try {
    const caps = e.capabilities();
    if (prefs) Object.assign(caps["moz:firefoxOptions"].prefs, prefs);
    const { sessionId } = await session.send("POST", "/session", { capabilities: { alwaysMatch: caps } });
    session.id = sessionId;
    // Bounds on a hang, not on speed: a loaded machine loads a page or runs a script slowly.
    await session.send("POST", `/session/${sessionId}/timeouts`, { script: 120_000, pageLoad: 120_000 });
  } catch (err) {
    kill(child);
    throw err;
  }
  return session;
}

function kill(child) {
  try { process.kill(-child.pid, "SIGKILL"); } catch { /* gone */ }
}

/** One WebDriver session: navigate, run scripts, quit. */
export class Session {
  constructor(engine, base, child, log) {
    Object.assign(this, { engine, base, child, log, id: null });
  }

  /** One WebDriver command; resolves to its `value`, rejects with the driver's error. */
  async send(method, path, body) {
    const r = await fetch(this.base + path, {
      method,
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(180_000),
    });
    const json = await r.json();
    if (!r.ok || (json.value && json.value.error)) {
      const v = json.value || {};
      throw new Error(`${this.engine} WebDriver ${method} ${path}: ${v.error}: ${v.message}`);
    }
    return json.value;
  }

  /** Navigates to `url` and waits for the load event. */
  goto(url) {
    return this.send("POST", `/session/${this.id}/url`, { url });
  }

  /** Reloads the page. */
  reload() {
    return this.send("POST", `/session/${this.id}/refresh`, {});
  }

  /**
   * Runs `fn(...args)` in the page (an async function's source is sent) and resolves to what it
   * resolves to, which must be JSON. A rejection comes back as `{ __error: "Name: message" }`
   * and is thrown here.
   */
  async eval(fn, ...args) {
    const script = `const done = arguments[arguments.length - 1];
      Promise.resolve().then(() => (${fn})(...Array.from(arguments).slice(0, -1)))
        .then((v) => done({ ok: v === undefined ? null : v }), (e) => done({ __error: String(e && e.name) + ": " + String(e && e.message) }));`;
    const out = await this.send("POST", `/session/${this.id}/execute/async`, { script, args });
    if (out && out.__error) throw new Error(`in ${this.engine}: ${out.__error}`);
    return out.ok;
  }

  /** The handle of the current window (tab). */
  window() {
    return this.send("GET", `/session/${this.id}/window`);
  }

  /**
   * Opens a new tab (a window where the browser has no tabs; `type: "window"` for a window, whose
   * page stays visible beside the first) and resolves to its handle; the current one stays current.
   */
  async newWindow(type = "tab") {
    return (await this.send("POST", `/session/${this.id}/window/new`, { type })).handle;
  }

  /** Makes the window (tab) `handle` the one the following commands go to. */
  switchTo(handle) {
    return this.send("POST", `/session/${this.id}/window`, { handle });
  }

  /** Polls `fn` in the page until it returns something truthy (JSON), up to `ms` (a bound on a hang). */
  async waitFor(fn, ms = 60_000, what = "condition") {
    const deadline = Date.now() + ms;
    for (;;) {
      const v = await this.eval(fn);
      if (v) return v;
      if (Date.now() > deadline) throw new Error(`${this.engine}: ${what} not met within ${ms} ms`);
      await sleep(200);
    }
  }

  /** Ends the session and stops the driver and its browser. */
  async quit() {
    if (this.id) await this.send("DELETE", `/session/${this.id}`).catch(() => {});
    kill(this.child);
  }
}
