// Who plays with whom: fixed sides (seat i plays for side i mod sides), or under players.side_formation LONE_HAND
// the lone hand and the two partners once the pile was first taken (GameState.side_of_seat), and how the page
// names each seat, side and score column accordingly.

/** The side entry of a seat when sides are fixed (players.side_formation FIXED, or before sides form). */
export const sideOf = (seat, sides) => seat % sides;

/** Under players.side_formation LONE_HAND once the pile was first taken (pos.lone): per seat, the side entry holding
 * its side's melds, as GameState.side_of_seat (the lone seat its own, both partners the lower one's); else []. */
export function sideOfSeat(pos) {
  if (!pos.loneHand || pos.lone === "" || pos.lone === undefined || pos.lone === null) return [];
  const lone = Number(pos.lone);
  const first = lone === 0 ? 1 : 0;
  return pos.hands.map((_, seat) => (seat === lone ? seat : first));
}

/** The side entry whose melds a seat plays with (its partnership's once sides formed). */
export function playingSide(pos, seat) {
  const formed = sideOfSeat(pos);
  return formed.length ? formed[seat] : sideOf(seat, pos.sides.length);
}

/** A seat's label on the form: you, your partner or an opponent, and who plays alone once sides formed. */
export function seatName(seat, pos) {
  const alone = sideOfSeat(pos).length && seat === Number(pos.lone) ? ", playing alone" : "";
  if (seat === pos.seatToMove) return `Seat ${seat} (you, to move${alone})`;
  if (playingSide(pos, seat) === playingSide(pos, pos.seatToMove)) return `Seat ${seat} (your partner)`;
  return `Seat ${seat} (opponent${alone})`;
}

/** A side entry's legend on the form: yours or the opponents', and once sides formed whose melds, red threes and
 * score it holds. */
export function sideName(side, pos, sides) {
  const whose = (entry) => (entry === playingSide(pos, pos.seatToMove) ? "yours" : "opponents");
  const formed = sideOfSeat(pos);
  if (!formed.length) return `Side ${side} (${whose(sideOf(side, sides))})`;
  const partners = formed.map((_, s) => s).filter((s) => s !== Number(pos.lone));
  if (side === Number(pos.lone)) return `Side ${side}: seat ${side} alone (${whose(side)})`;
  if (side === formed[side]) {
    return `Side ${side}: seats ${partners.join(" and ")}, partners (${whose(side)}): their melds, seat ${side}'s red threes and score`;
  }
  return `Side ${side}: seat ${side}'s red threes and score (${whose(formed[side])}; the partners' melds are on side ${formed[side]})`;
}

/** Whose column a side entry's score is once sides formed: " (seat N alone)", " (seat N, partner of seat M)"; "" for
 * fixed sides (`sideOfSeat` empty). */
export function seatNote(sideOfSeat, seat) {
  if (!sideOfSeat || !sideOfSeat.length || seat >= sideOfSeat.length) return "";
  const partners = sideOfSeat.map((_, s) => s).filter((s) => s !== seat && sideOfSeat[s] === sideOfSeat[seat]);
  return partners.length ? ` (seat ${seat}, partner of seat ${partners.join(" and ")})` : ` (seat ${seat} alone)`;
}
