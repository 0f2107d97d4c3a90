// The board page: connects to the server, draws what it is told, sends intents.
// The page never decides legality: clickable things come from the server's `legal` list,
// and every answer (state, error) comes back from the server.
// the games, their sides and options, and the players offered come from the server's
// catalogues (/api/games, /api/players): no list of games or levels lives in the page
// This module wires the page's controls to the parts that handle them, then starts it.
import { $, app } from "./state.js";
import { connect, request } from "./messages.js";
import { delayMs, flipBoard, updateThinking } from "./game.js";
import { onKey, sendMove } from "./moves.js";
import { copyLink, leaveView, shownFields } from "./history.js";
import { updateEvalBar, updateExplorer } from "./analysis.js";
import { formChanged, formPresets, loadCatalogue, loadFile, startFromForm } from "./dialogs.js";
import { openSetup, setupChanged, startSetup } from "./setup.js";

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
