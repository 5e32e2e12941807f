// idb-ttl/svelte in a real Svelte 5 app: examples/svelte-watch (components compiled by Svelte's
// compiler, one in runes mode and one in Svelte 4's syntax, both reading one entry store as
// `$offer`; bundled by esbuild), installed with the packed tarball (`npm pack pkg/`) and the
// Svelte of the root package.json, also on the lite entry (idb-ttl/lite, idb-ttl/lite/svelte). In
// two tabs of Chromium (Playwright), Firefox and WebKit (WebDriver), and the lite app in Chromium:
// an offer written in one tab shows in the other by the next frame, is gone at its expiry (within
// 6 frames) from both parts with no call to the store meanwhile, and unmounting both parts (the
// store's last two subscribers) stops the store's watch; server rendering (svelte/server's render
// in Node) shows no value, without error; the components of docs/svelte.md compile. What is
// checked, and how, is in ./watch-app.mjs. Run by scripts/test.sh after scripts/build.sh.

import { watchAppSuite } from "./watch-app.mjs";

watchAppSuite({
  name: "svelte",
  example: "svelte-watch",
  db: "svelte-watch-example",
  liteImports: {
    "src/App.svelte": [['from "idb-ttl";', 'from "idb-ttl/lite";'], ['from "idb-ttl/svelte";', 'from "idb-ttl/lite/svelte";']],
  },
  serverHtml: [/<p data-testid="offer"><i>Opening the store…<\/i><\/p>/, /<p data-testid="badge">Nothing on offer<\/p>/],
  alsoShown: [["badge", /^Nothing on offer$/]],
  guide: {
    page: "docs/svelte.md",
    lang: "svelte",
    check: `import { readFileSync } from "node:fs";
import { compile } from "svelte/compiler";
for (const file of process.argv.slice(2)) {
  const { warnings } = compile(readFileSync(file, "utf8"), { filename: file, generate: "client" });
  for (const w of warnings) console.log(\`\${file}: \${w.code}: \${w.message}\`);
}
`,
  },
});
