// SVG bar chart of the ratios to raw IndexedDB (log scale), one group per workload.
const COLORS = { raw: "#6b7280", "idb-keyval": "#f59e0b", localForage: "#ef4444", Dexie: "#3b82f6", "idb-ttl": "#10b981" };
const esc = (s) => String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export function renderSvg(result) {
  const cs = result.contenders;
  const ws = Object.entries(result.workloads).filter(([, w]) => Object.values(w.contenders).some((c) => c.ratioToRaw != null));
  const bar = 11, gap = 2, groupGap = 14, left = 360, plotW = 520, top = 58;
  const lo = 0.001, hi = 100;
  const x = (r) => left + ((Math.log10(Math.min(hi, Math.max(lo, r))) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo))) * plotW;
  let y = top;
  const parts = [];
  for (const [, w] of ws) {
    const present = cs.filter((c) => w.contenders[c]?.ratioToRaw != null);
    const h = present.length * (bar + gap);
    parts.push(`<text x="${left - 8}" y="${y + h / 2 + 4}" text-anchor="end" font-size="11">${esc(w.label)}</text>`);
    for (const c of present) {
      const r = w.contenders[c].ratioToRaw;
      const x1 = x(lo), x2 = x(r);
      parts.push(`<rect x="${x1}" y="${y}" width="${Math.max(1, x2 - x1)}" height="${bar}" fill="${COLORS[c] ?? "#999"}"><title>${esc(c)}: ${r.toFixed(2)}x raw, median ${w.contenders[c].median.toFixed(1)} ms</title></rect>`);
      parts.push(`<text x="${x2 + 3}" y="${y + bar - 2}" font-size="9">${r >= 10 ? r.toFixed(0) : r < 0.1 ? r.toPrecision(2) : r.toFixed(2)}</text>`);
      y += bar + gap;
    }
    y += groupGap;
  }
  const height = y + 20;
  const grid = [];
  for (const r of [0.001, 0.01, 0.1, 0.3, 1, 3, 10, 100]) {
    grid.push(`<line x1="${x(r)}" x2="${x(r)}" y1="${top - 6}" y2="${height - 20}" stroke="${r === 1 ? "#111" : "#ddd"}" stroke-width="${r === 1 ? 1.2 : 1}"/>`);
    grid.push(`<text x="${x(r)}" y="${top - 10}" text-anchor="middle" font-size="10">${r}x</text>`);
  }
  const legend = cs.map((c, i) => `<rect x="${left + i * 110}" y="8" width="10" height="10" fill="${COLORS[c] ?? "#999"}"/><text x="${left + i * 110 + 14}" y="17" font-size="11">${esc(c)}</text>`);
  const width = left + plotW + 60;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">
<rect width="100%" height="100%" fill="#fff"/>
<text x="10" y="17" font-size="12" font-weight="bold">Time relative to raw IndexedDB (log scale, lower is faster)</text>
<text x="10" y="33" font-size="10">Chromium ${esc(result.chromium)}, ${esc(result.date.slice(0, 10))}, medians; bench/results/latest.json</text>
${legend.join("\n")}
${grid.join("\n")}
${parts.join("\n")}
</svg>
`;
}
