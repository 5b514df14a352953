// The page: loads the engine's systems once, then shows one view at a time, chosen by the address's hash
// (#check, #table/<id>, ...). Each view is a module exporting mount(section, route): called once, the first
// time the view is shown, and show(route) (optional) each time it is shown again.
"use strict";
import { $, api, el, engine, t } from "./common.js";
import * as check from "./check.js";

// name -> [tab label, the view's module]; the first is the default view
const VIEWS = {
  check: ["Check", () => Promise.resolve(check)],
  table: ["Table", () => import("./table.js")],
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
  if (!mounted[name]) { mounted[name] = true; await module.mount(section, rest); }
  else if (module.show) await module.show(rest);
}

async function init() {
  engine.list = await api("/api/systems");
  for (const s of engine.list) engine.systems[s.name] = s;
  engine.features = (await api("/api/about")).features;
  const nav = $("views");
  const main = document.querySelector("main");
  for (const [name, [label]] of Object.entries(VIEWS)) {
    nav.append(el("a", { id: `tab-${name}`, href: `#${name}`, text: t(label) }));
    if (!$(`view-${name}`)) main.append(el("div", { id: `view-${name}`, class: "view", hidden: "" }));
  }
  window.addEventListener("hashchange", () => show().catch(check.showError));
  await show();
  document.body.dataset.ready = "true";
}
init().catch(check.showError);
