// The game as the server sends it: each new state, its move animated, the board drawn, the status
// lines (whose move, the clock, who is thinking, the notices) and what is announced.
import { boardOf, drawBoard, el, describePlayer } from "./boards.js";
import { framesFor, frameSchedule } from "./animate.js";
import { $, app, ui } from "./state.js";
import { clearError, engineLeft, setEngine, setTables, showEngine } from "./messages.js";

export function onState(s) {
  const newGame = !app.state || app.state.game_id !== s.game_id;
  const previous = app.state;
  app.state = s;
  app.stateAt = performance.now(); // (a held seat's seconds count down from here)
  setEngine(s.engine, s.engine_detail);
  setTables(s.table_build);
  if (newGame) {
    app.queue = [];
    app.viewing = null;
    $("analysis").replaceChildren();
    $("review-out").replaceChildren();
    $("tree-out").replaceChildren();
    $("notices").replaceChildren();
    if (!app.linkError) clearError();
    app.linkError = false;
    app.hint = null;
    $("hint-out").hidden = true;
    app.selected = null;
    app.choiceStage = null;
    app.flip = false;
    app.review = null;
    $("history-values").textContent = "Show the values";
    $("share-link").hidden = true;
    ui.showJoinNote();
    if (app.lobby) ui.renderLobby({ games: app.lobby }); // (the game shown is marked there)
    render(s, { final: true });
    if (app.linkPly !== null && app.linkPly !== undefined) { // a game link that names a move: show it
      ui.viewPly(app.linkPly);
      app.linkPly = null;
    }
    return;
  }
  if (previous && s.ply !== previous.ply) {
    clearError();
    app.hint = null;
    $("hint-out").hidden = true;
    app.selected = null;
    for (const id of ["analysis", "tree-out"]) {
      if ($(id).childElementCount) $(id).replaceChildren(el("p", { class: "help" }, "The position changed: ask again for the new one."));
    }
  }
  app.queue.push(s);
  if (!app.animating) drain();
}

async function drain() {
  app.animating = true;
  document.body.dataset.busy = "animating";
  while (app.queue.length) {
    const s = app.queue.shift();
    if (s.game_id !== app.state.game_id) continue; // a new game started meanwhile
    const shown = app.shown;
    const forward = shown && s.last && s.ply === shown.ply + 1 && s.last.ply === s.ply;
    if (forward) {
      $("notices").replaceChildren(); // the previous move's notices ("Extra turn!") are not this one's
      if ($("animate").checked && !app.viewing) {
        // the status says what the board shows: this move being sown, not the position after it
        const mover = s.history[s.ply - 1];
        $("to-move").textContent = `${mover ? mover.name : ui.sideName(s.last.player)} plays ${s.last.move}…`;
        document.body.dataset.status = "sowing";
        await playFrames(s);
        delete document.body.dataset.status;
      }
      showNotices(s.last.notices || []);
      const over = (s.last.notices || []).find((n) => n.kind === "game_over");
      // what the next player may not do (Oware: must feed, no grand slam) is not in the move's text
      const barred = s.board.restricted ? ` ${s.board.restricted.text}.` : "";
      // (a move's text that gives the final count already says the game is over: Oware)
      const overText = over && !s.last.text.includes(over.text) && !/final count/i.test(s.last.text) ? " " + over.text : "";
      announce(s.last.text + overText + barred + (yourMove(s) ? " Your move." : ""));
    } else if (shown && s.ply < shown.ply) {
      announce(`Back to move ${s.ply}.`);
      $("notices").replaceChildren();
    }
    // newer states replace older ones once their moves are animated
    if (s.game_id === app.state.game_id) render(s, { final: true });
  }
  app.animating = false;
  document.body.dataset.busy = "idle";
}

export function delayMs() {
  const speed = Number($("speed").value);
  return Math.round(1100 / (speed * speed * 0.5 + 1));
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function playFrames(s) {
  const frames = framesFor(s.last);
  if (!frames.length) return;
  const { starts, end } = frameSchedule(frames, delayMs());
  const t0 = performance.now();
  let i = 0;
  while (i < frames.length) {
    if (!$("animate").checked || app.viewing || app.state.game_id !== s.game_id) return;
    const frame = frames[i];
    drawBoard($("board"), {
      board: frame.board, legal: [], interactive: false, players: playersWithYou(s), flipped: flipped(s),
      hot: frame.hot, picked: frame.picked, captured: frame.captured, inHand: frame.inHand,
      origin: frame.origin, skip: frame.skip, lastCells: null,
    });
    if (frame.say) flashNotice(frame.say, frame.sayKind);
    const wait = (i + 1 < frames.length ? starts[i + 1] : end) - (performance.now() - t0);
    if (wait > 0) await sleep(wait);
    // drawing a frame may take longer than its share (a big board): skip to the frame due now,
    // so the move's animation still ends on time
    const now = performance.now() - t0;
    let next = i + 1;
    while (next + 1 < frames.length && starts[next + 1] <= now) next++;
    i = now >= end ? frames.length : next;
  }
}

/** Whether the board is drawn turned round (North at the bottom): by default when every seat
 * this page plays sits at North now (a person playing North, after a pie swap too); the flip
 * button or F turns it from there. */
export function flipped(s) {
  const north = s.you.length > 0 && s.players.length === 2 && s.you.every((p) => s.players[p].name === "North");
  return north !== app.flip;
}

/** Turn the board round (the flip button, F), keeping the focus where it was. */
export function flipBoard() {
  app.flip = !app.flip;
  const s = app.state;
  if (!s) return;
  if (app.viewing) ui.showView(app.viewing);
  else render(app.animating && app.shown ? app.shown : s, { final: !app.animating });
  document.body.dataset.flipped = flipped(s) ? "yes" : "no";
  $("flip").setAttribute("aria-pressed", flipped(s) ? "true" : "false");
  app.evalKey = null;
  ui.updateEvalBar();
  announce(`The board is turned: ${flipped(s) ? "North" : "South"} at the bottom.`);
}

export function playersWithYou(s) {
  return s.players.map((p) => ({ ...p, you: s.you.includes(p.player) && s.players.some((q) => q.kind !== "human") }));
}

export function lastCells(s) {
  return s.last ? boardOf(s.board.kind).lastCells(s.last) : new Set();
}

function hintKeys(s) {
  const keys = new Set();
  if (!app.hint || app.hint.ply !== s.ply) return keys;
  for (const m of s.legal) {
    if (m.move !== app.hint.move) continue;
    keys.add(m.hole ?? m.cell);
  }
  return keys;
}

/** Draw a state: board, status, history, controls. */
export function render(s, { final }) {
  app.shown = s;
  const body = document.body.dataset;
  body.ply = s.ply;
  body.game = s.board.kind;
  body.toMove = s.to_move ?? "none";
  body.result = s.result ? "over" : "running";
  body.gameId = s.game_id;
  body.flipped = flipped(s) ? "yes" : "no";
  $("flip").setAttribute("aria-pressed", flipped(s) ? "true" : "false");
  $("flip").disabled = !s.game.flippable; // a board with sides
  ui.updatePlayers();
  document.title = `${s.game.title} — Mancala`;
  const interactive = final && !app.viewing && !s.result && s.legal.length > 0;
  if (!app.viewing) {
    drawBoard($("board"), {
      board: s.board, legal: interactive ? s.legal : [], interactive, players: playersWithYou(s), flipped: flipped(s),
      lastCells: lastCells(s), hintKeys: hintKeys(s), selected: app.selected,
      onMove: ui.sendMove, onHole: ui.chooseHole,
    });
  }
  // status line
  $("to-move").textContent = statusText(s);
  if (!app.viewing) showRuleNote(s.board);
  updateThinking();
  ui.updateInvite(s);
  // result
  if (s.result) {
    $("result").hidden = false;
    const b = s.board;
    const result = boardOf(b.kind).resultText;
    const stores = result ? result(b) : "";
    // a finished game the server could not write yet (a full disk): it says so, and again once written
    const unsaved = s.result.saved === false ? " Not saved yet: the server cannot write its results now; it keeps the game and saves it when it can." : "";
    // a position over before any move (a link, a set-up position) says why: its board may differ from the one given
    const why = s.result.why ? `${s.result.why[0].toUpperCase()}${s.result.why.slice(1)}. ` : "";
    $("result-text").textContent = why + s.result.text + stores + unsaved;
    $("review-btn2").hidden = !s.history.length; // no moves: nothing to review
  } else {
    $("result").hidden = true;
  }
  // controls
  $("undo").disabled = !s.can_undo;
  $("redo").disabled = !s.can_redo;
  const mine = s.to_move !== null && s.you.includes(s.to_move);
  const match = s.players.some((p) => p.kind === "remote") || !!s.clock; // the server refuses help in a real match
  $("hint").disabled = !mine || !!s.result || match;
  $("resign").disabled = !!s.result || s.you.length === 0;
  $("move-input").disabled = !mine || !!s.result;
  const aiOnly = s.players.every((p) => p.kind === "ai");
  $("watch").hidden = !aiOnly;
  body.paused = s.paused ? "yes" : "no";
  // a game with a person in it pauses when its AI's move failed: it goes on from here
  $("paused-bar").hidden = aiOnly || !s.paused || !!s.result;
  if (aiOnly) {
    $("w-play").disabled = !s.paused || !!s.result;
    $("w-pause").disabled = s.paused || !!s.result;
    $("w-step").disabled = !s.paused || !!s.result;
    if (document.activeElement !== $("w-delay") && typeof s.move_delay === "number") { // the server's setting
      $("w-delay").value = String(s.move_delay);
      $("w-delay-out").textContent = `${s.move_delay.toFixed(1)} s`;
    }
  }
  ui.renderHistory(s);
  ui.renderChoice(s);
  ui.updateEvalBar();
  ui.updateExplorer();
  $("copy-position").disabled = !s.position;
  $("copy-position").title = s.position ? "A link that opens this position" : "This game has no position notation: share the game instead";
}

/** Why some moves with seeds are not legal in the position drawn (Oware: must feed, a grand slam
 * these rules forbid), under the status line; hidden when every move is. */
export function showRuleNote(board) {
  const note = board.restricted;
  $("rule-note").hidden = !note;
  $("rule-note").textContent = note ? `${note.text[0].toUpperCase()}${note.text.slice(1)}.` : "";
  if (note) $("rule-note").dataset.kind = note.kind;
}

/** Whether the player to move is this page's, in a game against someone else (an AI, a person
 * at another browser): the status then says "Your move". */
function yourMove(s) {
  return !s.result && s.to_move !== null && !s.waiting && s.you.includes(s.to_move) && s.players.some((q) => q.kind !== "human");
}

function statusText(s) {
  if (s.result) return "Final position."; // "game over" and the result are said once, below the board
  const held = s.players.find((p) => p.held != null);
  if (held && !yourMove(s)) return `${held.name} (${held.person || "Guest"}) lost the connection: the seat is held for them.`;
  if (s.to_move === null || s.waiting || s.players.some((p) => p.kind === "remote" && !p.connected && p.held == null)) return s.status || "";
  const p = s.players[s.to_move];
  const seat = s.board.to_move_seat_name ?? p.name; // the seat's name where players may swap seats (Kalah's pie rule)
  if (s.paused) return `Paused — ${seat} to move (${describePlayer(p)})`;
  if (yourMove(s)) return `Your move (${seat})`;
  if (s.thinking) return `${seat} to move`;
  return `${seat} to move${p.kind === "human" ? "" : ` (${describePlayer(p)})`}`;
}

function updateClock() {
  const s = app.state;
  const box = $("clock");
  if (!s || !s.clock || !s.clock.remaining) { box.hidden = true; return; }
  if (app.clockState !== s) { app.clockState = s; app.clockAt = performance.now(); }
  const gone = (performance.now() - app.clockAt) / 1000;
  const fmt = (t) => { const v = Math.max(0, t); return `${Math.floor(v / 60)}:${String(Math.floor(v % 60)).padStart(2, "0")}`; };
  box.hidden = false;
  box.textContent = "Clock: " + s.players.map((p, i) => {
    const running = s.clock.running === i && !s.result;
    const game = s.clock.remaining[i] === null ? null : s.clock.remaining[i] - (running ? gone : 0);
    // the running player's time is what is left before its flag falls: of this move, or of the game
    const move = running && s.clock.move ? s.clock.move - (s.clock.move_elapsed || 0) - gone : null;
    const left = [game, move].filter((t) => t !== null);
    return `${p.name} ${left.length ? fmt(Math.min(...left)) : "–"}${s.clock.running === i ? " ◂" : ""}`;
  }).join(" · ") + (s.clock.move ? ` (at most ${s.clock.move} s a move)` : "");
}

export function updateThinking() {
  updateClock();
  if (app.state && app.state.players.some((p) => p.held != null)) ui.updatePlayers(); // (its seconds count down)
  showEngine();
  const s = app.state;
  const box = $("thinking");
  if (!s || !s.thinking || s.result) {
    box.hidden = true;
    document.body.dataset.thinking = "no";
    return;
  }
  if (app.thinkingState !== s) {
    app.thinkingState = s;
    app.thinkingAt = performance.now() - 1000 * (s.thinking.since || 0);
  }
  const secs = (performance.now() - app.thinkingAt) / 1000;
  const p = s.players[s.thinking.player];
  const t = s.thinking;
  // an AI whose engine still compiles plays from the Python search meanwhile (t.engine_left)
  const fallback = t.engine_left !== undefined;
  const preparing = t.doing && t.doing !== "searching" && !fallback;
  // what the wait is for, and about how long is left of it, when the server knows
  const left = t.estimate != null ? Math.max(0, t.estimate - secs) : null;
  const estimate = left != null && (preparing || t.estimate >= 1)
    ? ` (about ${left >= 1 ? Math.ceil(left) : "<1"} s left)` : "";
  const budget = t.budget != null ? `, budget ${t.budget} s a move` : "";
  const what = preparing ? `waiting — ${t.doing}` : fallback ? `thinking — ${t.doing}:` : "thinking…";
  const engine = engineLeft();
  const ready = fallback && engine != null ? `; the engine is ready in about ${Math.ceil(engine)} s` : "";
  box.hidden = false;
  box.textContent = `${p.name} (${p.kind === "ai" ? describePlayer(p) : p.person || t.spec}) is ${what} ${secs.toFixed(1)} s${budget}${estimate}${ready}`;
  document.body.dataset.thinking = "yes";
}

function showNotices(notices) {
  const box = $("notices");
  box.replaceChildren(...notices.map((n) => el("span", { class: `notice ${n.kind}`, dataset: { kind: n.kind } }, noticeText(n))));
}

function noticeText(n) {
  const t = n.text || n.kind;
  return n.kind === "extra_turn" ? `↻ ${t[0].toUpperCase()}${t.slice(1)}!` : t[0].toUpperCase() + t.slice(1);
}

function flashNotice(text, kind = "house") {
  const box = $("notices");
  box.replaceChildren(el("span", { class: `notice ${kind}`, dataset: { kind, flash: "" } }, text));
}

export function announce(text) {
  // clear then set, so the same text twice is announced twice
  const live = $("live");
  live.textContent = "";
  setTimeout(() => { live.textContent = text; }, 30);
}
