// Benchmark data shared by bench/main.js (issue 4) and bench/studies/layouts.js (layout study): a seeded
// generator, the key format and the ~200-byte values, so both measure the same records.

/** A seeded PRNG (mulberry32): the same seed gives the same sequence in every run. */
export function mulberry32(seed) {
  return () => {
    seed |= 0; seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Key of entry `i`: "key-0000123". */
export const key = (i) => "key-" + String(i).padStart(7, "0");

const LOREM = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore";

/** Value of entry `i`: ~200 bytes as structured clone / JSON. */
export const value = (i) => ({
  id: i, user: "user-" + (i % 9973), createdAt: 1_763_000_000_000 + i,
  tags: ["alpha", "beta"], ok: (i & 1) === 0, text: LOREM.slice(0, 60 + (i % 40)),
});
