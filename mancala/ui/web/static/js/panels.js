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
  if (unit === "eval" && Math.abs(v) >= 1000000) return v > 0 ? "win" : "loss";
  const n = Number(v);
  const shown = Number.isInteger(n) ? String(Math.abs(n)) : Math.abs(n).toFixed(2);
  return (n > 0 ? "+" : n < 0 ? "−" : "") + shown;
}

function exactMark(exact) {
  return exact
    ? el("span", { class: "exact", title: "exact (proven)" }, "✓ exact")
    : el("span", { class: "estimate", title: "an estimate from a bounded search" }, "≈ estimate");
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
    el("td", {}, m.move), el("td", { class: "num" }, fmtValue(m.value, msg.unit)), el("td", {}, exactMark(m.exact))));
  return [
    el("p", { class: "summary", id: "analysis-summary" }, msg.summary || ""),
    el("p", {}, `Values for ${name} (the player to move)${unit ? ", in " + unit : ""}, best first:`),
    el("table", { class: "values", id: "analysis-table" },
      el("thead", {}, el("tr", {}, el("th", {}, "move"), el("th", {}, "value"), el("th", {}, "exact?"))),
      el("tbody", {}, rows)),
    msg.line && msg.line.length ? el("p", {}, "Expected line: ", el("span", { class: "line" }, lineText(msg))) : null,
  ];
}

/** The review panel's content from a `review` message. */
export function renderReview(msg, names) {
  if (!msg.moves.length) return [el("p", {}, "No moves to review yet.")];
  const unit = msg.unit;
  const lossUnit = unit === "outcome" ? "seeds" : unit; // a loss in outcomes is a number of steps (win→draw 1, win→loss 2)
  const mistakes = msg.mistakes.filter((m) => m.loss > 0);
  const rows = msg.moves.map((m) => el("tr", { class: m.loss > 0 ? "" : "best" },
    el("td", {}, m.ply), el("td", {}, names[m.player] || m.player), el("td", {}, m.move),
    el("td", { class: "num" }, fmtValue(m.value, unit)), el("td", {}, m.best),
    el("td", { class: "num" }, m.loss > 0 ? fmtValue(-m.loss, lossUnit) : "best")));
  return [
    el("h3", {}, "Biggest mistakes"),
    mistakes.length
      ? el("ol", { id: "mistakes" }, mistakes.map((m) => el("li", {},
        `Move ${m.ply}: ${names[m.player] || m.player} played ${m.move} (${fmtValue(m.value, unit)}); ` +
        `best was ${m.best} (${fmtValue(m.best_value, unit)}), a loss of ${fmtValue(m.loss, lossUnit).replace("+", "")}.`)))
      : el("p", { id: "mistakes" }, "No mistakes found: every move was as good as the best one found."),
    el("table", { class: "values", id: "review-table" },
      el("thead", {}, el("tr", {}, ["#", "who", "move", "value", "best", "lost"].map((h) => el("th", {}, h)))),
      el("tbody", {}, rows)),
  ];
}

/** One tree node as a list item; children drawn when the node is expanded. */
function nodeItem(node, unit) {
  const hasKids = node.children && node.children.length > 0;
  const who = node.max ? "max" : "min";
  const label = `${node.move === null ? "root" : "move " + node.move} · ${who} · value ${fmtValue(node.value, unit)}`;
  const window = node.window ? ` window [${fmtValue(node.window[0])}, ${fmtValue(node.window[1])}]` : "";
  const li = el("li", { class: "node" });
  const body = el("ul", { class: "tree", hidden: true });
  const expandable = hasKids || (node.pruned && node.pruned.length > 0);
  const toggle = !expandable ? el("span", { class: "leafnode" }, "• ", label) : el("button", {
    type: "button", class: "toggle", "aria-expanded": "false",
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
  li.append(toggle, el("span", { class: "win" }, window));
  if (node.leaf || node.terminal) li.append(el("span", { class: "win" }, ` — ${node.why || (node.terminal ? "game over" : "depth limit")}`));
  if (node.pruned && node.pruned.length) li.append(el("span", { class: "pruned" }, ` ✂ ${node.pruned.length} pruned`));
  li.append(body);
  return li;
}

/** The search-tree panel's content from a `tree` message. */
export function renderTree(msg, unit) {
  const saved = msg.nodes.minimax - msg.nodes.alphabeta;
  return [
    el("p", { class: "counts", id: "tree-counts" },
      `Nodes: minimax ${msg.nodes.minimax}, alpha-beta ${msg.nodes.alphabeta}` +
      (saved > 0 ? ` (${saved} not searched thanks to pruning)` : "")),
    el("p", {}, `${msg.algorithm === "minimax" ? "Minimax" : "Alpha-beta"} to depth ${msg.depth}: best move `,
      el("strong", {}, msg.best ?? "–"), `, value ${fmtValue(msg.value, unit)}`,
      msg.line && msg.line.length ? ", line " : "", msg.line && msg.line.length ? el("span", { class: "line" }, lineText(msg)) : ""),
    el("p", { class: "help" }, "Expand a node with its button; ✂ marks moves alpha-beta did not search, with the reason."),
    el("ul", { class: "tree root", id: "tree-root" }, nodeItem(msg.root, unit)),
  ];
}
