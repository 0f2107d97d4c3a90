// The position editor: it writes the game's position string (docs/web.md, "Links") from what is
// set up; the server checks the position (the rules' start option) and says why one is refused.
import { el } from "./boards.js";
import { $, app } from "./state.js";
import { request, showError } from "./messages.js";

/** Open the editor on the position shown (each game's editor below fills it and says how to
 * read its position string back). */
export function openSetup() {
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
  const grid = $("setup-board");
  const side = $("setup-side");
  const names = board.names ?? null; // houses named by letters (Oware), else pits by number
  const n = board.houses ?? board.pits;
  const label = (cell) => {
    const store = board.kind === "togyz" ? "kazan" : "store";
    if (cell === board.stores[0]) return `South's ${store}`;
    if (cell === board.stores[1]) return `North's ${store}`;
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
  const seat = board.to_move_seat ?? toMove; // the seat to move where players may swap seats
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

/** Togyz Kumalak: the houses and kazans as for Oware, and each player's tuzdik (a house of the
 * other's row, never its last); its position string is docs/togyz.md's
 * (`S1,…,S9/N1,…,N9 kS-kN T`, X for a tuzdik house). */
function togyzEditor(board, toMove) {
  const read = pitsEditor(board, toMove);
  const grid = $("setup-board");
  const side = $("setup-side");
  const n = board.houses;
  const names = ["South", "North"];
  const tuzdikSelect = (owner) => {
    const row = 1 - owner; // a tuzdik sits on the other player's row
    const current = board.tuzdiks ? board.tuzdiks[owner] : null;
    return el("select", { id: `setup-tuzdik-${owner}` }, el("option", { value: "-" }, "none"),
      Array.from({ length: n - 1 }, (_, k) => row * n + k).map((cell) =>
        el("option", { value: String(cell), selected: current === cell }, `${names[row]}'s house ${cell % n + 1}`)));
  };
  const extra = $("setup-extra");
  extra.replaceChildren(
    el("label", { for: "setup-tuzdik-0" }, "South's tuzdik"), tuzdikSelect(0),
    el("label", { for: "setup-tuzdik-1" }, "North's tuzdik"), tuzdikSelect(1));
  extra.hidden = false;
  for (const select of extra.querySelectorAll("select")) select.onchange = setupChanged;
  $("setup-help").textContent = "Type the stones in each house and kazan (North's row on top, as South sees the board; "
    + "a tuzdik house holds none), choose each player's tuzdik, if any, and who moves.";
  return () => {
    const counts = read().split("-").slice(0, 2 * n + 2);
    const tuzdik = new Set([0, 1].map((p) => $(`setup-tuzdik-${p}`).value).filter((v) => v !== "-").map(Number));
    const row = (owner) => Array.from({ length: n }, (_, k) => owner * n + k)
      .map((cell) => (tuzdik.has(cell) ? "X" : counts[cell])).join(",");
    return `${row(0)}/${row(1)} ${counts[2 * n]}-${counts[2 * n + 1]} ${side.value}`;
  };
}

/** Each game's editor by board kind: fills the dialog, returns how to read its position string. */
const SETUP_EDITORS = { kalah: pitsEditor, oware: pitsEditor, togyz: togyzEditor, tictactoe: tictactoeEditor, bao: baoEditor };

/** The position string of what the editor holds. */
function setupString() {
  return app.setupRead ? app.setupRead() : "";
}

export function setupChanged() {
  $("setup-position").textContent = `Position string: ${setupString()}`;
}

export function startSetup(event) {
  event.preventDefault();
  $("setup-error").hidden = true;
  const s = app.state;
  request("create", { game: s.game.spec, position: setupString(), players: ["human", "human"] }, "setup");
}
