// The committed seeds at the table (issue 37): the table's commitment, the member's own client seed (made in
// this browser from crypto.getRandomValues), the game master's rotation and end, and a "verify" view: the
// engine's check run by the service (GET verify) and the log export to check offline (dice table verify).
// Shown only for a table of committed seeds. Everything is set as text.
"use strict";
import { api, el, fill as fmt, t } from "./common.js";

// a fresh client seed: 16 random bytes from the browser, hex
export function newClientSeed() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// the box; `act(what, body)` takes a step as the member, `current()` is the room (id, key, name, role, table)
export function buildProvable(act, current) {
  const parts = {};
  parts.commitment = el("code", { id: "table-commitment", class: "wrap" });
  parts.clientSeed = el("code", { id: "table-client-seed", class: "wrap" });
  parts.report = el("div", { id: "table-verify-report", "aria-live": "polite" });
  parts.export = el("a", { id: "table-export", download: "table-log.json", text: t("Download the log"), href: "#" });
  const newSeed = el("button", { type: "button", class: "secondary small", id: "table-new-client-seed",
                                 text: t("New client seed") });
  newSeed.addEventListener("click", () => act("clientseed", { seed: newClientSeed() }));
  parts.rotate = el("button", { type: "button", class: "secondary small", id: "table-rotate", text: t("Rotate the server seed") });
  parts.rotate.addEventListener("click", () => act("rotate"));
  parts.end = el("button", { type: "button", class: "secondary small", id: "table-end", text: t("End the table (reveal the seed)") });
  parts.end.addEventListener("click", () => act("end"));
  const check = el("button", { type: "button", class: "secondary small", id: "table-verify", text: t("Verify the log") });
  check.addEventListener("click", () => verify(current(), parts));
  parts.export.addEventListener("click", (e) => download(e, current()));
  parts.box = el("section", { id: "table-provable-box", "aria-labelledby": "table-provable-title", hidden: "" },
    el("h2", { id: "table-provable-title", text: t("Dice anyone can verify") }),
    el("p", { class: "hint", text: t("The server committed to its secret seed before any roll; each roll's dice are derived from it, the step and your client seed. Once the seed is revealed, anyone recomputes every die.") }),
    el("p", {}, t("Commitment: "), parts.commitment),
    el("p", {}, t("Your client seed: "), parts.clientSeed, " ", newSeed),
    el("p", { class: "row table-actions" }, parts.rotate, parts.end),
    el("p", { class: "row table-actions" }, check, " ", parts.export), parts.report);
  return parts;
}

// the box for the room's table (hidden for a table without committed seeds)
export function renderProvable(parts, room) {
  const table = room && room.table;
  parts.box.hidden = !(table && table.commitment);
  if (parts.box.hidden) return;
  parts.commitment.textContent = table.commitment;
  const mine = (table.client_seeds || {})[room.name];
  parts.clientSeed.textContent = mine || t("none yet (the server's seed alone)");
  const gm = room.role === "gm";
  parts.rotate.hidden = !gm || table.ended;
  parts.end.hidden = !gm || table.ended;
}

// a seed step seen in the log changes the box's state
export function stepSeen(room, step) {
  const table = room.table;
  if (step.kind === "seed") table.commitment = step.commitment;
  if (step.kind === "end") table.ended = true;
  if (step.kind === "clientseed") table.client_seeds = { ...(table.client_seeds || {}), [step.member]: step.client_seed };
}

async function verify(room, parts) {
  parts.report.replaceChildren(el("p", { class: "muted", text: t("verifying...") }));
  try {
    const r = await api(`/tables/${encodeURIComponent(room.id)}/verify`, undefined, { key: room.key });
    const lines = [];
    if (r.problems.length) {
      const p = r.problems[0];
      lines.push(el("p", { class: "bad", id: "table-verify-verdict",
                           text: fmt(t("step {step} does not match ({kind}): {detail}"), { step: p.step, kind: p.kind, detail: p.detail }) }));
    } else {
      lines.push(el("p", { class: "good", id: "table-verify-verdict",
                           text: fmt(t("verified: {steps} steps, {checked} recomputed, no step tampered with"), r) }));
      if (!r.complete) lines.push(el("p", { class: "muted", text: fmt(t("not checked yet: {pending} steps whose server seed is not revealed, {sealed} secret rolls never revealed"), r) }));
    }
    if (r.commitments.length && r.commitments[0] !== room.firstCommitment) {
      lines.push(el("p", { class: "bad", text: t("the log's first commitment is not the one this browser saw") }));
    }
    parts.report.replaceChildren(...lines);
  } catch (err) { parts.report.replaceChildren(el("p", { class: "bad", text: err.message })); }
}

async function download(e, room) {
  e.preventDefault();
  const response = await fetch(`/tables/${encodeURIComponent(room.id)}/export`, { headers: { Authorization: `Bearer ${room.key}` } });
  const blob = new Blob([await response.text()], { type: "application/json" });
  const a = el("a", { href: URL.createObjectURL(blob), download: `table-${room.id}.json` });
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}
