// The luck panel: each member's rolls against their exact odds and the fairness test (GET luck), refreshed after
// the rolls, at most one request in flight. `current()` is the open room (or null), `box` the panel.
"use strict";
import { api, el, fill as fmt, num, t } from "./common.js";

let luckTimer = null;
export function refreshLuck(current, box) {
  if (luckTimer) return;
  luckTimer = setTimeout(async () => {
    luckTimer = null;
    const room = current();
    if (!room) return;
    try {
      const data = await api(`/tables/${encodeURIComponent(room.id)}/luck`, undefined, { key: room.key });
      if (current() === room) renderLuck(box, data);
    } catch (err) { /* the next roll refreshes it */ }
  }, 300);
}

function renderLuck(box, data) {
  const table = el("table", { id: "table-luck-table" },
    el("tr", {}, el("th", { text: t("member") }), el("th", { text: t("rolls") }), el("th", { text: t("mean percentile") }),
       el("th", { text: t("successes") }), el("th", { text: t("expected") })));
  for (const l of Object.values(data.luck)) {
    const mean = l.mean === null ? "-" : `${Math.round(100 * l.mean)}%` + (l.expected_error ? ` ± ${Math.round(100 * l.expected_error)}` : "");
    const row = el("tr", { "data-member": l.member }, el("td", { text: l.member }), el("td", { text: String(l.rolls) }),
      el("td", { text: mean }), el("td", { text: l.checks ? `${l.successes} / ${l.checks}` : "-" }),
      el("td", { text: l.checks ? num(Math.round(100 * l.expected_successes) / 100) : "-" }));
    if (l.mean !== null) row.children[2].className = l.mean >= 0.5 ? "good" : "bad";
    table.append(row);
  }
  const f = data.fairness;
  const verdict = f.dof > 0
    ? fmt(t("The dice against their exact odds: chi-square {statistic} on {dof} degrees of freedom, p = {p} ({n} rolls)."),
          { statistic: f.statistic.toFixed(2), dof: f.dof, p: f.p_value.toPrecision(3), n: f.rolls })
    : fmt(t("{n} rolls: too few of one expression yet for the fairness test."), { n: f.rolls });
  box.replaceChildren(el("div", { class: "scroll" }, table), el("p", { class: "hint", id: "table-fairness", text: verdict }));
}
