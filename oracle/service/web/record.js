// The game-record view: replay an uploaded GameRecord (ReplayGame), step through it hand by hand and action by
// action with each verdict, chart the running totals per side (inline SVG) and itemise each hand's score.

import { call } from "./api.js";
import { eventText, itemName, verdictElement } from "./answers.js";
import { richText } from "./cards.js";
import { fill, h, message } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";
const SIDE_COLOURS = ["#1f5fbf", "#c0392b", "#2e8b57"];

function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.append(c);
  return el;
}

/** The running totals per side after each hand, as a line chart (hand 0 is the start, all 0). */
export function totalsChart(hands) {
  const sides = hands.length ? hands[0].totals.length : 0;
  const series = [...Array(sides).keys()].map((s) => [0].concat(hands.map((hd) => hd.totals[s] || 0)));
  const all = series.flat();
  const lo = Math.min(0, ...all);
  const hi = Math.max(1, ...all);
  const [w, ht, left, bottom, top, right] = [640, 260, 56, 28, 12, 12];
  const x = (i) => left + (i * (w - left - right)) / Math.max(1, hands.length);
  const y = (v) => top + ((hi - v) * (ht - top - bottom)) / (hi - lo || 1);
  const chart = svg("svg", { viewBox: `0 0 ${w} ${ht}`, class: "chart", role: "img", "aria-labelledby": "chart-title" },
    svg("title", { id: "chart-title" }, `Running totals per side over ${hands.length} hands`));
  const step = 10 ** Math.floor(Math.log10(Math.max(1, hi - lo) / 2));
  const tick = (hi - lo) / step > 8 ? step * 2 : step;
  for (let v = Math.ceil(lo / tick) * tick; v <= hi; v += tick) {
    chart.append(svg("line", { x1: left, x2: w - right, y1: y(v), y2: y(v), class: v === 0 ? "axis" : "grid" }));
    const label = svg("text", { x: left - 6, y: y(v) + 4, "text-anchor": "end", class: "tick" });
    label.textContent = String(v);
    chart.append(label);
  }
  hands.forEach((_, i) => {
    const label = svg("text", { x: x(i + 1), y: ht - 8, "text-anchor": "middle", class: "tick" });
    label.textContent = String(i + 1);
    chart.append(label);
  });
  series.forEach((points, s) => {
    const colour = SIDE_COLOURS[s % SIDE_COLOURS.length];
    chart.append(svg("polyline", { points: points.map((v, i) => `${x(i)},${y(v)}`).join(" "), fill: "none", stroke: colour, "stroke-width": 2.5, class: `side-${s}` }));
    points.forEach((v, i) => chart.append(svg("circle", { cx: x(i), cy: y(v), r: 3.5, fill: colour })));
  });
  const legend = h("p", { class: "legend" }, series.map((points, s) => h("span", { class: "key" },
    h("span", { class: "swatch", style: `background:${SIDE_COLOURS[s % SIDE_COLOURS.length]}` }), `Side ${s}: ${points[points.length - 1]}`)));
  return h("figure", {}, chart, h("figcaption", {}, "Running totals per side after each hand"), legend);
}

/** A side's score lines summed by item, in the order first seen: [[item, points, lines]]. */
function byItem(lines) {
  const sums = new Map();
  for (const l of lines) {
    const [points, n] = sums.get(l.item) || [0, 0];
    sums.set(l.item, [points + (l.points || 0), n + 1]);
  }
  return [...sums].map(([item, [points, n]]) => [item, points, n]);
}

/** Each hand's itemised score per side; `alone` maps a hand to the seat that played it alone (sides formed). */
export function scoresTable(hands, alone = new Map()) {
  const sides = hands.length ? hands[0].scores.length : 0;
  return h("table", { class: "hand-scores" },
    h("caption", {}, "Each hand's score, item by item"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Hand"), [...Array(sides).keys()].map((s) => h("th", { scope: "col" }, `Side ${s}`)))),
    h("tbody", {}, hands.map((hd, i) => h("tr", {},
      h("th", { scope: "row" }, `${i + 1}`, h("br"), h("small", {}, String(hd.end || "").replace("HAND_END_", "").toLowerCase().replace(/_/g, " ")),
        alone.has(hd.hand || 0) ? [h("br"), h("small", { class: "alone" }, `seat ${alone.get(hd.hand || 0)} alone`)] : null),
      hd.scores.map((s, j) => h("td", {},
        h("ul", { class: "lines" }, byItem(s.lines || []).map(([item, points, n]) => h("li", {}, `${itemName(item)}${n > 1 ? ` (${n})` : ""}: ${points}`))),
        h("p", { class: "total" }, `Hand ${s.total || 0} \u00b7 total ${hd.totals[j] || 0}`)))))));
}

function summary(report) {
  const parts = [];
  if (report.ok) parts.push(message("ok", `Every action is legal and every claimed score matches (${report.actionsJudged || 0} actions judged).`));
  if (report.firstIllegal) {
    const a = report.firstIllegal;
    parts.push(message("error", `The first illegal action: hand ${(a.hand || 0) + 1}, action ${(a.index || 0) + 1} (seat ${a.seat || 0}): `, richText(a.notation || "")));
  }
  for (const m of report.mismatches || []) {
    parts.push(message("error", `Hand ${(m.hand || 0) + 1}, side ${m.side || 0}: the claimed ${m.what} ${m.claimed || 0} is not the computed ${m.computed || 0}.`));
  }
  for (const p of report.problems || []) parts.push(message("error", p));
  if (report.gameOver) parts.push(h("p", {}, `The game is over: side ${report.winner ?? "?"} wins.`));
  return parts;
}

/** Render the replay report with its stepper into `root`. */
export function renderReport(root, report) {
  const hands = (report.hands || []).map((hd) => ({ ...hd, scores: hd.scores || [], totals: hd.totals || [] }));
  const actions = report.actions || [];
  const byHand = new Map();
  for (const a of actions) {
    const k = a.hand || 0;
    if (!byHand.has(k)) byHand.set(k, []);
    byHand.get(k).push(a);
  }
  const handNumbers = [...byHand.keys()].sort((a, b) => a - b);
  const alone = new Map(actions.flatMap((a) => (a.events || []).filter((e) => e.sidesFormed).map((e) => [a.hand || 0, e.sidesFormed.loneSeat || 0])));
  let hand = handNumbers[0] ?? 0;
  let index = 0;
  const handSelect = h("select", { id: "step-hand" }, handNumbers.map((n) => h("option", { value: n }, `Hand ${n + 1} (${byHand.get(n).length} actions)`)));
  const detail = h("div", { id: "step-detail", class: "step-detail", "aria-live": "polite" });
  const list = h("ol", { id: "step-list", class: "step-list", tabindex: "0", "aria-label": "Actions of this hand; arrow keys step" });
  const position = h("span", { id: "step-position" });
  const show = () => {
    const list_ = byHand.get(hand) || [];
    index = Math.max(0, Math.min(index, list_.length - 1));
    fill(list, list_.map((a, k) => h("li", { class: `${a.legal ? "" : "bad"} ${k === index ? "current" : ""}`, "aria-current": k === index ? "step" : null, onclick: () => { index = k; show(); } },
      `seat ${a.seat || 0}: `, richText(a.notation || ""), a.legal ? "" : " \u2716", a.uncertain ? " (uncertain)" : "")));
    const a = list_[index];
    fill(position, list_.length ? `Action ${index + 1} of ${list_.length}` : "No actions");
    if (!a) return fill(detail);
    fill(detail, h("h4", {}, `Hand ${hand + 1}, action ${index + 1}: seat ${a.seat || 0}`), h("p", { class: "notation" }, richText(a.notation || "")),
      verdictElement({ legal: a.legal, violations: a.violations, events: a.events }),
    );
    const current = list.querySelector(".current");
    if (current && current.scrollIntoView) current.scrollIntoView({ block: "nearest" });
  };
  handSelect.addEventListener("change", () => { hand = Number(handSelect.value); index = 0; show(); });
  const prev = h("button", { type: "button", id: "step-prev", onclick: () => { index -= 1; show(); } }, "\u2190 Previous action");
  const next = h("button", { type: "button", id: "step-next", onclick: () => { index += 1; show(); } }, "Next action \u2192");
  list.addEventListener("keydown", (e) => {
    if (e.key === "ArrowDown" || e.key === "ArrowRight") { index += 1; show(); e.preventDefault(); }
    if (e.key === "ArrowUp" || e.key === "ArrowLeft") { index -= 1; show(); e.preventDefault(); }
  });
  fill(root, summary(report), disagreements(report),
    hands.length ? totalsChart(hands) : null,
    hands.length ? scoresTable(hands, alone) : null,
    h("section", { class: "stepper", "aria-labelledby": "stepper-title" }, h("h3", { id: "stepper-title" }, "Step through the game"),
      h("div", { class: "row" }, h("label", { for: "step-hand" }, "Hand "), handSelect, prev, position, next),
      h("div", { class: "step-layout" }, list, detail)));
  show();
}

function disagreements(report) {
  const list = report.disagreements || [];
  if (!list.length) return null;
  return h("section", { class: "disagreements", "aria-labelledby": "disagreements-title" },
    h("h3", { id: "disagreements-title" }, `Where the record and the referee disagree (${list.length})`),
    h("ul", {}, list.map((d) => h("li", {},
      `Hand ${(d.hand || 0) + 1}${(d.index ?? -1) >= 0 ? `, action ${(d.index || 0) + 1}` : ""}, ${d.kind}: `,
      d.field ? [richText(d.field), " \u2014 "] : "",
      `the record says ${d.claimed || "?"}, the referee ${d.computed || "?"}`, d.uncertain ? " (uncertain)" : "",
      (d.violations || []).length ? h("ul", {}, d.violations.map((v) => h("li", {}, richText(v.explanation), " ", h("code", {}, v.code)))) : null))));
}

/** Read the chosen file, replay it (under `ruleSet`, a RuleSetRef, when given) and render the report; bad files
 * get a message saying what is wrong. */
export async function openRecord(file, root, ruleSet = null, judgeAll = false) {
  fill(root, message("info", `Replaying ${file.name}\u2026`));
  let record;
  try {
    record = JSON.parse(await file.text());
  } catch (e) {
    fill(root, message("error", `${file.name} is not JSON: ${e.message}`));
    return;
  }
  if (typeof record !== "object" || record === null || Array.isArray(record) || !Array.isArray(record.hands)) {
    fill(root, message("error", `${file.name} is not a game record: a record is a JSON object with "ruleSetId", "firstDealer" and "hands".`));
    return;
  }
  try {
    const request = { record, judgeAll };
    if (ruleSet) request.ruleSet = ruleSet;
    const answer = await call("ReplayGame", request);
    renderReport(root, answer.report || {});
  } catch (e) {
    if (e.code === "unauthenticated") {
      fill(root, message("error", e.message));
      return;
    }
    const problems = (e.problems || []).map((p) => h("li", {}, h("code", {}, p.field), ": ", p.description));
    fill(root, message("error", `The record cannot be replayed: ${e.message}`, problems.length ? h("ul", {}, problems) : null));
  }
}

export { eventText };
