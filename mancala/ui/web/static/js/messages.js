// The connection's side of the page: the hello, the first game (from the address, or the game of
// a previous visit), the requests sent and where each answer from the server goes; errors shown.
import { Connection } from "./conn.js";
import { el } from "./boards.js";
import { renderAnalysis, renderExplorer, renderTree } from "./panels.js";
import { $, app, ui } from "./state.js";

export function connect() {
  app.conn = new Connection(onMessage, () => {
    $("conn").hidden = false;
    $("conn").textContent = "connection lost — reload the page to reconnect";
    document.body.dataset.conn = "closed";
  });
  // each state then carries only the moves not sent before (`history_from`: where they go)
  const hello = { client: "mancala web board", history: "delta" };
  if (app.params.get("token")) hello.token = app.params.get("token");
  if (ui.savedName()) hello.name = ui.savedName(); // (the person's name, kept in this browser: lobby.js)
  request("hello", hello, "hello");
  if (app.params.get("join")) { // a second browser taking a remote seat: ?join=GAME_ID
    app.linkGame = app.params.get("join");
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
    // an address that names a game, its players or rules is a link too: a name the server does
    // not know (?game=chess, ?p1=nonsense) is said, and the default game opens instead
    const named = ["game", "p0", "p1", "options"].some((k) => app.params.get(k) !== null);
    request("create", fields, position !== null || named ? "link" : "create");
  }
  // a reload should come back to this game, not start another one from the address
  const keep = new URLSearchParams();
  if (app.params.get("token")) keep.set("token", app.params.get("token"));
  if (app.params.get("animate")) keep.set("animate", app.params.get("animate"));
  history.replaceState(null, "", location.pathname + (keep.toString() ? "?" + keep : ""));
  app.params = new URLSearchParams(keep);
}

export function request(type, fields, what) {
  const id = app.conn.send(type, fields);
  app.pending.set(id, what || type);
  return id;
}

function onMessage(msg) {
  const what = msg.id !== undefined ? app.pending.get(msg.id) : undefined;
  const id = msg.id;
  if (msg.id !== undefined && msg.type !== "joined") app.pending.delete(msg.id);
  // a request of ours that succeeded: the error of an earlier one no longer holds
  if (what !== undefined && msg.type !== "error" && !["after-link", "hello", "lobby"].includes(what)) clearError();
  switch (msg.type) {
    case "welcome":
      setEngine(msg.engine);
      if (what === "hello") request("lobby", { subscribe: true }, "lobby"); // the open games, kept up to date
      break;
    case "lobby": ui.renderLobby(msg); break;
    case "named": ui.onNamed(msg); break;
    case "joined":
      if (what === "setup" && $("setup-dialog").open) {
        $("setup-dialog").close();
        $("board").focus({ preventScroll: true }); // the position set up, not the button that opened the editor
      }
      if (what === "paste" && $("paste-dialog").open) {
        $("paste-dialog").close();
        $("board").focus({ preventScroll: true });
      }
      if (msg.resume) sessionStorage.setItem("mancala-resume", JSON.stringify({ game_id: msg.game_id, resume: msg.resume }));
      else sessionStorage.setItem("mancala-resume", JSON.stringify({ game_id: msg.game_id, resume: "" }));
      app.seats = msg.seats;
      break;
    case "state": ui.onState(withHistory(msg)); break;
    case "error": onError(msg, what); break;
    case "hint": ui.showHint(msg); break;
    case "analysis":
      if (what === "evalbar") ui.showEvalBar(msg, id === app.evalRequest);
      else $("analysis").replaceChildren(...renderAnalysis(msg, ui.sideName(msg.player)));
      break;
    case "review": ui.onReview(msg); break;
    case "explorer":
      if (id === app.exploreRequest) $("explorer-out").replaceChildren(...renderExplorer(msg, ui.sideName(msg.player)));
      break;
    case "tree": $("tree-out").replaceChildren(...renderTree(msg, app.state && ui.unitOf(app.state))); break;
    case "view": ui.showView(msg); break;
    case "record": ui.download(msg); break;
    default: break;
  }
}

/** A state whose `history` holds only the moves not sent before, from `history_from` on, made
 * whole again from the moves kept: the rest of the page reads the whole list. */
function withHistory(msg) {
  if (msg.history_from === undefined) return msg;
  app.history = app.history.slice(0, msg.history_from).concat(msg.history);
  return { ...msg, history: app.history };
}

function onError(msg, what) {
  if (what === "name") { ui.nameError(msg.message); return; }
  if ((what === "join" || what === "lobby-join" || what === "watch") && ui.joinFailed(msg, what)) return;
  if (what === "resume" && (msg.code === "seat_taken" || msg.code === "game_over") && app.resumeGame) {
    // a game between AIs (this tab held no seat), or a finished game the server freed from
    // memory (it opens from the record the server keeps, read-only): it comes back as a watcher
    request("watch", { game_id: app.resumeGame }, "rewatch");
    return;
  }
  if (what === "resume" || what === "rewatch") { // the game of a previous visit is gone: start a new one
    sessionStorage.removeItem("mancala-resume");
    createFromParams();
    return;
  }
  if (what === "link" || (what === "join" && !app.state)) { // a bad link: say why, once, and open the default game instead
    const why = msg.message.replace(/; the current game goes on/, "").replace(/ \(send list to see the games\)/, "").replace(/\.$/, "");
    const lobby = what === "join" ? " The open games are listed under “Play people”." : "";
    showError(`That link cannot be opened: ${why}. Kalah opens instead.${lobby}`);
    app.linkError = true;
    app.linkPly = null;
    request("create", { game: "kalah", players: ["human", "medium"] }, "after-link");
    return;
  }
  if (what === "paste") { // the server's reason, in the paste dialog, which stays open
    $("paste-error").hidden = false;
    $("paste-error").textContent = msg.message.replace(/; the current game goes on/, "");
    if (!$("paste-dialog").open) $("paste-dialog").showModal();
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
    if (msg.id === app.evalRequest) ui.setEvalBar(null, msg.message);
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
export function showError(text) {
  $("error").textContent = "";
  $("error").hidden = false;
  $("error").textContent = text;
}

export function clearError() {
  $("error").hidden = true;
  $("error").textContent = "";
}

export function setEngine(engine, detail) {
  // the stronger AIs and the hint wait for it; say what it does and about how long is left
  app.engine = engine;
  app.engineDetail = engine === "preparing" && detail ? { ...detail, at: performance.now() } : null;
  document.body.dataset.engine = engine;
  showEngine();
}

/** About how many seconds the chosen game's engine has left to compile (null: unknown or ready):
 * the server's count (mancala/engine/readiness.py, seconds_left) carried on from its estimate
 * and the seconds spent so far, the same way; the header chip and the thinking line both show
 * this one number. */
export function engineLeft() {
  const d = app.engineDetail;
  if (!d) return null;
  if (d.estimate == null || d.elapsed == null) return d.left;
  const elapsed = d.elapsed + (performance.now() - d.at) / 1000;
  return Math.max(d.estimate - elapsed, 0.1 * elapsed, 1);
}

/** The background build of the game's endgame table (the state's table_build: null when none
 * runs), kept with the moment it came so its time left counts down between states. */
export function setTables(detail) {
  app.tables = detail ? { ...detail, at: performance.now() } : null;
  showTables();
}

/** The table build's chip in words, the server's own (mancala/engine/table_builds.py,
 * progress_line): "endgame table: 12 of 18 seeds, about 2 min left", or why it failed. */
export function tablesText(d) {
  if (!d) return null;
  if (d.error) return `endgame table not built: ${d.error}`;
  if (d.done == null || d.done < 0 || !d.unit) return `endgame table: starting the build (${d.size})`;
  let text = `endgame table: ${d.done} of ${d.size} ${d.unit}`;
  if (d.left != null) {
    const left = Math.max(d.left - (performance.now() - d.at) / 1000, 1);
    text += left >= 90 ? `, about ${Math.round(left / 60)} min left` : `, about ${Math.round(left)} s left`;
  }
  return text;
}

/** The table build's header chip, refreshed as its time left counts down. */
export function showTables() {
  const chip = $("tables");
  const text = tablesText(app.tables);
  chip.hidden = text == null;
  chip.classList.toggle("warn", Boolean(app.tables && app.tables.error));
  chip.title = app.tables && !app.tables.error
    ? "the strongest level reads this table; it is built in the background while you play, and used as it grows"
    : "";
  if (text != null && chip.textContent !== text) chip.textContent = text;
}

/** The header chip: the engine's compile and its count, refreshed as it counts down. */
export function showEngine() {
  showTables();
  const chip = $("engine");
  chip.hidden = app.engine !== "preparing";
  const left = engineLeft();
  const text = left != null ? `preparing the engine: ${app.engineDetail.what}, about ${Math.ceil(left)} s left`
    : "preparing the engine…";
  if (chip.textContent !== text) chip.textContent = text;
}
