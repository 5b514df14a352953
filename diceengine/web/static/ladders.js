// The ladders view (#ladders/<system>): a system's typical characters against each of its named
// difficulties (POST /api/ladder), as a table and a chart.
"use strict";
import { $, COLORS, api, el, engine, pct, svgEl, t } from "./common.js";
import { optionFields, optionValues, relabelOptions } from "./options.js";

const state = { system: null, data: null };

function laddered() { return engine.list.filter((s) => s.ladder); }
function defaultSystem() {
  const names = laddered().map((s) => s.name);
  return names.includes("d6wild") ? "d6wild" : names[0];
}

function showError(err) {
  const data = err.data || { message: String(err.message || err) };
  $("ladder-error-message").textContent = data.message;
  $("ladder-error").hidden = false;
}

// the system's options as form fields (their defaults first)
function renderOptions() { optionFields($("ladder-options"), engine.systems[state.system], load); }
function options() { return optionValues($("ladder-options")); }

async function load() {
  $("ladder-error").hidden = true;
  const system = state.system;
  try {
    const data = await api("/api/ladder", { system, options: options() });
    if (system === state.system) render(data);
  } catch (err) {
    $("ladder-result").hidden = true;
    showError(err);
  }
}

// A ladder's names as the engine answers them (English), in the page's language: the named difficulties
// from the catalogue, the numbered ones ("difficulty 2", "characteristic 3, skill 1") by their pattern.
const NUMBERED = new RegExp("^difficulty (\\d+)$");
const POOL = new RegExp("^characteristic (\\d+), skill (\\d+)$");
export function ladderWords(label) {
  let m = NUMBERED.exec(label);
  if (m) return t("difficulty {n}", { n: m[1] });
  m = POOL.exec(label);
  if (m) return t("characteristic {characteristic}, skill {skill}", { characteristic: m[1], skill: m[2] });
  return t(label);
}

// a chance's shade in the table: eleven steps from 0 to 1
function heat(p) { return `heat-${Math.round(10 * p)}`; }

function render(data) {
  state.data = data;
  $("ladder-caption").textContent = t("{system}: the chance of success of each character against each difficulty",
                                      { system: data.system });
  const table = $("ladder-table");
  const head = el("tr", {}, el("th", { scope: "col", text: t("character") }));
  for (const d of data.difficulties) head.append(el("th", { scope: "col", text: ladderWords(d) }));
  table.replaceChildren(el("thead", {}, head));
  const body = el("tbody", {});
  for (const row of data.rows) {
    const tr = el("tr", {}, el("th", { scope: "row", text: ladderWords(row.character) }));
    row.chances.forEach((p) => tr.append(el("td", { class: heat(p), text: pct(p) })));
    body.append(tr);
  }
  table.append(body);
  const chart = $("ladder-chart");
  chart.replaceChildren(ladderChart(data));
  chart.setAttribute("aria-label", t("chance of success of each character, one line per difficulty"));
  const legend = $("ladder-legend");
  legend.replaceChildren();
  data.difficulties.forEach((d, i) => legend.append(el("li", {}, swatch(COLORS[i % COLORS.length]), ladderWords(d))));
  $("ladder-result").hidden = false;
}

function swatch(color) {
  const span = el("span", { class: "swatch" });
  span.style.background = color;  // through the CSSOM: the page's policy refuses inline style attributes
  return span;
}

// a label in lines of at most `width` characters (at the spaces)
function wrap(label, width) {
  const lines = [];
  for (const word of label.split(" ")) {
    if (lines.length && (lines[lines.length - 1] + " " + word).length <= width) lines[lines.length - 1] += " " + word;
    else lines.push(word);
  }
  return lines;
}

// x: the characters in the ladder's order, each in its own column; y: the chance of success; one line
// per difficulty
function ladderChart(data) {
  const W = 640, L = 44, T = 10, R = 8, PLOT = 200;
  const n = data.rows.length;
  const step = (W - L - R) / Math.max(1, n);
  const labels = data.rows.map((row) => wrap(ladderWords(row.character), Math.max(3, Math.floor(step / 6.2))));
  const small = labels.some((lines) => lines.some((line) => line.length * 6.2 > step));
  const B = 18 + 13 * Math.max(1, ...labels.map((lines) => lines.length)) + 16;
  const H = T + PLOT + B;
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, class: "ladder-chart" });
  if (!n) return svg;
  const xs = (i) => L + step * (i + 0.5);
  const ys = (p) => T + PLOT * (1 - p);
  for (let i = 0; i <= 4; i++) {
    svg.append(svgEl("line", { x1: L, x2: W - R, y1: ys(i / 4), y2: ys(i / 4), stroke: "#e6e9ef" }));
    svg.append(svgEl("text", { x: L - 4, y: ys(i / 4) + 4, "text-anchor": "end" }, `${25 * i}%`));
  }
  labels.forEach((lines, i) => {
    const text = svgEl("text", { x: xs(i), y: T + PLOT + 16, "text-anchor": "middle", class: small ? "small" : "" });
    lines.forEach((line, k) => text.append(svgEl("tspan", { x: xs(i), dy: k ? 13 : 0 }, line)));
    svg.append(text);
  });
  svg.append(svgEl("text", { x: W - R, y: H - 4, "text-anchor": "end" }, t("character")));
  data.difficulties.forEach((d, j) => {
    const color = COLORS[j % COLORS.length];
    const points = data.rows.map((row, i) => `${xs(i).toFixed(1)},${ys(row.chances[j]).toFixed(1)}`).join(" ");
    const line = svgEl("polyline", { points, fill: "none", stroke: color, "stroke-width": 2, class: "ladder-line" });
    line.append(svgEl("title", {}, ladderWords(d)));
    svg.append(line);
    data.rows.forEach((row, i) => {
      const dot = svgEl("circle", { cx: xs(i), cy: ys(row.chances[j]), r: 3, fill: color });
      dot.append(svgEl("title", {}, `${ladderWords(row.character)}, ${ladderWords(d)}: ${pct(row.chances[j])}`));
      svg.append(dot);
    });
  });
  return svg;
}

function choose(route) {
  const names = laddered().map((s) => s.name);
  const wanted = route && route[0] ? decodeURIComponent(route[0]) : null;
  const system = names.includes(wanted) ? wanted : (state.system || defaultSystem());
  if (system === state.system && state.data) return;
  state.system = system;
  $("ladder-system").value = system;
  renderOptions();
  return load();
}

// The view: a system chooser and its options, the table and the chart of its ladder.
export function mount(section, route) {
  const select = el("select", { id: "ladder-system" });
  for (const s of laddered()) select.append(el("option", { value: s.name, text: s.name }));
  select.addEventListener("change", () => { location.hash = `#ladders/${encodeURIComponent(select.value)}`; });
  section.append(
    el("section", { "aria-labelledby": "ladders-title" },
       el("h2", { id: "ladders-title", "data-t": "Difficulty ladders", text: t("Difficulty ladders") }),
       el("p", { class: "hint", "data-t": "Typical characters of a system against each of its named difficulties: the exact chance of success.",
                 text: t("Typical characters of a system against each of its named difficulties: the exact chance of success.") }),
       el("div", { class: "toolbar" },
          el("label", {}, el("span", { "data-t": "System", text: t("System") }), select),
          el("div", { id: "ladder-options", class: "options", "aria-label": t("system options"),
                      "data-t-aria-label": "system options" })),
       el("div", { id: "ladder-error", class: "error", role: "alert", hidden: "" }, el("span", { id: "ladder-error-message" }))),
    el("section", { id: "ladder-result", "aria-labelledby": "ladder-caption", hidden: "" },
       el("h2", { id: "ladder-caption" }),
       el("div", { class: "scroll" }, el("table", { id: "ladder-table", class: "ladder" })),
       el("div", { id: "ladder-chart", role: "img" }),
       el("ul", { id: "ladder-legend", class: "legend", "aria-label": t("difficulties"), "data-t-aria-label": "difficulties" })));
  return choose(route);
}

export function show(route) { return choose(route); }

export function relang() {
  if (!state.system) return;
  for (const input of $("ladder-options").querySelectorAll("[data-option]")) {
    const opt = engine.systems[state.system].options[input.dataset.option];
    if (opt) input.closest("label").title = t(opt.doc);
  }
  relabelOptions($("ladder-options"));
  if (state.data) render(state.data);
}
