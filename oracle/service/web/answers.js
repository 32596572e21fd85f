// The referee's answers drawn side by side, one column per rule book: verdicts with each violation's plain
// explanation, its citations and field; the deciding fields; scores item by item; minimums; legal moves.

import { cardsElement, formatAction, richText, tokenOf } from "./cards.js";
import { h } from "./dom.js";
import { seatNote } from "./sides.js";

const ITEM_NAMES = {
  SCORE_ITEM_MELDED_CARDS: "Melded cards",
  SCORE_ITEM_NATURAL_CANASTA: "Natural canastas",
  SCORE_ITEM_MIXED_CANASTA: "Mixed canastas",
  SCORE_ITEM_RED_THREES: "Red threes",
  SCORE_ITEM_ALL_RED_THREES: "All four red threes",
  SCORE_ITEM_RED_THREES_WITHOUT_MELD: "Red threes without a meld",
  SCORE_ITEM_ALL_RED_THREES_WITHOUT_MELD: "All red threes without a meld",
  SCORE_ITEM_GOING_OUT: "Going out",
  SCORE_ITEM_GOING_OUT_CONCEALED: "Going out concealed",
  SCORE_ITEM_CARDS_IN_HAND: "Cards left in hand",
  SCORE_ITEM_CANNOT_GO_OUT_AFTER_YES: "Could not go out after the partner's yes",
  SCORE_ITEM_WILD_CANASTA: "Wild-card canastas",
  SCORE_ITEM_UNFINISHED_MELD: "Unfinished melds",
  SCORE_ITEM_HELD_RANK: "Ranks held in hand",
  SCORE_ITEM_THREES_BY_COUNT: "Threes by count",
  SCORE_ITEM_RUN_CANASTA: "Run canastas (sambas)",
};

/** The plain name of a score item. */
export const itemName = (item) => ITEM_NAMES[item] || String(item);

/** Citations as "2P-RULES, section The deal". */
export function citations(cites) {
  if (!cites || !cites.length) return null;
  return h("ul", { class: "cites" }, cites.map((c) => h("li", {}, h("cite", {}, c.source), c.section ? ` \u00a7 ${c.section}` : "")));
}

function violationItem(v) {
  return h("li", { class: "violation" },
    h("p", { class: "explanation" }, richText(v.explanation)),
    h("p", { class: "meta" }, h("code", { class: "code" }, v.code), " \u00b7 rule-set field ", h("code", {}, v.field)),
    citations(v.cite));
}

/** What happened when a legal action was applied, in words. */
export function eventText(e) {
  if (e.cardsDrawn) return ["Seat ", e.cardsDrawn.seat || 0, " drew ", cardsElement(e.cardsDrawn.cards || [])];
  if (e.redThreeLaid) return ["Seat ", e.redThreeLaid.seat || 0, ` laid the ${/^CARD_3[CS]$/.test(e.redThreeLaid.card) ? "black" : "red"} three `, cardsElement([e.redThreeLaid.card]), e.redThreeLaid.replaced ? " and drew a replacement" : ""];
  if (e.pileTaken) return ["Seat ", e.pileTaken.seat || 0, " took the pile: ", cardsElement([e.pileTaken.top]), " melded, ", (e.pileTaken.toHand || []).length, " cards to the hand"];
  if (e.sidesFormed) {
    const f = e.sidesFormed;
    const partners = f.partners || [];
    const melds = (f.melds || []).map((m, k) => [k ? ", " : "", cardsElement(m.cards || [])]);
    return ["Sides formed: seat ", f.loneSeat || 0, " plays alone; seats ", partners.join(" and "), " are partners",
      melds.length ? ["; their melds together: ", melds] : " (neither has melded yet)"];
  }
  if (e.canastaMade) return ["Side ", e.canastaMade.side || 0, e.canastaMade.natural ? " has a natural canasta: " : " has a mixed canasta: ", cardsElement(e.canastaMade.cards || [])];
  if (e.handEnded) {
    const formed = (e.handEnded.table || {}).sideOfSeat || [];
    const totals = (e.handEnded.scores || []).map((s, i) => `side ${i}${seatNote(formed, i)}: ${s.total || 0}`).join(", ");
    const concealed = ((e.handEnded.table || {}).sides || []).some((s) => s.wentOut === "WENT_OUT_CONCEALED");
    const why = String(e.handEnded.reason || "").replace("HAND_END_", "").toLowerCase().replace(/_/g, " ");
    return ["The hand ended (", why, concealed ? " concealed" : "", "): ", totals];
  }
  return [JSON.stringify(e)];
}

/** Under foot.size: the seats whose foot the action took up (a foot in `before` that `after` no longer has), in
 * words: played on at once after melding the hand out, or from the next turn after the last discard. */
export function feetTakenUp(before, after) {
  if (!before || !after) return [];
  return (before.seats || []).flatMap((seat, i) => {
    const was = (seat.foot || []).length;
    if (!was || ((after.seats || [])[i]?.foot || []).length) return [];
    const goesOn = (after.seatToMove || 0) === i && after.phase === "PHASE_PLAY";
    const when = after.phase === "PHASE_HAND_OVER"
      ? "the hand ended with that discard, so it counts as cards held"
      : goesOn ? "plays on from it this turn" : "plays it from the next turn";
    return [["Seat ", i, ` took up the foot (${was} cards): `, when]];
  });
}

/** A verdict (CheckActionResponse JSON): legal or not, the violations, the events (and, given the state asked
 * about, the feet taken up). */
export function verdictElement(verdict, state = null) {
  const legal = Boolean(verdict.legal);
  const lines = legal ? [...(verdict.events || []).map(eventText), ...feetTakenUp(state, verdict.nextState)] : [];
  return h("div", { class: "verdict" },
    h("p", { class: `badge ${legal ? "legal" : "illegal"}` }, legal ? "Legal" : "Illegal"),
    legal ? null : h("ul", { class: "violations" }, (verdict.violations || []).map(violationItem)),
    lines.length ? h("ul", { class: "events" }, lines.map((line) => h("li", {}, line))) : null);
}

/** An Adjudicate answer: one column per rule book and the fields that make the difference. */
export function adjudication(answer, actionText, state = null) {
  const verdicts = answer.verdicts || [];
  const columns = verdicts.map((v) => h("article", { class: "column", "data-rule-set": (v.ruleSetId || "house rule") },
    h("h3", {}, (v.ruleSetId || "house rule")),
    v.applicable ? verdictElement(v.verdict || {}, state) : h("p", { class: "na" }, "Not applicable: ", v.notApplicable)));
  const deciding = answer.decidingFields || [];
  return h("div", {},
    h("p", {}, "Action: ", richText(actionText)),
    h("div", { class: "columns" }, columns),
    deciding.length
      ? h("div", { class: "deciding" }, h("h3", {}, "Where the rule books differ"),
        h("div", { class: "table-wrap" }, h("table", {}, h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Rule-set field"), verdicts.map((v) => h("th", { scope: "col" }, (v.ruleSetId || "house rule"))))),
          h("tbody", {}, deciding.map((d) => h("tr", {}, h("th", { scope: "row" }, h("code", {}, d.field)), (d.values || []).map((x) => h("td", {}, x))))))))
      : h("p", { class: "agree" }, verdicts.filter((v) => v.applicable).length > 1 ? "The rule books that apply agree." : ""));
}

/** One column per rule book from per-book results: [{id, body: Node}]. */
export function sideBySide(results) {
  return h("div", { class: "columns" }, results.map((r) => h("article", { class: "column", "data-rule-set": r.id }, h("h3", {}, r.id), r.body)));
}

/** A ScoreHand answer: per side, the items and the total; `sideOfSeat` (the table's) names the seats of each. */
export function scoreElement(answer, sideOfSeat = []) {
  return h("div", { class: "scores" }, (answer.sides || []).map((s, i) => h("table", { class: "score" },
    h("caption", {}, `Side ${i}${seatNote(sideOfSeat, i)}`),
    h("tbody", {}, (s.lines || []).map((l) => h("tr", {},
      h("th", { scope: "row" }, itemName(l.item), l.detail ? h("small", {}, " ", richText(l.detail)) : null),
      h("td", { class: "num" }, l.points || 0)))),
    h("tfoot", {}, h("tr", {}, h("th", { scope: "row" }, "Total"), h("td", { class: "num total" }, s.total || 0))))));
}

/** A GetMinimumInitialMeld answer: by the hand's number where it says which hand's entry applied (byHand), else by
 * the running total `total`. */
export function minimumElement(answer, total, ruleSet, hand) {
  if (answer.byHand !== undefined) { // initial_meld.minimum_by_hand: the last entry holds for every later hand
    const byHand = (ruleSet && ruleSet.initialMeld && ruleSet.initialMeld.minimumByHand) || [];
    const table = byHand.length ? ` (initial_meld.minimum_by_hand: ${byHand.join(", ")})` : " (initial_meld.minimum_by_hand)";
    return h("div", {}, h("p", { class: "big" }, answer.minimum || 0, " points"),
      h("p", { class: "help" }, `in hand ${hand} of the game${table}`));
  }
  const row = answer.fromScore === undefined ? "below the table's first row" : `the row from ${answer.fromScore}`;
  return h("div", {}, h("p", { class: "big" }, answer.minimum || 0, " points"),
    h("p", { class: "help" }, `for a side with ${total} points so far (${row})`));
}

/** A ListLegalActions answer: the counts and the moves, each a button that asks whether it is legal. */
export function movesElement(answer, onPick) {
  const counts = answer.counts || {};
  const kinds = ["draw", "takePile", "meld", "discard", "askPartner", "answerPartner", "finish", "combine"]
    .filter((k) => counts[k]).map((k) => `${counts[k]} ${k.replace(/[A-Z]/g, (c) => " " + c.toLowerCase())}`);
  const actions = answer.actions || [];
  return h("div", {},
    h("p", {}, `${counts.total || actions.length} legal move${(counts.total || actions.length) === 1 ? "" : "s"}`, kinds.length ? ` (${kinds.join(", ")})` : "",
      answer.truncated ? " \u2014 the list is cut at the limit; there are more." : ""),
    h("ol", { class: "moves" }, actions.map((a) => {
      const text = formatAction(a);
      return h("li", {}, h("button", { type: "button", class: "link", onclick: () => onPick(text), title: "Check this action" }, richText(text)));
    })));
}

export { tokenOf };
