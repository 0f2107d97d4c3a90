// The player's moves: a click or a typed move sent to the server, Bao's choice of direction and
// nyumba, and the keyboard (the move list's arrows, the pit numbers, the shortcut letters).
import { boardOf, el } from "./boards.js";
import { $, app, ui } from "./state.js";
import { request } from "./messages.js";

export function sendMove(move) {
  // a choice's button (Bao's direction) goes with the choice: the focus stays on the board
  if ($("choice").contains(document.activeElement)) $("board").focus({ preventScroll: true });
  $("error").hidden = true;
  app.selected = null;
  app.choiceStage = null;
  $("choice").hidden = true;
  if (app.viewing) { // an earlier position, or a side line's: the move tries a side line
    const fields = { ply: app.viewing.ply, move };
    if (app.viewing.line !== null && app.viewing.line !== undefined) fields.line = app.viewing.line;
    request("branch", fields, "branch");
    return;
  }
  request("move", { move }, "move");
}

/** What a click plays in: the position viewed (its legal moves, for a side line) or the game. */
function playState(s) {
  return app.viewing ? { ...s, board: app.viewing.board, legal: app.viewing.legal || [], result: null } : s;
}

/** Bao: a hole was clicked; ask for direction, kichwa and nyumba only when the legal list leaves a choice. */
export function chooseHole(hole) {
  const s = playState(app.state);
  const moves = s.legal.filter((m) => m.hole === hole);
  if (moves.length === 1) { sendMove(moves[0].move); return; }
  app.selected = hole;
  app.choiceStage = { hole, dir: null };
  if (app.viewing) ui.showView(app.viewing);
  else ui.render(s, { final: true });
  const first = $("choice-buttons").querySelector("button");
  if (first) first.focus();
}

function dirKey(m) { return m.kichwa ? "k:" + m.kichwa : "d:" + m.dir; }

function baoArrow(s, m) {
  // which way the first seed goes on screen, from the hole's row and its owner (the board
  // turned round: the other way)
  const north = m.hole === m.hole.toLowerCase();
  const flip = ui.flipped(s);
  if (m.kichwa) return ((m.kichwa === "left") !== north) !== flip ? "◀" : "▶"; // North's left is South's right
  let r = 0;
  s.board.rows.forEach((row, i) => { if (row.some((h) => h.name === m.hole)) r = i; });
  const cw = m.sow === "cw";
  const rightward = (r === 2 ? cw : r === 3 ? !cw : r === 1 ? !cw : cw) !== flip;
  return rightward ? "▶" : "◀";
}

export function renderChoice(game) {
  const s = playState(game);
  const box = $("choice");
  const stage = app.choiceStage;
  if (!stage || app.selected !== stage.hole || !boardOf(s.board.kind).twoStepMoves || s.result || !s.legal.length) {
    box.hidden = true;
    app.choiceStage = null;
    return;
  }
  const moves = s.legal.filter((m) => m.hole === stage.hole);
  const byDir = new Map();
  for (const m of moves) {
    if (!byDir.has(dirKey(m))) byDir.set(dirKey(m), []);
    byDir.get(dirKey(m)).push(m);
  }
  let dir = stage.dir;
  if (!dir && byDir.size === 1) dir = [...byDir.keys()][0];
  const buttons = [];
  if (!dir) {
    $("choice-title").textContent = `${stage.hole}: which way?`;
    for (const [key, group] of byDir) {
      const m = group[0];
      const arrow = baoArrow(s, m);
      const kichwaHole = (m.hole === m.hole.toLowerCase() ? "a" : "A") + (m.kichwa === "left" ? "1" : "8");
      const text = m.kichwa ? `${arrow} captured seeds enter the ${m.kichwa} kichwa (${kichwaHole})`
        : arrow === "◀" ? `◀ sow ${m.sow === "cw" ? "clockwise" : "anticlockwise"} (${m.dir})`
          : `sow ${m.sow === "cw" ? "clockwise" : "anticlockwise"} (${m.dir}) ▶`;
      buttons.push(el("button", { type: "button", class: "primary", dataset: { dir: m.dir, kichwa: m.kichwa || "" },
        onclick: () => {
          if (group.length === 1) sendMove(group[0].move);
          else { app.choiceStage = { hole: stage.hole, dir: key }; renderChoice(s); focusChoice(); }
        } }, text));
    }
  } else {
    const group = byDir.get(dir);
    if (group.length === 1) { box.hidden = true; return; }
    $("choice-title").textContent = `${stage.hole}: the sowing reaches your nyumba — play it?`;
    for (const m of group) {
      buttons.push(el("button", { type: "button", class: "primary", dataset: { house: String(m.house) },
        onclick: () => sendMove(m.move) },
      m.house ? `Play the nyumba (safari) — ${m.move}` : `Stop in the nyumba — ${m.move}`));
    }
  }
  buttons.push(el("button", { type: "button", onclick: cancelChoice }, "Cancel"));
  $("choice-buttons").replaceChildren(...buttons);
  box.hidden = false;
}

function focusChoice() {
  const first = $("choice-buttons").querySelector("button");
  if (first) first.focus();
}

function cancelChoice() {
  const hole = app.selected;
  app.selected = null;
  app.choiceStage = null;
  if (app.viewing) ui.showView(app.viewing);
  else if (app.state) ui.render(app.state, { final: true });
  const btn = hole && document.querySelector(`[data-hole="${hole}"]`);
  if (btn) btn.focus();
}

export function onKey(event) {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
  const tag = (event.target.tagName || "").toLowerCase();
  if (tag === "input" || tag === "select" || tag === "textarea" || $("new-dialog").open || $("setup-dialog").open) return;
  const s = app.state;
  if (event.key === "Escape" && app.selected) { cancelChoice(); return; }
  if (event.key === "Escape" && app.viewing) { ui.leaveView(); return; }
  // the move list: ← → one move back or on, Home the start, End the game as it stands
  const step = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity }[event.key];
  if (step !== undefined && s && !$("board").contains(document.activeElement)) {
    if (Number.isFinite(step)) ui.stepPly(s, step);
    else ui.viewPly(step < 0 ? 0 : s.ply);
    event.preventDefault();
    return;
  }
  if (["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"].includes(event.key) && $("board").contains(document.activeElement)) {
    moveFocus(event.key);
    event.preventDefault();
    return;
  }
  if (/^[0-9]$/.test(event.key) && s && !s.result) {
    // Kalah: the pit number; Oware: the house counted from the mover's left; tic-tac-toe: the square
    const k = Number(event.key);
    const keyMoves = boardOf(s.board.kind).keyMoves;
    const match = keyMoves ? keyMoves(s.legal, k) : [];
    if (match.length === 1) sendMove(match[0].move);
    else if (match.length > 1) {
      const arrow = document.querySelector(`.arrow[data-move="${match[0].move}"]`);
      if (arrow) arrow.focus();
    }
    event.preventDefault();
    return;
  }
  const key = event.key.toLowerCase();
  if (key === "u" && !$("undo").disabled) request("undo", {}, "undo");
  else if (key === "r" && !$("redo").disabled) request("redo", {}, "redo");
  else if (key === "h" && !$("hint").disabled) request("hint", {}, "hint");
  else if (key === "f" && !$("flip").disabled) ui.flipBoard();
}

function moveFocus(key) {
  const buttons = [...$("board").querySelectorAll("button[data-r]")].filter((b) => b.tabIndex !== -1);
  const current = document.activeElement;
  const r0 = Number(current.dataset.r ?? 0);
  const c0 = Number(current.dataset.c ?? 0);
  const [dr, dc] = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] }[key];
  let best = null;
  let bestScore = Infinity;
  for (const b of buttons) {
    if (b === current) continue;
    const r = Number(b.dataset.r);
    const c = Number(b.dataset.c);
    const along = dr ? (r - r0) * dr : (c - c0) * dc;
    if (along <= 0) continue;
    const across = dr ? Math.abs(c - c0) : Math.abs(r - r0);
    const score = along + across * 3;
    if (score < bestScore) { bestScore = score; best = b; }
  }
  if (best) best.focus();
}
