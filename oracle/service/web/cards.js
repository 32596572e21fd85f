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
const VERBS = "draw, take-pile, pick-up-pile, meld, discard, ask, answer, finish or combine";
const KEYWORDS = [",", ":", "meld", "with", "to"];

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

const cardProblem = (token) => explainBadToken(token, 0).replace(/^card 0: /, "");

/** Groups separated by commas ("KH KD KS, K: 2C"); each {cards, ontoRank}. For the melds of the position. */
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
  if (g.onto) out.onto = g.onto;
  if (g.newMeld) out.newMeld = true;
  return out;
}

/** A cursor over an action's tokens (words, ',' and ':') with their 1-based columns, as the server parses. */
class ActionParser {
  constructor(text) {
    this.text = text;
    this.tokens = [...text.matchAll(/,|:|[^\s,:]+/g)].map((m) => [m[0], m.index + 1]);
    this.at = 0;
  }

  peek() {
    return this.at < this.tokens.length ? this.tokens[this.at][0] : null;
  }

  column() {
    return this.at < this.tokens.length ? this.tokens[this.at][1] : this.text.trimEnd().length + 1;
  }

  error(message, column) {
    return new NotationError(`at character ${column || this.column()}: ${message}`);
  }

  take() {
    this.at += 1;
    return this.tokens[this.at - 1][0];
  }

  end(after) {
    const token = this.peek();
    if (token !== null) throw this.error(`unexpected '${token}' after ${after}`);
  }

  card() {
    const [token, column] = this.tokens[this.at];
    if (!ALL_TOKENS.includes(token)) throw this.error(cardProblem(token), column);
    this.at += 1;
    return token;
  }

  cards(what) {
    const cards = [];
    let token;
    while ((token = this.peek()) !== null && !KEYWORDS.includes(token)) cards.push(this.card());
    if (!cards.length) {
      const found = this.peek() !== null ? `got '${this.peek()}'` : "the text ends";
      throw this.error(`${what} needs at least one card, ${found}`);
    }
    return cards;
  }

  /** A meld number (1 or more). */
  number(what) {
    const token = this.peek();
    if (token === null || !/^[0-9]+$/.test(token) || token.startsWith("0") || token.length > 4) {
      throw this.error(`${what} needs a meld number (1, 2, ...), got ${token !== null ? `'${token}'` : "nothing"}`);
    }
    this.at += 1;
    return Number(token);
  }

  /** [`to` N]: the meld a group joins (0 when not named). */
  target(what) {
    if (this.peek() !== "to") return 0;
    this.at += 1;
    return this.number(`'to' in ${what}`);
  }

  /** [`new`]: the group starts a new meld. */
  newMeld() {
    if (this.peek() !== "new") return false;
    this.at += 1;
    return true;
  }

  groups(where) {
    const groups = [];
    for (;;) {
      const number = groups.length + 1;
      let ontoRank = null;
      if (this.at + 1 < this.tokens.length && this.tokens[this.at + 1][0] === ":") {
        const [head, column] = this.tokens[this.at];
        if (head.length !== 1 || !RANKS.includes(head)) {
          throw this.error(`'${head}:' is not a rank (one of ${[...RANKS].join(" ")})`, column);
        }
        ontoRank = head;
        this.at += 2;
      }
      const newMeld = this.newMeld();
      const cards = this.cards(`${where} group ${number}`);
      const onto = this.target(`${where} group ${number}`);
      if (newMeld && onto) throw this.error(`${where} group ${number} is either 'new' or 'to N', not both`);
      groups.push({ cards, ontoRank, onto, newMeld });
      if (this.peek() !== ",") return groups;
      this.at += 1;
    }
  }
}

/** Parse an action ("take-pile with 9H 9D") into its protobuf JSON; NotationError says what is wrong and where. */
export function parseAction(text) {
  const p = new ActionParser(String(text));
  const verb = p.peek();
  if (verb === null) throw p.error(`empty action: expected ${VERBS}`);
  p.take();
  const simple = { draw: { draw: {} }, ask: { askPartner: {} }, finish: { finish: {} }, "pick-up-pile": { pickUpPile: {} } };
  if (Object.hasOwn(simple, verb)) {
    p.end(`'${verb}' (it takes nothing more)`);
    return simple[verb];
  }
  if (verb === "discard") {
    if (p.peek() === null) throw p.error("'discard' needs a card");
    const card = p.card();
    p.end("'discard CARD' (one card)");
    return { discard: { card: cardName(card) } };
  }
  if (verb === "answer") {
    const word = p.peek();
    if (word !== "yes" && word !== "no") throw p.error(`'answer' takes 'yes' or 'no', got ${word ? `'${word}'` : "nothing"}`);
    p.take();
    p.end(`'answer ${word}'`);
    return { answerPartner: word === "yes" ? { yes: true } : {} };
  }
  if (verb === "meld") {
    const groups = p.groups("meld");
    p.end("the last group (one 'meld' per action; separate its groups with ',')");
    return { meld: { groups: groups.map(groupJson) } };
  }
  if (verb === "combine") {
    const first = p.number("'combine'");
    const second = p.number("'combine' (two melds)");
    p.end("'combine N M' (two meld numbers)");
    return { combine: { first, second } };
  }
  if (verb === "take-pile") {
    const out = {};
    let newMeld = false;
    if (p.peek() === "with") {
      p.take();
      newMeld = p.newMeld();
      out.with = p.cards("'take-pile with'").map(cardName);
    }
    const onto = p.target("'take-pile'");
    if (newMeld && onto) throw p.error("'take-pile with' is either 'new' or 'to N', not both");
    if (p.peek() === "meld") {
      p.take();
      out.melds = p.groups("take-pile meld").map(groupJson);
    }
    const token = p.peek();
    if (token !== null) throw p.error(`after 'take-pile' expected 'with CARDS', 'to N' or 'meld GROUPS', got '${token}'`);
    if (onto) out.onto = onto;
    if (newMeld) out.newMeld = true;
    return { takePile: out };
  }
  throw p.error(`unknown action '${verb}': expected ${VERBS}`, 1 + p.text.length - p.text.trimStart().length);
}

function formatGroups(groups) {
  return (groups || [])
    .map(
      (g) =>
        (g.ontoRank ? tokenOf(g.ontoRank)[0] + ": " : "") +
        (g.newMeld ? "new " : "") +
        (g.cards || []).map(tokenOf).join(" ") +
        (g.onto ? ` to ${g.onto}` : ""),
    )
    .join(", ");
}

/** The notation of an action in protobuf JSON (the inverse of parseAction). */
export function formatAction(action) {
  if ("draw" in action) return "draw";
  if ("askPartner" in action) return "ask";
  if ("finish" in action) return "finish";
  if ("pickUpPile" in action) return "pick-up-pile";
  if ("discard" in action) return `discard ${tokenOf(action.discard.card)}`;
  if ("answerPartner" in action) return `answer ${action.answerPartner.yes ? "yes" : "no"}`;
  if ("meld" in action) return `meld ${formatGroups(action.meld.groups)}`;
  if ("combine" in action) return `combine ${action.combine.first || 0} ${action.combine.second || 0}`;
  if ("takePile" in action) {
    const t = action.takePile;
    let text = "take-pile";
    if (t.with && t.with.length) text += ` with ${t.newMeld ? "new " : ""}${t.with.map(tokenOf).join(" ")}`;
    if (t.onto) text += ` to ${t.onto}`;
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
