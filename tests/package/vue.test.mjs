// idb-ttl/vue in a real Vue 3 app: examples/vue-watch (single-file components compiled by Vue's
// own compiler, bundled by esbuild), installed with the packed tarball (`npm pack pkg/`) and the
// Vue of the root package.json, also on the lite entry (idb-ttl/lite, idb-ttl/lite/vue). In two
// tabs of Chromium (Playwright), Firefox and WebKit (WebDriver), and the lite app in Chromium: an
// offer written in one tab shows in the other by the next frame, is gone at its expiry (within 6
// frames) with no call to the store meanwhile, and unmounting its component stops the store's
// watch; server rendering (createSSRApp + vue/server-renderer in Node) shows no value, without
// error; the components of docs/vue.md compile. What is checked, and how, is in
// ./watch-app.mjs. Run by scripts/test.sh after scripts/build.sh.

import { watchAppSuite } from "./watch-app.mjs";

watchAppSuite({
  name: "vue",
  example: "vue-watch",
  db: "vue-watch-example",
  liteImports: {
    "src/store.js": [['from "idb-ttl";', 'from "idb-ttl/lite";']],
    "src/Offer.vue": [['from "idb-ttl/vue";', 'from "idb-ttl/lite/vue";']],
  },
  serverHtml: [/<p data-testid="offer"><i>Opening the store…<\/i><\/p>/],
  guide: {
    page: "docs/vue.md",
    lang: "vue",
    check: `import { readFileSync } from "node:fs";
import { compileScript, parse } from "vue/compiler-sfc";
for (const file of process.argv.slice(2)) {
  const { descriptor, errors } = parse(readFileSync(file, "utf8"), { filename: file });
  for (const e of errors) console.log(\`\${file}: \${e.message}\`);
  compileScript(descriptor, { id: "guide", inlineTemplate: true, isProd: true }); // throws on an error
}
`,
  },
});
