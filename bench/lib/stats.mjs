export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
export function summary(xs) {
  return { median: median(xs), min: Math.min(...xs), max: Math.max(...xs), n: xs.length, samples: xs };
}
export const fmt = (ms) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));
export function table(header, rows) {
  const all = [header, ...rows].map((r) => r.map(String));
  const w = header.map((_, i) => Math.max(...all.map((r) => r[i].length)));
  const line = (r) => "| " + r.map((c, i) => (i === 0 ? c.padEnd(w[i]) : c.padStart(w[i]))).join(" | ") + " |";
  return [line(all[0]), "|" + w.map((n, i) => (i === 0 ? "-".repeat(n + 2) : "-".repeat(n + 1) + ":")).join("|") + "|",
    ...all.slice(1).map(line)].join("\n");
}
