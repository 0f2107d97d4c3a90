// The study panels: analysis (every legal move's value), review (each move against the best)
// and the search tree (expandable node by node, pruned branches explained).
import { el } from "./boards.js";

const UNIT = { seeds: "seeds", eval: "eval", outcome: "" };

/** A value as text: "+4", "−2", "∞", "win". */
export function fmtValue(v, unit) {
  if (v === null || v === undefined) return "–";
  if (v === "inf") return "+∞";
  if (v === "-inf") return "−∞";
  if (unit === "outcome") return v > 0 ? "win" : v < 0 ? "loss" : "draw";
  // tic-tac-toe's lesson scores (the search tree): 100 a win, 0 a loss, 50 not decided at the depth searched
  if (unit === "percent") return v >= 100 ? "win (100)" : v <= 0 ? "loss (0)" : String(Number(v));
  if (unit === "eval" && Math.abs(v) >= 1000000) return v > 0 ? "win" : "loss";
  const n = Number(v);
  const shown = Number.isInteger(n) ? String(Math.abs(n)) : Math.abs(n).toFixed(2);
  return (n > 0 ? "+" : n < 0 ? "−" : "") + shown;
}

/** How sure a value is: "✓ exact" (proven), or the depth its estimate was searched to, as a
 * chess site names the depth beside every engine value. */
export function exactMark(exact, depth) {
  return exact
    ? el("span", { class: "exact", title: "exact (proven)" }, "✓ exact")
    : el("span", { class: "estimate", title: `an estimate from a search ${depth ?? "?"} turns deep` }, `≈ depth ${depth ?? "?"}`);
}

/** The parts of a panel that are there: a condition that did not hold leaves `null`, `false`
 * or `0` in the list, which `replaceChildren` would write out as text. */
function present(parts) {
  return parts.filter((part) => part instanceof Node || (typeof part === "string" && part !== ""));
}

/** A message's expected line as text, turn by turn with each mover's name ("South 3 6, North 2")
 * when the server sent `turns`, else the bare moves. */
export function lineText(msg) {
  return msg.turns && msg.turns.length ? msg.turns.join(", ") : (msg.line || []).join(" ");
}

/** The analysis panel's content from an `analysis` message. */
export function renderAnalysis(msg, name) {
  const unit = UNIT[msg.unit] ?? msg.unit;
  const rows = msg.moves.map((m, i) => el("tr", { class: i === 0 ? "best" : "" },
    el("td", {}, m.move), el("td", { class: "num" }, fmtValue(m.value, msg.unit)), el("td", {}, exactMark(m.exact, m.depth))));
  return present([
    el("p", { class: "summary", id: "analysis-summary" }, msg.summary || ""),
    el("p", {}, `Values for ${name} (the player to move)${unit ? ", in " + unit : ""}, best first:`),
    el("table", { class: "values", id: "analysis-table" },
      el("thead", {}, el("tr", {}, el("th", {}, "move"), el("th", {}, "value"), el("th", {}, "exact or depth"))),
      el("tbody", {}, rows)),
    msg.line && msg.line.length && !msg.top_lines ? el("p", {}, "Expected line: ", el("span", { class: "line" }, lineText(msg))) : null,
    msg.top_lines ? el("div", { id: "top-lines" }, el("h3", {}, `The engine's top ${msg.top_lines.length} lines`),
      el("ol", { class: "top-lines" }, msg.top_lines.map((t) => el("li", {},
        el("strong", {}, fmtValue(t.value, msg.unit)), " ", exactMark(t.exact, t.depth), " ", el("span", { class: "line" }, lineText(t)))))) : null,
  ]);
}

/** The opening explorer's content from an `explorer` message. */
export function renderExplorer(msg, name) {
  if (!msg.available) return [el("p", { id: "explorer-text" }, `No opening book here: ${msg.text}.`)];
  const rows = msg.moves.map((m) => el("tr", { class: m.in_book && m === msg.moves[0] ? "best" : "", dataset: { move: m.move } },
    el("td", {}, m.move), el("td", { class: "num" }, m.in_book ? fmtValue(m.value, msg.unit) : "–"),
    el("td", {}, !m.in_book ? el("span", { class: "estimate" }, "not in the book")
      : msg.exact ? exactMark(true)
      : el("span", { class: "estimate", title: "the book's value, from the engine's search when the book was built" }, "searched"))));
  return present([
    el("p", { id: "explorer-text" }, `${msg.text[0].toUpperCase()}${msg.text.slice(1)}.`),
    el("div", { class: "table-scroll" }, el("table", { class: "values", id: "explorer-table" },
      el("caption", { class: "visually-hidden" }, `Book values for ${name}, the player to move`),
      el("thead", {}, el("tr", {}, el("th", {}, "move"), el("th", {}, `value for ${name}`), el("th", {}, "book"))),
      el("tbody", {}, rows))),
    el("p", { id: "explorer-line" }, msg.line.length ? ["Main line: ", el("span", { class: "line" }, lineText(msg))] : "The book has no line from here."),
  ]);
}

/** What a move class is called and marked with (the server classes each reviewed move). */
export const CLASSES = {
  best: { mark: "", text: "best" },
  good: { mark: "", text: "good" },
  inaccuracy: { mark: "?!", text: "inaccuracy" },
  mistake: { mark: "?", text: "mistake" },
  blunder: { mark: "??", text: "blunder" },
};

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) node.setAttribute(k, v);
  for (const c of children) if (c) node.append(c);
  return node;
}

/** A value as a number for the graph, from the first player's side (Bao's won games, ±10000,
 * and infinities drawn at the edge). */
function plotValue(v, player, unit) {
  let n = v === "inf" ? Infinity : v === "-inf" ? -Infinity : Number(v);
  if (player !== 0) n = -n;
  const edge = unit === "eval" ? 20 : unit === "outcome" ? 1 : 1e9;
  return Math.max(-edge, Math.min(edge, n));
}

/** The graph of the value over the whole game (from the first player's side, after each move;
 * the start from the first move's best value): exact points filled, estimates hollow, mistakes
 * and blunders ringed; a click on a point shows the position after that move. */
export function renderGraph(msg, names, onGo, current) {
  const moves = msg.moves;
  const points = [{ ply: 0, value: plotValue(moves[0].best_value, moves[0].player, msg.unit), exact: moves[0].exact, cls: "start" }]
    .concat(moves.map((m) => ({ ply: m.ply, value: plotValue(m.value, m.player, msg.unit), exact: m.exact, cls: m.class, m })));
  const W = 320, H = 120, pad = 8;
  const top = Math.max(1, ...points.map((p) => Math.abs(p.value)));
  const x = (i) => pad + (i * (W - 2 * pad)) / Math.max(1, points.length - 1);
  const y = (v) => H / 2 - (v / top) * (H / 2 - pad);
  const path = points.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.value).toFixed(1)}`).join(" ");
  const area = `${path} L${x(points.length - 1).toFixed(1)},${H / 2} L${x(0).toFixed(1)},${H / 2} Z`;
  const exact = points.filter((p) => p.exact).length;
  const label = `Value over the game for ${names[0] || "the first player"}, from ${fmtValue(points[0].value, msg.unit)} at the start ` +
    `to ${fmtValue(points[points.length - 1].value, msg.unit)} after move ${points.length - 1}; ${exact} of ${points.length} points exact. ` +
    "Its points are buttons: the arrow keys move between them, Enter shows a position.";
  const graph = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "eval-graph", id: "eval-graph", role: "group", "aria-label": label },
    svg("rect", { x: 0, y: 0, width: W, height: H, class: "bg", "aria-hidden": "true" }),
    svg("path", { d: area, class: "area", "aria-hidden": "true" }),
    svg("line", { x1: pad, x2: W - pad, y1: H / 2, y2: H / 2, class: "zero", "aria-hidden": "true" }),
    svg("path", { d: path, class: "curve", "aria-hidden": "true" }));
  // one point in the Tab order (the position shown, else the last), the arrow keys move between
  // them (a roving tab stop), Enter or Space goes to a point's position as a click does
  const stop = points.some((p) => p.ply === current) ? current : points[points.length - 1].ply;
  const dots = points.map((p, i) => {
    const title = p.ply === 0 ? `start: ${fmtValue(p.value, msg.unit)} for ${names[0]}`
      : `move ${p.ply}, ${names[p.m.player] || p.m.player} ${p.m.move}: ${fmtValue(p.value, msg.unit)} for ${names[0]}` +
        ` (${p.exact ? "exact" : "estimate"}), ${CLASSES[p.cls] ? CLASSES[p.cls].text : p.cls}`;
    const dot = svg("circle", {
      cx: x(i).toFixed(1), cy: y(p.value).toFixed(1), r: p.ply === current ? 5 : 3.5,
      class: `pt ${p.exact ? "exact" : "estimate"} ${p.cls}${p.ply === current ? " current" : ""}`, "data-ply": p.ply,
      role: "button", tabindex: p.ply === stop ? "0" : "-1", "aria-label": `Go to ${title}`,
      "aria-current": p.ply === current ? "true" : null,
    }, svg("title", {}, title));
    dot.addEventListener("click", () => onGo(p.ply));
    dot.addEventListener("keydown", (e) => {
      let to = null;
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); e.stopPropagation(); onGo(p.ply); return; }
      if (e.key === "ArrowRight" || e.key === "ArrowUp") to = Math.min(i + 1, dots.length - 1);
      else if (e.key === "ArrowLeft" || e.key === "ArrowDown") to = Math.max(i - 1, 0);
      else if (e.key === "Home") to = 0;
      else if (e.key === "End") to = dots.length - 1;
      if (to === null) return;
      e.preventDefault();
      e.stopPropagation(); // (not the page's own arrows, which step through the game)
      dots.forEach((d, k) => d.setAttribute("tabindex", k === to ? "0" : "-1"));
      dots[to].focus();
    });
    return dot;
  });
  graph.append(...dots);
  return el("figure", { class: "graph-wrap" }, graph,
    el("figcaption", { class: "help" }, `Value for ${names[0] || "the first player"} after each move (`,
      el("span", { class: "key-exact" }, "●"), " exact, ", el("span", { class: "key-estimate" }, "○"), " estimate, ",
      el("span", { class: "key-bad" }, "◎"), " mistake or blunder). Click a point (or Tab to it, move with ← →, press Enter) to see that position."));
}

/** The review panel's content from a `review` message; `onGo(ply)` shows the position after
 * a move (a graph point, a row's button, a mistake). */
export function renderReview(msg, names, onGo = () => {}, current = null) {
  if (!msg.moves.length) return [el("p", {}, "No moves to review yet.")];
  const unit = msg.unit;
  const lossUnit = unit === "outcome" ? "seeds" : unit; // a loss in outcomes is a number of steps (win→draw 1, win→loss 2)
  const mistakes = msg.mistakes.filter((m) => m.loss > 0);
  const cls = (m) => CLASSES[m.class] || { mark: "", text: m.class || "" };
  const go = (m, text) => el("button", { type: "button", class: "go", dataset: { ply: m.ply }, onclick: () => onGo(m.ply) }, text);
  const rows = msg.moves.map((m) => el("tr", { class: (m.loss > 0 ? "" : "best") + (m.ply === current ? " current" : ""), dataset: { class: m.class || "" } },
    el("td", {}, go(m, el("span", {}, el("span", { class: "visually-hidden" }, "Go to move "), String(m.ply)))),
    el("td", {}, names[m.player] || m.player), el("td", {}, m.move + cls(m).mark),
    el("td", { class: "num" }, fmtValue(m.value, unit), " ", exactMark(m.exact, m.depth)), el("td", {}, m.best),
    el("td", { class: "num" }, m.loss > 0 ? fmtValue(-m.loss, lossUnit) : "best"),
    el("td", { class: `cls ${m.class || ""}` }, cls(m).text)));
  const counts = ["inaccuracy", "mistake", "blunder"].map((c) => [c, msg.moves.filter((m) => m.class === c).length]);
  return present([
    renderGraph(msg, names, onGo, current),
    el("p", { id: "class-counts" }, counts.map(([c, n]) => `${n} ${CLASSES[c].text}${n === 1 ? "" : c === "mistake" ? "s" : c === "blunder" ? "s" : "ies"}`.replace("inaccuracyies", "inaccuracies")).join(", ") + "."),
    el("h3", {}, "Biggest mistakes"),
    mistakes.length
      ? el("ol", { id: "mistakes" }, mistakes.map((m) => el("li", {}, go(m,
        `Move ${m.ply}: ${names[m.player] || m.player} played ${m.move}${cls(m).mark} (${fmtValue(m.value, unit)}); ` +
        `best was ${m.best} (${fmtValue(m.best_value, unit)}), a loss of ${fmtValue(m.loss, lossUnit).replace("+", "")}` +
        `${m.class ? ` — ${cls(m).text}` : ""}.`))))
      : el("p", { id: "mistakes" }, "No mistakes found: every move was as good as the best one found."),
    el("div", { class: "table-scroll" }, el("table", { class: "values", id: "review-table" },
      el("thead", {}, el("tr", {}, ["#", "who", "move", "value", "best", "lost", "class"].map((h) => el("th", {}, h)))),
      el("tbody", {}, rows))),
  ]);
}

/** A node's position in words, for its hover and focus picture (the server writes it: each
 * side's cells and stores, tic-tac-toe's rows), else the game's position string. */
export function nodePicture(node) {
  return node.board || node.position || "";
}

let nodeCount = 0;

/** One tree node as a list item; children drawn when the node is expanded. */
function nodeItem(node, unit) {
  const hasKids = node.children && node.children.length > 0;
  const who = node.max ? "max" : "min";
  const label = `${node.move === null ? "root" : "move " + node.move} · ${who} · value ${fmtValue(node.value, unit)}`;
  const window = node.window ? ` window [${fmtValue(node.window[0], unit)}, ${fmtValue(node.window[1], unit)}]` : "";
  const li = el("li", { class: "node" });
  const picture = nodePicture(node);
  const posId = `node-pos-${++nodeCount}`;
  const pos = picture ? el("span", { class: "node-pos", id: posId }, `position: ${picture}`) : null;
  const body = el("ul", { class: "tree", hidden: true });
  const expandable = hasKids || (node.pruned && node.pruned.length > 0);
  const toggle = !expandable ? el("span", { class: "leafnode", tabindex: pos ? "0" : null, "aria-describedby": pos ? posId : null, title: picture || null }, "• ", label) : el("button", {
    type: "button", class: "toggle", "aria-expanded": "false", "aria-describedby": pos ? posId : null, title: picture || null,
    onclick: () => {
      const open = toggle.getAttribute("aria-expanded") === "true";
      if (!open && !body.dataset.filled) {
        body.dataset.filled = "1";
        for (const child of node.children || []) body.append(nodeItem(child, unit));
        if (node.pruned && node.pruned.length) {
          body.append(el("li", { class: "pruned" },
            `✂ pruned ${node.pruned.join(", ")}: ${node.prune_reason || "cut off"}`));
        }
      }
      toggle.setAttribute("aria-expanded", open ? "false" : "true");
      toggle.firstChild.textContent = open ? "▸" : "▾";
      body.hidden = open;
    },
  }, el("span", {}, "▸"), " ", label);
  li.append(toggle, pos, el("span", { class: "win" }, window));
  if (node.leaf || node.terminal) li.append(el("span", { class: "win" }, ` — ${node.why || (node.terminal ? "game over" : "depth limit")}`));
  if (node.pruned && node.pruned.length) li.append(el("span", { class: "pruned" }, ` ✂ ${node.pruned.length} pruned`));
  li.append(body);
  return li;
}

/** The search-tree panel's content from a `tree` message. */
export function renderTree(msg, gameUnit) {
  const unit = msg.unit ?? gameUnit; // (the tree's own scale where its leaves are scored otherwise)
  const saved = msg.nodes.minimax - msg.nodes.alphabeta;
  return present([
    el("p", { class: "counts", id: "tree-counts" },
      `Nodes: minimax ${msg.nodes.minimax}, alpha-beta ${msg.nodes.alphabeta}` +
      (saved > 0 ? ` (${saved} not searched thanks to pruning)` : "")),
    el("p", {}, `${msg.algorithm === "minimax" ? "Minimax" : "Alpha-beta"} to depth ${msg.depth}: best move `,
      el("strong", {}, msg.best ?? "–"), `, value ${fmtValue(msg.value, unit)}`,
      msg.line && msg.line.length ? ", line " : "", msg.line && msg.line.length ? el("span", { class: "line" }, lineText(msg)) : ""),
    el("p", { class: "help" }, "Expand a node with its button; ✂ marks moves alpha-beta did not search, with the reason." +
      (unit === "percent" ? " Values: 100 a win, 0 a loss, 50 not decided at this depth." : "")),
    el("ul", { class: "tree root", id: "tree-root" }, nodeItem(msg.root, unit)),
  ]);
}
