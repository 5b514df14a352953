// The page's own glyphs for the FFG dice and their symbols: inline SVG drawn from the shapes below, so that a
// die shows the same on every browser, with or without a colour emoji font (the system's Unicode symbols, 🟨 ✹▲,
// are empty boxes where that font is missing). A die is its shape in its colour (the d6 a square, the d8 a
// diamond, the d12 a pentagon), its symbols drawn after it; each glyph says its name to a screen reader.
"use strict";
import { dieFace, el, svgEl, t } from "./common.js";

const N_ = (words) => words;
// the dice: colour, outline, shape (FFG's: boost and setback d6, ability and difficulty d8, the others d12)
const SQUARE = "M2 2h12v12H2z", DIAMOND = "M8 1l7 7-7 7-7-7z", PENTAGON = "M8 1l7 5-2.7 8.5H3.7L1 6z";
export const DICE = {
  boost: ["#7cc4ea", "#2b6f99", SQUARE], setback: ["#1d1d1d", "#000", SQUARE],
  ability: ["#3fa34d", "#1f5e28", DIAMOND], difficulty: ["#6b3fa0", "#3d1f63", DIAMOND],
  proficiency: ["#f2cd2e", "#8a6d00", PENTAGON], challenge: ["#c0392b", "#6e1a12", PENTAGON],
  force: ["#ffffff", "#555", PENTAGON],
};
// the symbols: how each is drawn (a path filled, or stroked), in the page's ink
const STAR = "M8 .5l1.8 4.4 4.6-1.3-2.7 4 3.8 2.8-4.7.5.2 4.7L8 12.2 4.9 15.6l.3-4.7-4.7-.5 3.8-2.8-2.7-4 4.6 1.3z";
export const SYMBOLS = {
  success: { d: STAR }, failure: { d: "M3 3l10 10M13 3 3 13", stroke: 2.6 },
  advantage: { d: "M8 2l6.5 12h-13z" }, threat: { d: "M8 14 1.5 2h13z" },
  triumph: { d: "M8 .8a7.2 7.2 0 1 0 0 14.4A7.2 7.2 0 1 0 8 .8zm0 3 1.1 2.7 2.9-.3-2.2 1.9 1.2 2.7L8 9.4l-3 1.4 1.2-2.7L4 6.2l2.9.3z",
             evenodd: true },
  despair: { d: "M8 1a7 7 0 1 0 0 14A7 7 0 1 0 8 1zM5 5l6 6M11 5l-6 6", stroke: 1.8 },
  light: { d: "M8 2.5a5.5 5.5 0 1 0 0 11 5.5 5.5 0 1 0 0-11z", stroke: 1.8 },
  dark: { d: "M8 2.5a5.5 5.5 0 1 0 0 11 5.5 5.5 0 1 0 0-11z" },
  blank: { d: "M8 6.5a1.5 1.5 0 1 0 0 3 1.5 1.5 0 1 0 0-3z" },
};
// the names the glyphs say (the catalogue's words)
const NAMES = [N_("success"), N_("failure"), N_("advantage"), N_("threat"), N_("triumph"), N_("despair"), N_("light"),
               N_("dark"), N_("blank")];

function svg(name, ...children) {
  const node = svgEl("svg", { viewBox: "0 0 16 16", class: `glyph glyph-${name}`, role: "img", "aria-label": t(name),
                              focusable: "false" });
  node.append(svgEl("title", {}, t(name)), ...children);
  return node;
}

// A die's glyph: its shape in its colour; null for a kind the set does not draw.
export function dieGlyph(kind) {
  const found = DICE[kind];
  if (!found) return null;
  const [fill, stroke, d] = found;
  return svg(kind, svgEl("path", { d, fill, stroke, "stroke-width": "1.2", "stroke-linejoin": "round" }));
}

// A symbol's glyph (success, threat, light...); null for a symbol the set does not draw.
export function symbolGlyph(name) {
  const found = SYMBOLS[name];
  if (!found) return null;
  const attrs = found.stroke ? { fill: "none", stroke: "currentColor", "stroke-width": String(found.stroke),
                                 "stroke-linecap": "round" } : { fill: "currentColor" };
  if (found.evenodd) attrs["fill-rule"] = "evenodd";
  return svg(name, svgEl("path", { d: found.d, ...attrs }));
}

// A face drawn: the die's glyph then its symbols' ("success + advantage"), or null when the set lacks one of them.
export function faceGlyphs(kind, face) {
  const die = dieGlyph(kind);
  const symbols = String(face).split(" + ").map(symbolGlyph);
  if (!die || symbols.some((g) => g === null)) return null;
  return el("span", { class: "glyphs" }, die, ...symbols);
}

// The legend of the glyphs: each die and symbol with its name, in the page's language.
export function legend() {
  const list = el("ul", { class: "glyph-legend" });
  for (const kind of Object.keys(DICE)) list.append(el("li", {}, dieGlyph(kind), " " + t(kind)));
  for (const name of NAMES) list.append(el("li", {}, symbolGlyph(name), " " + t(name)));
  return el("details", { class: "legend" }, el("summary", { text: t("Legend of the dice and symbols") }), list);
}

// A die as the page shows it (dieFace), its face drawn with the page's glyphs where the set has them.
export function shownFace(system, d) {
  const face = dieFace(system, d);
  const drawn = face.symbols ? faceGlyphs(d.kind, d.face) : null;
  return drawn ? { ...face, shown: drawn } : face;
}

// Whether a roll's dice are drawn with the glyphs (then the view shows the legend).
export function drawsGlyphs(system, dice) { return (dice || []).some((d) => dieFace(system, d).symbols); }
