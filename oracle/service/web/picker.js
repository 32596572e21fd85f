// The card picker: a grid of every card; a click (or Enter) adds the card to the card field (or the action) that
// last had the focus; one button is in the tab order and the arrow keys move within the grid.

import { ALL_TOKENS, cardElement, cardLabel } from "./cards.js";
import { fill, h } from "./dom.js";

const $ = (id) => document.getElementById(id);

/** Build the picker in #picker; `target` tracks the id of the field it adds to. */
export function picker(target) {
  const grid = $("picker");
  // One button is in the tab order; the arrow keys move within the grid (four suits a row), Enter adds.
  ALL_TOKENS.forEach((token, i) => {
    grid.append(h("button", { type: "button", class: "pick", "data-card": token, tabindex: i ? "-1" : "0", "aria-label": `Add ${cardLabel(token)}` }, cardElement(token)));
  });
  grid.addEventListener("keydown", (e) => {
    const buttons = [...grid.querySelectorAll("button")];
    const at = buttons.indexOf(document.activeElement);
    const move = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: 4, ArrowUp: -4, Home: -at, End: buttons.length - 1 - at }[e.key];
    if (at < 0 || move === undefined) return;
    e.preventDefault();
    const next = buttons[Math.max(0, Math.min(buttons.length - 1, at + move))];
    buttons.forEach((b) => b.setAttribute("tabindex", b === next ? "0" : "-1"));
    next.focus();
  });
  grid.addEventListener("click", (e) => {
    const button = e.target.closest("button[data-card]");
    const input = $(target.id);
    if (!button || !input) return;
    const sep = input.value.trim() ? " " : "";
    input.value = input.value.replace(/\s+$/, "") + sep + button.dataset.card;
    input.dispatchEvent(new Event("input"));
  });
  $("picker-undo").addEventListener("click", () => {
    const input = $(target.id);
    if (!input) return;
    input.value = input.value.replace(/\s*\S+\s*$/, "");
    input.dispatchEvent(new Event("input"));
  });
  document.addEventListener("focusin", (e) => {
    if (e.target.matches && e.target.matches(".cards-input")) {
      target.id = e.target.id;
      fill($("picker-target"), "Adds to: ", document.querySelector(`label[for=${e.target.id}]`).textContent);
    }
  });
}

