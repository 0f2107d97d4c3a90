// The move list and earlier positions: the moves in turns, the side lines, the position viewed
// (a move played there tries a side line), and the links that share a position or the game.
import { drawBoard, el } from "./boards.js";
import { fmtValue } from "./panels.js";
import { $, app, ui } from "./state.js";
import { request } from "./messages.js";

/** The moves played, grouped in turns (one player's moves up to the hand-over: a chain of
 * extra turns is one turn), two turns a numbered row; each move a button that shows the position
 * after it; the position shown marked; the value after each turn when the game was reviewed. */
function turnsOf(history) {
  const turns = [];
  for (const h of history) {
    const last = turns[turns.length - 1];
    if (last && last.player === h.player) last.moves.push(h);
    else turns.push({ player: h.player, name: h.name, moves: [h] });
  }
  return turns;
}

export function shownPly(s) {
  return app.viewing ? app.viewing.ply : s.ply;
}

/** The fields that name the position shown (`ply`, and `line` in a side line) for a study request. */
export function shownFields() {
  if (!app.viewing) return {};
  return shownLine() === null ? { ply: app.viewing.ply } : { ply: app.viewing.ply, line: shownLine() };
}

export function shownLine() {
  return app.viewing && app.viewing.line !== null && app.viewing.line !== undefined ? app.viewing.line : null;
}

/** One move back or on along the line shown (a side line, else the game). */
export function stepPly(s, step) {
  const lines = s.variations || [];
  let v = shownLine() !== null ? lines[shownLine()] : null;
  const target = shownPly(s) + step;
  // back past where a nested line leaves its parent: on along the parent (the same positions)
  while (v && v.parent !== null && v.parent !== undefined && target <= v.at) v = lines[v.parent];
  if (v && target > v.from) { if (target <= v.from + v.moves.length) viewPly(target, v.id); return; }
  viewPly(target);
}

/** The value after a move from the first player's side (the review's value is the mover's). */
function valueAfter(h) {
  const r = app.review;
  if (!r || r.game_id !== app.state.game_id) return null;
  const m = r.moves[h.ply - 1];
  if (!m || m.move !== h.move || m.ply !== h.ply) return null;
  return { value: m.player === 0 ? m.value : negate(m.value), exact: m.exact, unit: r.unit };
}

function negate(v) {
  return v === "inf" ? "-inf" : v === "-inf" ? "inf" : -v;
}

export function renderHistory(s) {
  const list = $("history");
  const current = shownLine() === null ? shownPly(s) : -1;
  const first = s.players[0].name;
  const items = [el("li", { class: "start" }, el("button", {
    type: "button", "aria-current": current === 0 ? "true" : null, dataset: { at: 0 },
    onclick: () => viewPly(0),
  }, "Start position"))];
  const turns = turnsOf(s.history);
  const firstMover = turns.length ? turns[0].player : 0;
  let row = null;
  let number = 0;
  for (const turn of turns) {
    if (!row || turn.player === firstMover) {
      number += 1;
      row = el("li", { class: "round" }, el("span", { class: "num", "aria-hidden": "true" }, `${number}.`));
      if (turn.player !== firstMover) row.append(el("span", { class: "turn empty-turn", "aria-hidden": "true" }, "…"));
      items.push(row);
    }
    const cell = el("span", { class: "turn", dataset: { player: turn.player } });
    turn.moves.forEach((h, i) => {
      if (i) cell.append(el("span", { class: "chain", "aria-hidden": "true", title: "extra turn" }, "·"));
      cell.append(el("button", {
        type: "button", title: h.text, dataset: { ply: h.ply, at: h.ply },
        "aria-current": current === h.ply ? "true" : null,
        onclick: () => viewPly(h.ply),
      }, el("span", { class: "visually-hidden" }, `Position after move ${h.ply}, turn ${number}: ${mover(s, h)} `), h.move));
    });
    const v = valueAfter(turn.moves[turn.moves.length - 1]);
    if (v) {
      cell.append(el("span", { class: "turn-value" + (v.exact ? " exact" : ""), title: `value for ${first} after this turn${v.exact ? " (exact)" : " (estimate)"}` },
        el("span", { class: "visually-hidden" }, `value for ${first}: `), fmtValue(v.value, v.unit)));
    }
    row.append(cell);
    // side lines that leave the game after this turn, beside it
    const end = turn.moves[turn.moves.length - 1].ply;
    const begin = turn.moves[0].ply - 1;
    for (const v of topLines(s)) if (v.from > begin && v.from <= end) items.push(variationItem(s, v));
  }
  for (const v of topLines(s)) if (v.from === 0) items.splice(1, 0, variationItem(s, v));
  if (!s.history.length) items.push(el("li", { class: "empty" }, "No moves yet."));
  list.replaceChildren(...items);
  if (app.review && app.review.game_id === s.game_id && $("review-out").querySelector("#eval-graph")) ui.drawReview();
  // the position shown in view, scrolling the list only (never the page)
  const mark = list.querySelector('[aria-current="true"]');
  if (mark) {
    const top = mark.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top + mark.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = Math.max(0, top - list.clientHeight / 2);
    }
  }
}

/** The address that opens the position shown (`position`) or the whole game (`game`, at the
 * move shown), for "Copy link"; null when the game has no position notation. Slashes and commas,
 * which a query may hold as they are, stay readable (Bao's rows, tic-tac-toe's, a game's moves). */
function shareLink(kind) {
  const s = app.state;
  if (!s) return null;
  const url = new URL(location.pathname, location.origin);
  url.searchParams.set("game", s.game.spec);
  if (kind === "position") {
    const position = app.viewing ? app.viewing.position : s.position;
    if (!position) return null;
    url.searchParams.set("position", position);
  } else {
    url.searchParams.set("moves", s.history.map((h) => h.move).join(","));
    // (a side line is not part of the game's moves: its link opens the game where the line leaves it)
    const line = shownLine();
    const at = line === null ? shownPly(s) : (s.variations[line] || { from: 0 }).from;
    if (app.viewing) url.searchParams.set("ply", String(at));
  }
  if (app.params.get("token")) url.searchParams.set("token", app.params.get("token"));
  return url.toString().replace(/%2F/gi, "/").replace(/%2C/gi, ",");
}

export async function copyLink(kind) {
  const link = shareLink(kind);
  if (!link) return;
  const box = $("share-link");
  box.hidden = false;
  box.value = link;
  let copied = false;
  try {
    await navigator.clipboard.writeText(link);
    copied = true;
  } catch { /* no clipboard here (an insecure page, a refusal): the link is shown to copy by hand */ }
  if (!copied) { box.focus(); box.select(); }
  const what = kind === "position" ? "position" : "game";
  $("share-note").textContent = copied ? `Link to this ${what} copied.` : `Copy this link to the ${what}.`;
  ui.announce($("share-note").textContent);
}

/** Who made move `h`: its seat, and the person's name when a named person plays it. */
function mover(s, h) {
  const p = s.players[h.player] || {};
  const seat = h.name ?? p.name;
  return p.person ? `${seat} (${p.person})` : seat;
}

/** The side lines that leave the game itself (the others are drawn inside their parent). */
function topLines(s) {
  return (s.variations || []).filter((v) => v.parent === null || v.parent === undefined);
}

/** A side line in the move list: its moves in turns (each shows its position), then Promote
 * (make it the game) and Delete, then the lines branched inside it, nested. A line branched
 * inside another shows only its moves after the point where it leaves its parent. */
function variationItem(s, v) {
  const label = `Side line ${v.id + 1}`;
  const nested = v.parent !== null && v.parent !== undefined;
  const at = nested ? v.at : v.from;
  const body = el("span", { class: "line-moves" });
  turnsOf(v.history.filter((h) => h.ply > at)).forEach((turn, t) => {
    if (t) body.append(el("span", { class: "turn-gap", "aria-hidden": "true" }, "|"));
    turn.moves.forEach((h, i) => {
      if (i) body.append(el("span", { class: "chain", "aria-hidden": "true" }, "·"));
      const here = shownLine() === v.id && shownPly(s) === h.ply;
      body.append(el("button", {
        type: "button", title: h.text, class: "line-move", dataset: { line: v.id, ply: h.ply, at: h.ply },
        "aria-current": here ? "true" : null, onclick: () => viewPly(h.ply, v.id),
      }, el("span", { class: "visually-hidden" }, `${label}, position after move ${h.ply}: ${mover(s, h)} `), h.move));
    });
  });
  const may = s.you.length > 0 || s.players.every((p) => p.kind === "ai");
  const where = nested ? `after move ${at} of side line ${v.parent + 1}` : at === 0 ? "from the start" : `after move ${at}`;
  const children = (s.variations || []).filter((c) => c.parent === v.id);
  return el("li", { class: "variation", dataset: nested ? { line: v.id, parent: v.parent } : { line: v.id } },
    el("span", { class: "line-label" }, `(${where})`), body,
    may ? el("span", { class: "line-tools" },
      el("button", { type: "button", class: "promote", "aria-label": `Promote ${label.toLowerCase()}: make it the game`,
        onclick: () => request("promote", { line: v.id }, "promote") }, "⇧ Promote"),
      el("button", { type: "button", class: "delete", "aria-label": `Delete ${label.toLowerCase()}`,
        onclick: () => { if (shownLine() === v.id) leaveView(); request("delete_line", { line: v.id }, "delete_line"); } }, "✕ Delete")) : null,
    children.length ? el("ul", { class: "sublines", "aria-label": `Side lines inside ${label.toLowerCase()}` },
      ...children.map((c) => variationItem(s, c))) : null);
}

/** Show the position after move `ply` (0: the start; the last move: the game as it stands). */
export function viewPly(ply, line = null) {
  const s = app.state;
  if (!s) return;
  if (line !== null) { request("view", { ply, line }); return; }
  const target = Math.max(0, Math.min(s.ply, ply));
  if (target === s.ply) { if (app.viewing) leaveView(); return; }
  if (app.viewing && app.viewing.ply === target && shownLine() === null) return;
  request("view", { ply: target });
}

export function showView(v) {
  const s = app.state;
  if (!s) return;
  if (v.ply === s.ply && (v.line === null || v.line === undefined)) { leaveView(); return; }
  const moved = !app.viewing || app.viewing.ply !== v.ply || app.viewing.line !== v.line;
  if (moved) { app.selected = null; app.choiceStage = null; }
  app.viewing = v;
  const inLine = v.line !== null && v.line !== undefined;
  $("viewing").hidden = false;
  $("notices").hidden = true; // the last move's notices are not about the position viewed
  $("viewing-text").textContent = (v.ply === 0 ? "Viewing the start position." : `Viewing the position after move ${v.ply}` +
    `${inLine ? ` of side line ${v.line + 1}` : ""}: ${v.last ? v.last.text : ""}`) +
    (v.legal && v.legal.length ? " Play a move here to try a side line." : "");
  // a move played here starts (or goes on with) a side line; the game itself is not touched
  const legal = v.legal || [];
  drawBoard($("board"), { board: v.board, legal, interactive: legal.length > 0, players: ui.playersWithYou(s), flipped: ui.flipped(s),
    lastCells: ui.lastCells({ board: v.board, last: v.last }), selected: app.selected, onMove: ui.sendMove, onHole: ui.chooseHole });
  ui.showRuleNote(v.board);
  document.body.dataset.viewing = String(v.ply);
  document.body.dataset.line = inLine ? String(v.line) : "main";
  renderHistory(s);
  ui.renderChoice(s);
  ui.updateEvalBar();
  ui.updateExplorer();
  if (moved) ui.announce($("viewing-text").textContent);
}

export function leaveView() {
  app.viewing = null;
  app.selected = null;
  app.choiceStage = null;
  $("viewing").hidden = true;
  $("notices").hidden = false;
  delete document.body.dataset.viewing;
  delete document.body.dataset.line;
  if (app.state) ui.render(app.state, { final: !app.animating });
}
