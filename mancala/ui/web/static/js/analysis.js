// The study panels' side of the page: the hint, the analysis, the review, the opening explorer
// and the evaluation bar, each asking the server about the position shown.
import { el } from "./boards.js";
import { renderReview, fmtValue, lineText } from "./panels.js";
import { $, app, ui } from "./state.js";
import { request } from "./messages.js";

/** The review panel (graph, classes, table) for the position shown. */
export function drawReview() {
  const r = app.review;
  if (!r || !app.state || r.game_id !== app.state.game_id) return;
  const focused = $("review-out").contains(document.activeElement) ? document.activeElement : null;
  const where = focused && (focused.closest("#mistakes") ? "#mistakes button" : focused.closest("#eval-graph") ? "#eval-graph .pt" : "#review-table button");
  const key = focused && focused.dataset.ply !== undefined ? `${where}[data-ply="${focused.dataset.ply}"]` : null;
  $("review-out").replaceChildren(...renderReview(r, app.state.players.map((p) => p.name), ui.viewPly, ui.shownPly(app.state)));
  const again = key && $("review-out").querySelector(key);
  if (again) { // the focus stays on the row (or graph point) it was on
    if (again.closest("#eval-graph")) for (const d of $("eval-graph").querySelectorAll(".pt")) d.setAttribute("tabindex", d === again ? "0" : "-1");
    again.focus({ preventScroll: true });
  }
}

/** A review: the review panel's table, and the values after each turn in the move list. */
export function onReview(msg) {
  if (!app.state) return;
  app.review = { ...msg, game_id: app.state.game_id };
  drawReview();
  $("history-values").textContent = "Update the values";
  ui.renderHistory(app.state);
}

/** Ask for the book's values of the position shown, while the explorer is open. */
export function updateExplorer() {
  const s = app.state;
  if (!s || !$("explorer-panel").open) return;
  const key = `${s.game_id}:${ui.shownLine()}:${ui.shownPly(s)}:${s.ply}`;
  if (app.exploreKey === key) return;
  app.exploreKey = key;
  const over = app.viewing ? app.viewing.to_move === null : !!s.result || s.to_move === null;
  if (over) { $("explorer-out").replaceChildren(el("p", {}, "The game is over in this position.")); return; }
  $("explorer-out").textContent = "Reading the book…";
  app.exploreRequest = request("explore", ui.shownFields(), "explore");
}

/** Ask for the value of the position shown (when the bar is on and the position changed). */
export function updateEvalBar() {
  const s = app.state;
  const on = $("evalbar-on").checked && !!s;
  $("eval-bar").hidden = !on;
  document.body.dataset.evalbar = on ? "on" : "off";
  if (!on) return;
  const line = ui.shownLine();
  const ply = ui.shownPly(s);
  const key = `${s.game_id}:${line}:${ply}:${s.ply}`;
  if (app.evalKey === key) return;
  app.evalKey = key;
  const over = app.viewing ? app.viewing.to_move === null : !!s.result || s.to_move === null;
  if (over) { // the game's end: the result is the value
    const b = app.viewing ? null : s.result;
    setEvalBar(b ? { value: b.score[0], exact: true, unit: unitOf(s) } : null, "the game is over");
    return;
  }
  const fields = { ply }; // the analysis's own budget: the bar, the hint and the analysis read one table
  if (line !== null) fields.line = line;
  setEvalBar(undefined, "evaluating…");
  app.evalRequest = request("analyse", fields, "evalbar");
}

export function showEvalBar(msg, newest) {
  if (!newest || !msg.moves.length) return;
  const best = msg.moves[0];
  const value = msg.player === 0 ? best.value : best.value === "inf" ? "-inf" : best.value === "-inf" ? "inf" : -best.value;
  setEvalBar({ value, exact: best.exact, depth: best.depth, unit: msg.unit });
}

/** Draw the bar: the first player's share from their side of the board, the value written on it;
 * `undefined` while a value is awaited, `null` when there is none (`why`). */
export function setEvalBar(v, why = "") {
  const bar = $("eval-bar");
  const s = app.state;
  const first = s ? s.players[0].name : "South";
  bar.dataset.state = v === undefined ? "waiting" : v === null ? "none" : "value";
  if (!v) {
    bar.querySelector(".eval-text").textContent = v === undefined ? "…" : "–";
    bar.setAttribute("aria-label", `Evaluation bar: ${why}`);
    return;
  }
  const n = v.value === "inf" ? Infinity : v.value === "-inf" ? -Infinity : Number(v.value);
  const scale = v.unit === "outcome" ? 1 : v.unit === "eval" ? 10 : 8; // the value that fills three quarters
  const share = Number.isFinite(n) ? 0.5 + 0.5 * (v.unit === "outcome" ? Math.sign(n) : n / (Math.abs(n) + scale / 3)) : n > 0 ? 1 : 0;
  // the first player's share grows from that player's side of the board as drawn
  const flip = !!s && ((s.players[0].name === "North") !== ui.flipped(s));
  bar.querySelector(".eval-fill").style.height = `${(100 * (flip ? 1 - share : share)).toFixed(1)}%`;
  bar.classList.toggle("flipped", !!flip);
  bar.classList.toggle("exact", !!v.exact);
  const text = fmtValue(v.value, v.unit);
  bar.querySelector(".eval-text").textContent = text;
  const unit = v.unit === "seeds" ? ` ${unitWord(s)}` : "";
  bar.setAttribute("aria-label", `Evaluation bar: ${text}${unit} for ${first}${v.exact ? " (exact)" : ` (estimate, depth ${v.depth ?? "?"})`}`);
  bar.title = bar.getAttribute("aria-label");
}

export function sideName(player) {
  const s = app.state;
  return s ? s.players[player].name : String(player);
}

/** The word for what a margin counts in a state's game (seeds, stones). */
function unitWord(s) {
  return (s && s.game.margin_unit) || "seeds";
}

/** What a state's values count (`seeds`, `eval`, `outcome`), as its game declares. */
export function unitOf(s) {
  return s.game.value_unit;
}

export function showHint(h) {
  app.hint = h;
  const box = $("hint-out");
  box.hidden = false;
  box.textContent = `Hint for ${sideName(h.player)}: play ${h.move} — value ${fmtValue(h.value, h.unit)}` +
    `${h.unit === "seeds" ? ` ${unitWord(app.state)}` : ""} (${h.exact ? "exact" : `depth ${h.depth}, estimate`})` +
    (h.line && h.line.length > 1 ? `; expected line ${lineText(h)}` : "");
  ui.announce(box.textContent);
  if (app.state && !app.animating) ui.render(app.state, { final: true });
}
