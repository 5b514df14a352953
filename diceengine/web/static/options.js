// A system's options as form fields (each with its default, its help as the label's title) and their values
// read back as the service takes them: booleans, integers (an empty field left out), choices and text.
"use strict";
import { el, t } from "./common.js";

// Fill `box` with a field for each option of `info` (a system of /api/systems); `onChange` runs on each change.
export function optionFields(box, info, onChange) {
  box.replaceChildren();
  for (const [name, opt] of Object.entries(info ? info.options : {})) {
    let input;
    if (opt.choices) {
      input = el("select", {});
      for (const c of opt.choices) input.append(el("option", { value: String(c), text: String(c) }));
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
    const label = el("label", { title: t(opt.doc) }, name.replaceAll("_", " "), input);
    if (opt.kind === "bool" && !opt.choices) label.classList.add("inline");
    box.append(label);
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
