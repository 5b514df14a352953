// A system's options as form fields (each with its default, its help as the label's title) and their values
// read back as the service takes them: booleans, integers (an empty field left out), choices and text.
"use strict";
import { el, t } from "./common.js";

// The systems' option names and choices in words (the values sent stay the system's own)
const N_ = (words) => words;
export const OPTION_WORDS = [
  N_("letters"), N_("initials"), N_("colour"), N_("complication"), N_("flag"), N_("remove highest"), N_("none"),
  N_("character point"), N_("character point explodes"), N_("force point"), N_("tie"), N_("actor"), N_("opponent"),
  N_("reroll"), N_("one die"), N_("division"), N_("floor"), N_("exact"), N_("dialect"), N_("explosions"), N_("unit"),
  N_("dice"), N_("wild")];
const said = (name) => t(String(name).replaceAll("_", " "));

// Fill `box` with a field for each option of `info` (a system of /api/systems); `onChange` runs on each change.
export function optionFields(box, info, onChange) {
  box.replaceChildren();
  for (const [name, opt] of Object.entries(info ? info.options : {})) {
    let input;
    if (opt.choices) {
      input = el("select", {});
      for (const c of opt.choices) input.append(el("option", { value: String(c), text: said(c) }));
      input.value = String(opt.default);
    } else if (opt.kind === "bool") {
      input = el("input", { type: "checkbox" });
      input.checked = !!opt.default;
    } else {
      input = el("input", opt.kind === "int" ? { type: "number", class: "narrow" } : {});
      input.value = opt.default;
    }
    input.dataset.option = name;
    input.dataset.kind = opt.choices ? "choice" : opt.kind;
    if (onChange) input.addEventListener("change", onChange);
    const label = el("label", { title: t(opt.doc) }, said(name), input);
    if (opt.kind === "bool" && !opt.choices) label.classList.add("inline");
    box.append(label);
  }
}

// The option fields of `box` said again in the page's language (their values kept).
export function relabelOptions(box) {
  for (const input of box.querySelectorAll("[data-option]")) {
    input.closest("label").firstChild.textContent = said(input.dataset.option);
    if (input.tagName === "SELECT") for (const o of input.options) o.textContent = said(o.value);
  }
}

// The values of the option fields in `box`, by option name.
export function optionValues(box) {
  const out = {};
  for (const input of box.querySelectorAll("[data-option]")) {
    const name = input.dataset.option, kind = input.dataset.kind;
    if (kind === "bool") out[name] = input.checked;
    else if (kind === "int") { if (input.value !== "") out[name] = parseInt(input.value, 10); }
    else out[name] = input.value;
  }
  return out;
}
