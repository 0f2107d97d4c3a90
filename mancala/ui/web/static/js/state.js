// The page's one shared, mutable state, and the element lookup every part uses.
// Each part of the page (messages, game, moves, history, analysis, dialogs, setup) reads and
// writes this object; none keeps a copy of what the server said.

export const $ = (id) => document.getElementById(id);

/** The page's parts' actions that another part calls (render, announce, viewPly, sendMove, ...),
 * bound once by main.js before the page starts: a part calls another through it, so that no
 * module imports one that imports it back (the parts call each other both ways). */
export const ui = {};

export const app = {
  conn: null,
  state: null, // the newest state from the server
  shown: null, // the state whose board is drawn
  queue: [], // states waiting for the animation of an earlier one
  animating: false,
  viewing: null, // a `view` answer being shown (history browsing)
  selected: null, // Bao: the hole clicked first
  choiceStage: null,
  hint: null,
  flip: false, // the flip button (or F) was used: the board is turned from its default way
  thinkingAt: 0,
  tables: null, // the background build of the endgame table (state.table_build, with the moment it came)
  games: null,
  params: new URLSearchParams(location.search),
  pending: new Map(), // request id -> what it was
  history: [], // the game's whole move list, kept from the states' deltas (messages.js)
};
