// The table's state of play as the page shows it: the destiny pool and the counters (each with its buttons), the
// initiative order and round, the characters. `parts`: the view's parts; `act(what, body, box)` takes a step.
"use strict";
import { el, fill as fmt, t } from "./common.js";
import { button } from "./table-ui.js";

function counters(play) {
  const out = [];
  const scene = play.scene || {};
  for (const [k, v] of Object.entries(scene)) {
    if (Number.isInteger(v) && !k.includes("_per_") && !k.endsWith("_cap")) out.push([k, v]);
  }
  for (const [k, v] of Object.entries(play.pools || {})) out.push([k, v]);
  return out;
}

export function renderPools(parts, act, play) {
  const box = parts.pools;
  box.replaceChildren();
  const destiny = play.scene && play.scene.destiny;
  if (destiny && Number.isInteger(destiny.light) && Number.isInteger(destiny.dark)) {
    const pips = el("div", { class: "destiny", role: "img",
      "aria-label": fmt(t("{light} light side, {dark} dark side"), { light: destiny.light, dark: destiny.dark }) });
    for (let i = 0; i < destiny.light; i++) pips.append(el("span", { class: "pip light" }));
    for (let i = 0; i < destiny.dark; i++) pips.append(el("span", { class: "pip dark" }));
    box.append(el("p", { class: "destiny-count" },
      el("span", { id: "table-destiny-light", class: "count", text: String(destiny.light) }), " " + t("light side") + " · ",
      el("span", { id: "table-destiny-dark", class: "count", text: String(destiny.dark) }), " " + t("dark side")), pips);
    const toDark = button(t("Flip a light side token"), () => act("flip", { from: "destiny.light", to: "destiny.dark", tokens: 1 }, parts.poolError));
    const toLight = button(t("Flip a dark side token"), () => act("flip", { from: "destiny.dark", to: "destiny.light", tokens: 1 }, parts.poolError), "secondary");
    toDark.id = "table-flip-light";
    toLight.id = "table-flip-dark";
    toDark.disabled = destiny.light < 1;
    toLight.disabled = destiny.dark < 1;
    box.append(el("div", { class: "row" }, toDark, toLight));
  }
  const list = el("ul", { class: "table-counters" });
  for (const [name, value] of counters(play)) {
    const minus = button("−", () => act("adjust", { pool: name, delta: -1 }, parts.poolError), "secondary small");
    const plus = button("+", () => act("adjust", { pool: name, delta: 1 }, parts.poolError), "secondary small");
    minus.setAttribute("aria-label", fmt(t("take one from {pool}"), { pool: name }));
    plus.setAttribute("aria-label", fmt(t("add one to {pool}"), { pool: name }));
    minus.disabled = value < 1;
    list.append(el("li", { "data-pool": name }, el("span", { class: "pool-name", text: name }),
                   el("b", { class: "count", text: String(value) }), minus, plus));
  }
  if (list.children.length) box.append(list);
  if (!box.children.length) box.append(el("p", { class: "muted", text: t("No pool yet: the game master adds one.") }));
}

export function renderInitiative(parts, play) {
  parts.round.textContent = fmt(t("Round {round}"), { round: play.round });
  parts.order.replaceChildren();
  play.order.forEach((name, i) => {
    const li = el("li", { text: name });
    if (i === play.turn) { li.classList.add("current"); li.setAttribute("aria-current", "true"); }
    parts.order.append(li);
  });
  if (!play.order.length) parts.order.append(el("li", { class: "muted", text: t("no initiative order yet") }));
  if (document.activeElement !== parts.orderInput) parts.orderInput.value = (play.order.length ? play.order : Object.keys(play.characters)).join(", ");
}

// fields of a character's state that say nothing at the table
const QUIET = new Set(["name", "created", "player"]);

function stateSummary(state) {
  const list = el("dl", { class: "state" });
  for (const [k, v] of Object.entries(state || {})) {
    if (QUIET.has(k) || v === null || v === false || (Array.isArray(v) && !v.length) ||
        (typeof v === "object" && v !== null && !Object.keys(v).length)) continue;
    let text;
    if (Array.isArray(v)) text = v.map((x) => (typeof x === "object" ? JSON.stringify(x) : String(x))).join(", ");
    else if (typeof v === "object") text = Object.entries(v).map(([a, b]) => `${a} ${typeof b === "object" ? JSON.stringify(b) : b}`).join(", ");
    else text = String(v);
    list.append(el("dt", { text: k.replaceAll("_", " ") }), el("dd", { text }));
  }
  return list;
}

export function renderCharacters(parts, play) {
  parts.characters.replaceChildren();
  for (const c of Object.values(play.characters || {})) {
    const owner = c.owner ? fmt(t("played by {name}"), { name: c.owner }) : t("the game master's");
    parts.characters.append(el("li", { "data-character": c.name },
      el("div", {}, el("b", { class: "character-name", text: c.name }), " ", el("span", { class: "muted", text: owner })),
      stateSummary(c.state)));
  }
  if (!parts.characters.children.length) parts.characters.append(el("li", { class: "muted", text: t("no character yet") }));
}
