// The parts of a step of the table's log as the page shows them: its time, its dice, its outcome, its exact odds
// beside what happened, and the words for a step that is not a roll. Everything a member typed is set as text.
"use strict";
import { el, fill as fmt, kindWord, num, pct, t } from "./common.js";
import { shownFace } from "./glyphs.js";

export function timeOf(step) {
  const d = new Date(step.time);
  return isNaN(d) ? "" : d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

export function renderDice(dice, system) {
  const list = el("ul", { class: "dice", "aria-label": t("every die") });
  for (const d of dice || []) {
    const classes = ["die"];
    if (d.wild) classes.push("wild");
    if (!d.kept) classes.push("dropped");
    if (d.exploded) classes.push("exploded");
    if (d.added) classes.push("added");
    const kind = kindWord(d);
    const what = [kind, d.kept ? "" : t("dropped"), d.exploded ? t("exploded") : "", d.rerolled ? t("re-rolled") : "",
                  d.added ? t("added") : ""].filter(Boolean).join(", ");
    const face = shownFace(system, d);
    if (face.symbols) classes.push("symbols");
    list.append(el("li", { class: classes.join(" "), title: `${what}: ${face.words}`, "aria-label": `${what}: ${face.words}` },
                   face.shown, el("small", { text: kind })));
  }
  return list;
}

// a roll's outcome, field by field; `odds` without a chance (Force dice alone: no check) shows no success
export function renderOutcome(outcome, odds) {
  const list = el("ul", { class: "outcome" });
  const check = !odds || (odds.chance !== null && odds.chance !== undefined);
  for (const [k, v] of Object.entries(outcome || {})) {
    if (!check && typeof v === "boolean" && (k === "success" || k === "succeeded")) continue;
    const b = el("b", { text: typeof v === "boolean" ? (v ? t("yes") : t("no")) : String(v) });
    if (k === "success" || k === "succeeded") b.className = v === true || v > 0 ? "good" : "bad";
    list.append(el("li", {}, t(k) + ": ", b));
  }
  return list;
}

// the exact odds beside what happened
export function renderOdds(odds, outcome) {
  const box = el("p", { class: "table-odds" });
  if (!odds) return box;
  if (odds.chance !== null && odds.chance !== undefined) {
    const got = outcome && (outcome.succeeded !== undefined ? outcome.succeeded : outcome.success);
    box.append(el("span", { text: fmt(t("chance of success {p}"), { p: pct(odds.chance) }) }));
    if (typeof got === "boolean") box.append(" ", el("b", { class: got ? "good" : "bad", text: got ? t("succeeded") : t("failed") }));
    box.append(" · ");
  }
  box.append(el("span", { text: fmt(t("{field} {value}: {below} of rolls lower, {at} exactly this"), {
    field: t(odds.field), value: num(odds.value), below: pct(odds.below), at: pct(odds.at) }) }));
  box.append(" · ", el("span", { class: "table-percentile", text: fmt(t("percentile {p}"), { p: Math.round(100 * odds.percentile) }) }));
  return box;
}

// The pools of the scenes in words (as the command line's log says them): any other pool by its name
const N_ = (words) => words;
const SIDES = { "destiny.light": N_("light side"), "destiny.dark": N_("dark side") };
const POOLS = { "destiny.light": N_("the light side of the destiny pool"), "destiny.dark": N_("the dark side of the destiny pool"),
                impulsion: N_("the Impulsion pool"), menace: N_("the Menace pool") };

export function poolWords(path) {
  if (POOLS[path]) return t(POOLS[path]);
  const [head, name, more] = String(path).split(".");
  return name && more === undefined ? t("{name}'s {pool}", { name, pool: head.replaceAll("_", " ") }) : String(path);
}

function flipWords(a) {
  if (SIDES[a.from] && SIDES[a.to]) {
    const sides = { tokens: a.tokens, source: t(SIDES[a.from]), to: t(SIDES[a.to]) };
    if (a.tokens === 1) return t("flipped a destiny token from the {source} to the {to}", sides);
    return t("flipped {tokens} destiny tokens from the {source} to the {to}", sides);
  }
  const pools = { tokens: a.tokens, source: poolWords(a.from), to: poolWords(a.to) };
  if (a.tokens === 1) return t("moved a token from {source} to {to}", pools);
  return t("moved {tokens} tokens from {source} to {to}", pools);
}

// a roll saved by name, or forgotten
function savedWords(a) {
  if (a.expression === null || a.expression === undefined) {
    if (a.personal) return t("forgot their own roll @{name}", { name: a.name });
    return t("forgot the saved roll @{name}", { name: a.name });
  }
  const expression = a.system ? a.system + ": " + a.expression : a.expression;
  if (a.personal) return t("saved their own roll @{name}: {expression}", { name: a.name, expression });
  return t("saved the roll @{name}: {expression}", { name: a.name, expression });
}

export function describe(step) {
  const a = step.args || {};
  switch (step.kind) {
    case "join": return step.result === "gm" ? t("joined as the game master") : t("joined the table");
    case "flip": return flipWords(a);
    case "adjust": return fmt(a.delta >= 0 ? t("added {delta} to {pool}") : t("took {taken} from {pool}"),
                              { delta: a.delta, taken: -a.delta, pool: poolWords(a.pool) });
    case "order": return fmt(t("set the initiative order: {order}"), { order: (a.order || []).join(", ") });
    case "turn":
      if (a.round) return fmt(t("began round {round}"), { round: step.after ? step.after.round : "?" });
      return fmt(t("next turn: {name}"), { name: step.after && step.after.order.length ? step.after.order[step.after.turn] : "-" });
    case "character": return fmt(t("brought in the character {name}"), { name: step.target });
    case "undo": return fmt(t("undid step {seq}"), { seq: step.undoes });
    case "save": return savedWords(a);
    case "remove": return t("removed {name} from the table", { name: step.target });
    case "rekey": return t("gave {name} a new key", { name: step.target });
    case "readmit": return t("let {name} join the table again", { name: step.target });
    case "rule": return fmt(step.target ? t("applied {rule} to {target}") : t("applied {rule} to the scene"),
                            { rule: step.rule, target: step.target });
    case "roll":
      if (step.secret && step.expression === null) return t("rolled in secret");
      if (step.reroll_of) return fmt(t("re-rolled step {seq}"), { seq: step.reroll_of });
      return step.secret ? t("rolled in secret") : t("rolled");
    case "seed": return step.revealed ? t("revealed the server seed and committed a new one") : t("committed a server seed");
    case "end": return t("ended the table: its server seed revealed");
    case "clientseed": return fmt(t("set their client seed: {seed}"), { seed: step.client_seed });
    case "reveal": return fmt(t("revealed the secret roll of step {seq}"), { seq: step.reveals });
    default: return step.kind;
  }
}
