// The seats this browser keeps: "diceengine.table.<id>" -> {key, name, system, since, commitment} in localStorage,
// one per table, never in the address; and the form that takes a key for a table (the new key a game master gave
// this member, or their key brought from another browser). A key typed there is sent once, as an Authorization
// header (GET /tables/<id>/me answers whose key it is), and kept in the seat: never in the address, never logged.
"use strict";
import { api, el, t } from "./common.js";

const SEAT = "diceengine.table.";

export function loadSeat(id) {
  try { const seat = JSON.parse(localStorage.getItem(SEAT + id) || "null"); return seat && seat.key ? seat : null; }
  catch (e) { return null; }
}
export function saveSeat(id, seat) { localStorage.setItem(SEAT + id, JSON.stringify(seat)); }
export function forgetSeat(id) { localStorage.removeItem(SEAT + id); }
export function allSeats() {
  const seats = [];
  for (let i = 0; i < localStorage.length; i++) {
    const k = localStorage.key(i);
    if (k && k.startsWith(SEAT)) { const s = loadSeat(k.slice(SEAT.length)); if (s) seats.push({ id: k.slice(SEAT.length), ...s }); }
  }
  return seats.sort((a, b) => (b.since || 0) - (a.since || 0));
}

// a form taking a key for the table tableId(): once the service says whose key it is, the key is this browser's
// seat at that table and entered(id) is called; `ui`: errorBox() and showError(box, err) of the table view
export function buildKeyForm(prefix, tableId, entered, ui) {
  const input = el("input", { id: `${prefix}-key`, type: "password", required: "", autocomplete: "off",
                              spellcheck: "false", maxlength: "200" });
  const box = ui.errorBox();
  const form = el("form", { id: `${prefix}-key-form`, class: "table-key-form", autocomplete: "off" },
    el("div", { class: "row" }, el("label", { class: "grow" }, t("Your key for this table"), input),
       el("button", { type: "submit", class: "secondary", text: t("Enter with this key") })), box);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    box.hidden = true;
    const id = tableId(), key = input.value.trim();
    if (!id || !key) return;
    try {
      const me = await api(`/tables/${encodeURIComponent(id)}/me`, undefined, { key });
      const seat = loadSeat(id) || {};
      saveSeat(id, { ...seat, key, name: me.name, since: seat.since || Date.now() });
      input.value = "";
      entered(id);
    } catch (err) {
      ui.showError(box, err.status === 401 ? { message: t("this key does not open the table") } : err);
    }
  });
  return form;
}
