// The docs check (scripts/docs.sh runs it; CONTRIBUTING.md, "The docs", says what it holds):
//   node scripts/docs-check.mjs typings   the package's typings, as scripts/build.sh makes them from
//                                         pkg-template/, in target/docs-check/idb-ttl/
//   node scripts/docs-check.mjs blocks    every ts/js/tsx/jsx block of README.md and docs/*.md
//                                         compiled by tsc --strict against those typings
//   node scripts/docs-check.mjs links     every relative link and #fragment of every Markdown file
// Each prints what it checked and exits 1 on the first kind of failure it finds.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { typings } from "./typings.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const OUT = join(ROOT, "target/docs-check");
// Not under a node_modules/: TypeDoc takes what lies there for external code. Examples reach it
// by tsconfig paths.
const PKG = join(OUT, "idb-ttl");

// ---- typings --------------------------------------------------------------------------------------

function makeTypings() {
  rmSync(PKG, { recursive: true, force: true });
  mkdirSync(join(PKG, "lite"), { recursive: true });
  const dts = readFileSync(join(ROOT, "pkg-template/index.d.ts"), "utf8");
  const full = typings(dts, false);
  // The lite entry's typings name their own module for the reference (the template names one).
  const lite = typings(dts, true).replace("@module idb-ttl\n", "@module idb-ttl/lite\n");
  if (!/@module idb-ttl\/lite\n/.test(lite)) throw new Error("pkg-template/index.d.ts: no `@module idb-ttl` tag");
  writeFileSync(join(PKG, "index.d.ts"), full);
  const liteLead = " * The lite entry, `\"idb-ttl/lite\"`: the key-value store alone, in a smaller build of its own; it\n" +
    " * lacks collections, time series, tiers and hand-off, encryption and `ttlFromHeaders`.\n";
  writeFileSync(join(PKG, "lite/index.d.ts"), lite.replace(/^ \* The default entry[^\n]*\n/m, liteLead));
  for (const binding of ["react", "vue", "svelte"]) {
    cpSync(join(ROOT, "pkg-template", binding), join(PKG, binding), { recursive: true, filter: (f) => !f.endsWith(".js") });
  }
  cpSync(join(ROOT, "pkg-template/package.json"), join(PKG, "package.json"));
  // The built package, when it is newer than the template, must hold the same typings: both are
  // made by scripts/typings.mjs, so a difference is a build.sh step this one lacks.
  const built = join(ROOT, "pkg/index.d.ts");
  if (existsSync(built) && statSync(built).mtimeMs > statSync(join(ROOT, "pkg-template/index.d.ts")).mtimeMs) {
    if (readFileSync(built, "utf8") !== full) {
      throw new Error("pkg/index.d.ts differs from what scripts/docs-check.mjs makes of pkg-template/index.d.ts: scripts/build.sh now makes the typings in a way this script does not follow");
    }
  }
  console.log(`typings: ${relative(ROOT, PKG)}/ (index, lite, react, vue, svelte) from pkg-template/`);
}

// ---- code blocks --------------------------------------------------------------------------------

const LANGS = { ts: "ts", js: "js", tsx: "tsx", jsx: "jsx", typescript: "ts", javascript: "js" };

/** The pages whose examples are compiled: README.md and docs/*.md but the measurement notes. */
function examplePages() {
  const docs = readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md") && !["benchmarks.md", "patches.md"].includes(f))
    .map((f) => `docs/${f}`);
  return ["README.md", ...docs.sort()];
}

/** Fenced blocks of a Markdown text: { lang, info, line (of the first code line), code }. */
function fencedBlocks(text) {
  const blocks = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([^`\s]*)\s*(.*)$/.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, lang, rest] = open;
    const body = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = new RegExp(`^\\s*${fence[0] === "`" ? "`" : "~"}{${fence.length},}\\s*$`);
      if (close.test(lines[j])) break;
      body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j].trimStart());
    }
    blocks.push({ lang: lang.toLowerCase(), info: rest.trim().split(/\s+/).filter(Boolean), line: i + 2, code: body.join("\n"), end: j + 1 });
    i = j;
  }
  return blocks;
}

function checkBlocks() {
  const dir = join(OUT, "blocks");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files = []; // { path, map: [{ from, to, page, line }] } to map errors back to the pages
  let count = 0;
  for (const page of examplePages()) {
    const text = readFileSync(join(ROOT, page), "utf8");
    let last;
    for (const b of fencedBlocks(text)) {
      const ext = LANGS[b.lang];
      if (!ext) continue;
      const unknown = b.info.filter((w) => w !== "continued");
      if (unknown.length) throw new Error(`${page}:${b.line - 1}: unknown info string word(s) ${unknown.join(" ")} (only "continued")`);
      count++;
      if (b.info.includes("continued")) {
        if (!last) throw new Error(`${page}:${b.line - 1}: a "continued" block with no block before it`);
        if (last.ext !== ext) throw new Error(`${page}:${b.line - 1}: a "continued" ${b.lang} block after a ${last.ext} one`);
        last.parts.push(b);
        continue;
      }
      last = { page, ext, parts: [b], name: `${page.replace(/[/.]/g, "_")}_${b.line}.${ext}` };
      files.push(last);
    }
  }
  // A block that starts with `/// <reference lib="webworker" />` (a service worker) is compiled as
  // worker code: without the DOM's types, which clash with the worker's.
  const names = { dom: [], webworker: [] };
  for (const f of files) {
    const out = [];
    f.map = [];
    for (const b of f.parts) {
      f.map.push({ from: out.length + 1, page: f.page, line: b.line });
      out.push(...b.code.split("\n"));
    }
    // A block with no import or export is a script to tsc; make it a module (top-level await, own scope).
    if (!/^\s*(import|export)\b/m.test(out.join("\n"))) out.push("export {};");
    writeFileSync(join(dir, f.name), out.join("\n") + "\n");
    names[/^\/\/\/ <reference lib="webworker" \/>/.test(out[0]) ? "webworker" : "dom"].push(f.name);
  }
  const tsconfig = (env) => ({
    compilerOptions: {
      strict: true,
      noEmit: true,
      target: "es2022",
      module: "esnext",
      moduleResolution: "bundler",
      lib: env === "dom" ? ["es2022", "dom", "dom.iterable"] : ["es2022", "webworker", "webworker.iterable"],
      allowJs: true,
      checkJs: true,
      jsx: "preserve",
      skipLibCheck: false,
      types: [],
      paths: {
        "idb-ttl": [join(PKG, "index.d.ts")],
        "idb-ttl/lite": [join(PKG, "lite/index.d.ts")],
        "idb-ttl/react": [join(PKG, "react/index.d.ts")],
        "idb-ttl/lite/react": [join(PKG, "react/lite.d.ts")],
        "idb-ttl/vue": [join(PKG, "vue/index.d.ts")],
        "idb-ttl/lite/vue": [join(PKG, "vue/lite.d.ts")],
        "idb-ttl/svelte": [join(PKG, "svelte/index.d.ts")],
        "idb-ttl/lite/svelte": [join(PKG, "svelte/lite.d.ts")],
      },
    },
    files: env === "dom" ? [join(ROOT, "scripts/docs-check/app.d.ts"), ...names.dom] : names.webworker,
  });
  let output = "";
  for (const env of ["dom", "webworker"]) {
    if (!names[env].length) continue;
    writeFileSync(join(dir, `tsconfig.${env}.json`), JSON.stringify(tsconfig(env), null, 2));
    try {
      execFileSync(join(ROOT, "node_modules/.bin/tsc"), ["-p", join(dir, `tsconfig.${env}.json`), "--pretty", "false"], { cwd: dir, encoding: "utf8", stdio: "pipe" });
    } catch (e) {
      output += `${e.stdout}${e.stderr}`;
    }
  }
  if (output.trim()) {
    // name.ts(12,5): error TS...: point at the page's line instead.
    const byName = new Map(files.map((f) => [f.name, f]));
    const mapped = output.replace(/^([^\s(]+)\((\d+),(\d+)\)/gm, (all, file, line, col) => {
      const f = byName.get(file);
      if (!f) return all;
      const part = f.map.filter((m) => m.from <= Number(line)).at(-1);
      return `${part.page}:${part.line + Number(line) - part.from}:${col} (${relative(ROOT, join(dir, file))})`;
    });
    console.error(mapped.trim());
    throw new Error(`code blocks: tsc --strict found errors in the examples above (${count} blocks compiled)`);
  }
  console.log(`code blocks: ${count} blocks of ${examplePages().length} pages compiled by tsc --strict (${files.length} modules, ${names.webworker.length} of them as worker code)`);
}

// ---- links --------------------------------------------------------------------------------------

const SKIP_DIRS = new Set([".git", "node_modules", "target", "pkg", ".tools", "test-results"]);

function markdownFiles(dir = ROOT) {
  const found = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) {
      if (SKIP_DIRS.has(e.name) || relative(ROOT, join(dir, e.name)) === "www/pkg") continue;
      found.push(...markdownFiles(join(dir, e.name)));
    } else if (e.name.endsWith(".md")) {
      found.push(join(dir, e.name));
    }
  }
  return found;
}

/** GitHub's anchor for a heading text (github-slugger): lowercase, punctuation gone, spaces to -. */
function slug(heading) {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1") // links: their text
    .replace(/<[^>]+>/g, "") // inline HTML tags
    .replace(/[*_`~]/g, (c) => (c === "_" ? "_" : "")) // emphasis and code marks (underscores stay)
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, "").replace(/ /g, "-");
}

const anchorCache = new Map();
/** The anchors a Markdown file offers: its headings' slugs (duplicates numbered) and <a id/name>. */
function anchors(file) {
  if (anchorCache.has(file)) return anchorCache.get(file);
  const text = readFileSync(file, "utf8");
  const set = new Set();
  const seen = new Map();
  const code = codeLines(text);
  text.split("\n").forEach((line, i) => {
    if (code.has(i)) return;
    const h = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (h) {
      const base = slug(h[1]);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      set.add(n ? `${base}-${n}` : base);
    }
    for (const m of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) set.add(m[1]);
  });
  anchorCache.set(file, set);
  return set;
}

/** Line numbers (0-based) inside fenced code blocks. */
function codeLines(text) {
  const set = new Set();
  for (const b of fencedBlocks(text)) for (let i = b.line - 2; i < b.end; i++) set.add(i);
  return set;
}

function checkLinks() {
  const files = markdownFiles();
  const broken = [];
  let count = 0;
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    const code = codeLines(text);
    text.split("\n").forEach((line, i) => {
      if (code.has(i)) return;
      const plain = line.replace(/`[^`]*`/g, "``"); // no links inside inline code
      const targets = [
        ...[...plain.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]),
        ...[...plain.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/g)].map((m) => m[1]),
        ...[...plain.matchAll(/<a\s[^>]*href="([^"]+)"/g)].map((m) => m[1]),
      ];
      for (const target of targets) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:...
        count++;
        const [path, fragment] = target.split("#");
        const dest = path ? resolve(dirname(file), decodeURIComponent(path)) : file;
        const where = `${relative(ROOT, file)}:${i + 1}: ${target}`;
        if (!existsSync(dest)) {
          broken.push(`${where}: no such file`);
        } else if (fragment !== undefined && dest.endsWith(".md") && !anchors(dest).has(decodeURIComponent(fragment))) {
          broken.push(`${where}: no heading or anchor #${fragment} in ${relative(ROOT, dest)}`);
        }
      }
    });
  }
  if (broken.length) {
    console.error(broken.join("\n"));
    throw new Error(`links: ${broken.length} of ${count} relative links in ${files.length} Markdown files do not resolve`);
  }
  console.log(`links: ${count} relative links in ${files.length} Markdown files resolve`);
}

const what = process.argv[2];
try {
  if (what === "typings") makeTypings();
  else if (what === "blocks") checkBlocks();
  else if (what === "links") checkLinks();
  else throw new Error(`usage: node scripts/docs-check.mjs typings|blocks|links (got ${what})`);
} catch (e) {
  console.error(`docs: ${e.message}`);
  process.exit(1);
}
