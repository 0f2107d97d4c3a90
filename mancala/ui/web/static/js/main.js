// The board page: connects to the server, draws what it is told, sends intents.
// The page never decides legality: clickable things come from the server's `legal` list,
// and every answer (state, error) comes back from the server.
import { Connection } from "./conn.js";
import { drawBoard, el, describePlayer } from "./boards.js";
import { framesFor, frameSchedule } from "./animate.js";
import { renderAnalysis, renderExplorer, renderReview, renderTree, fmtValue, lineText } from "./panels.js";

const $ = (id) => document.getElementById(id);
const MAX_RECORD_BYTES = 60 * 1024; // the server refuses messages over 64 KiB
// the games, their sides and options, and the players offered come from the server's
// catalogues (/api/games, /api/players): no list of games or levels lives in the page

const app = {
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
  games: null,
  params: new URLSearchParams(location.search),
  pending: new Map(), // request id -> what it was
};

// ---- connection ---------------------------------------------------------------------

function connect() {
  app.conn = new Connection(onMessage, () => {
    $("conn").hidden = false;
    $("conn").textContent = "connection lost — reload the page to reconnect";
    document.body.dataset.conn = "closed";
  });
  const hello = { client: "mancala web board" };
  if (app.params.get("token")) hello.token = app.params.get("token");
  app.conn.send("hello", hello);
  if (app.params.get("join")) { // a second browser taking a remote seat: ?join=GAME_ID
    request("join", { game_id: app.params.get("join") }, "join");
    history.replaceState(null, "", location.pathname);
    app.params = new URLSearchParams();
    return;
  }
  const saved = sessionStorage.getItem("mancala-resume");
  if (saved && !app.params.get("game")) {
    try {
      const { game_id, resume } = JSON.parse(saved);
      app.resumeGame = game_id;
      request("join", { game_id, resume }, "resume");
      return;
    } catch { /* a damaged entry: start a new game */ }
  }
  createFromParams();
}

function createFromParams() {
  const position = app.params.get("position");
  const moves = app.params.get("moves");
  const link = position !== null || moves !== null; // a shared position or game: both seats yours by default
  const fields = { game: app.params.get("game") || "kalah",
    players: [app.params.get("p0") || "human", app.params.get("p1") || (link ? "human" : "medium")] };
  if (app.params.get("options")) {
    try { fields.options = JSON.parse(app.params.get("options")); } catch { /* ignored: defaults */ }
  }
  if (fields.players.every((p) => p !== "human" && p !== "remote")) fields.move_delay = Number($("w-delay").value);
  const ply = Number(app.params.get("ply"));
  app.linkPly = Number.isInteger(ply) && ply >= 0 && app.params.get("ply") !== null ? ply : null;
  if (moves !== null) { // the server replays the moves as it loads a record, and says which one is wrong
    const record = { format: "mancala-game", version: 1, game: fields.game, players: fields.players,
      moves: moves.split(",").map((m) => m.trim()).filter(Boolean) };
    request("load", { record }, "link");
  } else {
    if (position !== null) fields.position = position;
    request("create", fields, position !== null ? "link" : "create");
  }
  // a reload should come back to this game, not start another one from the address
  const keep = new URLSearchParams();
  if (app.params.get("token")) keep.set("token", app.params.get("token"));
  if (app.params.get("animate")) keep.set("animate", app.params.get("animate"));
  history.replaceState(null, "", location.pathname + (keep.toString() ? "?" + keep : ""));
  app.params = new URLSearchParams(keep);
}

function request(type, fields, what) {
  const id = app.conn.send(type, fields);
  app.pending.set(id, what || type);
  return id;
}

function onMessage(msg) {
  const what = msg.id !== undefined ? app.pending.get(msg.id) : undefined;
  const id = msg.id;
  if (msg.id !== undefined && msg.type !== "joined") app.pending.delete(msg.id);
  // a request of ours that succeeded: the error of an earlier one no longer holds
  if (what !== undefined && msg.type !== "error" && what !== "after-link") clearError();
  switch (msg.type) {
    case "welcome": setEngine(msg.engine); break;
    case "joined":
      if (what === "setup" && $("setup-dialog").open) $("setup-dialog").close();
      if (msg.resume) sessionStorage.setItem("mancala-resume", JSON.stringify({ game_id: msg.game_id, resume: msg.resume }));
      else sessionStorage.setItem("mancala-resume", JSON.stringify({ game_id: msg.game_id, resume: "" }));
      app.seats = msg.seats;
      break;
    case "state": onState(msg); break;
    case "error": onError(msg, what); break;
    case "hint": showHint(msg); break;
    case "analysis":
      if (what === "evalbar") showEvalBar(msg, id === app.evalRequest);
      else $("analysis").replaceChildren(...renderAnalysis(msg, sideName(msg.player)));
      break;
    case "review": onReview(msg); break;
    case "explorer":
      if (id === app.exploreRequest) $("explorer-out").replaceChildren(...renderExplorer(msg, sideName(msg.player)));
      break;
    case "tree": $("tree-out").replaceChildren(...renderTree(msg, app.state && unitOf(app.state))); break;
    case "view": showView(msg); break;
    case "record": download(msg); break;
    default: break;
  }
}

/** The review panel (graph, classes, table) for the position shown. */
function drawReview() {
  const r = app.review;
  if (!r || !app.state || r.game_id !== app.state.game_id) return;
  const focused = $("review-out").contains(document.activeElement) ? document.activeElement : null;
  const where = focused && (focused.closest("#mistakes") ? "#mistakes button" : focused.closest("#eval-graph") ? "#eval-graph .pt" : "#review-table button");
  const key = focused && focused.dataset.ply !== undefined ? `${where}[data-ply="${focused.dataset.ply}"]` : null;
  $("review-out").replaceChildren(...renderReview(r, app.state.players.map((p) => p.name), viewPly, shownPly(app.state)));
  const again = key && $("review-out").querySelector(key);
  if (again) { // the focus stays on the row (or graph point) it was on
    if (again.closest("#eval-graph")) for (const d of $("eval-graph").querySelectorAll(".pt")) d.setAttribute("tabindex", d === again ? "0" : "-1");
    again.focus({ preventScroll: true });
  }
}

/** A review: the review panel's table, and the values after each turn in the move list. */
function onReview(msg) {
  if (!app.state) return;
  app.review = { ...msg, game_id: app.state.game_id };
  drawReview();
  $("history-values").textContent = "Update the values";
  renderHistory(app.state);
}

function onError(msg, what) {
  if (what === "resume" && msg.code === "seat_taken" && app.resumeGame) {
    // a game between AIs: this tab held no seat, so it comes back as a watcher
    request("watch", { game_id: app.resumeGame }, "rewatch");
    return;
  }
  if (what === "resume" || what === "rewatch") { // the game of a previous visit is gone: start a new one
    sessionStorage.removeItem("mancala-resume");
    createFromParams();
    return;
  }
  if (what === "link") { // a bad link: say why, once, and open the default game instead
    showError(`That link cannot be opened: ${msg.message.replace(/; the current game goes on/, "")}`);
    app.linkError = true;
    app.linkPly = null;
    request("create", { game: "kalah", players: ["human", "medium"] }, "after-link");
    return;
  }
  if (what === "setup") { // the server's reason, in the editor, which stays open
    $("setup-error").hidden = false;
    $("setup-error").textContent = msg.message;
    if (!$("setup-dialog").open) $("setup-dialog").showModal();
    return;
  }
  if (what === "new-form") {
    $("new-error").hidden = false;
    $("new-error").textContent = msg.message;
    $("new-dialog").showModal?.();
    return;
  }
  // the answer to a panel's request is shown in that panel, and only there
  if (what === "review") $("history-values").textContent = "Show the values";
  if (what === "evalbar") { // (a match, a finished position): the bar says it has no value
    if (msg.id === app.evalRequest) setEvalBar(null, msg.message);
    return;
  }
  const panel = { analyse: "analysis", review: "review-out", tree: "tree-out", explore: "explorer-out" }[what];
  if (panel) {
    $(panel).replaceChildren(el("p", { class: "error", role: $(panel).hasAttribute("aria-live") ? null : "alert" }, msg.message));
    return;
  }
  const prefix = msg.code === "illegal" ? "Not a legal move: " : msg.code === "bad_record" ? "Could not load that file: " : "";
  const suffix = msg.code === "bad_record" && !/current game/i.test(msg.message) ? " Your current game goes on." : "";
  showError(prefix + msg.message + suffix);
}

/** Show an error in the page's one error box (an alert: read out once, not also by the live region). */
function showError(text) {
  $("error").textContent = "";
  $("error").hidden = false;
  $("error").textContent = text;
}

function clearError() {
  $("error").hidden = true;
  $("error").textContent = "";
}

function setEngine(engine, detail) {
  $("engine").hidden = engine !== "preparing";
  // the stronger AIs and the hint wait for it; say what it does and about how long is left
  $("engine").textContent = engine === "preparing" && detail
    ? `preparing the engine: ${detail.what}, about ${Math.ceil(detail.left)} s left` : "preparing the engine…";
  document.body.dataset.engine = engine;
}

// ---- states and animation -----------------------------------------------------------

function onState(s) {
  const newGame = !app.state || app.state.game_id !== s.game_id;
  const previous = app.state;
  app.state = s;
  setEngine(s.engine, s.engine_detail);
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
    render(s, { final: true });
    if (app.linkPly !== null && app.linkPly !== undefined) { // a game link that names a move: show it
      viewPly(app.linkPly);
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
      if ($("animate").checked && !app.viewing) {
        // the status says what the board shows: this move being sown, not the position after it
        const mover = s.history[s.ply - 1];
        $("to-move").textContent = `${mover ? mover.name : sideName(s.last.player)} plays ${s.last.move}…`;
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
      announce(s.last.text + overText + barred);
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

function delayMs() {
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

// ---- the opening explorer ------------------------------------------------------------

/** Ask for the book's values of the position shown, while the explorer is open. */
function updateExplorer() {
  const s = app.state;
  if (!s || !$("explorer-panel").open) return;
  const key = `${s.game_id}:${shownLine()}:${shownPly(s)}:${s.ply}`;
  if (app.exploreKey === key) return;
  app.exploreKey = key;
  const over = app.viewing ? app.viewing.to_move === null : !!s.result || s.to_move === null;
  if (over) { $("explorer-out").replaceChildren(el("p", {}, "The game is over in this position.")); return; }
  $("explorer-out").textContent = "Reading the book…";
  app.exploreRequest = request("explore", shownFields(), "explore");
}

// ---- the evaluation bar -------------------------------------------------------------

/** Ask for the value of the position shown (when the bar is on and the position changed). */
function updateEvalBar() {
  const s = app.state;
  const on = $("evalbar-on").checked && !!s;
  $("eval-bar").hidden = !on;
  document.body.dataset.evalbar = on ? "on" : "off";
  if (!on) return;
  const line = shownLine();
  const ply = shownPly(s);
  const key = `${s.game_id}:${line}:${ply}:${s.ply}`;
  if (app.evalKey === key) return;
  app.evalKey = key;
  const over = app.viewing ? app.viewing.to_move === null : !!s.result || s.to_move === null;
  if (over) { // the game's end: the result is the value
    const b = app.viewing ? null : s.result;
    setEvalBar(b ? { value: b.score[0], exact: true, unit: unitOf(s) } : null, "the game is over");
    return;
  }
  const fields = { ply, seconds: 0.5 };
  if (line !== null) fields.line = line;
  setEvalBar(undefined, "evaluating…");
  app.evalRequest = request("analyse", fields, "evalbar");
}

function showEvalBar(msg, newest) {
  if (!newest || !msg.moves.length) return;
  const best = msg.moves[0];
  const value = msg.player === 0 ? best.value : best.value === "inf" ? "-inf" : best.value === "-inf" ? "inf" : -best.value;
  setEvalBar({ value, exact: best.exact, unit: msg.unit });
}

/** Draw the bar: the first player's share from their side of the board, the value written on it;
 * `undefined` while a value is awaited, `null` when there is none (`why`). */
function setEvalBar(v, why = "") {
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
  const flip = !!s && ((s.players[0].name === "North") !== flipped(s));
  bar.querySelector(".eval-fill").style.height = `${(100 * (flip ? 1 - share : share)).toFixed(1)}%`;
  bar.classList.toggle("flipped", !!flip);
  bar.classList.toggle("exact", !!v.exact);
  const text = fmtValue(v.value, v.unit);
  bar.querySelector(".eval-text").textContent = text;
  const unit = v.unit === "seeds" ? " seeds" : "";
  bar.setAttribute("aria-label", `Evaluation bar: ${text}${unit} for ${first}${v.exact ? " (exact)" : " (estimate)"}`);
  bar.title = bar.getAttribute("aria-label");
}

/** Whether the board is drawn turned round (North at the bottom): by default when every seat
 * this page plays sits at North now (a person playing North, after a pie swap too); the flip
 * button or F turns it from there. */
function flipped(s) {
  const north = s.you.length > 0 && s.players.length === 2 && s.you.every((p) => s.players[p].name === "North");
  return north !== app.flip;
}

/** Turn the board round (the flip button, F), keeping the focus where it was. */
function flipBoard() {
  app.flip = !app.flip;
  const s = app.state;
  if (!s) return;
  if (app.viewing) showView(app.viewing);
  else render(app.animating && app.shown ? app.shown : s, { final: !app.animating });
  document.body.dataset.flipped = flipped(s) ? "yes" : "no";
  $("flip").setAttribute("aria-pressed", flipped(s) ? "true" : "false");
  app.evalKey = null;
  updateEvalBar();
  announce(`The board is turned: ${flipped(s) ? "North" : "South"} at the bottom.`);
}

function playersWithYou(s) {
  return s.players.map((p) => ({ ...p, you: s.you.includes(p.player) && s.players.some((q) => q.kind !== "human") }));
}

function lastCells(s) {
  const out = new Set();
  if (!s.last) return out;
  const kind = s.board.kind;
  if (kind === "kalah" || kind === "oware") { // the pit sown from and the one the last seed fell in
    const sown = (s.last.steps || []).filter((step) => step.kind === "sow" && step.cells.length);
    for (const step of s.last.steps || []) if (step.kind === "pickup") out.add(step.cell);
    if (sown.length) out.add(sown[sown.length - 1].cells.at(-1));
  } else if (kind === "bao") {
    const steps = s.last.steps || [];
    const first = String(s.last.move).slice(0, 2);
    out.add(first);
    const lastLap = steps[steps.length - 1];
    if (lastLap && lastLap.holes && lastLap.holes.length) out.add(lastLap.holes[lastLap.holes.length - 1]);
  } else {
    for (const step of s.last.steps || []) out.add(step.cell);
  }
  return out;
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
function render(s, { final }) {
  app.shown = s;
  const body = document.body.dataset;
  body.ply = s.ply;
  body.game = s.board.kind;
  body.toMove = s.to_move ?? "none";
  body.result = s.result ? "over" : "running";
  body.gameId = s.game_id;
  body.flipped = flipped(s) ? "yes" : "no";
  $("flip").setAttribute("aria-pressed", flipped(s) ? "true" : "false");
  $("flip").disabled = !["kalah", "oware", "bao"].includes(s.board.kind); // a board with sides
  $("game-title").textContent = s.game.title + " — " + s.players.map((p) => `${p.name}: ${describePlayer({ ...p, you: s.you.includes(p.player) })}`).join(" · ");
  document.title = `${s.game.title} — Mancala`;
  const interactive = final && !app.viewing && !s.result && s.legal.length > 0;
  if (!app.viewing) {
    drawBoard($("board"), {
      board: s.board, legal: interactive ? s.legal : [], interactive, players: playersWithYou(s), flipped: flipped(s),
      lastCells: lastCells(s), hintKeys: hintKeys(s), selected: app.selected,
      onMove: sendMove, onHole: chooseHole,
    });
  }
  // status line
  $("to-move").textContent = statusText(s);
  if (!app.viewing) showRuleNote(s.board);
  updateThinking();
  updateInvite(s);
  // result
  if (s.result) {
    $("result").hidden = false;
    const b = s.board;
    const stores = b.kind === "kalah" ? ` South store ${b.cells[b.stores[0]]} – North store ${b.cells[b.stores[1]]}.`
      : b.kind === "oware" ? ` Seeds: South ${owareSeeds(b, 0)} – North ${owareSeeds(b, 1)}.` : "";
    $("result-text").textContent = s.result.text + stores;
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
  renderHistory(s);
  renderChoice(s);
  updateEvalBar();
  updateExplorer();
  $("copy-position").disabled = !s.position;
  $("copy-position").title = s.position ? "A link that opens this position" : "This game has no position notation: share the game instead";
}

/** Oware: the seeds a side ends with (its store, and its own row once the game is over). */
function owareSeeds(b, seat) {
  const row = seat === 0 ? b.rows.south : b.rows.north;
  return b.cells[b.stores[seat]] + (b.finished ? row.reduce((a, c) => a + b.cells[c], 0) : 0);
}

/** Why some moves with seeds are not legal in the position drawn (Oware: must feed, a grand slam
 * these rules forbid), under the status line; hidden when every move is. */
function showRuleNote(board) {
  const note = board.restricted;
  $("rule-note").hidden = !note;
  $("rule-note").textContent = note ? `${note.text[0].toUpperCase()}${note.text.slice(1)}.` : "";
  if (note) $("rule-note").dataset.kind = note.kind;
}

function statusText(s) {
  if (s.result) return "Final position."; // "game over" and the result are said once, below the board
  if (s.to_move === null || s.waiting || s.players.some((p) => p.kind === "remote" && !p.connected)) return s.status || "";
  const p = s.players[s.to_move];
  const seat = s.board.kind === "kalah" ? ["South", "North"][s.board.to_move_seat] : p.name;
  const you = s.you.includes(s.to_move) && s.players.some((q) => q.kind !== "human");
  if (s.paused) return `Paused — ${seat} to move (${describePlayer(p)})`;
  if (s.thinking) return `${seat} to move`;
  if (you) return `Your move (${seat})`;
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
    const left = s.clock.remaining[i] === null ? null : s.clock.remaining[i] - (s.clock.running === i && !s.result ? gone : 0);
    return `${p.name} ${left === null ? "–" : fmt(left)}${s.clock.running === i ? " ◂" : ""}`;
  }).join(" · ") + (s.clock.move ? ` (at most ${s.clock.move} s a move)` : "");
}

function updateInvite(s) {
  const box = $("invite");
  const waitingSeat = s.players.some((p) => p.kind === "remote" && !p.connected);
  if (!waitingSeat || s.result || !s.you.length) { box.hidden = true; return; }
  const url = `${location.origin}${location.pathname}?join=${encodeURIComponent(s.game_id)}`;
  box.hidden = false;
  box.replaceChildren("Invite the other player: open ", el("code", {}, url),
    " in another browser, or run an agent on game ", el("code", {}, s.game_id), ".");
}

function updateThinking() {
  updateClock();
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
  const preparing = t.doing && t.doing !== "searching";
  // what the wait is for, and about how long is left of it, when the server knows
  const left = t.estimate != null ? Math.max(0, t.estimate - secs) : null;
  const estimate = left != null && (preparing || t.estimate >= 1)
    ? ` (about ${left >= 1 ? Math.ceil(left) : "<1"} s left)` : "";
  const what = preparing ? `waiting — ${t.doing}` : "thinking…";
  box.hidden = false;
  box.textContent = `${p.name} (${p.kind === "ai" ? describePlayer(p) : t.spec}) is ${what} ${secs.toFixed(1)} s${estimate}`;
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

function announce(text) {
  // clear then set, so the same text twice is announced twice
  const live = $("live");
  live.textContent = "";
  setTimeout(() => { live.textContent = text; }, 30);
}

// ---- history and viewing earlier positions ------------------------------------------

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

function shownPly(s) {
  return app.viewing ? app.viewing.ply : s.ply;
}

/** The fields that name the position shown (`ply`, and `line` in a side line) for a study request. */
function shownFields() {
  if (!app.viewing) return {};
  return shownLine() === null ? { ply: app.viewing.ply } : { ply: app.viewing.ply, line: shownLine() };
}

function shownLine() {
  return app.viewing && app.viewing.line !== null && app.viewing.line !== undefined ? app.viewing.line : null;
}

/** One move back or on along the line shown (a side line, else the game). */
function stepPly(s, step) {
  const line = shownLine();
  const v = line !== null ? (s.variations || [])[line] : null;
  const target = shownPly(s) + step;
  if (v && target > v.from) { if (target <= v.from + v.moves.length) viewPly(target, line); return; }
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

function renderHistory(s) {
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
      }, el("span", { class: "visually-hidden" }, `Position after move ${h.ply}, turn ${number}: ${h.name ?? s.players[h.player].name} `), h.move));
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
    for (const v of s.variations || []) if (v.from > begin && v.from <= end) items.push(variationItem(s, v));
  }
  for (const v of s.variations || []) if (v.from === 0) items.splice(1, 0, variationItem(s, v));
  if (!s.history.length) items.push(el("li", { class: "empty" }, "No moves yet."));
  list.replaceChildren(...items);
  if (app.review && app.review.game_id === s.game_id && $("review-out").querySelector("#eval-graph")) drawReview();
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

async function copyLink(kind) {
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
  announce($("share-note").textContent);
}

/** A side line in the move list: its moves in turns (each shows its position), then Promote
 * (make it the game) and Delete. */
function variationItem(s, v) {
  const label = `Side line ${v.id + 1}`;
  const body = el("span", { class: "line-moves" });
  turnsOf(v.history).forEach((turn, t) => {
    if (t) body.append(el("span", { class: "turn-gap", "aria-hidden": "true" }, "|"));
    turn.moves.forEach((h, i) => {
      if (i) body.append(el("span", { class: "chain", "aria-hidden": "true" }, "·"));
      const here = shownLine() === v.id && shownPly(s) === h.ply;
      body.append(el("button", {
        type: "button", title: h.text, class: "line-move", dataset: { line: v.id, ply: h.ply, at: h.ply },
        "aria-current": here ? "true" : null, onclick: () => viewPly(h.ply, v.id),
      }, el("span", { class: "visually-hidden" }, `${label}, position after move ${h.ply}: ${h.name} `), h.move));
    });
  });
  const may = s.you.length > 0 || s.players.every((p) => p.kind === "ai");
  return el("li", { class: "variation", dataset: { line: v.id } },
    el("span", { class: "line-label" }, `(${v.from === 0 ? "from the start" : `after move ${v.from}`})`), body,
    may ? el("span", { class: "line-tools" },
      el("button", { type: "button", class: "promote", "aria-label": `Promote ${label.toLowerCase()}: make it the game`,
        onclick: () => request("promote", { line: v.id }, "promote") }, "⇧ Promote"),
      el("button", { type: "button", class: "delete", "aria-label": `Delete ${label.toLowerCase()}`,
        onclick: () => { if (shownLine() === v.id) leaveView(); request("delete_line", { line: v.id }, "delete_line"); } }, "✕ Delete")) : null);
}

/** Show the position after move `ply` (0: the start; the last move: the game as it stands). */
function viewPly(ply, line = null) {
  const s = app.state;
  if (!s) return;
  if (line !== null) { request("view", { ply, line }); return; }
  const target = Math.max(0, Math.min(s.ply, ply));
  if (target === s.ply) { if (app.viewing) leaveView(); return; }
  if (app.viewing && app.viewing.ply === target && shownLine() === null) return;
  request("view", { ply: target });
}

function showView(v) {
  const s = app.state;
  if (!s) return;
  if (v.ply === s.ply && (v.line === null || v.line === undefined)) { leaveView(); return; }
  const moved = !app.viewing || app.viewing.ply !== v.ply || app.viewing.line !== v.line;
  if (moved) { app.selected = null; app.choiceStage = null; }
  app.viewing = v;
  const inLine = v.line !== null && v.line !== undefined;
  $("viewing").hidden = false;
  $("viewing-text").textContent = (v.ply === 0 ? "Viewing the start position." : `Viewing the position after move ${v.ply}` +
    `${inLine ? ` of side line ${v.line + 1}` : ""}: ${v.last ? v.last.text : ""}`) +
    (v.legal && v.legal.length ? " Play a move here to try a side line." : "");
  // a move played here starts (or goes on with) a side line; the game itself is not touched
  const legal = v.legal || [];
  drawBoard($("board"), { board: v.board, legal, interactive: legal.length > 0, players: playersWithYou(s), flipped: flipped(s),
    lastCells: lastCells({ board: v.board, last: v.last }), selected: app.selected, onMove: sendMove, onHole: chooseHole });
  showRuleNote(v.board);
  document.body.dataset.viewing = String(v.ply);
  document.body.dataset.line = inLine ? String(v.line) : "main";
  renderHistory(s);
  renderChoice(s);
  updateEvalBar();
  updateExplorer();
  if (moved) announce($("viewing-text").textContent);
}

function leaveView() {
  app.viewing = null;
  app.selected = null;
  app.choiceStage = null;
  $("viewing").hidden = true;
  delete document.body.dataset.viewing;
  delete document.body.dataset.line;
  if (app.state) render(app.state, { final: !app.animating });
}

// ---- moves --------------------------------------------------------------------------

function sendMove(move) {
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
function chooseHole(hole) {
  const s = playState(app.state);
  const moves = s.legal.filter((m) => m.hole === hole);
  if (moves.length === 1) { sendMove(moves[0].move); return; }
  app.selected = hole;
  app.choiceStage = { hole, dir: null };
  if (app.viewing) showView(app.viewing);
  else render(s, { final: true });
  const first = $("choice-buttons").querySelector("button");
  if (first) first.focus();
}

function dirKey(m) { return m.kichwa ? "k:" + m.kichwa : "d:" + m.dir; }

function baoArrow(s, m) {
  // which way the first seed goes on screen, from the hole's row and its owner (the board
  // turned round: the other way)
  const north = m.hole === m.hole.toLowerCase();
  const flip = flipped(s);
  if (m.kichwa) return ((m.kichwa === "left") !== north) !== flip ? "◀" : "▶"; // North's left is South's right
  let r = 0;
  s.board.rows.forEach((row, i) => { if (row.some((h) => h.name === m.hole)) r = i; });
  const cw = m.sow === "cw";
  const rightward = (r === 2 ? cw : r === 3 ? !cw : r === 1 ? !cw : cw) !== flip;
  return rightward ? "▶" : "◀";
}

function renderChoice(game) {
  const s = playState(game);
  const box = $("choice");
  const stage = app.choiceStage;
  if (!stage || app.selected !== stage.hole || s.board.kind !== "bao" || s.result || !s.legal.length) {
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
  if (app.viewing) showView(app.viewing);
  else if (app.state) render(app.state, { final: true });
  const btn = hole && document.querySelector(`[data-hole="${hole}"]`);
  if (btn) btn.focus();
}

// ---- hint, save, load ---------------------------------------------------------------

function sideName(player) {
  const s = app.state;
  return s ? s.players[player].name : String(player);
}

function unitOf(s) {
  return { kalah: "seeds", oware: "seeds", bao: "eval", tictactoe: "outcome" }[s.board.kind];
}

function showHint(h) {
  app.hint = h;
  const box = $("hint-out");
  box.hidden = false;
  box.textContent = `Hint for ${sideName(h.player)}: play ${h.move} — value ${fmtValue(h.value, h.unit)}` +
    `${h.unit === "seeds" ? " seeds" : ""} (${h.exact ? "exact" : `depth ${h.depth}, estimate`})` +
    (h.line && h.line.length > 1 ? `; expected line ${lineText(h)}` : "");
  announce(box.textContent);
  if (app.state && !app.animating) render(app.state, { final: true });
}

function download(msg) {
  const blob = new Blob([JSON.stringify(msg.record, null, 2) + "\n"], { type: "application/json" });
  const a = el("a", { href: URL.createObjectURL(blob), download: msg.filename || "mancala-game.json" });
  document.body.append(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
  announce(`Saved as ${msg.filename}.`);
}

async function loadFile(file) {
  if (!file) return;
  if (file.size > MAX_RECORD_BYTES) {
    showError(`That file is too large (${Math.ceil(file.size / 1024)} KB): a game record is at most ${MAX_RECORD_BYTES / 1024} KB. Your current game goes on.`);
    return;
  }
  let record;
  try {
    record = JSON.parse(await file.text());
  } catch (e) {
    showError(`Could not load ${file.name}: it is not a JSON game record (${e.message}). Your current game goes on.`);
    return;
  }
  request("load", { record }, "load");
}

// ---- the position editor ------------------------------------------------------------
// It writes the game's position string (docs/web.md, "Links") from what is set up; the server
// checks the position (the rules' start option) and says why one is refused.

/** Open the editor on the position shown (each game's editor below fills it and says how to
 * read its position string back). */
function openSetup() {
  const s = app.state;
  if (!s) return;
  const board = app.viewing ? app.viewing.board : s.board;
  const editor = SETUP_EDITORS[board.kind];
  if (!editor) {
    showError(`${s.game.title} has no position notation here, so its positions cannot be set up: open a game by its moves instead.`);
    return;
  }
  $("setup-error").hidden = true;
  $("setup-extra").replaceChildren();
  $("setup-extra").hidden = true;
  $("setup-side").onchange = null;
  $("setup-side").disabled = false;
  $("setup-board").style.gridTemplateColumns = "";
  app.setupRead = editor(board, app.viewing ? app.viewing.to_move : s.to_move, s);
  setupChanged();
  $("setup-dialog").showModal();
}

/** A count field of the editor. */
function setupCount(value, label, data, style = "", max = "1000") {
  return el("input", { type: "number", min: "0", max, value: String(value), "aria-label": label, dataset: data, style, class: "setup-count" });
}

/** A count field's value as a whole number >= 0. */
function countOf(input) {
  return String(Math.max(0, Math.floor(Number(input.value) || 0)));
}

/** Kalah and Oware: number fields laid out like the board, the stores at the ends. */
function pitsEditor(board, toMove) {
  const kind = board.kind;
  const grid = $("setup-board");
  const side = $("setup-side");
  const names = kind === "oware" ? board.names : null;
  const n = kind === "oware" ? board.houses : board.pits;
  const label = (cell) => {
    if (cell === board.stores[0]) return "South's store";
    if (cell === board.stores[1]) return "North's store";
    if (names) return `House ${names[cell]} (${cell < n ? "South" : "North"})`;
    return cell < n ? `South pit ${cell + 1}` : `North pit ${cell - n}`;
  };
  const input = (cell, row, col) => setupCount(board.cells[cell], label(cell), { cell }, `grid-row:${row};grid-column:${col}`);
  const items = [];
  board.rows.north.forEach((cell, i) => items.push(input(cell, 1, i + 2)));
  board.rows.south.forEach((cell, i) => items.push(input(cell, 2, i + 2)));
  items.push(input(board.stores[1], "1 / 3", 1), input(board.stores[0], "1 / 3", n + 2));
  grid.className = "setup-board pits";
  grid.style.gridTemplateColumns = `repeat(${n + 2}, minmax(0, 1fr))`;
  grid.replaceChildren(...items);
  side.replaceChildren(el("option", { value: "S" }, "South"), el("option", { value: "N" }, "North"));
  const seat = kind === "kalah" ? board.to_move_seat : toMove;
  side.value = seat === 1 ? "N" : "S";
  $("setup-help").textContent = "Type the seeds in each pit and store (North's row on top, as South sees the board), and choose who moves.";
  return () => {
    const counts = [...grid.querySelectorAll("input[data-cell]")]
      .sort((a, b) => Number(a.dataset.cell) - Number(b.dataset.cell)).map(countOf);
    return `${counts.join("-")}-${side.value}`;
  };
}

/** Tic-tac-toe: nine squares a click cycles; the side to move follows from the marks. */
function tictactoeEditor(board) {
  const grid = $("setup-board");
  const side = $("setup-side");
  const cells = [...board.cells];
  const cellButton = (i) => el("button", { type: "button", class: "setup-cell", dataset: { cell: i, mark: cells[i] },
    "aria-label": `square ${i}: ${cells[i] === "." ? "empty" : cells[i]} (click to change)`,
    onclick: (e) => {
      const b = e.currentTarget;
      const next = { ".": "X", X: "O", O: "." }[b.dataset.mark];
      b.dataset.mark = next;
      b.textContent = next === "." ? "" : next;
      b.setAttribute("aria-label", `square ${i}: ${next === "." ? "empty" : next} (click to change)`);
      setupChanged();
    } }, cells[i] === "." ? "" : cells[i]);
  grid.className = "setup-board ttt-setup";
  grid.replaceChildren(...cells.map((_, i) => cellButton(i)));
  side.replaceChildren(el("option", { value: "auto" }, "follows from the marks (X moves first)"));
  side.disabled = true;
  $("setup-help").textContent = "Click a square to cycle it: empty, X, O.";
  return () => {
    const marks = [...grid.querySelectorAll("[data-mark]")].map((b) => b.dataset.mark).join("");
    return `${marks.slice(0, 3)}/${marks.slice(3, 6)}/${marks.slice(6)}`;
  };
}

/** Bao: the four rows as South sees the board (North's back row on top), the stocks, the side to
 * move, each nyumba owned or not, and the takasia'd hole (and, under takasia_forces_capture, the
 * hole that must be captured); its position string is docs/bao.md's. */
function baoEditor(board, toMove, s) {
  const grid = $("setup-board");
  const side = $("setup-side");
  const extra = $("setup-extra");
  const rowNames = ["North's back row", "North's front row", "South's front row", "South's back row"];
  const items = [];
  board.rows.forEach((row, r) => {
    items.push(el("span", { class: "setup-rowname", "aria-hidden": "true", style: `grid-row:${r + 1};grid-column:1` }, row[0].name[0]));
    row.forEach((hole, c) => {
      const input = setupCount(hole.seeds, `Hole ${hole.name} (${rowNames[r]})`, { row: r, col: c },
        `grid-row:${r + 1};grid-column:${c + 2}`);
      if (hole.index === 4) input.classList.add("setup-nyumba");
      if (r === 2) input.classList.add("setup-south");
      items.push(input);
    });
  });
  grid.className = "setup-board bao-setup";
  grid.replaceChildren(...items);
  side.replaceChildren(el("option", { value: "S" }, "South"), el("option", { value: "N" }, "North"));
  side.value = toMove === 1 ? "N" : "S";
  const options = s.game.options || {};
  const check = (id, text, checked) => [el("label", { for: id }, text), el("input", { id, type: "checkbox", checked })];
  const holeSelect = (id, player, value) => {
    const prefix = player === 0 ? "A" : "a";
    return el("select", { id }, el("option", { value: "-" }, "none"),
      [1, 2, 3, 4, 5, 6, 7, 8].map((k) => el("option", { value: `${prefix}${k}`, selected: value === `${prefix}${k}` }, `${prefix}${k}`)));
  };
  const stock = (p) => el("input", { id: `setup-stock-${p}`, type: "number", min: "0", max: "64", value: String(board.stock[p]) });
  const controls = [
    el("label", { for: "setup-stock-0" }, "South's stock"), stock(0),
    el("label", { for: "setup-stock-1" }, "North's stock"), stock(1),
    ...check("setup-house-0", "South owns the nyumba (A5)", board.nyumba[0].owned),
    ...check("setup-house-1", "North owns the nyumba (a5)", board.nyumba[1].owned),
  ];
  const marks = el("div", { class: "setup-marks" });
  const drawMarks = (takasia, must) => { // the holes depend on the side to move
    const mover = side.value === "N" ? 1 : 0;
    const rows = [];
    if (options.takasia !== false) rows.push(el("label", { for: "setup-takasia" }, "Takasia'd hole"), holeSelect("setup-takasia", mover, takasia));
    if (options.takasia_forces_capture) rows.push(el("label", { for: "setup-must" }, "Hole to capture"), holeSelect("setup-must", 1 - mover, must));
    marks.replaceChildren(...rows);
  };
  drawMarks(board.takasia, board.must_capture);
  side.onchange = () => { drawMarks(null, null); setupChanged(); };
  extra.replaceChildren(...controls, marks);
  extra.hidden = false;
  $("setup-help").textContent = "Type the seeds in each hole (North's rows on top, as South sees the board; the nyumba is the square one), "
    + "the stocks (a player with stock is in the namua stage), who moves and who still owns a nyumba.";
  return () => {
    const rows = [[], [], [], []];
    for (const input of grid.querySelectorAll("input[data-row]")) rows[Number(input.dataset.row)][Number(input.dataset.col)] = countOf(input);
    const fields = rows.map((row) => row.join("-"));
    fields.push(`${countOf($("setup-stock-0"))}-${countOf($("setup-stock-1"))}`, side.value);
    fields.push(`${$("setup-house-0").checked ? "H" : ""}${$("setup-house-1").checked ? "h" : ""}` || "-");
    const takasia = $("setup-takasia") ? $("setup-takasia").value : "-";
    const must = $("setup-must") ? $("setup-must").value : "-";
    if (takasia !== "-" || must !== "-") fields.push(takasia);
    if (must !== "-") fields.push(must);
    return fields.join("/");
  };
}

/** Each game's editor by board kind: fills the dialog, returns how to read its position string. */
const SETUP_EDITORS = { kalah: pitsEditor, oware: pitsEditor, tictactoe: tictactoeEditor, bao: baoEditor };

/** The position string of what the editor holds. */
function setupString() {
  return app.setupRead ? app.setupRead() : "";
}

function setupChanged() {
  $("setup-position").textContent = `Position string: ${setupString()}`;
}

function startSetup(event) {
  event.preventDefault();
  $("setup-error").hidden = true;
  const s = app.state;
  request("create", { game: s.game.spec, position: setupString(), players: ["human", "human"] }, "setup");
}

// ---- the new-game form --------------------------------------------------------------

async function loadCatalogue() {
  try {
    const [games, players] = await Promise.all([fetch("/api/games").then((r) => r.json()), fetch("/api/players").then((r) => r.json())]);
    app.games = games.games;
    app.players = players;
  } catch {
    app.games = [];
  }
  if (app.games.length) {
    $("f-game").replaceChildren(...app.games.map((g) => el("option", { value: g.name }, g.title)));
  }
  const choices = (app.players && app.players.choices) || [{ spec: "human", label: "You (at this board)" },
    { spec: "medium", label: "AI — medium" }, { spec: "custom", label: "Other player spec…" }];
  for (const side of ["f-p0", "f-p1"]) {
    $(side).replaceChildren(...choices.map((c) => el("option", { value: c.spec }, c.label)));
  }
  const defaults = (app.players && app.players.default) || ["human", "medium"];
  $("f-p0").value = defaults[0];
  $("f-p1").value = defaults[1];
  formPresets();
  formChanged();
}

function formPresets() {
  const g = formGame();
  const names = g ? Object.keys(g.presets || {}) : [];
  $("f-preset").replaceChildren(...names.map((name) => el("option", { value: name }, name)));
  if (names.length) $("f-preset").value = g.default_preset || names[0];
}

function formGame() {
  return (app.games || []).find((g) => g.name === $("f-game").value);
}

function presetValues() {
  const g = formGame();
  if (!g) return {};
  if (Object.keys(g.presets || {}).length) return g.presets[$("f-preset").value] || {};
  return Object.fromEntries(g.options.map((o) => [o.name, o.default]));
}

function formChanged(presetOnly = false) {
  const g = formGame();
  const hasPresets = !!g && Object.keys(g.presets || {}).length > 0;
  const size = sizeOption(g);
  for (const node of document.querySelectorAll(".preset-row")) node.hidden = !hasPresets;
  for (const node of document.querySelectorAll(".size-row")) node.hidden = !size;
  $("l-pits").textContent = size === "houses" ? "Houses per side" : "Pits per side";
  $("l-seeds").textContent = size === "houses" ? "Seeds per house" : "Seeds per pit";
  // the board sizes the rules accept (the server says why when a value is out of range)
  $("f-pits").max = size === "houses" ? "12" : "20";
  $("f-seeds").min = size === "houses" ? "1" : "0";
  $("f-seeds").max = size === "houses" ? "20" : "1000";
  const names = g && g.sides ? g.sides : ["First player", "Second player"];
  $("l-p0").textContent = `${names[0]} plays`;
  $("l-p1").textContent = `${names[1]} plays`;
  const values = presetValues();
  if (size) {
    $("f-pits").value = values[size] ?? 6;
    $("f-seeds").value = values.seeds ?? 4;
  }
  const rows = [];
  for (const o of g ? g.options : []) {
    if (size && (o.name === size || o.name === "seeds")) continue;
    const id = `opt-${o.name}`;
    const value = values[o.name] ?? o.default;
    let input;
    if (o.kind === "choice") input = el("select", { id, dataset: { opt: o.name } }, o.values.map((v) => el("option", { value: v, selected: v === value }, v)));
    else if (o.kind === "positions") input = el("input", { id, type: "text", value: value ? value.join(" ") : "", dataset: { opt: o.name },
      placeholder: g.name === "kalah" ? "counts: South pits, store, North pits, store" : "a position string (docs/web.md, Links)" });
    else if (o.kind === "numbers") input = el("input", { id, type: "text", value: (value || []).join(" "), dataset: { opt: o.name, kind: "numbers" },
      placeholder: "whole numbers, e.g. 2 3", inputmode: "numeric" });
    else if (o.kind === "bool") input = el("input", { id, type: "checkbox", checked: !!value, dataset: { opt: o.name } });
    else input = el("input", { id, type: "number", value: value ?? "", dataset: { opt: o.name } });
    rows.push(el("label", { for: id }, o.name.replaceAll("_", " ")), input);
  }
  $("f-options").replaceChildren(...rows);
  $("more-rules").hidden = rows.length === 0;
}

/** The game's board-size option shown in the form's size row (`pits`, Oware's `houses`), if any. */
function sizeOption(g) {
  const has = (name) => !!g && g.options.some((o) => o.name === name);
  if (!has("seeds")) return null;
  return has("pits") ? "pits" : has("houses") ? "houses" : null;
}

function formOptions() {
  const g = formGame();
  const values = presetValues();
  const options = {};
  if (g && Object.keys(g.presets || {}).length) options.preset = $("f-preset").value;
  const size = sizeOption(g);
  if (size) {
    if (Number($("f-pits").value) !== values[size]) options[size] = Number($("f-pits").value);
    if (Number($("f-seeds").value) !== values.seeds) options.seeds = Number($("f-seeds").value);
  }
  for (const input of $("f-options").querySelectorAll("[data-opt]")) {
    const name = input.dataset.opt;
    const value = input.type === "checkbox" ? input.checked : input.type === "number" ? Number(input.value) : input.value.trim();
    if (input.dataset.kind === "numbers") { // sent when it differs from the preset's list
      if (value.split(/[\s,]+/).filter(Boolean).join(" ") !== (values[name] || []).join(" ")) options[name] = value;
      continue;
    }
    if (input.type === "text") { if (value) options[name] = value; continue; }
    if (value !== values[name]) options[name] = value;
  }
  return options;
}

function formPlayer(side) {
  const spec = $(`f-p${side}`).value;
  return spec === "custom" ? $(`f-p${side}-custom`).value.trim() || "medium" : spec;
}

function startFromForm(event) {
  event.preventDefault();
  const players = [formPlayer(0), formPlayer(1)];
  const fields = { game: $("f-game").value, options: formOptions(), players };
  if (players.every((p) => p !== "human" && p !== "remote")) fields.move_delay = Number($("w-delay").value);
  $("new-error").hidden = true;
  $("new-dialog").close();
  request("create", fields, "new-form");
}

// ---- keyboard -----------------------------------------------------------------------

function onKey(event) {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
  const tag = (event.target.tagName || "").toLowerCase();
  if (tag === "input" || tag === "select" || tag === "textarea" || $("new-dialog").open || $("setup-dialog").open) return;
  const s = app.state;
  if (event.key === "Escape" && app.selected) { cancelChoice(); return; }
  if (event.key === "Escape" && app.viewing) { leaveView(); return; }
  // the move list: ← → one move back or on, Home the start, End the game as it stands
  const step = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity }[event.key];
  if (step !== undefined && s && !$("board").contains(document.activeElement)) {
    if (Number.isFinite(step)) stepPly(s, step);
    else viewPly(step < 0 ? 0 : s.ply);
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
    const kind = s.board.kind;
    const match = kind === "kalah" ? s.legal.filter((m) => m.pit === k) : kind === "oware" ? s.legal.filter((m) => m.number === k)
      : kind === "tictactoe" ? s.legal.filter((m) => m.cell === k) : [];
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
  else if (key === "f" && !$("flip").disabled) flipBoard();
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

// ---- wiring -------------------------------------------------------------------------

function wire() {
  $("undo").addEventListener("click", () => request("undo", {}, "undo"));
  $("redo").addEventListener("click", () => request("redo", {}, "redo"));
  $("hint").addEventListener("click", () => request("hint", {}, "hint"));
  $("flip").addEventListener("click", flipBoard);
  $("evalbar-on").checked = localStorage.getItem("mancala-evalbar") === "1";
  $("evalbar-on").addEventListener("change", () => {
    localStorage.setItem("mancala-evalbar", $("evalbar-on").checked ? "1" : "0");
    app.evalKey = null;
    updateEvalBar();
  });
  $("copy-position").addEventListener("click", () => copyLink("position"));
  $("copy-game").addEventListener("click", () => copyLink("game"));
  $("history-values").addEventListener("click", () => { $("history-values").textContent = "Evaluating…"; request("review", {}, "review"); });
  $("resign").addEventListener("click", () => { if (confirm("Resign this game?")) request("resign", {}, "resign"); });
  $("save").addEventListener("click", () => request("save", {}, "save"));
  $("load").addEventListener("click", () => $("load-file").click());
  $("load-file").addEventListener("change", (e) => { loadFile(e.target.files[0]); e.target.value = ""; });
  $("play-again").addEventListener("click", () => request("new", {}, "new"));
  $("review-btn2").addEventListener("click", () => { $("review-panel").open = true; request("review", {}, "review"); $("review-panel").scrollIntoView(); });
  $("new-game").addEventListener("click", () => { $("new-error").hidden = true; $("new-dialog").showModal(); });
  $("new-cancel").addEventListener("click", () => $("new-dialog").close());
  $("new-form").addEventListener("submit", startFromForm);
  $("setup").addEventListener("click", openSetup);
  $("explorer-panel").addEventListener("toggle", () => { app.exploreKey = null; updateExplorer(); });
  $("setup-cancel").addEventListener("click", () => $("setup-dialog").close());
  $("setup-form").addEventListener("submit", startSetup);
  $("setup-form").addEventListener("input", setupChanged);
  $("setup-side").addEventListener("change", setupChanged);
  $("f-game").addEventListener("change", () => { formPresets(); formChanged(); });
  $("f-preset").addEventListener("change", () => formChanged(true));
  for (const side of [0, 1]) {
    $(`f-p${side}`).addEventListener("change", () => { $(`f-p${side}-custom`).hidden = $(`f-p${side}`).value !== "custom"; });
  }
  $("analyse").addEventListener("click", () => {
    $("analysis").textContent = "Analysing…";
    request("analyse", shownFields(), "analyse");
  });
  $("top-lines-btn").addEventListener("click", () => {
    $("analysis").textContent = "Analysing the three best moves…";
    request("analyse", { ...shownFields(), lines: 3 }, "analyse");
  });
  $("review").addEventListener("click", () => { $("review-out").textContent = "Reviewing…"; request("review", {}, "review"); });
  $("tree-form").addEventListener("submit", (e) => {
    e.preventDefault();
    $("tree-out").textContent = "Searching…";
    const fields = { depth: Number($("tree-depth").value), algorithm: $("tree-algo").value };
    Object.assign(fields, shownFields());
    request("tree", fields, "tree");
  });
  $("view-back").addEventListener("click", leaveView);
  $("w-play").addEventListener("click", () => request("resume", {}, "resume-ai"));
  $("resume").addEventListener("click", () => request("resume", {}, "resume-ai"));
  $("w-pause").addEventListener("click", () => request("pause", {}, "pause"));
  $("w-step").addEventListener("click", () => request("step", {}, "step"));
  const delayOut = () => { $("w-delay-out").textContent = `${Number($("w-delay").value).toFixed(1)} s`; };
  $("w-delay").addEventListener("input", delayOut);
  $("w-delay").addEventListener("change", () => request("settings", { move_delay: Number($("w-delay").value) }, "settings"));
  delayOut();
  const speedOut = () => { $("speed-out").textContent = `${delayMs()} ms a seed`; };
  $("speed").addEventListener("input", speedOut);
  speedOut();
  const anim = localStorage.getItem("mancala-animate");
  if (anim !== null) $("animate").checked = anim === "1";
  if (app.params.get("animate") === "0") $("animate").checked = false;
  $("animate").addEventListener("change", () => localStorage.setItem("mancala-animate", $("animate").checked ? "1" : "0"));
  $("move-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const move = $("move-input").value.trim();
    if (move) sendMove(move);
    $("move-input").value = "";
  });
  document.addEventListener("keydown", onKey);
  setInterval(updateThinking, 200);
}

wire();
loadCatalogue();
connect();
