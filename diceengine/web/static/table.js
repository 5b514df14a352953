// The table view: a game table shared online (the endpoints of /tables). #table creates a table or joins
// one; #table/<id> is the table itself (a newcomer joins it by that link). Each member's key is kept in this
// browser's localStorage, one per table, never in the address. The live log is read from the server-sent
// events of /tables/<id>/events; they take the key as an Authorization header, which EventSource cannot send,
// so the stream is read with fetch() and resumed after the last step seen (?after=N and Last-Event-ID).
// What a member typed (names, labels, characters) reaches the page as text only (el(..., {text}), textContent).
"use strict";
import { api, el, engine, fill as fmt, t } from "./common.js";
import { legend } from "./glyphs.js";
import { Live } from "./table-live.js";
import { buildMembers, memberStepSeen, renderMembers } from "./table-members.js";
import { buildProvable, renderProvable, stepSeen } from "./table-provable.js";
import { refreshLuck as refreshLuckOf } from "./table-luck.js";
import { renderCharacters, renderInitiative, renderPools } from "./table-play.js";
import { buildKeyForm, forgetSeat, loadSeat, saveSeat } from "./table-seats.js";
import { buildStart, renderSeats } from "./table-start.js";
import { button, clearError, errorBox, field, showError } from "./table-ui.js";
import { describe, renderDice, renderOdds, renderOutcome, timeOf } from "./table-steps.js";

export function shareLink(id) { return `${location.origin}/#table/${id}`; }

// ---- the view's parts

let section = null;
let room = null;  // the open table: {id, key, name, role, table, steps (seq -> step), live}
const parts = {};


// the systems whose notation reads a trailing description: there a roll's label travels in its expression
const DESCRIBED = new Set(["standard"]);
// each ruleset's character and its first state (the form's starting JSON)
const CHARACTERS = {
  ffg: ["CharacterSheet", { characteristics: { brawn: 2, agility: 2, intellect: 2, cunning: 2, willpower: 2, presence: 2 }, skills: {} }],
  d6wild: ["WildCharacter", { codes: { Dexterity: "3D", blaster: "4D" } }],
  d6: ["D6Character", { codes: { Dexterity: "3D", blaster: "4D" } }],
  d20pool: ["Character", { attributes: {}, disciplines: {} }],
};


// ---- #table/<id> without a seat: join by the link

function buildJoin() {
  const name = el("input", { id: "table-join-name", required: "", maxlength: "100", autocomplete: "off", spellcheck: "false" });
  const box = errorBox();
  const form = el("form", { id: "table-join", autocomplete: "off" },
    el("div", { class: "row" }, field(t("Your name"), name, "grow"), el("button", { type: "submit", text: t("Join") })), box);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    clearError(box);
    const id = parts.joinId;
    try {
      const joined = await api(`/tables/${encodeURIComponent(id)}/join`, { name: name.value.trim() });
      saveSeat(id, { key: joined.player_key, name: joined.name, system: joined.table.system, since: Date.now(),
                     commitment: (joined.table.log.find((s) => s.kind === "seed") || {}).commitment });
      await openTable(id);
    } catch (err) {
      showError(box, err.status === 404 ? { message: t("there is no such table: ask the game master for the link again") } : err);
    }
  });
  parts.joinName = name;
  parts.joinTitle = el("p", { class: "muted" });
  const keyForm = buildKeyForm("table-invite", () => parts.joinId, enterWithKey, { errorBox, showError });
  return el("section", { id: "table-invite", "aria-labelledby": "table-invite-title", hidden: "" },
    el("h2", { id: "table-invite-title", text: t("Join the table") }), parts.joinTitle, form,
    el("details", { id: "table-invite-key-box" }, el("summary", { text: t("I already have a key for this table") }), keyForm));
}

// a key typed for the table `id` is now this browser's seat there: the table opened (again) with it
function enterWithKey(id) {
  closeRoom();
  return openTable(id);
}

// ---- the table itself

function buildRoom() {
  // the roll box
  const expression = el("input", { id: "table-expression", required: "", autocomplete: "off", spellcheck: "false",
                                   maxlength: "2000" });
  const label = el("input", { id: "table-label", autocomplete: "off", maxlength: "200" });
  const secret = el("input", { id: "table-secret", type: "checkbox" });
  const secretLabel = el("label", { class: "inline", id: "table-secret-label" }, secret, t("secret (only the game master sees the dice)"));
  const rollError = errorBox();
  const form = el("form", { id: "table-roll", autocomplete: "off" },
    el("div", { class: "row" }, field(t("Expression"), expression, "grow"), field(t("Label"), label), secretLabel,
       el("button", { type: "submit", id: "table-roll-button", text: t("Roll") })),
    el("div", { class: "row table-actions" },
       button(t("Re-roll my last roll"), () => act("reroll"), "secondary"),
       parts.undo = button(t("Undo the last step"), () => act("undo"), "secondary")),
    buildSave(expression),
    el("p", { class: "hint", id: "table-roll-hint" }), parts.saved = el("p", { class: "hint", id: "table-saved" }), rollError);
  form.querySelector(".table-actions button").id = "table-reroll";
  parts.undo.id = "table-undo";
  const effectiveSystem = () => splitSystem(expression.value)[0] || (room && room.table.system);
  const labelState = () => {
    const takes = DESCRIBED.has(effectiveSystem());
    label.disabled = !takes;
    label.title = takes ? "" : t("this system's notation takes no label");
  };
  expression.addEventListener("input", labelState);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    clearError(rollError);
    const saved = savedRoll(expression.value);
    if (saved === null) { showError(rollError, { message: fmt(t("no saved roll named {name}"), { name: expression.value.trim() }) }); return; }
    const [system, text] = saved ? [saved.system, saved.expression] : splitSystem(expression.value);
    const body = { expression: text };
    if (system) body.system = system;
    if (saved && Object.keys(saved.options || {}).length) body.options = saved.options;
    const words = label.value.trim();
    if (words && !label.disabled) body.expression = `${text} # ${words}`;
    if (room.role === "gm" && secret.checked) body.secret = true;
    try {
      const answer = await api(`/tables/${encodeURIComponent(room.id)}/roll`, body, { key: room.key });
      addStep(answer.step);
      label.value = "";
    } catch (err) { showError(rollError, err); }
  });
  Object.assign(parts, { expression, label, secret, secretLabel, rollError, labelState });

  // the share link (the game master's)
  const link = el("input", { id: "table-share", readonly: "", spellcheck: "false" });
  const copy = button(t("Copy"), async () => {
    link.select();
    try { await navigator.clipboard.writeText(link.value); copy.textContent = t("Copied"); } catch (e) { /* selected */ }
  }, "secondary");
  parts.share = el("div", { class: "row table-share", id: "table-share-box" }, field(t("Link to share with the players"), link, "grow"), copy);
  parts.shareInput = link;

  parts.title = el("h2", { id: "table-title" });
  parts.who = el("p", { class: "muted", id: "table-who" });
  parts.status = el("span", { id: "table-status", class: "table-status", role: "status" });
  const leave = button(t("Leave this seat"), () => {
    if (!confirm(t("Forget your key for this table in this browser? Without it you cannot come back to this seat."))) return;
    forgetSeat(room.id);
    closeRoom();
    location.hash = "#table";
  }, "secondary link");
  parts.keyBox = el("details", { id: "table-key-box" }, el("summary", { text: t("Enter a key for this table") }),
    buildKeyForm("table-room", () => room && room.id || parts.roomId, enterWithKey, { errorBox, showError }));
  const head = el("section", { id: "table-head", "aria-labelledby": "table-title" },
    el("div", { class: "table-headline" }, parts.title, parts.status), parts.who, parts.share, leave, parts.keyBox);

  parts.log = el("ol", { id: "table-log", class: "table-log", "aria-live": "polite", "aria-label": t("the table's log") });
  const logBox = el("section", { id: "table-log-box", "aria-labelledby": "table-log-title" },
    el("h2", { id: "table-log-title", text: t("Log") }), parts.log, legend());
  const rollBox = el("section", { id: "table-roll-box", "aria-labelledby": "table-roll-title" },
    el("h2", { id: "table-roll-title", text: t("Roll") }), form, buildRule());

  // the pools
  parts.pools = el("div", { id: "table-pools" });
  parts.poolError = errorBox();
  const poolName = el("input", { id: "table-pool-name", maxlength: "200", autocomplete: "off", spellcheck: "false", placeholder: t("name") });
  const poolValue = el("input", { id: "table-pool-value", type: "number", value: "1", class: "narrow" });
  const poolForm = el("form", { id: "table-pool-new", class: "row" }, field(t("New pool"), poolName), field(t("Tokens"), poolValue),
                      el("button", { type: "submit", class: "secondary", text: t("Add") }));
  poolForm.addEventListener("submit", (e) => {
    e.preventDefault();
    const pool = poolName.value.trim();
    if (pool) act("adjust", { pool, delta: parseInt(poolValue.value || "0", 10) }, parts.poolError).then(() => { poolName.value = ""; });
  });
  parts.poolForm = poolForm;
  const poolsBox = el("section", { id: "table-pools-box", "aria-labelledby": "table-pools-title" },
    el("h2", { id: "table-pools-title", text: t("Destiny and pools") }), parts.pools, poolForm, parts.poolError);

  // initiative
  parts.round = el("p", { id: "table-round", class: "table-round" });
  parts.order = el("ol", { id: "table-order", class: "table-order" });
  parts.turnError = errorBox();
  const orderInput = el("input", { id: "table-order-input", autocomplete: "off", spellcheck: "false",
                                   placeholder: t("names, in order, separated by commas") });
  const orderForm = el("form", { id: "table-order-form", class: "row" }, field(t("Initiative order"), orderInput, "grow"),
                       el("button", { type: "submit", class: "secondary", text: t("Set the order") }));
  orderForm.addEventListener("submit", (e) => {
    e.preventDefault();
    const order = orderInput.value.split(",").map((s) => s.trim()).filter(Boolean);
    if (order.length) act("order", { order }, parts.turnError);
  });
  Object.assign(parts, { orderForm, orderInput });
  const initiativeBox = el("section", { id: "table-initiative", "aria-labelledby": "table-initiative-title" },
    el("h2", { id: "table-initiative-title", text: t("Initiative") }), parts.round, parts.order,
    el("div", { class: "row" }, button(t("Next turn"), () => act("turn", undefined, parts.turnError)),
       button(t("Next round"), () => act("round", undefined, parts.turnError), "secondary")),
    orderForm, parts.turnError);
  initiativeBox.querySelectorAll(".row button")[0].id = "table-next-turn";
  initiativeBox.querySelectorAll(".row button")[1].id = "table-next-round";

  // characters
  parts.characters = el("ul", { id: "table-characters", class: "table-characters" });
  const charName = el("input", { id: "table-character-name", maxlength: "100", autocomplete: "off", spellcheck: "false" });
  const charOwner = el("select", { id: "table-character-owner" });
  const charState = el("textarea", { id: "table-character-state", rows: "3", spellcheck: "false" });
  const charError = errorBox();
  const charForm = el("form", { id: "table-character-form" },
    el("div", { class: "row" }, field(t("Name"), charName, "grow"), field(t("Played by"), charOwner)),
    field(t("State of play (JSON)"), charState),
    el("div", { class: "row" }, el("button", { type: "submit", class: "secondary", text: t("Add the character") })), charError);
  charForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    clearError(charError);
    const [kind] = CHARACTERS[room.table.system] || [];
    let state;
    try { state = JSON.parse(charState.value || "{}"); } catch (err) { showError(charError, { message: fmt(t("not JSON: {reason}"), { reason: err.message }) }); return; }
    const name = charName.value.trim();
    if (name) state.name = name;
    const body = { kind, state, owner: charOwner.value || null };
    if (name) body.name = name;
    if (await act("characters", body, charError)) charName.value = "";
  });
  Object.assign(parts, { charForm, charName, charOwner, charState });
  const charactersBox = el("section", { id: "table-characters-box", "aria-labelledby": "table-characters-title" },
    el("h2", { id: "table-characters-title", text: t("Characters") }), parts.characters,
    el("details", { id: "table-character-add" }, el("summary", { text: t("Add a character") }), charForm));

  // luck
  parts.luck = el("div", { id: "table-luck" });
  const luckBox = el("section", { id: "table-luck-box", "aria-labelledby": "table-luck-title" },
    el("h2", { id: "table-luck-title", text: t("Luck") }),
    el("p", { class: "hint", text: t("Each member's rolls against their exact odds: fair dice give a mean percentile of 50; above it, luckier.") }),
    parts.luck);

  parts.provable = buildProvable((what, body) => act(what, body), () => room);
  parts.members = buildMembers({ current: () => room, stepped: addStep, rekeyed, errors: errorBox, showError });
  parts.side = el("div", { class: "table-side" }, poolsBox, initiativeBox, charactersBox, parts.members.box,
                  parts.provable.box, luckBox);
  return el("div", { id: "table-room", class: "table-room", hidden: "" },
    head, el("div", { class: "table-columns" }, el("div", { class: "table-main" }, rollBox, logBox), parts.side));
}

// the expression in the roll box saved at the table under a name (POST save): rolled after as @name
function buildSave(expression) {
  const name = el("input", { id: "table-save-name", autocomplete: "off", spellcheck: "false", maxlength: "40",
                             placeholder: t("name") });
  const save = el("button", { type: "button", class: "secondary", id: "table-save", text: t("Save") });
  const form = el("div", { class: "row", id: "table-save-form" }, field(t("Save the roll as"), name), save);
  save.addEventListener("click", async () => {
    const [system, text] = splitSystem(expression.value);
    const body = { name: name.value.trim(), expression: text };
    if (system) body.system = system;
    if (await act("save", body)) name.value = "";
  });
  return form;
}

// the member's own new key (rekey): kept in this browser's seat, the live log read with it from where it was
function rekeyed(key) {
  const seat = loadSeat(room.id);
  if (seat) saveSeat(room.id, { ...seat, key });
  room.key = key;
  const last = room.live ? room.live.last : room.table.version;
  if (room.live) room.live.stop();
  room.live = new Live(room.id, key, addStep, setStatus);
  room.live.start(last);
}

// a rule of play of the table's ruleset on the scene or a character (its arguments as JSON)
function buildRule() {
  const rule = el("input", { id: "table-rule", list: "table-rule-names", autocomplete: "off", spellcheck: "false", maxlength: "100" });
  const names = el("datalist", { id: "table-rule-names" });
  const target = el("select", { id: "table-rule-target" });
  const args = el("textarea", { id: "table-rule-args", rows: "2", spellcheck: "false" });
  args.value = "{}";
  const hint = el("p", { class: "hint", id: "table-rule-hint" });
  const box = errorBox();
  const form = el("form", { id: "table-rule-form", autocomplete: "off" },
    el("div", { class: "row" }, field(t("Rule"), rule, "grow"), field(t("On"), target)), names,
    field(t("Its arguments (JSON)"), args), hint,
    el("div", { class: "row" }, el("button", { type: "submit", class: "secondary", text: t("Apply the rule") })), box);
  rule.addEventListener("input", () => {
    const found = (parts.ruleList || []).find((r) => r.name === rule.value.trim());
    hint.textContent = found ? `${found.signature} — ${found.doc}` : "";
  });
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    let parsed;
    try { parsed = JSON.parse(args.value || "{}"); } catch (err) { showError(box, { message: fmt(t("not JSON: {reason}"), { reason: err.message }) }); return; }
    const body = { rule: rule.value.trim(), args: parsed };
    if (target.value) body.target = target.value;
    await act("rule", body, box);
  });
  Object.assign(parts, { ruleNames: names, ruleTarget: target });
  return el("details", { id: "table-rule-box" }, el("summary", { text: t("A rule of play") }), form);
}

async function loadRules(system) {
  parts.ruleList = [];
  parts.ruleNames.replaceChildren();
  try { parts.ruleList = await api(`/api/systems/${encodeURIComponent(system)}/rules`); } catch (err) { return; }
  for (const r of parts.ruleList) parts.ruleNames.append(el("option", { value: r.name }));
}

// "ffg: 2a1p vs 2d" rolls in another ruleset than the table's, as the check view reads it
function splitSystem(text) {
  const m = /^\s*([A-Za-z0-9_]+)\s*:([\s\S]*)$/.exec(text);
  if (m && Object.prototype.hasOwnProperty.call(engine.systems, m[1])) return [m[1], m[2].trim()];
  return [null, text];
}

// a step of the table by the member's key; the step answered joins the log at once (the stream's copy is
// then skipped); false when refused (the error shown in `box`)
async function act(what, body, box) {
  const where = box || parts.rollError;
  clearError(where);
  try {
    const answer = await api(`/tables/${encodeURIComponent(room.id)}/${what}`, body === undefined ? {} : body, { key: room.key });
    addStep(answer.step);
    return true;
  } catch (err) { showError(where, err); return false; }
}

// ---- the log

function renderStep(step) {
  const li = el("li", { class: `step step-${step.kind}`, "data-seq": String(step.seq) });
  if (step.secret) li.classList.add("secret");
  const head = el("div", { class: "step-head" }, el("span", { class: "step-seq", text: `#${step.seq}` }),
                  el("b", { class: "step-member", text: step.member }), " ",
                  el("span", { class: "step-what", text: describe(step) }),
                  el("time", { class: "step-time", datetime: step.time, text: timeOf(step) }));
  li.append(head);
  if ((step.kind === "roll" || step.kind === "reveal") && step.expression !== null) {
    const line = el("p", { class: "line" }, el("code", { class: "step-expression", text: step.expression }));
    if (step.system && room && step.system !== room.table.system) line.append(" ", el("span", { class: "muted", text: step.system }));
    if (step.secret) line.append(" ", el("span", { class: "badge secret-badge", text: t("secret") }));
    li.append(line, renderDice(step.dice, step.system), renderOutcome(step.outcome, step.odds), renderOdds(step.odds, step.outcome));
    // the service writes the text in the page's language (asked by api() and the live log: Accept-Language)
    if (step.text) li.append(el("p", { class: "step-text muted", text: step.text }));
  }
  if (step.kind === "roll" && step.sealed && room && room.role === "gm" && step.expression !== null) {
    li.append(el("p", { class: "line" }, button(t("Reveal to everyone"), () => act("reveal", { step: step.seq }), "secondary small reveal-secret")));
  }
  if (step.commitment && step.kind !== "roll") li.append(el("p", { class: "line muted" }, t("commitment "), el("code", { class: "wrap", text: step.commitment })));
  if (step.revealed) li.append(el("p", { class: "line muted" }, t("revealed seed "), el("code", { class: "wrap step-revealed", text: step.revealed })));
  if (step.kind === "rule") {
    if (step.check) {
      const use = button(t("Roll this check"), () => {
        parts.expression.value = step.check_system && step.check_system !== room.table.system ? `${step.check_system}: ${step.check}` : step.check;
        parts.expression.focus();
        parts.labelState();
      }, "secondary small");
      li.append(el("p", { class: "line" }, el("code", { text: step.check }), " ", use));
    } else if (step.result !== null && step.result !== undefined) {
      li.append(el("p", { class: "step-text muted", text: typeof step.result === "string" ? step.result : JSON.stringify(step.result) }));
    }
  }
  li.append(el("p", { class: "step-marks" }));
  return li;
}

// re-rolls and undos mark the steps they act on (the stream sends the steps, not their marks)
function remark() {
  const rerolled = {}, undone = {};
  for (const step of [...room.steps.values()].sort((x, y) => x.seq - y.seq)) {
    if (step.kind === "undo" && step.undoes) {
      undone[step.undoes] = step.seq;
      const target = room.steps.get(step.undoes);
      if (target && target.reroll_of) delete rerolled[target.reroll_of];
    } else if (step.reroll_of) rerolled[step.reroll_of] = step.seq;
  }
  for (const li of parts.log.children) {
    const seq = parseInt(li.dataset.seq, 10);
    li.classList.toggle("undone", seq in undone);
    li.classList.toggle("rerolled", seq in rerolled);
    const marks = [];
    if (seq in rerolled) marks.push(fmt(t("re-rolled at step {seq}"), { seq: rerolled[seq] }));
    if (seq in undone) marks.push(fmt(t("undone at step {seq}"), { seq: undone[seq] }));
    li.querySelector(".step-marks").textContent = marks.join(" · ");
  }
}

// a step joins the log once, in its place by number
function addStep(step) {
  if (!room || room.steps.has(step.seq)) return;
  room.steps.set(step.seq, step);
  const li = renderStep(step);
  let before = null;
  for (const other of parts.log.children) { if (parseInt(other.dataset.seq, 10) > step.seq) { before = other; break; } }
  const log = parts.log;
  const following = log.scrollHeight - log.scrollTop - log.clientHeight < 40;  // the reader was at the latest step
  log.insertBefore(li, before);
  if (following && !before) log.scrollTop = log.scrollHeight;
  if (step.seq > room.table.version) room.table.version = step.seq;
  if (step.after && step.seq >= room.playSeq) { room.table.play = step.after; room.playSeq = step.seq; renderPlay(); }
  if (step.kind === "join") { room.table.members[step.member] = { name: step.member, role: step.result === "gm" ? "gm" : "player" }; renderPlay(); }
  if (step.kind === "remove" || step.kind === "readmit") { memberStepSeen(room, step); renderPlay(); }
  remark();
  if (step.kind === "roll" || step.kind === "undo") refreshLuck();
  if (["seed", "end", "clientseed"].includes(step.kind)) { stepSeen(room, step); renderProvable(parts.provable, room); }
}


// "@hit": the roll saved at the table as hit (null: no such saved roll); undefined for any other expression
function savedRoll(text) {
  const name = text.trim();
  if (!name.startsWith("@")) return undefined;
  const saved = room.table.play.saved || {};
  return saved[`${room.name}/${name.slice(1)}`] || saved[name.slice(1)] || null;  // one's own first, as the table does
}

// the saved rolls, each a button that puts @name in the roll box
function renderSaved(play) {
  const mine = `${room.name}/`;
  const names = [...new Set(Object.keys(play.saved || {}).filter((k) => !k.includes("/") || k.startsWith(mine))
                                                        .map((k) => (k.startsWith(mine) ? k.slice(mine.length) : k)))];
  parts.saved.replaceChildren();
  if (!names.length) return;
  parts.saved.append(t("Saved rolls:") + " ");
  for (const name of names) {
    const saved = savedRoll("@" + name);
    const b = button("@" + name, () => { parts.expression.value = "@" + name; parts.labelState(); }, "secondary link");
    b.title = (saved.system ? saved.system + ": " : "") + saved.expression;
    parts.saved.append(b, " ");
  }
}

function renderPlay() {
  const table = room.table, play = table.play;
  const gm = room.role === "gm";
  const players = Object.values(table.members).filter((m) => m.role !== "gm").map((m) => m.name);
  parts.title.textContent = fmt(t("Table {id}"), { id: table.id });
  parts.who.textContent = fmt(gm ? t("{system} · you are {name}, the game master · players: {players}")
                                 : t("{system} · you are {name} · game master: {gms} · players: {players}"),
    { system: table.system, name: room.name, players: players.join(", ") || "-",
      gms: Object.values(table.members).filter((m) => m.role === "gm").map((m) => m.name).join(", ") });
  renderPools(parts, act, play);
  renderInitiative(parts, play);
  renderCharacters(parts, play);
  renderSaved(play);
  renderMembers(parts.members, room);
  // the game master's parts
  parts.share.hidden = !gm;
  parts.secretLabel.hidden = !gm;
  parts.undo.hidden = !gm;
  parts.orderForm.hidden = !gm;
  parts.poolForm.hidden = !gm;
  const owner = parts.charOwner, chosen = owner.value;
  owner.replaceChildren();
  if (gm) { owner.append(el("option", { value: "", text: t("the game master") })); for (const p of players) owner.append(el("option", { value: p, text: p })); }
  else owner.append(el("option", { value: room.name, text: room.name }));
  if ([...owner.options].some((o) => o.value === chosen)) owner.value = chosen;
  document.getElementById("table-character-add").hidden = !CHARACTERS[table.system];
  const target = parts.ruleTarget, aimed = target.value;
  target.replaceChildren(el("option", { value: "", text: t("the scene") }));
  for (const name of Object.keys(play.characters || {})) target.append(el("option", { value: name, text: name }));
  if ([...target.options].some((o) => o.value === aimed)) target.value = aimed;
  document.getElementById("table-rule-box").hidden = !CHARACTERS[table.system];
}


function refreshLuck() { refreshLuckOf(() => room, parts.luck); }

// ---- opening and closing a table

function closeRoom() {
  if (room && room.live) room.live.stop();
  room = null;
  if (parts.log) parts.log.replaceChildren();
}

function setStatus(kind) {
  const words = { live: t("live"), reconnecting: t("reconnecting…"), offline: t("offline: the log resumes when the network comes back"),
                  refused: t("this key no longer opens the table") };
  parts.status.textContent = words[kind] || kind;
  parts.status.dataset.state = kind;
  if (kind === "refused") parts.keyBox.open = true;  // a new key from the game master goes there
}

async function openTable(id) {
  const seat = loadSeat(id);
  if (!seat) {
    closeRoom();
    parts.joinId = id;
    parts.joinTitle.textContent = fmt(t("You are invited to the table {id}. Choose the name the others will see."), { id });
    reveal("invite");
    parts.joinName.focus();
    return;
  }
  if (room && room.id === id) { reveal("room"); return; }
  closeRoom();
  parts.roomId = id;
  parts.keyBox.open = false;
  let table;
  try { table = await api(`/tables/${encodeURIComponent(id)}`, undefined, { key: seat.key }); }
  catch (err) {
    reveal("room");
    if (err.status === 401) parts.keyBox.open = true;
    parts.log.replaceChildren();
    parts.title.textContent = fmt(t("Table {id}"), { id });
    showError(parts.rollError, err.status === 401 ? { message: t("this browser's key no longer opens the table") } : err);
    return;
  }
  const me = table.members[seat.name];
  room = { id, key: seat.key, name: seat.name, role: me ? me.role : "player", table, steps: new Map(), playSeq: table.version,
           firstCommitment: seat.commitment || (table.log.find((s) => s.kind === "seed") || {}).commitment };
  renderProvable(parts.provable, room);
  parts.shareInput.value = shareLink(id);
  parts.expression.value = (engine.systems[table.system] && engine.systems[table.system].examples[0]) || "";
  const [kind, state] = CHARACTERS[table.system] || [null, {}];
  parts.charState.value = kind ? JSON.stringify(state) : "";
  parts.labelState();
  loadRules(table.system);
  clearError(parts.rollError);
  renderPlay();
  reveal("room");
  for (const step of table.log) addStep(step);
  // the log read; the stream carries on after its last step
  room.live = new Live(id, seat.key, addStep, setStatus);
  room.live.start(table.version);
  refreshLuck();
}

function reveal(which) {
  parts.start.hidden = which !== "start";
  parts.invite.hidden = which !== "invite";
  parts.room.hidden = which !== "room";
}

function showRoute(rest) {
  const id = rest && rest[0];
  if (!id) { closeRoom(); renderSeats(parts); reveal("start"); return Promise.resolve(); }
  return openTable(id);
}

export async function mount(where, rest) {
  section = where;
  parts.start = buildStart(parts);
  parts.invite = buildJoin();
  parts.room = buildRoom();
  section.replaceChildren(parts.start, parts.invite, parts.room);
  await showRoute(rest);
}

export function show(rest) { return showRoute(rest); }

// the page's language changed: the open table read again, its rolls' texts written in the new one
export function relang() {
  if (!room) return;
  const id = room.id;
  closeRoom();
  openTable(id).catch((err) => console.warn(err.message));
}
