// #table: the game master creates a table (committed seeds ticked by default), anyone opens one by its link, and
// the seats this browser keeps are listed.
"use strict";
import { api, el, engine, fill as fmt, t } from "./common.js";
import { allSeats, saveSeat } from "./table-seats.js";
import { clearError, errorBox, field, showError } from "./table-ui.js";

// a pasted link (".../#table/<id>" or ".../tables/<id>/join") or a bare id
function idOf(text) {
  const s = text.trim();
  const m = /#table\/([A-Za-z0-9_-]+)/.exec(s) || /\/tables\/([A-Za-z0-9_-]+)/.exec(s);
  if (m) return m[1];
  return /^[A-Za-z0-9_-]+$/.test(s) ? s : null;
}

// the scene a new table starts with
function startingScene(system, light, dark) {
  if (system === "ffg") return { kind: "Encounter", state: { destiny: { light, dark } } };
  if (system === "d20pool") return { kind: "PoolState", state: {} };
  return null;
}

// `parts`: the view's parts (the seats' list is kept there)
export function buildStart(parts) {
  const gm = el("input", { id: "table-gm", required: "", maxlength: "100", autocomplete: "off", spellcheck: "false" });
  const system = el("select", { id: "table-system" });
  for (const s of engine.list) system.append(el("option", { value: s.name, text: s.name }));
  system.value = engine.systems.ffg ? "ffg" : (engine.list[0] || {}).name;
  const light = el("input", { id: "table-light", type: "number", min: "0", max: "20", value: "2", class: "narrow" });
  const dark = el("input", { id: "table-dark", type: "number", min: "0", max: "20", value: "1", class: "narrow" });
  const destiny = el("span", { class: "table-destiny-start" }, field(t("Light side tokens"), light), field(t("Dark side tokens"), dark));
  const provable = el("input", { id: "table-provable", type: "checkbox", checked: "" });
  const provableLabel = el("label", { class: "inline", id: "table-provable-label" }, provable, t("dice anyone can verify"));
  const showDestiny = () => { destiny.hidden = system.value !== "ffg"; };
  system.addEventListener("change", showDestiny);
  showDestiny();
  const createError = errorBox();
  const create = el("form", { id: "table-create", autocomplete: "off" },
    el("div", { class: "row" }, field(t("Your name (game master)"), gm, "grow"), field(t("System"), system), destiny, provableLabel,
       el("button", { type: "submit", text: t("Create the table") })), createError);
  create.addEventListener("submit", async (e) => {
    e.preventDefault();
    clearError(createError);
    const body = { system: system.value, gm: gm.value.trim() };
    body.provable = provable.checked;
    const scene = startingScene(system.value, parseInt(light.value || "0", 10), parseInt(dark.value || "0", 10));
    if (scene) body.scene = scene;
    try {
      const made = await api("/tables", body);
      saveSeat(made.table_id, { key: made.gm_key, name: body.gm, system: body.system, since: Date.now(),
                                commitment: made.table.commitment });
      location.hash = `#table/${made.table_id}`;
    } catch (err) { showError(createError, err); }
  });

  const link = el("input", { id: "table-link", autocomplete: "off", spellcheck: "false", placeholder: t("a table's link or id") });
  const joinError = errorBox();
  const join = el("form", { id: "table-open", autocomplete: "off" },
    el("div", { class: "row" }, field(t("The link the game master gave you"), link, "grow"),
       el("button", { type: "submit", class: "secondary", text: t("Go to the table") })), joinError);
  join.addEventListener("submit", (e) => {
    e.preventDefault();
    const id = idOf(link.value);
    if (!id) { showError(joinError, { message: t("that is not a table's link") }); return; }
    location.hash = `#table/${id}`;
  });
  const seats = el("ul", { id: "table-seats", class: "table-seats" });
  parts.seats = seats;
  parts.seatsBox = el("div", { class: "table-seats-box" }, el("h3", { text: t("Your tables in this browser") }), seats);
  return el("section", { id: "table-start", "aria-labelledby": "table-start-title" },
    el("h2", { id: "table-start-title", text: t("A game table") }),
    el("p", { class: "hint", text: t("The game master creates a table and shares its link; the players join by the link. Everyone sees the rolls live, with their exact odds.") }),
    el("h3", { text: t("Create a table") }), create,
    el("h3", { text: t("Join a table") }), join, parts.seatsBox);
}

export function renderSeats(parts) {
  const seats = allSeats();
  parts.seats.replaceChildren();
  parts.seatsBox.hidden = !seats.length;
  for (const s of seats) {
    parts.seats.append(el("li", {}, el("a", { href: `#table/${s.id}`, text: s.id }), " ",
                          el("span", { class: "muted", text: fmt(t("{name}, {system}"), { name: s.name, system: s.system || "" }) })));
  }
}
