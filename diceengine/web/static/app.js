// The page: loads the engine's systems once, then shows one view at a time, chosen by the address's hash
// (#check, #table/<id>, ...). Each view is a module exporting mount(section, route): called once, the first
// time the view is shown, show(route) (optional) each time it is shown again, and relang() (optional) when
// the page's language changes (the elements carrying data-t are translated again by the page itself).
"use strict";
import { $, api, el, engine, setWords, t } from "./common.js";
import * as check from "./check.js";

// marks words for the catalogue that t() translates later (the tabs are labelled again in each language)
const N_ = (words) => words;

// the page's title, as index.html writes it in English
const TITLE = N_("diceengine: roll and exact odds");

// name -> [tab label, the view's module]; the first is the default view
const VIEWS = {
  check: [N_("Check"), () => Promise.resolve(check)],
  table: [N_("Table"), () => import("./table.js")],
  ladders: [N_("Ladders"), () => import("./ladders.js")],
  fights: [N_("Fights"), () => import("./fights.js")],
  anydice: [N_("AnyDice programs"), () => import("./anydice.js")],
};
const mounted = {};

function route() {
  const [name, ...rest] = location.hash.replace(/^#\/?/, "").split("/");
  return Object.prototype.hasOwnProperty.call(VIEWS, name) ? { name, rest } : { name: "check", rest: [] };
}

async function show() {
  const { name, rest } = route();
  for (const [view] of Object.entries(VIEWS)) {
    $(`view-${view}`).hidden = view !== name;
    const tab = $(`tab-${view}`);
    if (view === name) tab.setAttribute("aria-current", "page"); else tab.removeAttribute("aria-current");
  }
  const section = $(`view-${name}`);
  const module = await VIEWS[name][1]();
  if (!mounted[name]) { mounted[name] = module; await module.mount(section, rest); }
  else if (module.show) await module.show(rest);
}

// ---- the page's language: one choice for the page's words and the roll's text, remembered in the browser

const LANG_KEY = "diceengine.lang";
const catalogues = {};

function storedLanguage() {
  try { return localStorage.getItem(LANG_KEY); } catch (e) { return null; }
}
function firstLanguage() {
  const known = [...$("lang").options].map((o) => o.value);
  const stored = storedLanguage();
  if (known.includes(stored)) return stored;
  for (const wanted of navigator.languages || [navigator.language || ""]) {
    const code = String(wanted).split("-")[0].toLowerCase();
    if (known.includes(code)) return code;
  }
  return known[0];
}

// Every element marked data-t shows its English words (kept in the attribute) in the page's language;
// data-t-placeholder, data-t-title and data-t-aria-label do the same for those attributes.
const ATTRIBUTES = ["placeholder", "title", "aria-label"];
export function translatePage(root = document) {
  for (const node of root.querySelectorAll("[data-t]")) {
    if (!node.dataset.t) node.dataset.t = node.textContent.trim();
    node.textContent = t(node.dataset.t);
  }
  for (const name of ATTRIBUTES) {
    const mark = `data-t-${name}`;
    for (const node of root.querySelectorAll(`[${mark}]`)) {
      if (!node.getAttribute(mark)) node.setAttribute(mark, node.getAttribute(name) || "");
      node.setAttribute(name, t(node.getAttribute(mark)));
    }
  }
}

let asked = 0;  // the latest choice wins, whichever catalogue arrives first
async function setLanguage(code, remember) {
  const mine = ++asked;
  let words = catalogues[code];
  if (!words) {
    try { words = catalogues[code] = code === "en" ? {} : await api(`/api/words/${encodeURIComponent(code)}`); }
    catch (err) { words = {}; console.warn(`no words for ${code}: ${err.message}`); }  // the page stays usable, in English
  }
  if (mine !== asked) return;
  setWords(words);
  $("lang").value = code;
  document.documentElement.lang = code;
  if (remember) { try { localStorage.setItem(LANG_KEY, code); } catch (e) { /* private mode: not remembered */ } }
  document.title = t(TITLE);
  translatePage();
  for (const module of Object.values(mounted)) if (module.relang) module.relang();
}

async function init() {
  await setLanguage(firstLanguage(), false);
  engine.list = await api("/api/systems");
  for (const s of engine.list) engine.systems[s.name] = s;
  engine.features = (await api("/api/about")).features;
  const nav = $("views");
  const main = document.querySelector("main");
  for (const [name, [label]] of Object.entries(VIEWS)) {
    nav.append(el("a", { id: `tab-${name}`, href: `#${name}`, "data-t": label, text: t(label) }));
    if (!$(`view-${name}`)) main.append(el("div", { id: `view-${name}`, class: "view", hidden: "" }));
  }
  $("lang").addEventListener("change", () => setLanguage($("lang").value, true).catch(check.showError));
  window.addEventListener("hashchange", () => show().catch(check.showError));
  await show();
  document.body.dataset.ready = "true";
}
init().catch(check.showError);
