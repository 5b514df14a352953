// What every view of the page shares: the DOM helpers, the API call, the page's words.
"use strict";

export const $ = (id) => document.getElementById(id);
export const COLORS = ["#3a6ea5", "#c0392b", "#2e7d4f", "#a15c00", "#7b3fa0", "#00838f", "#6d4c41", "#455a64"];
// the engine's systems (from /api/systems) and features (from /api/about), filled once by app.js
export const engine = { systems: {}, list: [], features: {} };

// Elements are built from data, never from markup: what a player types reaches the page as text.
export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v; else if (k === "text") node.textContent = v; else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}
export function svgEl(tag, attrs, text) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}
export function pct(p) {
  if (p === null || p === undefined) return "-";
  if (p === 0) return "0%";
  if (p < 0.0001) return p.toExponential(2);
  return (100 * p).toFixed(2) + "%";
}
export function num(x) { return Number.isInteger(x) ? String(x) : x.toFixed(2); }

// An error box of a view: element() builds it (PREFIX-error, hidden, holding PREFIX-error-message and
// PREFIX-error-caret); show(err) writes the engine's message and its caret there, shows it and marks the field
// `input` invalid; clear() undoes it.
export function errorBox(prefix, input) {
  const element = () => el("div", { id: `${prefix}error`, class: "error", role: "alert", hidden: "" },
    el("span", { id: `${prefix}error-message` }), el("pre", { id: `${prefix}error-caret` }));
  const show = (err) => {
    const data = err.data || { message: String(err.message || err) };
    $(`${prefix}error-message`).textContent = data.message;
    $(`${prefix}error-caret`).textContent = data.caret || "";
    $(`${prefix}error-caret`).hidden = !data.caret;
    $(`${prefix}error`).hidden = false;
    $(input).setAttribute("aria-invalid", "true");
  };
  const clear = () => { $(`${prefix}error`).hidden = true; $(input).removeAttribute("aria-invalid"); };
  return { element, show, clear };
}

// Calls the service: a JSON body makes it a POST; `key` is a table key (sent as a Bearer token).
// A refusal throws an Error whose `data` is the engine's JSON error (message, caret).
// Answers are in the page's language (Accept-Language): its refusals, and a table's rolls written on read.
export async function api(path, body, { key, method } = {}) {
  const headers = { "Accept-Language": pageLanguage() };
  const init = { headers };
  if (body !== undefined) { init.method = "POST"; headers["Content-Type"] = "application/json"; init.body = JSON.stringify(body); }
  if (method) init.method = method;
  if (key) headers.Authorization = `Bearer ${key}`;
  const response = await fetch(path, init);
  let data = null;
  try { data = await response.json(); } catch (e) { data = { message: response.statusText || "no answer" }; }
  if (!response.ok) { const err = new Error(data.message || "error"); err.data = data; err.status = response.status; throw err; }
  return data;
}

// the page's language (the <html lang> the language menu sets), as an Accept-Language header names it
export function pageLanguage() { return document.documentElement.lang || "en"; }

// The page's human words, gettext style: t("English words") gives them in the page's language
// when its catalogue has them, else as written; t("{side} wins", { side }) fills the {names} in after.
// The catalogue is diceengine/locale/<lang>/LC_MESSAGES/page.po (GET /api/words/<lang>).
let words = {};
export function setWords(catalogue) { words = catalogue || {}; }
export function t(msgid, values) {
  const text = Object.prototype.hasOwnProperty.call(words, msgid) ? words[msgid] : msgid;
  return values ? fill(text, values) : text;
}
// `text` with each {field} replaced by its value in `values` (a field without a value stays as written)
export function fill(text, values = {}) {
  return text.replace(/\{(\w+)\}/g, (all, name) => (Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : all));
}

// A die's kind in words (its caption under the face): "capacité" for an ability die in French, "Dé Libre" for
// the Wild Die; a kind the catalogues do not know (d6, d20) as it is.
export function kindWord(d) { return d.wild ? t("wild") : t(String(d.kind)); }

// A die as the page shows it: its face in the system's symbols when the system declares a glyph for its kind and
// for every symbol on the face (FFG: "success + advantage" on an ability die is 🟩 ✹▲), else its face or value;
// `words` is the face in words, for the die's title and its accessible name.
export function dieFace(system, d) {
  const words = d.face || String(d.value);
  const glyphs = (engine.systems[system] || {}).symbols || {};
  const kind = glyphs[d.kind];
  if (!kind || !d.face) return { shown: words, words, symbols: false };
  const parts = d.face.split(" + ").map((w) => glyphs[w]);
  if (parts.some((g) => g === undefined)) return { shown: words, words, symbols: false };
  return { shown: `${kind} ${parts.join("")}`, words, symbols: true };
}
