// Cards and actions in the oracle's text notation (oracle/model/cards.py, oracle/model/actions.py), to and
// from the protobuf JSON mapping, and cards drawn as cards (rank and suit symbol, red or black).

export const RANKS = "23456789TJQKA";
export const SUITS = "CDHS";
const SUIT_SYMBOL = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
const SUIT_NAME = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const RANK_NAME = {
  2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
  T: "ten", J: "jack", Q: "queen", K: "king", A: "ace",
};
const VERBS = "expected draw, take-pile, meld, discard, ask, answer or finish";

/** Every card token of one pack, in deck order (2C, 2D, ... AS), then the joker. */
export const ALL_TOKENS = [...RANKS].flatMap((r) => [...SUITS].map((s) => r + s)).concat(["JK"]);

/** A notation error: the message names the bad token and its position, as the server's parser does. */
export class NotationError extends Error {}

/** The JSON enum name of a card token ("KH" -> "CARD_KH"). */
export const cardName = (token) => "CARD_" + token;

/** The token of a JSON card ("CARD_KH" or its number 47 -> "KH"). */
export function tokenOf(card) {
  if (typeof card === "number") return card === 53 ? "JK" : RANKS[(card - 1) >> 2] + SUITS[(card - 1) & 3];
  return String(card).replace(/^CARD_/, "");
}

function explainBadToken(token, position) {
  const where = `card ${position}`;
  if (token.length !== 2) {
    const hint = token.startsWith("10") ? " (ten is T, e.g. TH)" : "";
    return `${where}: '${token}' is not a card: a card is two characters, rank then suit${hint}`;
  }
  const [rank, suit] = token;
  if (RANKS.includes(rank.toUpperCase()) && SUITS.includes(suit.toUpperCase()) && token !== token.toUpperCase()) {
    return `${where}: '${token}' is not a card: write it in upper case ('${token.toUpperCase()}')`;
  }
  if (!RANKS.includes(rank)) {
    return `${where}: '${token}' is not a card: rank '${rank}' is not one of ${[...RANKS].join(" ")} (or JK)`;
  }
  return `${where}: '${token}' is not a card: suit '${suit}' is not one of ${[...SUITS].join(" ")}`;
}

/** Parse a white-space separated card list into tokens; a bad token throws NotationError naming it. */
export function parseCards(text) {
  const tokens = String(text).split(/\s+/).filter(Boolean);
  tokens.forEach((t, i) => {
    if (!ALL_TOKENS.includes(t)) throw new NotationError(explainBadToken(t, i + 1));
  });
  return tokens;
}

/** Groups separated by commas ("KH KD KS, K: 2C"); each {cards, ontoRank}. */
export function parseGroups(text, where) {
  return String(text).split(",").map((part, i) => {
    let rest = part.trim();
    let ontoRank = null;
    const colon = rest.indexOf(":");
    if (colon >= 0) {
      const head = rest.slice(0, colon).trim();
      if (head.length !== 1 || !RANKS.includes(head)) {
        throw new NotationError(`${where} group ${i + 1}: '${head}:' is not a rank (one of ${[...RANKS].join(" ")})`);
      }
      ontoRank = head;
      rest = rest.slice(colon + 1);
    }
    let cards;
    try {
      cards = parseCards(rest);
    } catch (e) {
      throw new NotationError(`${where} group ${i + 1}: ${e.message}`);
    }
    if (!cards.length) throw new NotationError(`${where} group ${i + 1} is empty`);
    return { cards, ontoRank };
  });
}

function groupJson(g) {
  const out = { cards: g.cards.map(cardName) };
  if (g.ontoRank) out.ontoRank = cardName(g.ontoRank + "C");
  return out;
}

/** Parse an action ("take-pile with 9H 9D") into its protobuf JSON; NotationError says what is wrong. */
export function parseAction(text) {
  const trimmed = String(text).trim();
  if (!trimmed) throw new NotationError(`empty action: ${VERBS}`);
  const space = trimmed.search(/\s/);
  const verb = space < 0 ? trimmed : trimmed.slice(0, space);
  const rest = space < 0 ? "" : trimmed.slice(space).trim();
  if (["draw", "ask", "finish"].includes(verb)) {
    if (rest) throw new NotationError(`'${verb}' takes nothing after it, got '${rest}'`);
    return { draw: { draw: {} }, ask: { askPartner: {} }, finish: { finish: {} } }[verb];
  }
  if (verb === "discard") {
    const cards = parseCards(rest);
    if (cards.length !== 1) throw new NotationError(`'discard' takes exactly one card, got ${cards.length}`);
    return { discard: { card: cardName(cards[0]) } };
  }
  if (verb === "meld") {
    if (!rest) throw new NotationError("'meld' needs at least one group of cards");
    return { meld: { groups: parseGroups(rest, "meld").map(groupJson) } };
  }
  if (verb === "answer") {
    if (rest !== "yes" && rest !== "no") throw new NotationError(`'answer' takes 'yes' or 'no', got '${rest}'`);
    return { answerPartner: rest === "yes" ? { yes: true } : {} };
  }
  if (verb === "take-pile") {
    const padded = ` ${rest} `;
    let withText = rest;
    let meldsText = "";
    const at = padded.indexOf(" meld ");
    if (at >= 0) {
      withText = padded.slice(0, at).trim();
      meldsText = padded.slice(at + 6);
    }
    const out = {};
    if (withText) {
      const [keyword, ...cardsText] = withText.split(/\s+/);
      if (keyword !== "with") {
        throw new NotationError(`after 'take-pile' expected 'with CARDS' or 'meld GROUPS', got '${withText}'`);
      }
      const cards = parseCards(cardsText.join(" "));
      if (!cards.length) throw new NotationError("'take-pile with' needs cards");
      out.with = cards.map(cardName);
    }
    if (meldsText.trim()) out.melds = parseGroups(meldsText, "take-pile meld").map(groupJson);
    return { takePile: out };
  }
  throw new NotationError(`unknown action '${verb}': ${VERBS}`);
}

function formatGroups(groups) {
  return (groups || [])
    .map((g) => (g.ontoRank ? tokenOf(g.ontoRank)[0] + ": " : "") + (g.cards || []).map(tokenOf).join(" "))
    .join(", ");
}

/** The notation of an action in protobuf JSON (the inverse of parseAction). */
export function formatAction(action) {
  if ("draw" in action) return "draw";
  if ("askPartner" in action) return "ask";
  if ("finish" in action) return "finish";
  if ("discard" in action) return `discard ${tokenOf(action.discard.card)}`;
  if ("answerPartner" in action) return `answer ${action.answerPartner.yes ? "yes" : "no"}`;
  if ("meld" in action) return `meld ${formatGroups(action.meld.groups)}`;
  if ("takePile" in action) {
    const t = action.takePile;
    let text = "take-pile";
    if (t.with && t.with.length) text += ` with ${t.with.map(tokenOf).join(" ")}`;
    if (t.melds && t.melds.length) text += ` meld ${formatGroups(t.melds)}`;
    return text;
  }
  return JSON.stringify(action);
}

/** Whether a token is red (diamonds and hearts). */
export const isRed = (token) => token[1] === "D" || token[1] === "H";

/** The plain English name of a card token ("KH" -> "king of hearts"). */
export function cardLabel(token) {
  return token === "JK" ? "joker" : `${RANK_NAME[token[0]]} of ${SUIT_NAME[token[1]]}`;
}

/** One card drawn as a card: rank and suit symbol, red or black, its name for screen readers. */
export function cardElement(token) {
  const el = document.createElement("span");
  el.className = "card " + (token === "JK" ? "joker" : isRed(token) ? "red" : "black");
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", cardLabel(token));
  el.title = `${cardLabel(token)} (${token})`;
  if (token === "JK") {
    el.textContent = "\u2605";
    const small = document.createElement("small");
    small.textContent = "JK";
    el.append(small);
  } else {
    el.textContent = (token[0] === "T" ? "10" : token[0]) + SUIT_SYMBOL[token[1]];
  }
  return el;
}

/** A row of cards (tokens or JSON cards) drawn as cards. */
export function cardsElement(cards) {
  const row = document.createElement("span");
  row.className = "cards";
  for (const c of cards) row.append(cardElement(typeof c === "string" && c.length === 2 ? c : tokenOf(c)));
  return row;
}

/** Text in which every card token of the notation ("9H", "JK") is drawn as a card. */
export function richText(text) {
  const out = document.createElement("span");
  for (const part of String(text).split(/(\b(?:[2-9TJQKA][CDHS]|JK)\b)/)) {
    if (ALL_TOKENS.includes(part)) out.append(cardElement(part));
    else if (part) out.append(document.createTextNode(part));
  }
  return out;
}
