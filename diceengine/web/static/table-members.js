// The table's members (issue 34): each member by name and role; the game master removes a member or gives
// them a new key (POST remove / rekey: the old key is refused at once, on every route), lets a removed member
// back (POST readmit: a name the game master removed may not join again until then), and anyone takes a new
// key for themselves (this browser's seat keeps it). A key given to another member is shown once, to be passed
// on: the service keeps only its hash. Everything is set as text.
"use strict";
import { api, el, fill as fmt, t } from "./common.js";

// the box; `hooks`: current() the room (id, key, name, role, table), stepped(step) a step taken (it joins the
// log), rekeyed(key) the member's own new key, errors() an error box, showError(box, err)
export function buildMembers(hooks) {
  const parts = { hooks };
  parts.list = el("ul", { id: "table-members", class: "table-members" });
  parts.barred = el("ul", { id: "table-barred", class: "table-members" });
  parts.error = hooks.errors();
  parts.given = el("p", { id: "table-new-key", class: "hint", hidden: "" });
  const mine = el("button", { type: "button", class: "secondary small", id: "table-rekey-me", text: t("A new key for me") });
  mine.addEventListener("click", () => rekey(parts, null));
  parts.box = el("section", { id: "table-members-box", "aria-labelledby": "table-members-title" },
    el("h2", { id: "table-members-title", text: t("Members") }), parts.list, parts.barred,
    el("p", { class: "row table-actions" }, mine), parts.given, parts.error);
  return parts;
}

// the list for the room's table: the game master's buttons beside each other member
export function renderMembers(parts, room) {
  parts.list.replaceChildren();
  if (!room) return;
  const gm = room.role === "gm";
  for (const m of Object.values(room.table.members)) {
    const li = el("li", { "data-member": m.name }, el("b", { text: m.name }), " ",
                  el("span", { class: "muted", text: m.role === "gm" ? t("game master") : t("player") }));
    if (gm && m.name !== room.name) {
      const remove = el("button", { type: "button", class: "secondary small member-remove", text: t("Remove") });
      remove.addEventListener("click", () => removeMember(parts, m.name));
      const renew = el("button", { type: "button", class: "secondary small member-rekey", text: t("New key") });
      renew.addEventListener("click", () => rekey(parts, m.name));
      li.append(" ", remove, " ", renew);
    }
    parts.list.append(li);
  }
  renderBarred(parts, room);
}

// the names the game master removed (the game master's list): each with a button to let them back
function renderBarred(parts, room) {
  parts.barred.replaceChildren();
  if (room.role !== "gm") return;
  for (const name of room.table.barred || []) {
    const back = el("button", { type: "button", class: "secondary small member-readmit", text: t("Let them back") });
    back.addEventListener("click", () => readmitMember(parts, name));
    parts.barred.append(el("li", { "data-barred": name }, el("s", { text: name }), " ",
                           el("span", { class: "muted", text: t("removed by the game master") }), " ", back));
  }
}

async function readmitMember(parts, name) {
  const { current, stepped, showError } = parts.hooks;
  const room = current();
  parts.error.hidden = true;
  try {
    const answer = await api(`/tables/${encodeURIComponent(room.id)}/readmit`, { name }, { key: room.key });
    stepped(answer.step);
  } catch (err) { showError(parts.error, err); }
}

async function removeMember(parts, name) {
  const { current, stepped, showError } = parts.hooks;
  const room = current();
  if (!confirm(fmt(t("Remove {name} from the table? Their key will no longer open it."), { name }))) return;
  parts.error.hidden = true;
  try {
    const answer = await api(`/tables/${encodeURIComponent(room.id)}/remove`, { name }, { key: room.key });
    stepped(answer.step);
  } catch (err) { showError(parts.error, err); }
}

// a new key for `name` (null: the member's own)
async function rekey(parts, name) {
  const { current, stepped, rekeyed, showError } = parts.hooks;
  const room = current();
  parts.error.hidden = true;
  parts.given.hidden = true;
  try {
    const answer = await api(`/tables/${encodeURIComponent(room.id)}/rekey`, name ? { name } : {}, { key: room.key });
    if (answer.name === room.name) rekeyed(answer.key);
    stepped(answer.step);
    if (answer.name !== room.name) {
      parts.given.replaceChildren(fmt(t("The new key of {name} (give it to them; their old key no longer opens the table): "),
                                      { name: answer.name }), el("code", { class: "wrap", text: answer.key }));
      parts.given.hidden = false;
    }
  } catch (err) { showError(parts.error, err); }
}

// a member step seen in the log changes the members
export function memberStepSeen(room, step) {
  const barred = new Set(room.table.barred || []);
  if (step.kind === "remove") {
    delete room.table.members[step.target];
    if (step.member !== step.target) barred.add(step.target);  // a removal by the game master sticks
  }
  if (step.kind === "readmit") barred.delete(step.target);
  room.table.barred = [...barred];
}
