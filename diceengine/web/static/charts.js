// The page's charts, drawn as SVG from the service's JSON.
"use strict";
import { COLORS, pct, svgEl, t } from "./common.js";

// The bars worth drawing: those within a thousandth of the likeliest.
export function likely(bars) {
  const top = Math.max(0, ...bars.map((b) => b.p));
  const first = bars.findIndex((b) => b.p >= top / 1000);
  const last = bars.length - 1 - [...bars].reverse().findIndex((b) => b.p >= top / 1000);
  return bars.slice(first, last + 1);
}

export function barChart(bars, mode, field) {
  const W = 640, H = 240, L = 44, B = 28, T = 10, R = 8;
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, "aria-label": t("chart of {field}", { field }) });
  svg.dataset.bars = bars.length;
  if (!bars.length) return svg;
  const top = Math.max(...bars.map((b) => b[mode])) || 1;
  const step = (W - L - R) / bars.length;
  for (let i = 0; i <= 4; i++) {
    const y = T + (H - T - B) * (1 - i / 4);
    svg.append(svgEl("line", { x1: L, x2: W - R, y1: y, y2: y, stroke: "#e6e9ef" }));
    svg.append(svgEl("text", { x: L - 4, y: y + 4, "text-anchor": "end" }, pct(top * i / 4)));
  }
  const every = Math.max(1, Math.ceil(bars.length / 16));
  bars.forEach((b, i) => {
    const h = (H - T - B) * b[mode] / top;
    const x = L + i * step;
    const ok = field === "margin" ? b.value >= 0 : false;
    const rect = svgEl("rect", { x: x + step * 0.08, y: H - B - h, width: Math.max(1, step * 0.84), height: h,
                                 fill: ok ? "var(--bar-ok)" : "var(--bar)", class: "bar" });
    rect.append(svgEl("title", {}, `${field} ${b.value}: P(=) ${pct(b.p)}, P(>=) ${pct(b.at_least)}`));
    svg.append(rect);
    if (i % every === 0) svg.append(svgEl("text", { x: x + step / 2, y: H - B + 14, "text-anchor": "middle" }, b.value));
  });
  svg.append(svgEl("text", { x: W - R, y: H - 2, "text-anchor": "end" }, t(field)));
  return svg;
}

export function lineChart(checks) {
  checks = checks.map((c) => ({ ...c, histogram: likely(c.histogram) }));
  const W = 640, H = 240, L = 44, B = 28, T = 10, R = 8;
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, "aria-label": t("chance of at least each value, per check") });
  const all = checks.flatMap((c) => c.histogram.map((b) => b.value));
  if (!all.length) return svg;
  const lo = Math.min(...all), hi = Math.max(...all);
  const xs = (v) => L + (W - L - R) * (hi === lo ? 0.5 : (v - lo) / (hi - lo));
  const ys = (p) => T + (H - T - B) * (1 - p);
  for (let i = 0; i <= 4; i++) {
    svg.append(svgEl("line", { x1: L, x2: W - R, y1: ys(i / 4), y2: ys(i / 4), stroke: "#e6e9ef" }));
    svg.append(svgEl("text", { x: L - 4, y: ys(i / 4) + 4, "text-anchor": "end" }, `${25 * i}%`));
  }
  const ticks = 8;
  for (let i = 0; i <= ticks; i++) {
    const v = Math.round(lo + (hi - lo) * i / ticks);
    svg.append(svgEl("text", { x: xs(v), y: H - B + 14, "text-anchor": "middle" }, v));
  }
  checks.forEach((c, i) => {
    const points = c.histogram.map((b) => `${xs(b.value).toFixed(1)},${ys(b.at_least).toFixed(1)}`).join(" ");
    const line = svgEl("polyline", { points, fill: "none", stroke: COLORS[i % COLORS.length], "stroke-width": 2 });
    line.append(svgEl("title", {}, `${c.system}: ${c.expression}`));
    svg.append(line);
  });
  svg.append(svgEl("text", { x: W - R, y: H - 2, "text-anchor": "end" }, t("P(>= value) of the main field")));
  return svg;
}
