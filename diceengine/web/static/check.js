// The check view: roll an expression, read its exact odds, compare checks, convert one to another system.
"use strict";
import { $, COLORS, api, el, engine, errorBox, kindWord, pct, t } from "./common.js";
import { drawsGlyphs, legend, shownFace } from "./glyphs.js";
import { barChart, likely, lineChart } from "./charts.js";
import { optionFields, optionValues, relabelOptions } from "./options.js";

const state = { odds: null, checks: [], roll: null, convert: null };

const errors = errorBox("", "expression");
export const showError = errors.show;
const clearError = errors.clear;

function currentOptions() { return optionValues($("options")); }
// "ffg: 2a1p vs 2d" picks its system as the command line does: a known system's name, then a colon
function splitSystem(text) {
  const m = /^\s*([A-Za-z0-9_]+)\s*:([\s\S]*)$/.exec(text);
  if (m && Object.prototype.hasOwnProperty.call(engine.systems, m[1])) return [m[1], m[2].trim()];
  return [null, text];
}
function currentCheck() {
  const selected = $("system").value;
  const [prefixed, expression] = splitSystem($("expression").value);
  const system = prefixed || selected;
  // the option fields are the selected system's: another system named by the prefix takes its defaults
  return { expression, system, options: system === selected ? currentOptions() : {} };
}

function renderOptions() {
  const info = engine.systems[$("system").value];
  optionFields($("options"), info);
  if (info) renderExamples();
}

// the system's examples, each a button that rolls it, and its summary
function renderExamples() {
  const info = engine.systems[$("system").value];
  const hint = $("examples");
  hint.replaceChildren();
  if (info.examples.length) {
    hint.append(t("Examples:") + " ");
    info.examples.forEach((ex, i) => {
      const code = el("code", { tabindex: "0", role: "button", text: ex });
      const use = () => { $("expression").value = ex; submit(); };
      code.addEventListener("click", use);
      code.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); use(); } });
      hint.append(code);
      if (i < info.examples.length - 1) hint.append(" ");
    });
    hint.append(" — " + t(info.summary));
  }
}

function renderRoll(data) {
  state.roll = data;
  const r = data.rolls[0];
  $("roll-line").textContent = r.text;
  $("roll-description").textContent = r.description || "";
  const dice = $("roll-dice");
  dice.replaceChildren();
  for (const d of r.dice) {
    const classes = ["die"];
    if (d.wild) classes.push("wild");
    if (!d.kept) classes.push("dropped");
    if (d.exploded) classes.push("exploded");
    if (d.added) classes.push("added");
    const what = [kindWord(d), d.kept ? "" : t("dropped"), d.exploded ? t("exploded") : "",
                  d.rerolled ? t("re-rolled") : "", d.added ? t("added") : ""].filter(Boolean).join(", ");
    const face = shownFace(data.system, d);
    if (face.symbols) classes.push("symbols");
    dice.append(el("li", { class: classes.join(" "), title: `${what}: ${face.words}`, "aria-label": `${what}: ${face.words}` },
                   face.shown, el("small", { text: kindWord(d) })));
  }
  $("roll-legend").replaceChildren(...(drawsGlyphs(data.system, r.dice) ? [legend()] : []));
  const out = $("roll-outcome");
  out.replaceChildren();
  for (const [k, v] of Object.entries(r.outcome)) {
    const b = el("b", { text: typeof v === "boolean" ? (v ? t("yes") : t("no")) : String(v) });
    if (k === "success" || k === "succeeded") b.className = v === true || v > 0 ? "good" : "bad";
    out.append(el("li", {}, t(k) + ": ", b));
  }
  $("roll").hidden = false;
}

function renderOddsChart() {
  const data = state.odds;
  if (!data) return;
  const field = $("odds-field").value, mode = $("odds-mode").value;
  const bars = data.marginals[field] || [];
  $("odds-chart").replaceChildren(barChart(likely(bars), mode, field));
  $("odds-chart").setAttribute("aria-label", t("distribution of {field}", { field: t(field) }));
  const table = $("odds-table");
  table.replaceChildren(el("tr", {}, el("th", { text: t(field) }), el("th", { text: "P(=)" }), el("th", { text: "P(>=)" })));
  for (const b of bars) table.append(el("tr", {}, el("td", { text: String(b.value) }), el("td", { text: pct(b.p) }),
                                         el("td", { text: pct(b.at_least) })));
  if (data.hidden[field] > 0) table.append(el("tr", {}, el("td", { colspan: "3", class: "muted",
      text: t("unlikely values not listed: {share} in all", { share: pct(data.hidden[field]) }) })));
}

function renderOdds(data) {
  state.odds = data;
  const stats = $("odds-stats");
  stats.replaceChildren();
  for (const [k, p] of Object.entries(data.chances)) stats.append(el("li", {}, t("P({what})", { what: t(k) }) + " ", el("b", { text: pct(p) })));
  for (const [k, m] of Object.entries(data.means)) stats.append(el("li", {}, t("mean {field}", { field: t(k) }) + " ", el("b", { text: m.toFixed(2) })));
  if (data.truncated > 0) stats.append(el("li", { class: "muted", text: t("truncated {mass}", { mass: data.truncated.toExponential(1) }) }));
  const select = $("odds-field");
  const previous = select.value;
  select.replaceChildren();
  const fields = [...data.chart_fields, ...Object.keys(data.marginals).filter((f) => !data.chart_fields.includes(f))];
  for (const f of fields) select.append(el("option", { value: f, text: t(f) }));  // the engine's field, in words
  if (fields.includes(previous) && data.chart_fields.includes(previous)) select.value = previous;
  renderOddsChart();
  $("odds").hidden = false;
  const convertible = Object.values(engine.systems).some((s) => s.convertible);
  $("convert").hidden = !convertible || !("success" in data.chances || "succeeded" in data.chances);
}

async function submit() {
  clearError();
  const check = currentCheck();
  const seed = $("seed").value;
  const body = { ...check };
  if (seed !== "") body.seed = parseInt(seed, 10);
  if (engine.features.lang) body.lang = $("lang").value;
  try {
    const rolled = await api("/api/roll", body);
    renderRoll(rolled);
  } catch (err) {
    $("roll").hidden = true;
    $("odds").hidden = true;
    showError(err);
    return;
  }
  try {
    renderOdds(await api("/api/odds", check));
  } catch (err) {
    $("odds").hidden = true;
    showError(err);
  }
}

async function renderCompare() {
  const box = $("compare");
  if (!state.checks.length) { box.hidden = true; return; }
  let data;
  try { data = await api("/api/compare", { checks: state.checks }); } catch (err) { showError(err); return; }
  const table = $("compare-table");
  table.replaceChildren(el("tr", {}, el("th", { text: t("check") }), el("th", { text: t("success") }),
                           el("th", { text: t("mean") }), el("th", { text: t("flags") })));
  data.checks.forEach((c, i) => {
    const flags = Object.entries(c.flags).map(([k, p]) => `${t(k)} ${pct(p)}`).join(", ") || "-";
    table.append(el("tr", {}, el("td", {}, swatch(COLORS[i % COLORS.length]),
                                 `${c.system}: ${c.expression}`),
                    el("td", { text: pct(c.success) }), el("td", { text: `${t(c.mean_field)} ${c.mean >= 0 ? "+" : ""}${c.mean.toFixed(2)}` }),
                    el("td", { text: flags })));
  });
  $("compare-chart").replaceChildren(lineChart(data.checks));
  box.hidden = false;
}

async function convert() {
  const check = currentCheck();
  try {
    renderConvert(await api("/api/convert", { expression: check.expression, source: check.system,
                                              source_options: check.options, target: $("convert-target").value, top: 5 }));
  } catch (err) { showError(err); }
}

function renderConvert(data) {
  state.convert = data;
  $("convert-source").textContent = t("{check} succeeds {chance}; closest in {target}:",
                                      { check: `${data.system}: ${data.expression}`, chance: pct(data.chance), target: data.target });
  const table = $("convert-table");
  table.replaceChildren(el("tr", {}, el("th", { text: t("check") }), el("th", { text: t("expression") }),
                           el("th", { text: t("success") }), el("th", { text: t("difference") })));
  for (const m of data.matches) table.append(el("tr", {}, el("td", { text: m.label }), el("td", { text: m.expression }),
      el("td", { text: pct(m.chance) }),
      el("td", { text: t("{distance} points", { distance: `${m.distance >= 0 ? "+" : ""}${m.distance.toFixed(2)}` }) })));
}

function swatch(color) {
  const span = el("span", { class: "swatch" });
  span.style.background = color;  // through the CSSOM: the page's policy refuses inline style attributes
  return span;
}

// The check view: the expression box, its roll, its exact odds, the side by side and the converter.
export function mount() {
  const select = $("system"), target = $("convert-target");
  for (const s of engine.list) {
    select.append(el("option", { value: s.name, text: s.name }));
    if (s.convertible) target.append(el("option", { value: s.name, text: s.name }));
  }
  const params = new URLSearchParams(location.search);
  select.value = params.get("system") || (engine.systems.d6wild ? "d6wild" : engine.list[0].name);
  if (params.get("expression")) $("expression").value = params.get("expression");
  renderOptions();
  select.addEventListener("change", renderOptions);
  $("form").addEventListener("submit", (e) => { e.preventDefault(); submit(); });
  $("odds-field").addEventListener("change", renderOddsChart);
  $("odds-mode").addEventListener("change", renderOddsChart);
  $("compare-add").addEventListener("click", () => {
    if (state.checks.length >= 8) state.checks.shift();
    state.checks.push(currentCheck());
    renderCompare();
  });
  $("compare-clear").addEventListener("click", () => { state.checks = []; renderCompare(); });
  $("convert-button").addEventListener("click", convert);
}

// The page's language changed: what the view drew from the service's answers is drawn again in it
// (a roll's own line stays in the language it was rolled in; the next roll is told in the new one).
export function relang() {
  const info = engine.systems[$("system").value];
  for (const input of $("options").querySelectorAll("[data-option]")) {
    const opt = info && info.options[input.dataset.option];
    if (opt) input.closest("label").title = t(opt.doc);
  }
  relabelOptions($("options"));
  renderExamples();
  if (state.roll && !$("roll").hidden) renderRoll(state.roll);
  if (state.odds && !$("odds").hidden) renderOdds(state.odds);
  if (state.checks.length) renderCompare();
  if (state.convert) renderConvert(state.convert);
}
