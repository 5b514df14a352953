// The fights view (#fights): an encounter (TOML or JSON, the format of `dice fight`: docs/fights.md) loaded
// from a file or written in the box, compared across its rulesets (POST /api/fight): who wins, how often, in
// how many rounds, as a table and two charts drawn from the answer.
"use strict";
import { $, COLORS, api, el, errorBox, pct, svgEl, t } from "./common.js";

// the examples of the repository (examples/*.toml, copied beside the page), to start from
const EXAMPLES = { roark: "/static/encounters/roark.toml", stormtroopers: "/static/encounters/stormtroopers.toml" };
// marks words for the catalogue that t() translates where they are shown
const N_ = (words) => words;
// the examples' own names (as their files name them)
const EXAMPLE_NAMES = { roark: "Roark against a stormtrooper", stormtroopers: "A rebel against a stormtrooper squad" };
const MAX_TEXT = 60000;  // the request's bound on the text (diceengine/web/fights.py)
const MARKS = [1, 3, 5, 10];  // "over by N rounds" columns, as dice fight compare prints them

const state = { data: null };

const errors = errorBox("fight-", "fight-text");
const showError = errors.show;
const clearError = errors.clear;

// an encounter in JSON is an object; a TOML text never starts with a brace
function guessFormat(text) { return text.trimStart().startsWith("{") ? "json" : "toml"; }

async function submit() {
  clearError();
  const text = $("fight-text").value;
  const body = { text, format: guessFormat(text), method: $("fight-method").value };
  const fights = $("fight-fights").value, seed = $("fight-seed").value, rounds = $("fight-rounds").value;
  if (fights !== "") body.fights = parseInt(fights, 10);
  if (seed !== "") body.seed = parseInt(seed, 10);
  if (rounds !== "") body.rounds = parseInt(rounds, 10);
  const button = $("fight-button");
  button.disabled = true;
  $("fight-status").textContent = t("Computing…");
  try {
    render(await api("/api/fight", body));
    $("fight-status").textContent = "";
  } catch (err) {
    $("fight-status").textContent = "";
    $("fight-result").hidden = true;
    showError(err);
  } finally {
    button.disabled = false;
  }
}

async function readFile(file) {
  clearError();
  if (!file) return;
  if (file.size > MAX_TEXT) {
    showError({ message: t("the file {name} is larger than {most} bytes", { name: file.name, most: MAX_TEXT }) });
    return;
  }
  $("fight-text").value = await file.text();
  $("fight-example").value = "";
  await submit();
}

function methodText(r) {
  return r.method === "exact" ? t("exact, {states} states", { states: r.states })
    : t("simulated, {fights} fights", { fights: r.fights.toLocaleString(document.documentElement.lang) });
}
function median(r) {
  const i = r.going.findIndex((g) => g <= 0.5);
  return i < 0 ? "-" : String(i + 1);
}

function render(data) {
  state.data = data;
  const [a, b] = data.sides;
  const first = data.results[0];
  $("fight-caption").textContent = data.encounter;
  $("fight-roster").textContent = first ? t("{side_a} against {side_b}", { side_a: first.roster[0].join(", "),
                                                                           side_b: first.roster[1].join(", ") }) : "";
  const table = $("fight-table");
  const head = el("tr", {});
  for (const words of [t("ruleset"), t("method"), t("{side} wins", { side: a }), t("{side} wins", { side: b }),
                       t("both down"), t("mean rounds"), t("median"),
                       ...MARKS.map((m) => t("over by {rounds}", { rounds: m }))]) head.append(el("th", { scope: "col", text: words }));
  table.replaceChildren(el("thead", {}, head));
  const body = el("tbody", {});
  const notes = $("fight-notes");
  notes.replaceChildren();
  data.results.forEach((r, i) => {
    const tr = el("tr", { "data-system": r.system },
                  el("th", { scope: "row" }, swatch(COLORS[i % COLORS.length]), r.system),
                  el("td", { class: "method", text: methodText(r) }),
                  el("td", { class: "a-wins", text: pct(r.a_wins) }), el("td", { class: "b-wins", text: pct(r.b_wins) }),
                  el("td", { class: "both-down", text: pct(r.both_down) }),
                  el("td", { class: "mean-rounds", text: r.mean_rounds === null ? "-" : r.mean_rounds.toFixed(2) }),
                  el("td", { class: "median", text: median(r) }));
    for (const m of MARKS) tr.append(el("td", { text: m <= r.going.length ? pct(1 - r.going[m - 1]) : "-" }));
    body.append(tr);
    if (r.unfinished > 1e-9) {
      const share = pct(r.unfinished);
      notes.append(el("li", { text: `${r.system}: ` + (r.method === "exact" ? t("({share} of the fights never end)", { share })
                                                       : t("({share} still going after the last round)", { share })) }));
    }
  });
  table.append(body);
  const ended = data.results.map((r, i) => ({ color: COLORS[i % COLORS.length], values: r.ended, title: r.system }));
  const won = data.results.flatMap((r, i) => [
    { color: COLORS[i % COLORS.length], values: r.a_by_round, title: `${r.system}: ${a}` },
    { color: COLORS[i % COLORS.length], values: r.b_by_round, title: `${r.system}: ${b}`, dashed: true }]);
  $("fight-chart-ends").replaceChildren(roundsChart(ended, t("chance the fight ends in this round"), false));
  $("fight-chart-won").replaceChildren(roundsChart(won, t("chance of having won by this round"), true));
  const legend = $("fight-legend");
  legend.replaceChildren();
  data.results.forEach((r, i) => legend.append(el("li", {}, swatch(COLORS[i % COLORS.length]),
                                                   t("{system}: {side_a} solid, {side_b} dashed", { system: r.system, side_a: a, side_b: b }))));
  $("fight-result").hidden = false;
}

function swatch(color) {
  const span = el("span", { class: "swatch" });
  span.style.background = color;  // through the CSSOM: the page's policy refuses inline style attributes
  return span;
}

// One line per series over the rounds 1..n; y in percent (0..100 when `full`, else up to the highest value).
function roundsChart(series, label, full) {
  const W = 640, H = 240, L = 44, B = 30, T = 10, R = 10;
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, "aria-label": label, class: "rounds-chart" });
  const n = Math.max(0, ...series.map((s) => s.values.length));
  if (!n) return svg;
  // four grid steps of a round size reaching the highest value (the whole 0..100% when `full`)
  const highest = Math.max(0, ...series.flatMap((s) => s.values));
  const top = full ? 1 : 4 * ([0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25].find((step) => 4 * step >= highest) || 0.25);
  const xs = (i) => L + (W - L - R) * (n === 1 ? 0.5 : i / (n - 1));
  const ys = (p) => T + (H - T - B) * (1 - p / top);
  for (let i = 0; i <= 4; i++) {
    svg.append(svgEl("line", { x1: L, x2: W - R, y1: ys(top * i / 4), y2: ys(top * i / 4), stroke: "#e6e9ef" }));
    svg.append(svgEl("text", { x: L - 4, y: ys(top * i / 4) + 4, "text-anchor": "end" }, `${+(100 * top * i / 4).toFixed(2)}%`));
  }
  const every = Math.max(1, Math.ceil(n / 12));
  for (let i = 0; i < n; i += every) svg.append(svgEl("text", { x: xs(i), y: H - B + 14, "text-anchor": "middle" }, i + 1));
  svg.append(svgEl("text", { x: W - R, y: H - 2, "text-anchor": "end" }, t("round")));
  for (const s of series) {
    const points = s.values.map((p, i) => `${xs(i).toFixed(1)},${ys(p).toFixed(1)}`).join(" ");
    const attrs = { points, fill: "none", stroke: s.color, "stroke-width": 2, class: "fight-line" };
    if (s.dashed) attrs["stroke-dasharray"] = "6 4";
    const line = svgEl("polyline", attrs);
    line.append(svgEl("title", {}, s.title));
    svg.append(line);
  }
  return svg;
}

function field(msgid, input) {
  return el("label", {}, el("span", { "data-t": msgid, text: t(msgid) }), input);
}

// The view: the encounter's box (an example, a file, or typed), how to compute it, the comparison.
export function mount(section) {
  const example = el("select", { id: "fight-example" });
  example.append(el("option", { value: "", "data-t": "(your own)", text: t("(your own)") }));
  for (const [key, name] of Object.entries(EXAMPLE_NAMES)) example.append(el("option", { value: key, text: name }));
  example.value = "roark";
  example.addEventListener("change", () => { if (EXAMPLES[example.value]) loadExample(example.value).catch(showError); });
  const file = el("input", { id: "fight-file", type: "file", accept: ".toml,.json,application/json,application/toml,text/plain" });
  file.addEventListener("change", () => readFile(file.files[0]).catch(showError));
  const text = el("textarea", { id: "fight-text", rows: "18", spellcheck: "false", autocomplete: "off",
                                "aria-describedby": "fight-error fight-help" });
  text.addEventListener("input", () => { example.value = ""; });
  const method = el("select", { id: "fight-method" });
  for (const [value, msgid] of [["auto", N_("exact when each side has one combatant")], ["exact", N_("exact")],
                                ["simulated", N_("simulated")]]) {
    method.append(el("option", { value, "data-t": msgid, text: t(msgid) }));
  }
  const fights = el("input", { id: "fight-fights", type: "number", min: "1", max: "1000000",
                               value: "20000", class: "narrow", inputmode: "numeric" });
  const seed = el("input", { id: "fight-seed", type: "number", min: "0", class: "narrow", inputmode: "numeric",
                             placeholder: t("random"), "data-t-placeholder": "random" });
  const rounds = el("input", { id: "fight-rounds", type: "number", min: "1", max: "10000", class: "narrow",
                               inputmode: "numeric", placeholder: t("the file's"), "data-t-placeholder": "the file's" });
  const button = el("button", { id: "fight-button", type: "submit", "data-t": "Compare the rulesets", text: t("Compare the rulesets") });
  const form = el("form", { id: "fight-form", autocomplete: "off" },
    el("div", { class: "toolbar" }, field(N_("Example"), example), field(N_("Or a file"), file)),
    el("label", { class: "block" }, el("span", { "data-t": "Encounter (TOML or JSON)", text: t("Encounter (TOML or JSON)") }), text),
    el("p", { id: "fight-help", class: "hint", "data-t": "Each side's combatants, written once per ruleset: see docs/fights.md.",
              text: t("Each side's combatants, written once per ruleset: see docs/fights.md.") }),
    el("div", { class: "toolbar" }, field(N_("Method"), method), field(N_("Fights simulated"), fights),
       field(N_("Seed"), seed), field(N_("Rounds shown"), rounds), button,
       el("span", { id: "fight-status", class: "muted", role: "status" })),
    errors.element());
  form.addEventListener("submit", (e) => { e.preventDefault(); submit(); });
  section.append(
    el("section", { "aria-labelledby": "fights-title" },
       el("h2", { id: "fights-title", "data-t": "A fight in every ruleset", text: t("A fight in every ruleset") }), form),
    el("section", { id: "fight-result", "aria-labelledby": "fight-caption", hidden: "" },
       el("h2", { id: "fight-caption" }),
       el("p", { id: "fight-roster", class: "muted" }),
       el("div", { class: "scroll" }, el("table", { id: "fight-table" })),
       el("ul", { id: "fight-notes", class: "muted" }),
       el("h3", { "data-t": "The fight ends in round…", text: t("The fight ends in round…") }),
       el("div", { id: "fight-chart-ends", role: "img" }),
       el("h3", { "data-t": "Won by round…", text: t("Won by round…") }),
       el("div", { id: "fight-chart-won", role: "img" }),
       el("ul", { id: "fight-legend", class: "legend", "aria-label": t("rulesets"), "data-t-aria-label": "rulesets" })));
  return loadExample("roark");
}

// an example's text in the box, and its comparison
async function loadExample(key) {
  const response = await fetch(EXAMPLES[key]);
  if (!response.ok) throw new Error(response.statusText);
  $("fight-text").value = await response.text();
  await submit();
}

export function relang() {
  if (state.data) render(state.data);
}
