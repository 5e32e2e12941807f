// The package's typings as made from pkg-template/index.d.ts, by scripts/build.sh (into pkg/)
// and by scripts/docs-check.mjs (for the API reference and the docs' code blocks): one rule for
// both.

/**
 * index.d.ts as written, without its marker lines (`//#...`); with `lite`, also without what lies
 * between `//#full` and `//#end full` (what the lite entry lacks). Throws on a marker it does not
 * know, a block inside another or left open, or a template without any block.
 */
export function typings(src, lite) {
  const out = [];
  let inFull = false;
  let blocks = 0;
  for (const [i, line] of src.split("\n").entries()) {
    const t = line.trim();
    if (t.startsWith("//#full")) {
      if (inFull) throw new Error(`pkg-template/index.d.ts:${i + 1}: //#full inside another`);
      inFull = true;
      blocks++;
    } else if (t === "//#end full") {
      if (!inFull) throw new Error(`pkg-template/index.d.ts:${i + 1}: //#end full without //#full`);
      inFull = false;
    } else if (t.startsWith("//#:")) {
      // a note on the markers, for the template only
    } else if (t.startsWith("//#")) {
      throw new Error(`pkg-template/index.d.ts:${i + 1}: unknown marker ${t}`);
    } else if (!(lite && inFull)) {
      out.push(line);
    }
  }
  if (inFull || blocks === 0) throw new Error("pkg-template/index.d.ts: a //#full block is not closed, or there is none");
  return out.join("\n");
}
