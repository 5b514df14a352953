// The table view's small form parts: a labelled field, a button, an error box (the engine's message and its caret).
"use strict";
import { el, t } from "./common.js";

// `label` is a page's word, already through t()
export function field(label, input, cls) {
  return el("label", cls ? { class: cls } : {}, label, input);
}
export function button(label, onClick, cls) {
  const b = el("button", { type: "button", text: label });
  if (cls) b.className = cls;
  b.addEventListener("click", onClick);
  return b;
}
export function errorBox() {
  const box = el("div", { class: "table-error", role: "alert", hidden: "" });
  box.append(el("span", { class: "table-error-message" }), el("pre", { class: "table-error-caret", hidden: "" }));
  return box;
}
export function showError(box, err) {
  const data = (err && err.data) || { message: String((err && err.message) || err) };
  box.querySelector(".table-error-message").textContent = data.message || t("refused");
  const caret = box.querySelector(".table-error-caret");
  caret.textContent = data.caret || "";
  caret.hidden = !data.caret;
  box.hidden = false;
}
export function clearError(box) { box.hidden = true; }
