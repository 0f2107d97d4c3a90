// The board page: connects to the server, draws what it is told, sends intents.
// The page never decides legality: clickable things come from the server's `legal` list,
// and every answer (state, error) comes back from the server.
// the games, their sides and options, and the players offered come from the server's
// catalogues (/api/games, /api/players): no list of games or levels lives in the page
// This module wires the page's controls to the parts that handle them, then starts it.
import { $, app, ui } from "./state.js";
import * as analysis from "./analysis.js";
import * as dialogs from "./dialogs.js";
import * as game from "./game.js";
import * as history from "./history.js";
import * as lobby from "./lobby.js";
import * as moves from "./moves.js";
import { connect, request } from "./messages.js";
import { openSetup, setupChanged, startSetup } from "./setup.js";

/** Bind the actions the parts call in one another (state.js's `ui`). */
function bindActions() {
  Object.assign(ui,
    { drawReview: analysis.drawReview, onReview: analysis.onReview, setEvalBar: analysis.setEvalBar, showEvalBar: analysis.showEvalBar, showHint: analysis.showHint, sideName: analysis.sideName, unitOf: analysis.unitOf, updateEvalBar: analysis.updateEvalBar, updateExplorer: analysis.updateExplorer },
    { download: dialogs.download },
    { announce: game.announce, flipBoard: game.flipBoard, flipped: game.flipped, lastCells: game.lastCells, onState: game.onState, playersWithYou: game.playersWithYou, render: game.render, showRuleNote: game.showRuleNote },
    { leaveView: history.leaveView, renderHistory: history.renderHistory, showView: history.showView, shownFields: history.shownFields, shownLine: history.shownLine, shownPly: history.shownPly, stepPly: history.stepPly, viewPly: history.viewPly },
    { chooseHole: moves.chooseHole, renderChoice: moves.renderChoice, sendMove: moves.sendMove },
    { joinFailed: lobby.joinFailed, nameError: lobby.nameError, onNamed: lobby.onNamed, renderLobby: lobby.renderLobby, savedName: lobby.savedName, showJoinNote: lobby.showJoinNote, updateInvite: lobby.updateInvite, updatePlayers: lobby.updatePlayers });
}

function wire() {
  $("undo").addEventListener("click", () => request("undo", {}, "undo"));
  $("redo").addEventListener("click", () => request("redo", {}, "redo"));
  $("hint").addEventListener("click", () => request("hint", {}, "hint"));
  $("flip").addEventListener("click", game.flipBoard);
  $("evalbar-on").checked = localStorage.getItem("mancala-evalbar") === "1";
  $("evalbar-on").addEventListener("change", () => {
    localStorage.setItem("mancala-evalbar", $("evalbar-on").checked ? "1" : "0");
    app.evalKey = null;
    analysis.updateEvalBar();
  });
  $("copy-position").addEventListener("click", () => history.copyLink("position"));
  $("copy-game").addEventListener("click", () => history.copyLink("game"));
  $("copy-moves").addEventListener("click", () => request("save", { as: "text" }, "save"));
  $("paste-moves").addEventListener("click", dialogs.openPaste);
  $("paste-cancel").addEventListener("click", () => $("paste-dialog").close());
  $("paste-form").addEventListener("submit", dialogs.submitPaste);
  $("history-values").addEventListener("click", () => { $("history-values").textContent = "Evaluating…"; request("review", {}, "review"); });
  $("resign").addEventListener("click", () => { if (confirm("Resign this game?")) request("resign", {}, "resign"); });
  $("save").addEventListener("click", () => request("save", {}, "save"));
  $("load").addEventListener("click", () => $("load-file").click());
  $("load-file").addEventListener("change", (e) => { dialogs.loadFile(e.target.files[0]); e.target.value = ""; });
  $("play-again").addEventListener("click", () => request("new", {}, "new"));
  $("review-btn2").addEventListener("click", () => { $("review-panel").open = true; request("review", {}, "review"); $("review-panel").scrollIntoView(); });
  $("new-game").addEventListener("click", () => { $("new-error").hidden = true; $("new-dialog").showModal(); });
  $("new-cancel").addEventListener("click", () => $("new-dialog").close());
  $("new-form").addEventListener("submit", dialogs.startFromForm);
  $("setup").addEventListener("click", openSetup);
  $("explorer-panel").addEventListener("toggle", () => { app.exploreKey = null; analysis.updateExplorer(); });
  $("setup-cancel").addEventListener("click", () => $("setup-dialog").close());
  $("setup-form").addEventListener("submit", startSetup);
  $("setup-form").addEventListener("input", setupChanged);
  $("setup-side").addEventListener("change", setupChanged);
  $("f-game").addEventListener("change", () => { dialogs.formPresets(); dialogs.formChanged(); });
  $("f-preset").addEventListener("change", () => dialogs.formChanged(true));
  for (const side of [0, 1]) {
    $(`f-p${side}`).addEventListener("change", () => { $(`f-p${side}-custom`).hidden = $(`f-p${side}`).value !== "custom"; });
  }
  $("analyse").addEventListener("click", () => {
    $("analysis").textContent = "Analysing…";
    request("analyse", history.shownFields(), "analyse");
  });
  $("top-lines-btn").addEventListener("click", () => {
    $("analysis").textContent = "Analysing the three best moves…";
    request("analyse", { ...history.shownFields(), lines: 3 }, "analyse");
  });
  $("review").addEventListener("click", () => { $("review-out").textContent = "Reviewing…"; request("review", {}, "review"); });
  $("tree-form").addEventListener("submit", (e) => {
    e.preventDefault();
    $("tree-out").textContent = "Searching…";
    const fields = { depth: Number($("tree-depth").value), algorithm: $("tree-algo").value };
    Object.assign(fields, history.shownFields());
    request("tree", fields, "tree");
  });
  $("view-back").addEventListener("click", history.leaveView);
  $("w-play").addEventListener("click", () => request("resume", {}, "resume-ai"));
  $("resume").addEventListener("click", () => request("resume", {}, "resume-ai"));
  $("w-pause").addEventListener("click", () => request("pause", {}, "pause"));
  $("w-step").addEventListener("click", () => request("step", {}, "step"));
  const delayOut = () => { $("w-delay-out").textContent = `${Number($("w-delay").value).toFixed(1)} s`; };
  $("w-delay").addEventListener("input", delayOut);
  $("w-delay").addEventListener("change", () => request("settings", { move_delay: Number($("w-delay").value) }, "settings"));
  delayOut();
  const speedOut = () => { $("speed-out").textContent = `${game.delayMs()} ms a seed`; };
  $("speed").addEventListener("input", speedOut);
  speedOut();
  const anim = localStorage.getItem("mancala-animate");
  if (anim !== null) $("animate").checked = anim === "1";
  if (app.params.get("animate") === "0") $("animate").checked = false;
  $("animate").addEventListener("change", () => localStorage.setItem("mancala-animate", $("animate").checked ? "1" : "0"));
  $("move-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const move = $("move-input").value.trim();
    if (move) moves.sendMove(move);
    $("move-input").value = "";
  });
  document.addEventListener("keydown", moves.onKey);
  setInterval(game.updateThinking, 200);
}

bindActions();
wire();
lobby.initPeople();
dialogs.loadCatalogue();
connect();
