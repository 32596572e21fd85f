// A side's melds as the form previews them: numbered 1, 2, ... as actions name them (`meld 8H to 3`, `take-pile
// to 3`, `combine 2 5`), each a group of one rank or a run (natural cards of several ranks, where rule books have
// runs), as oracle.model.state.is_run tells them.

import { cardsElement } from "./cards.js";
import { h } from "./dom.js";

/** Whether a card token is wild (a joker or a two). */
export const isWild = (token) => token === "JK" || token[0] === "2";

/** Whether a meld's cards are a run: its natural cards are of more than one rank. */
export function isRun(tokens) {
  return new Set(tokens.filter((t) => !isWild(t)).map((t) => t[0])).size > 1;
}

/** The melds drawn as cards, each with its number (and "run" for a run), as actions name them. */
export function meldsElement(groups) {
  return groups.map((cards, i) =>
    h("span", { class: "meld", "data-meld": String(i + 1), title: `meld ${i + 1}` },
      h("b", { class: "meld-number" }, `${i + 1}`),
      cardsElement(cards),
      isRun(cards) ? h("small", { class: "meld-kind" }, "run") : null));
}
