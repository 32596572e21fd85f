// The position form: the hands, each side's melds, red threes and score, the discard pile and the turn; and the
// GameState and HandTable the oracle judges, with every card the form does not place dealt to the hidden hands
// and the stock (the state must hold the whole deck once).

import { ALL_TOKENS, NotationError, cardName, cardsElement, parseCards, parseGroups, tokenOf } from "./cards.js";
import { fill, h } from "./dom.js";
import { meldsElement } from "./melds.js";
import { playingSide, seatName, sideName, sideOfSeat } from "./sides.js";

/** A position that cannot be turned into a state: `field` is the form input to fix. */
export class PositionError extends Error {
  constructor(field, message) {
    super(message);
    this.field = field;
  }
}

/** An empty position for a table of `seats` seats and `sides` sides. */
export function emptyPosition(seats, sides) {
  return {
    seatToMove: 0,
    phase: "PHASE_DRAW",
    start: "TURN_START_UNSPECIFIED",
    answer: "PARTNER_ANSWER_UNSPECIFIED",
    turnMelded: false,
    addedToExisting: false,
    madeCanasta: false,
    newMelds: "",
    meldedBefore: false,
    hands: Array(seats).fill(""),
    handSize: "",
    stockSize: "",
    sides: Array.from({ length: sides }, () => ({ melds: "", red: "", total: 0, asks: "" })),
    pile: "",
    upcards: 0,
    wentOut: "",
    loneHand: false, // players.side_formation LONE_HAND: sides form when the pile is first taken
    lone: "", // then the seat playing alone ("" while nobody has taken the pile)
    footSize: 0, // foot.size of the table's rule book: each seat's foot, face down until taken up (0: no foot)
    feet: Array(seats).fill("down"), // per seat: "down" (the foot waits, face down) or "up" (taken up: in the foot)
    handNumber: "", // the hand's number in the game (GameState.hand_number); blank: the first
    gameHands: 0, // game.hands of the table's rule book: hands in a game (0: played to a target score)
  };
}

/** The position resized to another table, keeping what fits. */
export function fitPosition(pos, seats, sides) {
  const out = { ...emptyPosition(seats, sides), ...pos };
  out.hands = Array.from({ length: seats }, (_, i) => (pos.hands || [])[i] || "");
  out.feet = Array.from({ length: seats }, (_, i) => (pos.feet || [])[i] || "down");
  out.sides = Array.from({ length: sides }, (_, i) => ({ melds: "", red: "", total: 0, asks: "", ...(pos.sides || [])[i] }));
  if (out.seatToMove >= seats) out.seatToMove = 0;
  return out;
}

/** Whether the seat to move has a partner to ask "may I go out?" (more seats than sides). */
const hasPartner = (pos) => pos.hands.length > pos.sides.length;

/** The label of a request path, e.g. "state.sides[1].melds[0]" -> "Side 1's meld 1"; and the form input's id. */
export function describePath(path, pos) {
  const p = path.replace(/^(state|request\.state|table)\./, "");
  let m;
  if ((m = /^seats\[(\d+)\]\.hand(?:\[(\d+)\])?/.exec(p))) {
    const card = m[2] !== undefined ? `, card ${Number(m[2]) + 1}` : "";
    const typed = pos.hands[Number(m[1])] ? "" : " (dealt by the page: cards the form does not place)";
    return { input: `hand-${m[1]}`, label: `seat ${m[1]}'s hand${card}${typed}` };
  }
  if ((m = /^seats\[(\d+)\]\.foot/.exec(p))) return { input: `foot-${m[1]}`, label: `seat ${m[1]}'s foot` };
  if (p.startsWith("hand_number")) return { input: "hand-number", label: "the hand's number in the game" };
  if ((m = /^seats\[(\d+)\]\.melded_before/.exec(p))) {
    const mine = Number(m[1]) === pos.seatToMove;
    return { input: mine ? "melded-before" : `hand-${m[1]}`, label: `seat ${m[1]} melded in an earlier turn` };
  }
  if ((m = /^seats\[(\d+)\]/.exec(p))) return { input: `hand-${m[1]}`, label: `seat ${m[1]}` };
  if (p.startsWith("side_of_seat")) return { input: "lone", label: "who plays alone (the sides formed)" };
  if ((m = /^sides\[(\d+)\]\.melds(?:\[(\d+)\])?/.exec(p))) {
    const which = m[2] !== undefined ? ` meld ${Number(m[2]) + 1}` : " melds";
    return { input: `melds-${m[1]}`, label: `side ${m[1]}'s${which}` };
  }
  if ((m = /^sides\[(\d+)\]\.red_threes/.exec(p))) return { input: `red-${m[1]}`, label: `side ${m[1]}'s red threes` };
  if ((m = /^sides\[(\d+)\]\.asks/.exec(p))) return { input: `asks-${m[1]}`, label: `side ${m[1]}'s questions this hand` };
  if ((m = /^sides\[(\d+)\]\.hands\[(\d+)\]/.exec(p))) {
    const seat = Number(m[2]) * pos.sides.length + Number(m[1]);
    return { input: `hand-${seat}`, label: `seat ${seat}'s hand` };
  }
  if ((m = /^sides\[(\d+)\]\.went_out/.exec(p))) return { input: "went-out", label: `who went out (side ${m[1]})` };
  if ((m = /^sides\[(\d+)\]\.running_total/.exec(p))) return { input: `total-${m[1]}`, label: `side ${m[1]}'s score` };
  if ((m = /^sides\[(\d+)\]/.exec(p))) return { input: `melds-${m[1]}`, label: `side ${m[1]}` };
  if (p.startsWith("discard_pile")) {
    const k = /\[(\d+)\]/.exec(p);
    return { input: "pile", label: `the discard pile${k ? `, card ${Number(k[1]) + 1} from the bottom` : ""}` };
  }
  if (p.startsWith("pile_upcards")) return { input: "upcards", label: "the upcards" };
  if (p.startsWith("stock")) return { input: "stock-size", label: "the stock (the cards the form does not place)" };
  if (p.startsWith("seat_to_move")) return { input: "seat-to-move", label: "the seat to move" };
  const playing = pos.phase !== "PHASE_DRAW";
  if (p.startsWith("turn.melds_before_turn")) return { input: "new-melds", label: "the melds laid this turn" };
  if (p.startsWith("turn.added_to_existing")) return { input: "added-existing", label: "added to an existing meld this turn" };
  if (p.startsWith("turn.made_canasta")) return { input: "made-canasta", label: "made a canasta this turn" };
  if (p.startsWith("turn.melded")) return { input: "turn-melded", label: "melded this turn" };
  if (p.startsWith("turn.start") && playing) return { input: "start", label: "how the turn began" };
  if (p.startsWith("turn.partner_answer") && pos.phase === "PHASE_PLAY" && hasPartner(pos)) {
    return { input: "partner-answer", label: "the partner's answer" };
  }
  if (p.startsWith("phase") || p.startsWith("turn")) return { input: "phase", label: `the turn (${p})` };
  return { input: null, label: path };
}

function cardsOf(text, input) {
  try {
    return parseCards(text);
  } catch (e) {
    throw new PositionError(input, e.message);
  }
}

function meldsOf(text, input) {
  if (!text.trim()) return [];
  try {
    return parseGroups(text, "meld").map((g) => {
      if (g.ontoRank) throw new NotationError(`a meld on the table lists its cards, without '${g.ontoRank}:'`);
      return g.cards;
    });
  } catch (e) {
    throw new PositionError(input, e.message);
  }
}

/** The parsed cards of the form: {hands, sides: [{melds, red}], pile} as token lists; PositionError if bad. */
export function parsePosition(pos) {
  return {
    hands: pos.hands.map((t, i) => cardsOf(t, `hand-${i}`)),
    sides: pos.sides.map((s, j) => ({ melds: meldsOf(s.melds, `melds-${j}`), red: cardsOf(s.red, `red-${j}`) })),
    pile: cardsOf(pos.pile, "pile"),
  };
}

function integer(text, input, what, min) {
  if (String(text).trim() === "") return null;
  const n = Number(text);
  if (!Number.isInteger(n) || n < min) throw new PositionError(input, `${what} must be a whole number of at least ${min}, got '${text}'`);
  return n;
}

/** The GameState (protobuf JSON) of the position under a resolved rule set (its deck and hand size). */
export function buildState(pos, ruleSet) {
  const seats = pos.hands.length;
  const cards = parsePosition(pos);
  const deckCards = [];
  for (let p = 0; p < ruleSet.deck.packs; p += 1) deckCards.push(...ALL_TOKENS.slice(0, 52));
  for (let j = 0; j < ruleSet.deck.jokers; j += 1) deckCards.push("JK");
  const placed = new Map();
  const place = (t) => placed.set(t, (placed.get(t) || 0) + 1);
  cards.hands.flat().forEach(place);
  cards.sides.forEach((s) => { s.melds.flat().forEach(place); s.red.forEach(place); });
  cards.pile.forEach(place);
  const rest = [];
  for (const t of deckCards) {
    if (placed.get(t)) placed.set(t, placed.get(t) - 1);
    else rest.push(t);
  }
  const hidden = [...Array(seats).keys()].filter((i) => i !== pos.seatToMove && !pos.hands[i].trim());
  const handSize = integer(pos.handSize, "hand-size", "The hidden hands' size", 0) ?? ruleSet.deal.handSize;
  const stockSize = integer(pos.stockSize, "stock-size", "The stock", 0);
  const upcards = integer(pos.upcards, "upcards", "The upcards", 0) ?? 0;
  // Red threes never sit in a hand, nor black ones where they are bonus cards (threes.black_three_role BONUS): the
  // hidden hands take other cards, the stock the rest.
  const bonusBlack = ruleSet.threes && ruleSet.threes.blackThreeRole === "BLACK_THREE_ROLE_BONUS";
  const dealable = rest.filter((t) => t !== "3D" && t !== "3H" && !(bonusBlack && (t === "3C" || t === "3S")));
  // each foot still face down (foot.size) takes that many unseen cards, red threes apart as for the hands
  const footSize = Number(pos.footSize) || 0;
  const down = footSize ? [...Array(seats).keys()].filter((i) => (pos.feet || [])[i] !== "up") : [];
  const footCards = footSize * down.length;
  let each = handSize;
  if (stockSize !== null) {
    const spare = rest.length - stockSize - footCards;
    if (spare < 0) throw new PositionError("stock-size", `the stock cannot hold ${stockSize} cards: only ${rest.length} are not placed`);
    if (spare && !hidden.length) {
      throw new PositionError("stock-size", `${spare} cards are left over: with a stock of ${stockSize} cards, leave another player's hand blank or change the stock`);
    }
    each = hidden.length ? Math.floor(spare / hidden.length) : 0;
    if (hidden.length && spare % hidden.length) {
      throw new PositionError("stock-size", `${spare} cards do not split evenly among ${hidden.length} hidden hands`);
    }
  }
  if (each * hidden.length > dealable.length) {
    throw new PositionError("hand-size", `the hidden hands need ${each * hidden.length} cards but only ${dealable.length} are free`);
  }
  if (each * hidden.length + footCards > dealable.length) {
    throw new PositionError(`foot-${down[0]}`, `the feet face down need ${footCards} cards beside the hidden hands' ${each * hidden.length}, but only ${dealable.length} are free`);
  }
  const feet = {};
  down.forEach((seat, k) => {
    feet[seat] = dealable.slice(k * footSize, (k + 1) * footSize); // from the front: the hidden hands take the back
  });
  const dealt = {};
  const taken = new Map();
  hidden.forEach((seat, k) => {
    dealt[seat] = dealable.slice(dealable.length - (k + 1) * each, dealable.length - k * each);
    dealt[seat].forEach((t) => taken.set(t, (taken.get(t) || 0) + 1));
  });
  Object.values(feet).flat().forEach((t) => taken.set(t, (taken.get(t) || 0) + 1));
  const handNumber = integer(pos.handNumber ?? "", "hand-number", "The hand's number", 1);
  const stock = rest.filter((t) => (taken.get(t) ? (taken.set(t, taken.get(t) - 1), false) : true));
  const side = playingSide(pos, pos.seatToMove);
  const playing = pos.phase !== "PHASE_DRAW";
  const newMelds = integer(pos.newMelds ?? "", "new-melds", "The melds laid this turn", 0) ?? 0;
  if (newMelds > cards.sides[side].melds.length) {
    throw new PositionError("new-melds", `your side has ${cards.sides[side].melds.length} melds, so you cannot have laid ${newMelds} this turn`);
  }
  const tookPile = pos.start === "TURN_START_TOOK_PILE";
  let answer = "PARTNER_ANSWER_UNSPECIFIED";
  if (pos.phase === "PHASE_AWAIT_ANSWER") answer = "PARTNER_ANSWER_PENDING";
  else if (pos.phase === "PHASE_PLAY" && hasPartner(pos) && ANSWERS.some(([v]) => v === pos.answer)) answer = pos.answer;
  return {
    seats: [...Array(seats).keys()].map((i) => {
      const seat = { hand: (dealt[i] || cards.hands[i]).map(cardName), meldedBefore: i === pos.seatToMove ? Boolean(pos.meldedBefore) : false };
      return feet[i] ? { ...seat, foot: feet[i].map(cardName) } : seat;
    }),
    sides: cards.sides.map((s, j) => {
      const side = {
        melds: s.melds.map((m) => ({ cards: m.map(cardName) })),
        redThrees: s.red.map(cardName),
        runningTotal: integer(pos.sides[j].total, `total-${j}`, "A score", -1e9) ?? 0,
      };
      // SideState.asks: the side's questions to the partner this hand (going_out.ask_partner_max_per_hand)
      const asks = integer(pos.sides[j].asks ?? "", `asks-${j}`, "The questions asked", 0) ?? 0;
      return asks ? { ...side, asks } : side;
    }),
    stock: stock.map(cardName),
    discardPile: cards.pile.map(cardName),
    pileUpcards: upcards,
    seatToMove: pos.seatToMove,
    phase: pos.phase,
    sideOfSeat: sideOfSeat(pos),
    ...(handNumber !== null ? { handNumber } : {}),
    turn: {
      start: playing ? pos.start : "TURN_START_UNSPECIFIED",
      // a new meld laid by taking the pile (the top card's) is not "melding" this turn; any other is
      melded: playing && (Boolean(pos.turnMelded) || (newMelds > 0 && !tookPile)),
      addedToExisting: playing && Boolean(pos.addedToExisting),
      madeCanasta: playing && Boolean(pos.madeCanasta),
      partnerAnswer: answer,
      meldsBeforeTurn: playing ? Math.max(0, cards.sides[side].melds.length - newMelds) : 0,
    },
  };
}

/** The HandTable (protobuf JSON) of the position as a finished hand: the typed hands are the cards left. */
export function buildTable(pos) {
  const cards = parsePosition(pos);
  const sides = pos.sides.length;
  const [outSeat, how] = pos.wentOut ? pos.wentOut.split(":") : [null, null];
  return {
    sides: cards.sides.map((s, j) => ({
      melds: s.melds.map((m) => ({ cards: m.map(cardName) })),
      redThrees: s.red.map(cardName),
      hands: cards.hands.filter((_, i) => i % sides === j).map((hand) => ({ cards: hand.map(cardName) })),
      wentOut: outSeat !== null && Number(outSeat) % sides === j ? how : "WENT_OUT_UNSPECIFIED",
    })),
    sideOfSeat: sideOfSeat(pos),
  };
}

/** Why the pile is frozen under one resolved rule set (mirrors the rule set's discard_pile fields). */
export function pileFreezers(pos, ruleSet) {
  const dp = ruleSet.discardPile || {};
  const pile = parsePosition(pos).pile;
  const up = Math.max(0, Number(pos.upcards) || 0);
  const upcards = pile.slice(0, up);
  const above = pile.slice(up);
  const wild = (t) => t === "JK" || t[0] === "2";
  const redThree = (t) => t === "3D" || t === "3H";
  const blackThree = (t) => t === "3C" || t === "3S";
  const reasons = [];
  if (dp.frozenByUpcard && upcards.some((t) => wild(t) || redThree(t))) {
    reasons.push(["discard_pile.frozen_by_upcard", "the pile started with a wild card or red three"]);
  }
  if (dp.frozenByWild && above.some(wild)) reasons.push(["discard_pile.frozen_by_wild", "a wild card was discarded into it"]);
  else if (dp.frozenByWild && !dp.frozenByUpcard && upcards.some(wild)) {
    reasons.push(["discard_pile.frozen_by_wild", "it holds a wild card"]);
  }
  if (dp.frozenByBlackThree && above.some(blackThree)) {
    reasons.push(["discard_pile.frozen_by_black_three", "a black three was discarded into it"]);
  }
  const side = playingSide(pos, pos.seatToMove);
  if (dp.frozenUntilInitialMeld && !parsePosition(pos).sides[side].melds.length) {
    reasons.push(["discard_pile.frozen_until_initial_meld", "your side has not made its initial meld"]);
  }
  return reasons;
}

const PHASES = [
  ["PHASE_DRAW", "Draw (or take the pile)"],
  ["PHASE_PLAY", "Play (meld, then discard)"],
  ["PHASE_AWAIT_ANSWER", "Awaiting the partner's answer"],
];
const ANSWERS = [
  ["PARTNER_ANSWER_UNSPECIFIED", "Not asked"],
  ["PARTNER_ANSWER_YES", "Yes"],
  ["PARTNER_ANSWER_NO", "No"],
];
const STARTS = [
  ["TURN_START_DREW", "drew from the stock"],
  ["TURN_START_TOOK_PILE", "took the discard pile"],
];

function cardInput(id, label, value, help, onInput, multi) {
  const preview = h("div", { class: "preview", id: `${id}-preview`, "aria-live": "polite" });
  const input = h(multi ? "textarea" : "input", {
    id, name: id, class: "cards-input", "data-cards": multi ? "groups" : "list", autocomplete: "off",
    spellcheck: "false", "aria-describedby": `${id}-help ${id}-preview`, rows: multi ? 2 : null,
  });
  input.value = value;
  const update = () => {
    try {
      const groups = multi ? (input.value.trim() ? parseGroups(input.value, "meld").map((g) => g.cards) : []) : [parseCards(input.value)];
      fill(preview, multi ? meldsElement(groups) : groups.map((g) => cardsElement(g)));
      input.removeAttribute("aria-invalid");
    } catch (e) {
      fill(preview, h("span", { class: "field-error" }, e.message));
      input.setAttribute("aria-invalid", "true");
    }
  };
  input.addEventListener("input", () => { update(); onInput(id, input.value); });
  update();
  return h("div", { class: "field" }, h("label", { for: id }, label), input,
    h("small", { id: `${id}-help`, class: "help" }, help), preview);
}

function numberInput(id, label, value, onInput, help) {
  const input = h("input", { id, name: id, type: "text", inputmode: "numeric", autocomplete: "off", "aria-describedby": help ? `${id}-help` : null });
  input.value = value;
  input.addEventListener("input", () => onInput(id, input.value));
  return h("div", { class: "field small" }, h("label", { for: id }, label), input, help ? h("small", { id: `${id}-help`, class: "help" }, help) : null);
}

function select(id, label, options, value, onInput, help) {
  const el = h("select", { id, name: id, "aria-describedby": help ? `${id}-help` : null }, options.map(([v, text]) => h("option", { value: v }, text)));
  el.value = value;
  el.addEventListener("change", () => onInput(id, el.value));
  return h("div", { class: "field" }, h("label", { for: id }, label), el, help ? h("small", { id: `${id}-help`, class: "help" }, help) : null);
}

/** The partner's answer to "may I go out?": chosen in the play phase, awaited in the answer phase. */
function answerField(pos, set) {
  if (!hasPartner(pos)) return null;
  if (pos.phase === "PHASE_AWAIT_ANSWER") {
    return h("div", { class: "field" }, h("span", { class: "label" }, "Your partner's answer"), h("p", { id: "partner-answer-awaited", class: "help" }, "Awaited: you asked \u201cmay I go out?\u201d"));
  }
  const value = ANSWERS.some(([v]) => v === pos.answer) ? pos.answer : "PARTNER_ANSWER_UNSPECIFIED";
  return select("partner-answer", "Your partner's answer to \u201cmay I go out?\u201d", ANSWERS, value, set, "Yes: you must go out if you can. No: you may not go out this turn.");
}

/** Under players.side_formation LONE_HAND: who plays alone, once the pile was first taken (null for fixed sides). */
function formation(pos, seats, set) {
  if (!pos.loneHand) return null;
  const options = [["", "Not formed yet: nobody has taken the pile, each plays alone"]].concat([...Array(seats).keys()].map((lone) => {
    const partners = [...Array(seats).keys()].filter((s) => s !== lone);
    return [String(lone), `Seat ${lone} took the pile first: alone against seats ${partners.join(" and ")}`];
  }));
  return h("fieldset", { class: "formation" }, h("legend", {}, "The sides"),
    select("lone", "Who plays alone", options, pos.lone === undefined || pos.lone === null ? "" : String(pos.lone), set,
      "The first player to take the discard pile plays alone; the other two become partners, their melds put together on the lower seat's side. Red threes and scores stay each player's own."));
}

/** Under foot.size: a seat's foot, shown by its count only and face down while it waits, or taken up. */
function footField(pos, seat, set) {
  const size = pos.footSize;
  const up = pos.feet[seat] === "up";
  const options = [["down", `Face down (${size} cards)`], ["up", "Taken up (in the foot)"]];
  const backs = h("span", { class: "foot-backs", "aria-hidden": "true" }, Array.from({ length: Math.min(size, 3) }, () => h("span", { class: "card back" })));
  const shown = up
    ? h("p", { class: "foot-state", id: `foot-${seat}-state` }, "In the foot: the hand above is the foot's cards.")
    : h("p", { class: "foot-state", id: `foot-${seat}-state` }, backs, h("span", { class: "foot-count" }, String(size)), " cards face down (unseen: the page deals them)");
  const help = seat === pos.seatToMove
    ? "A foot is taken up when the hand is used up: at once after melding the last hand card, or from the next turn after discarding it. To score a foot never taken up, type its cards into the hand."
    : null;
  return h("div", { class: "foot" }, select(`foot-${seat}`, `${seatName(seat, pos)}: foot`, options, up ? "up" : "down", set, help), shown);
}

/** Where a rule book numbers the hands (game.hands, or a minimum by hand): the hand's number in the game. */
function gameField(pos, set) {
  if (!pos.gameHands && !pos.footSize) return null;
  const field = numberInput("hand-number", `Hand number in the game (1${pos.gameHands ? ` to ${pos.gameHands}` : " or more"})`, pos.handNumber ?? "", set,
    "Blank: the first hand. The initial meld's minimum goes by it where the rule book says so (initial_meld.minimum_by_hand).");
  return h("fieldset", { class: "game" }, h("legend", {}, "The game"), field, h("p", { id: "hand-of", class: "help" }, handOf(pos)));
}

/** "Hand 2 of 4: ..." for the game fieldset. */
function handOf(pos) {
  const n = Number(pos.handNumber) || 1;
  const of = pos.gameHands ? ` of ${pos.gameHands}: a game is a fixed number of hands, the higher total after the last wins (game.hands)` : "";
  return `Hand ${n}${of}.`;
}

/** Render the form for `pos` into `root`; `changed(pos, structural)` is called on every edit. */
export function renderPosition(root, pos, changed) {
  const sides = pos.sides.length;
  const seats = pos.hands.length;
  const set = (id, value) => {
    let m;
    if ((m = /^hand-(\d+)$/.exec(id))) pos.hands[Number(m[1])] = value;
    else if ((m = /^(melds|red|total|asks)-(\d+)$/.exec(id))) pos.sides[Number(m[2])][m[1]] = value;
    else if (id === "seat-to-move") pos.seatToMove = Number(value);
    else if (id === "phase") pos.phase = value;
    else if (id === "start") pos.start = value;
    else if (id === "pile") pos.pile = value;
    else if (id === "upcards") pos.upcards = value;
    else if (id === "hand-size") pos.handSize = value;
    else if (id === "stock-size") pos.stockSize = value;
    else if (id === "went-out") pos.wentOut = value;
    else if (id === "new-melds") pos.newMelds = value;
    else if (id === "partner-answer") pos.answer = value;
    else if (id === "lone") pos.lone = value;
    else if ((m = /^foot-(\d+)$/.exec(id))) pos.feet[Number(m[1])] = value;
    else if (id === "hand-number") {
      pos.handNumber = value;
      const note = document.getElementById("hand-of");
      if (note) note.textContent = handOf(pos);
    }
    changed(pos, id === "seat-to-move" || id === "phase" || id === "lone" || /^foot-/.test(id));
  };
  const playing = pos.phase !== "PHASE_DRAW";
  const checkbox = (id, label, key) => h("div", { class: "field check" },
    h("input", { type: "checkbox", id, checked: Boolean(pos[key]), onchange: (e) => { pos[key] = e.target.checked; changed(pos, false); } }),
    h("label", { for: id }, label));
  const seatOptions = [...Array(seats).keys()].map((i) => [String(i), `Seat ${i} (side ${i % sides})`]);
  const turn = h("fieldset", { class: "turn" }, h("legend", {}, "The turn"),
    select("seat-to-move", "Seat to move (you)", seatOptions, String(pos.seatToMove), set),
    select("phase", "Where in the turn", PHASES, pos.phase, set),
    pos.phase !== "PHASE_DRAW" ? select("start", "This turn the player", STARTS, pos.start === "TURN_START_UNSPECIFIED" ? "TURN_START_DREW" : pos.start, set) : null,
    playing ? numberInput("new-melds", "Of your side's melds, laid this turn", pos.newMelds ?? "", set,
      "The last ones listed; the others were on the table when the turn began. Blank: none") : null,
    playing ? answerField(pos, set) : null,
    playing ? h("div", { class: "turn-flags", role: "group", "aria-label": "What you did this turn" },
      checkbox("turn-melded", "You melded this turn (beyond the meld taking the pile needed)", "turnMelded"),
      checkbox("added-existing", "You added cards to a meld that was on the table when the turn began", "addedToExisting"),
      checkbox("made-canasta", "Your melds this turn completed a canasta", "madeCanasta")) : null,
    checkbox("melded-before", "You melded in an earlier turn of this hand", "meldedBefore"));
  if (pos.phase !== "PHASE_DRAW" && pos.start === "TURN_START_UNSPECIFIED") pos.start = "TURN_START_DREW";
  const hands = [...Array(seats).keys()].map((i) => {
    const hand = cardInput(`hand-${i}`, `${seatName(i, pos)}: hand`, pos.hands[i],
      i === pos.seatToMove ? "Your cards, e.g. 9H 9D JK KS" : "Optional: leave blank to deal it unseen cards; type it to score the hand.", set, false);
    return pos.footSize ? h("div", { class: "seat" }, hand, footField(pos, i, set)) : hand;
  });
  const sideBlocks = [...Array(sides).keys()].map((j) => h("fieldset", { class: "side" }, h("legend", {}, sideName(j, pos, sides)),
    cardInput(`melds-${j}`, "Melds on the table", pos.sides[j].melds, "Melds separated by commas: KH KD KS, 7S 7D 2C (a run where the rule book has runs: 5H 6H 7H). Numbered 1, 2, ... in order, as 'meld 8H to 2' and 'combine 1 3' name them", set, true),
    cardInput(`red-${j}`, "Threes laid", pos.sides[j].red, "Red threes, e.g. 3H 3D; black ones too where the rule book lays them (american-4p)", set, false),
    numberInput(`total-${j}`, "Score so far", pos.sides[j].total, set),
    numberInput(`asks-${j}`, "Questions to the partner this hand", pos.sides[j].asks ?? "", set, "Blank: none (a rule book may allow one a hand)")));
  const pileBox = h("fieldset", { class: "pile" }, h("legend", {}, "The discard pile"),
    cardInput("pile", "Discard pile, bottom to top (the top card last)", pos.pile, "e.g. 7C 2S 9H (9H is on top)", set, false),
    numberInput("upcards", "Upcards", pos.upcards, set, "Cards at the bottom turned up at the deal (0 once the pile was taken)"),
    h("div", { id: "pile-status", class: "pile-status", "aria-live": "polite" }));
  const wentOut = [["", "Nobody went out (yet)"]].concat([...Array(seats).keys()].flatMap((i) => [
    [`${i}:WENT_OUT_NORMAL`, `Seat ${i} went out`], [`${i}:WENT_OUT_CONCEALED`, `Seat ${i} went out concealed`]]));
  const rest = h("fieldset", { class: "rest" }, h("legend", {}, "Unseen cards and the end of the hand"),
    numberInput("hand-size", "Cards in each blank hand", pos.handSize, set, "Blank: the rule book's deal"),
    numberInput("stock-size", "Cards in the stock", pos.stockSize, set, "Blank: every card not placed elsewhere"),
    select("went-out", "For scoring: who went out", wentOut, pos.wentOut, set));
  fill(root, turn, formation(pos, seats, set), gameField(pos, set), h("div", { class: "hands" }, hands), h("div", { class: "sides" }, sideBlocks), pileBox, rest);
}

/** Show the pile's top card and, per rule book, whether it is frozen and why. */
export function renderPileStatus(pos, ruleSets) {
  const box = document.getElementById("pile-status");
  if (!box) return;
  let pile;
  try {
    pile = parsePosition(pos).pile;
  } catch {
    fill(box);
    return;
  }
  const top = pile.length ? h("span", {}, "Top card: ", cardsElement([pile[pile.length - 1]])) : h("span", {}, "The pile is empty.");
  const lines = ruleSets.filter((r) => r.ruleSet.players.seats === pos.hands.length).map((r) => {
    const reasons = pileFreezers(pos, r.ruleSet);
    return h("li", {}, h("strong", {}, r.id), ": ",
      reasons.length ? ["frozen: ", reasons.map(([field, why], k) => [k ? "; " : "", why, " ", h("code", {}, field)])] : "not frozen");
  });
  fill(box, top, lines.length ? h("ul", { class: "frozen" }, lines) : null);
}

export { tokenOf };
