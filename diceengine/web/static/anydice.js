// The AnyDice view (#anydice): a program of AnyDice's language (docs/anydice.md) written in the box, run by the
// engine (POST /api/anydice), each output drawn as AnyDice draws it: its chance of each value, of at least it,
// or of at most it, with its mean and standard deviation.
"use strict";
import { $, api, el, errorBox, num, pct, t } from "./common.js";
import { barChart } from "./charts.js";

// marks words for the catalogue that t() translates where they are shown
const N_ = (words) => words;
const EXAMPLE = [
  "\\ a d20 attack with advantage: a natural 20 doubles the damage dice \\",
  "function: attack ROLL:n vs AC:n {",
  "  if ROLL = 20 { result: 2d8 + 3 }",
  "  if ROLL >= AC { result: 1d8 + 3 }",
  "  result: 0",
  "}",
  "output [attack [highest 1 of 2d20] vs 15] named \"advantage\"",
  "output [attack d20 vs 15] named \"normal\"",
  "output [highest 5 of 10d[explode d10]]",
].join("\n");
const VIEWS = [["p", N_("normal")], ["at_least", N_("at least")], ["at_most", N_("at most")]];

const state = { data: null };

const errors = errorBox("anydice-", "anydice-program");
const showError = errors.show;
const clearError = errors.clear;

// the bars of one output: each value with its chance, the chance of at least it and of at most it
function bars(output) {
  let below = 0;
  const total = output.probabilities.reduce((a, b) => a + b, 0);
  return output.values.map((value, i) => {
    const p = output.probabilities[i];
    const bar = { value, p, at_least: total - below, at_most: below + p };
    below += p;
    return bar;
  });
}

function render(data) {
  state.data = data;
  const mode = $("anydice-view").value;
  const list = $("anydice-outputs");
  list.replaceChildren();
  for (const output of data.outputs) {
    const item = el("li", { class: "anydice-output" }, el("h3", { text: output.label }));
    if (!output.values.length) {
      item.append(el("p", { class: "muted", text: t("no outcome: AnyDice shows nothing") }));
    } else {
      item.append(el("p", { class: "muted anydice-stats",
                            text: t("mean {mean}, standard deviation {stdev}", { mean: num(output.mean), stdev: num(output.stdev) }) }));
      if (output.truncated > 0) {
        item.append(el("p", { class: "muted", text: t("AnyDice's answer lacks {share} of the probability", { share: pct(output.truncated) }) }));
      }
      item.append(el("div", { role: "img", class: "anydice-chart" }, barChart(bars(output), mode, output.label)));
    }
    list.append(item);
  }
  $("anydice-result").hidden = false;
}

async function submit() {
  clearError();
  const button = $("anydice-button");
  button.disabled = true;
  $("anydice-status").textContent = t("Computing…");
  try {
    render(await api("/api/anydice", { program: $("anydice-program").value, lang: document.documentElement.lang === "fr" ? "fr" : "en" }));
  } catch (err) {
    $("anydice-result").hidden = true;
    showError(err);
  } finally {
    $("anydice-status").textContent = "";
    button.disabled = false;
  }
}

function field(msgid, input) {
  return el("label", {}, el("span", { "data-t": msgid, text: t(msgid) }), input);
}

// The view: the program's box, the view to draw, each output's chart.
export function mount(section) {
  const program = el("textarea", { id: "anydice-program", rows: "12", spellcheck: "false", autocomplete: "off",
                                   "aria-describedby": "anydice-error anydice-help" });
  program.value = EXAMPLE;
  const view = el("select", { id: "anydice-view" });
  for (const [value, msgid] of VIEWS) view.append(el("option", { value, "data-t": msgid, text: t(msgid) }));
  view.addEventListener("change", () => { if (state.data) render(state.data); });
  const button = el("button", { id: "anydice-button", type: "submit", "data-t": "Calculate", text: t("Calculate") });
  const form = el("form", { id: "anydice-form", autocomplete: "off" },
    el("label", { class: "block" }, el("span", { "data-t": "Program", text: t("Program") }), program),
    el("p", { id: "anydice-help", class: "hint", "data-t": "AnyDice's language, exact and without its time limit: see docs/anydice.md.",
              text: t("AnyDice's language, exact and without its time limit: see docs/anydice.md.") }),
    el("div", { class: "toolbar" }, field(N_("View"), view), button,
       el("span", { id: "anydice-status", class: "muted", role: "status" })),
    errors.element());
  form.addEventListener("submit", (e) => { e.preventDefault(); submit(); });
  section.append(
    el("section", { "aria-labelledby": "anydice-title" },
       el("h2", { id: "anydice-title", "data-t": "AnyDice programs", text: t("AnyDice programs") }), form),
    el("section", { id: "anydice-result", "aria-live": "polite", hidden: "" },
       el("ul", { id: "anydice-outputs", class: "anydice-outputs" })));
  return submit();
}

export function relang() {
  if (state.data) render(state.data);
}
