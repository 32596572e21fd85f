// The dispute desk: wires the rule books, the position form, the card picker, the questions, the answers, the
// shareable link (the whole page state in the URL fragment) and the game-record view.

import { adjudication, minimumElement, movesElement, scoreElement, sideBySide } from "./answers.js";
import { OracleError, call, savedToken, setToken } from "./api.js";
import { parseAction, richText } from "./cards.js";
import { fill, h, message } from "./dom.js";
import {
  PositionError, buildState, buildTable, describePath, emptyPosition, fitPosition, renderPileStatus, renderPosition,
} from "./position.js";
import { decode, encode } from "./link.js";
import { picker } from "./picker.js";
import { openRecord } from "./record.js";
import { TextprotoError, parseTextproto } from "./textproto.js";

const $ = (id) => document.getElementById(id);
const page = { summaries: [], resolved: new Map(), house: null, pos: null, target: { id: "hand-0" } };

function selectedIds() {
  return [...document.querySelectorAll("#books input:checked")].map((el) => el.value);
}

const kind = () => document.querySelector("input[name=kind]:checked").value;

/** The resolved rule set of an id (GetRuleSet, cached). */
async function resolve(id) {
  if (!page.resolved.has(id)) page.resolved.set(id, (await call("GetRuleSet", { ruleSet: { id } })).ruleSet);
  return page.resolved.get(id);
}

/** The rule books of the question: [{id, ref, ruleSet}], the house rule last; throws OracleError on a bad one. */
async function books() {
  const out = [];
  for (const id of selectedIds()) out.push({ id, ref: { id }, ruleSet: await resolve(id) });
  if ($("use-house").checked) {
    const house = await houseRule();
    out.push(house);
  }
  return out;
}

/** Parse and resolve the pasted house rule; its problems are shown in its box. */
async function houseRule() {
  const box = $("house-result");
  let inline;
  try {
    inline = parseTextproto($("house").value);
  } catch (e) {
    if (!(e instanceof TextprotoError)) throw e;
    fill(box, message("error", `House rule: ${e.message}`));
    throw new OracleError("house_rule", `The house rule is not in the text format: ${e.message}`, []);
  }
  try {
    const ruleSet = (await call("GetRuleSet", { ruleSet: { inline } })).ruleSet;
    fill(box, message("ok", `House rule '${ruleSet.id}' is valid: ${ruleSet.title}`));
    return { id: ruleSet.id || "house rule", ref: { inline }, ruleSet };
  } catch (e) {
    fill(box, message("error", e.problems.length ? "The house rule is refused:" : `The house rule is refused: ${e.message}`, problemList(e.problems)));
    throw e;
  }
}

function problemList(problems) {
  if (!problems || !problems.length) return null;
  return h("ul", { class: "problems" }, problems.map((p) => h("li", {}, h("code", {}, p.field), ": ", richText(p.description))));
}

/** The rule set whose table (seats, sides, deck) the position is laid out on: the first chosen; and its ref. */
async function tableRuleSet() {
  const ids = selectedIds();
  if (ids.length) return { ruleSet: await resolve(ids[0]), ref: { id: ids[0] } };
  if ($("use-house").checked && $("house").value.trim()) {
    const house = await houseRule();
    return { ruleSet: house.ruleSet, ref: house.ref };
  }
  return null;
}

async function relayout() {
  page.layouts = (page.layouts || 0) + 1;
  const mine = page.layouts;
  const table = await tableRuleSet();
  if (mine !== page.layouts) return; // a later change is being laid out
  if (!table) {
    fill($("table-of"), "Choose at least one rule book.");
    return;
  }
  const { ruleSet } = table;
  const { seats, sideSize } = ruleSet.players;
  const sides = seats / sideSize;
  const loneHand = ruleSet.players.sideFormation === "SIDE_FORMATION_LONE_HAND";
  const formed = loneHand ? " The first player to take the pile plays alone, the other two as partners." : "";
  const footSize = (ruleSet.foot && ruleSet.foot.size) || 0; // foot.size: a second set of cards per player
  const gameHands = (ruleSet.game && ruleSet.game.hands) || 0; // game.hands: a game of a fixed number of hands
  const foot = footSize ? ` Each player also has a foot of ${footSize} cards, face down until taken up.` : "";
  const length = gameHands ? ` A game is ${gameHands} hands.` : "";
  fill($("table-of"), `The table: ${seats} seats in ${sides} sides (from ${ruleSet.id}).${formed}${foot}${length}`);
  const reshaped = !page.pos || page.pos.hands.length !== seats || page.pos.sides.length !== sides;
  if (reshaped || Boolean(page.pos.loneHand) !== loneHand || (page.pos.footSize || 0) !== footSize || (page.pos.gameHands || 0) !== gameHands) {
    page.pos = page.pos ? fitPosition(page.pos, seats, sides) : emptyPosition(seats, sides);
    page.pos.loneHand = loneHand;
    page.pos.footSize = footSize;
    page.pos.gameHands = gameHands;
    if (!loneHand) page.pos.lone = "";
    drawPosition();
  } else pileStatus();
  document.body.dataset.table = ruleSet.id;
}

function drawPosition() {
  renderPosition($("position"), page.pos, (pos, structural) => {
    if (structural) drawPosition();
    else pileStatus();
  });
  pileStatus();
}

async function pileStatus() {
  const ids = selectedIds();
  const resolved = [];
  for (const id of ids) resolved.push({ id, ruleSet: await resolve(id) });
  renderPileStatus(page.pos, resolved);
}

/** Mark the form inputs the problems name, and list the problems by field. */
function showProblems(root, intro, problems) {
  document.querySelectorAll(".field-problem").forEach((el) => el.remove());
  document.querySelectorAll("[aria-invalid=true].server").forEach((el) => el.removeAttribute("aria-invalid"));
  const items = problems.map((p) => {
    const where = describePath(p.field, page.pos);
    const input = where.input && $(where.input);
    if (input) {
      input.setAttribute("aria-invalid", "true");
      input.classList.add("server");
      input.closest(".field").append(h("p", { class: "field-problem" }, richText(p.description)));
    }
    return h("li", {}, h("strong", {}, where.label), ": ", richText(p.description), " ", h("code", { class: "path" }, p.field));
  });
  fill(root, message("error", intro, h("ul", { class: "problems" }, items)));
}

function clearProblems() {
  document.querySelectorAll(".field-problem").forEach((el) => el.remove());
}

/** The state of the position under the table rule set, or null after showing what is wrong with the form. */
async function stateOrExplain(root) {
  clearProblems();
  const table = await tableRuleSet();
  if (!table) {
    fill(root, message("error", "Choose at least one rule book (or a house rule)."));
    return null;
  }
  try {
    return { state: buildState(page.pos, table.ruleSet), ref: table.ref };
  } catch (e) {
    if (!(e instanceof PositionError)) throw e;
    const input = e.field && $(e.field);
    if (input) input.setAttribute("aria-invalid", "true");
    const label = input ? document.querySelector(`label[for=${e.field}]`).textContent : "The position";
    fill(root, message("error", `${label}: ${e.message}`));
    if (input) input.focus();
    return null;
  }
}

/** ValidateState under the table rule set; shows the problems by field; true when the position can be judged. */
async function validate(root) {
  const built = await stateOrExplain(root);
  if (!built) return false;
  const answer = await call("ValidateState", { ruleSet: built.ref, state: built.state });
  if (answer.valid) {
    fill($("position-result"), message("ok", "The position is possible."));
    return true;
  }
  showProblems(root, "This position is impossible:", answer.problems || []);
  return false;
}

async function ask() {
  const root = $("answer");
  fill(root, message("info", "Asking the referee\u2026"));
  fill($("position-result"));
  share(false);
  try {
    const list = await books();
    if (!list.length) {
      fill(root, message("error", "Choose at least one rule book (or a house rule)."));
      return;
    }
    const seats = page.pos.hands.length;
    const fits = (b) => b.ruleSet.players.seats === seats;
    const notFit = (b) => ({ id: b.id, body: h("p", { class: "na" }, `Not applicable: ${b.ruleSet.players.seats} seats, the position has ${seats}.`) });
    const question = kind();
    if (question === "minimum") {
      const side = page.pos.seatToMove % page.pos.sides.length;
      const total = Number(page.pos.sides[side].total) || 0;
      const hand = Number(page.pos.handNumber) || 1;
      const results = await Promise.all(list.map(async (b) => ({ id: b.id, body: minimumElement(await call("GetMinimumInitialMeld", { ruleSet: b.ref, runningTotal: total, handNumber: hand }), total, b.ruleSet, hand) })));
      fill(root, h("p", {}, `Your side's minimum initial meld:`), sideBySide(results));
      return;
    }
    if (question === "score") {
      const table = buildTable(page.pos);
      const results = await Promise.all(list.map(async (b) => (fits(b) ? { id: b.id, body: scoreElement(await call("ScoreHand", { ruleSet: b.ref, table }), table.sideOfSeat) } : notFit(b))));
      fill(root, h("p", {}, "The hand's score, as the table stands (the typed hands are the cards left):"), sideBySide(results));
      return;
    }
    let action = null;
    if (question === "check") {
      try {
        action = parseAction($("action").value);
      } catch (e) {
        $("action").setAttribute("aria-invalid", "true");
        fill(root, message("error", `The action: ${e.message}`));
        $("action").focus();
        return;
      }
    }
    if (!(await validate(root))) return;
    const { state } = await stateOrExplain(root);
    if (question === "check") {
      const answer = await call("Adjudicate", { state, action, ruleSets: list.map((b) => b.ref) });
      fill(root, adjudication(answer, $("action").value.trim(), state));
      return;
    }
    const max = Number($("max-actions").value || "0");
    if (!Number.isInteger(max) || max < 0) {
      fill(root, message("error", `At most this many moves: '${$("max-actions").value}' is not a whole number`));
      return;
    }
    const pick = (text) => {
      $("action").value = text;
      document.querySelector("input[name=kind][value=check]").checked = true;
      questionKind();
      $("action").dispatchEvent(new Event("input"));
      $("action").focus();
    };
    const results = await Promise.all(list.map(async (b) => (fits(b) ? { id: b.id, body: movesElement(await call("ListLegalActions", { ruleSet: b.ref, state, maxActions: max }), pick) } : notFit(b))));
    fill(root, sideBySide(results));
  } catch (e) {
    if (!(e instanceof OracleError)) throw e;
    const onTheTable = e.problems.length && e.problems.every((p) => /^(state|table)(\.|$)/.test(p.field));
    if (e.code === "failed_precondition" && e.problems.length) showProblems(root, "This position is impossible:", e.problems);
    else if (onTheTable) showProblems(root, `The referee refused the question (${e.code}):`, e.problems);
    else if (e.code === "unauthenticated") fill(root, tokenMessage(e));
    else if (e.code === "house_rule" || e.code === "unavailable") fill(root, message("error", e.message));
    else if (e.problems.length) fill(root, message("error", `The referee refused the question (${e.code}):`, problemList(e.problems)));
    else fill(root, message("error", `The referee refused the question (${e.code}): ${e.message}`));
  } finally {
    share(false);
  }
}

function snapshot() {
  return {
    v: 1, books: selectedIds(), house: $("house").value, useHouse: $("use-house").checked, pos: page.pos,
    q: { kind: kind(), action: $("action").value, max: $("max-actions").value },
  };
}

function share(show) {
  const url = `${location.origin}${location.pathname}#s=${encode(snapshot())}`;
  history.replaceState(null, "", url);
  $("share-url").value = url;
  if (show) {
    $("share-field").hidden = false;
    $("share-url").select();
    if (navigator.clipboard) navigator.clipboard.writeText(url).catch(() => {});
  }
}

async function restore(fragment) {
  let s;
  try {
    s = decode(fragment);
  } catch (e) {
    fill($("status"), message("error", `This link is damaged and cannot be opened (${e.message}).`));
    return false;
  }
  document.querySelectorAll("#books input").forEach((el) => { el.checked = (s.books || []).includes(el.value); });
  const unknown = (s.books || []).filter((id) => !page.summaries.some((r) => r.id === id));
  if (unknown.length) fill($("status"), message("error", `This link names rule books this server does not know: ${unknown.join(", ")}`));
  $("house").value = s.house || "";
  $("use-house").checked = Boolean(s.useHouse);
  if (s.useHouse) $("house-box").open = true;
  page.pos = s.pos || null;
  const q = s.q || {};
  const radio = document.querySelector(`input[name=kind][value=${q.kind || "check"}]`);
  if (radio) radio.checked = true;
  $("action").value = q.action || "";
  $("max-actions").value = q.max || "50";
  return true;
}

function questionKind() {
  const k = kind();
  $("action-field").hidden = k !== "check";
  $("max-field").hidden = k !== "moves";
}

function actionPreview() {
  const text = $("action").value;
  const preview = $("action-preview");
  $("action").removeAttribute("aria-invalid");
  try {
    if (text.trim()) parseAction(text);
    fill(preview, richText(text));
  } catch (e) {
    fill(preview, h("span", { class: "field-error" }, e.message));
  }
}

function tabs() {
  const views = { dispute: $("view-dispute"), record: $("view-record") };
  for (const name of Object.keys(views)) {
    $(`tab-${name}`).addEventListener("click", () => {
      for (const [other, view] of Object.entries(views)) {
        view.hidden = other !== name;
        $(`tab-${other}`).setAttribute("aria-pressed", String(other === name));
      }
    });
  }
}

/** The error message of a refused token, with a button to the token field. */
function tokenMessage(e) {
  return message("error", e.message, " ", h("button", { type: "button", class: "link", onclick: focusToken }, "Enter the token"));
}

function focusToken() {
  $("access-box").open = true;
  $("token").focus();
}

function accessState() {
  fill($("access-state"), savedToken() ? "(a token is set)" : "");
}

/** Use the typed token: check it with a call, then finish starting the page if it could not start without it. */
async function useToken() {
  const text = $("token").value.trim();
  if (text && !/^[!-~]+$/.test(text)) {
    $("token").setAttribute("aria-invalid", "true");
    fill($("token-result"), message("error", "A token is printable ASCII without spaces: check what was pasted."));
    return;
  }
  setToken(text);
  accessState();
  try {
    await call("ListRuleSets", {});
  } catch (e) {
    if (!(e instanceof OracleError)) throw e;
    if (e.code !== "unauthenticated") fill($("token-result"), message("error", `${e.code}: ${e.message}`));
    else if (!page.booted) fill($("status"), tokenMessage(e));
    return;
  }
  $("token").removeAttribute("aria-invalid");
  fill($("token-result"), message("ok", text ? "The server accepts this token." : "No token: the server answers without one."));
  if (!page.booted) await boot();
}

function accessWiring() {
  $("token").value = savedToken();
  accessState();
  $("token-use").addEventListener("click", () => useToken().catch(reportFailure));
  $("token").addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      useToken().catch(reportFailure);
    }
  });
  $("token-forget").addEventListener("click", () => {
    $("token").value = "";
    setToken("");
    accessState();
    fill($("token-result"), message("info", "The token is forgotten."));
  });
  window.addEventListener("oracle-unauthenticated", (ev) => {
    $("access-box").open = true;
    $("token").setAttribute("aria-invalid", "true");
    fill($("token-result"), message("error", `The server refused the page's call: ${ev.detail.reason}.`));
  });
}

async function start() {
  accessWiring();
  tabs();
  picker(page.target);
  questionKind();
  document.querySelectorAll("input[name=kind]").forEach((el) => el.addEventListener("change", questionKind));
  $("action").addEventListener("input", actionPreview);
  $("dispute-form").addEventListener("submit", (e) => { e.preventDefault(); ask(); });
  $("share").addEventListener("click", () => share(true));
  $("validate").addEventListener("click", () => validate($("position-result")).catch(reportFailure));
  $("use-house").addEventListener("change", () => relayout().catch(reportFailure));
  $("house").addEventListener("change", () => { if ($("use-house").checked) relayout().catch(reportFailure); });
  const replay = () => {
    const file = $("record-file").files[0];
    if (!file) return;
    const choice = $("record-rules").value;
    let ref = null;
    if (choice === "house") {
      try {
        ref = { inline: parseTextproto($("house").value) };
      } catch (e) {
        fill($("record-result"), message("error", `The house rule (on the Dispute tab): ${e.message}`));
        return;
      }
    } else if (choice) ref = { id: choice };
    openRecord(file, $("record-result"), ref, $("record-judge-all").checked);
  };
  for (const id of ["record-file", "record-rules", "record-judge-all"]) $(id).addEventListener("change", replay);
  await boot();
  document.body.dataset.ready = "true";
}

/** List the rule books, restore a shared link and lay out the table; again after a token, if it failed for want of one. */
async function boot() {
  if (page.booting) return page.booting;
  page.booting = bootOnce().finally(() => { page.booting = null; });
  return page.booting;
}

async function bootOnce() {
  try {
    page.summaries = (await call("ListRuleSets", {})).ruleSets || [];
  } catch (e) {
    if (!(e instanceof OracleError)) throw e;
    if (e.code === "unauthenticated") fill($("status"), tokenMessage(e));
    else fill($("status"), message("error", `The rule books cannot be listed: ${e.message}`));
    return;
  }
  fill($("status"));
  page.booted = true;
  fill($("books"), page.summaries.map((r) => h("div", { class: "book" },
    h("input", { type: "checkbox", id: `book-${r.id}`, value: r.id, checked: r.id === "classic-2p" }),
    h("label", { for: `book-${r.id}` }, h("strong", {}, r.id), ` \u2014 ${r.title} `, h("small", {}, `(${r.seats} seats${r.extends ? `; from ${r.extends}` : ""})`)))));
  $("books").addEventListener("change", () => relayout().catch(reportFailure));
  $("record-rules").append(...page.summaries.map((r) => h("option", { value: r.id }, r.id)),
    h("option", { value: "house" }, "the house rule (on the Dispute tab)"));
  const fragment = /^#s=(.+)$/.exec(location.hash);
  const restored = fragment ? await restore(fragment[1]) : false;
  await relayout();
  if (!page.pos) page.pos = emptyPosition(2, 2);
  drawPosition();
  questionKind();
  actionPreview();
  document.body.dataset.books = "listed";
  if (restored) await ask();
}

function reportFailure(e) {
  fill($("status"), message("error", e instanceof OracleError ? `${e.code}: ${e.message}` : String(e)));
}

start().catch(reportFailure);
