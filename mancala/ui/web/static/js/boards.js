// Drawing the boards (Kalah, Oware, Togyz Kumalak, Bao, tic-tac-toe, any other game as text) from the server's `board` object (docs/protocol.md).
// Pure DOM building: no rules here. What is clickable comes from the server's `legal` list.

const SEED_COLOURS = ["var(--seed-a)", "var(--seed-b)", "var(--seed-c)", "var(--seed-d)"];
const MAX_DOTS = 24;

/** Create an element with attributes and children. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** A small deterministic pseudo-random number in [0, 1) for seed dot placement. */
function jitter(a, b) {
  const x = Math.sin(a * 127.1 + b * 311.7) * 43758.5453;
  return x - Math.floor(x);
}

/** Seed dots for a pit holding `count` seeds (at most MAX_DOTS drawn; the number says the rest). */
export function seedDots(count, key, wide = false) {
  const box = el("span", { class: "seeds", "aria-hidden": "true" });
  const shown = Math.min(count, MAX_DOTS);
  for (let i = 0; i < shown; i++) {
    // a golden-angle spiral, jittered, so seeds look scattered but never leave the pit
    const r = 0.42 * Math.sqrt((i + 0.5) / Math.max(shown, 6));
    const t = i * 2.39996 + jitter(key, i) * 0.8;
    const x = 50 + (wide ? 60 : 100) * r * Math.cos(t) - 8;
    const y = 50 + 100 * r * Math.sin(t) * (wide ? 1.6 : 1) - 8;
    box.append(el("span", {
      class: "seed",
      style: `left:${Math.max(0, Math.min(84, x)).toFixed(1)}%;top:${Math.max(0, Math.min(84, y)).toFixed(1)}%;` +
        `background:${SEED_COLOURS[Math.floor(jitter(i, key) * 4)]}`,
    }));
  }
  return box;
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/**
 * The grid of a two-row board with a store at each end (Kalah, Oware): the longest count sets
 * the narrowest a pit (or a store) may be, so counts never overlap; a board too wide for the
 * screen (`wide`) scrolls sideways instead.  Returns the grid's style and whether it is wide.
 */
function pitGrid(cells, pits, stores, n) {
  const digits = (keys) => Math.max(1, ...keys.map((c) => String(cells[c]).length));
  const pitDigits = digits(pits);
  const storeDigits = digits(stores);
  // sizes in rem: a bold digit is about 0.6 of its font size wide
  const pitFont = pitDigits >= 4 ? 0.68 : pitDigits === 3 || n > 10 ? 0.85 : 1.15;
  const pitPad = pitDigits >= 4 ? 0.1 : pitDigits === 3 || n > 10 ? 0.15 : 0.3;
  const pitMin = pitDigits * 0.65 * pitFont + 2 * pitPad + 0.25;
  const storeFont = storeDigits >= 4 ? 1 : 1.5;
  const storeMin = Math.max(2.4, storeDigits * 0.7 * storeFont + 0.85);
  const style = `--count-font:${pitFont}rem;--count-pad:${pitPad}rem;--store-font:${storeFont}rem;` +
    `grid-template-columns: minmax(${storeMin.toFixed(2)}rem, 1.1fr) repeat(${n}, minmax(${pitMin.toFixed(2)}rem, 1fr)) ` +
    `minmax(${storeMin.toFixed(2)}rem, 1.1fr);`;
  return { style, wide: n > 8 || pitDigits >= 3 || storeDigits >= 4 };
}

/** The seats' names, by seat (0 sits at the bottom unless the board is turned round). */
const SEAT_NAMES = ["South", "North"];

/**
 * What Kalah's and Oware's boards share at the top: the grid of `n` pits a side (its class
 * `kind`, its name for a screen reader `describe(topSeat, bottomSeat)`) with the top row's label
 * in place, the seats drawn at the top and bottom (turned round when `view.flipped`), and
 * `who(seat)`, how the labels name the player at a seat (`playerAt(seat)`: their index in
 * `view.players`).
 */
function pitBoard(view, n, kind, playerAt, describe) {
  const b = view.board;
  const who = (seat) => {
    const p = view.players && view.players[playerAt(seat)];
    return p ? describePlayer(p) : SEAT_NAMES[seat];
  };
  const { style, wide } = pitGrid(b.cells, [...b.rows.north, ...b.rows.south], b.stores, n);
  const flip = !!view.flipped;
  const [topSeat, bottomSeat] = flip ? [0, 1] : [1, 0];
  const grid = el("div", {
    class: kind + (n > 10 ? " many" : ""), role: "group", style, "aria-label": describe(topSeat, bottomSeat),
  });
  grid.append(el("div", { class: "row-label", style: "grid-row:1", text: `${SEAT_NAMES[topSeat]} — ${who(topSeat)}` }));
  return { grid, who, wide, flip, topSeat, bottomSeat };
}

/** ...and at the bottom: the bottom row's label, then the wood around the grid (with the seeds
 * in hand while a move is animated). */
function pitWood(view, frame, n) {
  const { grid, who, wide, bottomSeat } = frame;
  grid.append(el("div", { class: "row-label", style: "grid-row:4", text: `${SEAT_NAMES[bottomSeat]} — ${who(bottomSeat)}` }));
  const wood = el("div", { class: "wood" + (wide ? " wide" : ""), style: `max-width:${n * 7 + 16}rem;margin:0 auto` }, grid);
  if (view.inHand) wood.append(el("span", { class: "in-hand", text: `in hand: ${view.inHand}` }));
  return wood;
}

/**
 * Kalah: North's row on top (pits n..1 left to right), South's row below, North's store on the
 * left, South's store on the right; `view.flipped` turns the board round (South's row on top,
 * pits 6..1, North's below, South's store on the left).  `view` = {board, legal, lastCells, hot,
 * hint, players, interactive, flipped, onMove}.
 */
export function drawKalah(view) {
  const b = view.board;
  const n = b.pits;
  const legalByCell = new Map();
  let swap = null;
  for (const m of view.legal || []) {
    if (m.swap) { swap = m; continue; }
    if (!legalByCell.has(m.cell)) legalByCell.set(m.cell, []);
    legalByCell.get(m.cell).push(m);
  }
  const frame = pitBoard(view, n, "kalah", (seat) => (b.seats[0] === seat ? 0 : 1),
    (top, bottom) => `Kalah board, ${n} pits a side, ${SEAT_NAMES[bottom]} at the bottom`);
  const { grid, who, flip, topSeat, bottomSeat } = frame;
  const store = (seat, col) => {
    const cell = b.stores[seat];
    const count = b.cells[cell];
    const label = `${SEAT_NAMES[seat]} store (${who(seat)}): ${plural(count, "seed")}`;
    return el("div", {
      class: "store" + cls(view, cell), role: "img", "aria-label": label, dataset: { cell },
      style: `grid-column:${col}`,
    }, seedDots(count, cell + 100, true), el("span", { class: "count", text: count }),
    el("span", { class: "who", text: `${SEAT_NAMES[seat]} store` }));
  };
  grid.append(store(topSeat, 1));
  const pit = (cell, seat, pitNo, row, col) => {
    const count = b.cells[cell];
    const moves = legalByCell.get(cell) || [];
    const label = `${SEAT_NAMES[seat]} pit ${pitNo}: ${plural(count, "seed")}`;
    const playable = view.interactive && moves.length > 0;
    const directed = playable && moves.some((m) => m.dir);
    const attrs = {
      class: "pit" + (playable ? " legal" : "") + cls(view, cell),
      "aria-label": label + (playable ? (directed ? ", legal move: choose a way with its arrows" : ", legal move") : ""),
      dataset: { cell, r: row, c: col, pit: pitNo, seat },
    };
    // only the count is text inside the button, so its name ("South pit 3: 4 seeds") holds all it
    // shows; the pit number is drawn over it.  Only playable pits are in the Tab order.
    const button = playable && !directed
      ? el("button", { ...attrs, type: "button", onclick: () => view.onMove(moves[0].move) },
        seedDots(count, cell), el("span", { class: "count", text: count }))
      : el("button", { ...attrs, type: "button", "aria-disabled": directed ? null : "true", tabindex: "-1",
        onclick: directed ? (e) => offerWays(e.currentTarget.parentElement, moves, view) : null },
      seedDots(count, cell), el("span", { class: "count", text: count }));
    const wrap = el("div", { class: "pit-cell", style: `grid-row:${row + 2};grid-column:${col + 2}` }, button,
      el("span", { class: "num", "aria-hidden": "true", text: pitNo }));
    if (directed) {
      const arrows = el("div", { class: "arrows" });
      for (const m of moves.filter((x) => x.dir).sort((a, c) => arrowOrder(a, seat, flip) - arrowOrder(c, seat, flip))) {
        const leftward = visualLeft(m.dir, seat, flip);
        arrows.append(el("button", {
          type: "button", class: "arrow",
          "aria-label": `${label}: sow ${m.dir === "L" ? "clockwise" : "counter-clockwise"} (${m.move})`,
          title: m.move, dataset: { move: m.move, r: row, c: col + (leftward ? 0 : 0.5) },
          onclick: () => view.onMove(m.move),
        }, leftward ? "◀" : "▶"));
      }
      wrap.append(arrows);
    }
    return wrap;
  };
  // each row runs from its owner's first pit at the owner's left: turned round, the top row is South's
  const north = flip ? [...b.rows.north].reverse() : b.rows.north;
  const south = flip ? [...b.rows.south].reverse() : b.rows.south;
  // appended top row first, so the focus order is the order on screen
  const northPits = north.map((cell, i) => pit(cell, 1, flip ? i + 1 : n - i, flip ? 1 : 0, i));
  const southPits = south.map((cell, i) => pit(cell, 0, flip ? n - i : i + 1, flip ? 0 : 1, i));
  grid.append(...(flip ? [...southPits, ...northPits] : [...northPits, ...southPits]));
  grid.append(store(bottomSeat, n + 2));
  const out = [pitWood(view, frame, n)];
  if (swap && view.interactive) {
    out.push(el("div", { class: "swap-bar" }, el("button", {
      type: "button", class: "primary", id: "swap", onclick: () => view.onMove(swap.move),
    }, "⇅ Swap sides (pie rule)")));
  }
  return out;
}

/** How a two-row board of houses and stores speaks (Oware's seeds and stores, Togyz Kumalak's
 * stones and kazans), by board kind. */
const ROW_WORDS = {
  oware: { title: "Oware", unit: "seed", store: (seat) => `${SEAT_NAMES[seat]}'s store`, storeTag: (seat) => SEAT_NAMES[seat] },
  togyz: { title: "Togyz Kumalak", unit: "stone", store: (seat) => `${SEAT_NAMES[seat]}'s kazan`, storeTag: (seat) => SEAT_NAMES[seat] },
};

/**
 * Two rows of houses (Oware, Togyz Kumalak): North's row on top (its last house to its first,
 * left to right, as South sees it), South's row below, North's store (kazan) on the left,
 * South's on the right.  Each house shows its name (Oware's letter, Togyz Kumalak's number);
 * only the legal houses are buttons in the Tab order.  A tuzdik (`board.tuzdiks`: each
 * player's house on the other's row) is marked with its owner.  While a move is animated
 * `view.origin` is the house sown from and `view.skip` the house the hand passes by.
 * `view.flipped` turns the board round (South's row on top, last house to first; North's below).
 */
export function drawRows(view) {
  const b = view.board;
  const n = b.houses;
  const words = ROW_WORDS[b.kind] || ROW_WORDS.oware;
  const tuzdikOf = new Map((b.tuzdiks || []).map((cell, owner) => [cell, owner]).filter(([cell]) => cell !== null));
  const legalByCell = new Map((view.legal || []).map((m) => [m.cell, m]));
  const frame = pitBoard(view, n, "kalah oware" + (b.kind === "togyz" ? " togyz" : ""), (seat) => seat,
    (top, bottom) => `${words.title} board, ${n} houses a side: ${SEAT_NAMES[top]}'s row on top, ${SEAT_NAMES[bottom]}'s below`);
  const { grid, who, flip, topSeat, bottomSeat } = frame;
  const store = (seat, col) => {
    const cell = b.stores[seat];
    const count = b.cells[cell];
    return el("div", {
      class: "store" + cls(view, cell), role: "img", dataset: { cell }, style: `grid-column:${col}`,
      "aria-label": `${words.store(seat)} (${who(seat)}): ${plural(count, words.unit)} captured`,
    }, seedDots(count, cell + 100, true), el("span", { class: "count", text: count }),
    el("span", { class: "who", text: words.storeTag(seat) }));
  };
  grid.append(store(topSeat, 1));
  const house = (cell, seat, row, col) => {
    const count = b.cells[cell];
    const name = b.names[cell];
    const move = view.interactive ? legalByCell.get(cell) : null;
    const skipping = view.skip === cell;
    const owner = tuzdikOf.has(cell) ? tuzdikOf.get(cell) : null;
    const label = `House ${name} (${SEAT_NAMES[seat]}), ` +
      (owner !== null ? `${SEAT_NAMES[owner]}'s tuzdik: stones sown here go to ${SEAT_NAMES[owner]}'s kazan`
        : plural(count, words.unit)) +
      (move ? ", legal move" : "") + (skipping ? ", skipped" : "");
    const button = el("button", {
      type: "button", "aria-label": label,
      class: "pit" + (move ? " legal" : "") + (owner !== null ? " tuzdik" : "") + (view.origin === cell ? " origin" : "") +
        (skipping ? " skipping" : "") + cls(view, cell),
      "aria-disabled": move ? null : "true", tabindex: move ? null : "-1",
      dataset: { cell, r: row, c: col, name, seat },
      onclick: move ? () => view.onMove(move.move) : null,
    }, owner !== null ? el("span", { class: "tuzdik-mark", "aria-hidden": "true", text: "✕" }) : seedDots(count, cell),
    owner !== null ? null : el("span", { class: "count", text: count }));
    return el("div", { class: "pit-cell", style: `grid-row:${row + 2};grid-column:${col + 2}` }, button,
      el("span", { class: "num", "aria-hidden": "true", text: name }),
      skipping ? el("span", { class: "badge", "aria-hidden": "true", text: "skipped" }) : null,
      owner !== null ? el("span", { class: "badge", "aria-hidden": "true", text: `${SEAT_NAMES[owner]}'s tuzdik` }) : null);
  };
  const north = flip ? [...b.rows.north].reverse() : b.rows.north;
  const south = flip ? [...b.rows.south].reverse() : b.rows.south;
  const northHouses = north.map((cell, i) => house(cell, 1, flip ? 1 : 0, i));
  const southHouses = south.map((cell, i) => house(cell, 0, flip ? 0 : 1, i));
  grid.append(...(flip ? [...southHouses, ...northHouses] : [...northHouses, ...southHouses]));
  grid.append(store(bottomSeat, n + 2));
  return [pitWood(view, frame, n)];
}

/** A click on a pit sown either way (Ethiopian Kalah): its one way played, else its arrows
 * offered (marked, the first one focused). */
function offerWays(wrap, moves, view) {
  const ways = moves.filter((m) => m.dir);
  if (ways.length === 1) { view.onMove(ways[0].move); return; }
  const arrows = wrap.querySelector(".arrows");
  arrows.classList.add("offered");
  arrows.querySelector("button").focus();
}

/** Sowing clockwise (L) or counter-clockwise (R): which way does it look on screen (the board
 * turned round, `flipped`, the other way)? */
function visualLeft(dir, seat, flipped = false) {
  // counter-clockwise runs right along South's row and left along North's row (as South sees it)
  const ccw = dir === "R";
  return (seat === 0 ? !ccw : ccw) !== flipped;
}
function arrowOrder(m, seat, flipped) { return visualLeft(m.dir, seat, flipped) ? 0 : 1; }

function cls(view, key) {
  let out = "";
  if (view.lastCells && view.lastCells.has(key)) out += " last";
  if (view.hot && view.hot.has(key)) out += " hot";
  if (view.picked === key) out += " picked";
  if (view.hintKeys && view.hintKeys.has(key)) out += " hinted";
  if (view.captured && view.captured.has(key)) out += " captured";
  return out;
}

/** "Medium AI", "you", "OpenSpiel MCTS 100k" … for labels: the server's `title` of a player
 * (its spec read for people), the spec itself only from a server that sends no title. */
export function describePlayer(p) {
  if (p.kind === "ai") return p.title || `${p.spec} AI`;
  // a person: the seat of this page is "you" (with the name given), another by their name
  if (p.you) return p.person ? `you (${p.person})` : "you";
  if (p.held != null) return `${p.person || "Guest"} — reconnecting…`;
  if (p.kind === "human") return p.person || "human";
  if (!p.connected) return "waiting for a player";
  // a program (mancala agent) is named by the client name it gave; a browser's person by theirs
  return p.person || (p.client && !p.client.startsWith("mancala web") ? `remote ${p.client}` : "Guest");
}

/**
 * Bao: four rows as South sees them (North back, North front, South front, South back), the
 * nyumba marked, both stocks, takasia and must-capture marks.  `view.selected` is the hole
 * chosen first when a move still needs a direction; `view.flipped` turns the board round (as
 * North sees it: South's back row on top, each row right to left).
 */
export function drawBao(view) {
  const b = view.board;
  const legalHoles = new Map();
  for (const m of view.legal || []) {
    if (!legalHoles.has(m.hole)) legalHoles.set(m.hole, []);
    legalHoles.get(m.hole).push(m);
  }
  const nyumba = new Map(b.nyumba.map((h, p) => [h.hole, { ...h, player: p }]));
  const names = ["South", "North"];
  const who = (p) => (view.players && view.players[p] ? describePlayer(view.players[p]) : names[p]);
  const stockTag = (p) => el("span", { class: "tag", "data-stock": p },
    `${names[p]} (${who(p)}) — stock ${b.stock[p]} · ${b.stage[p]}`);
  const flip = !!view.flipped;
  const grid = el("div", { class: "bao", role: "group", "aria-label": `Bao board, ${flip ? "North" : "South"} at the bottom` });
  const rows = flip ? [...b.rows].reverse().map((row) => [...row].reverse()) : b.rows;
  rows.forEach((row, r) => {
    if (r === 2) grid.append(el("div", { class: "divider", "aria-hidden": "true" }));
    row.forEach((hole, c) => {
      const moves = legalHoles.get(hole.name) || [];
      const playable = view.interactive && moves.length > 0;
      const house = nyumba.get(hole.name);
      let extra = "";
      const marks = [];
      if (house && house.owned) {
        extra += " nyumba" + (house.functional ? "" : " dead");
        marks.push(house.functional ? "nyumba" : "nyumba (lost power)");
      }
      if (b.takasia === hole.name) { extra += " takasia"; marks.push("takasia"); }
      if (b.must_capture === hole.name) { extra += " must"; marks.push("must be captured"); }
      if (view.selected === hole.name) extra += " picked";
      const label = `${names[hole.player]} hole ${hole.name}: ${plural(hole.seeds, "seed")}` +
        (marks.length ? `, ${marks.join(", ")}` : "") + (playable ? ", legal" : "");
      grid.append(el("div", { class: "hole-cell" }, el("button", {
        type: "button", class: "pit hole" + (playable ? " legal" : "") + extra + cls(view, hole.name),
        "aria-label": label, "aria-disabled": playable ? null : "true", tabindex: playable ? null : "-1",
        "aria-pressed": view.selected === hole.name ? "true" : null,
        dataset: { hole: hole.name, r, c },
        onclick: playable ? () => view.onHole(hole.name) : null,
      }, seedDots(hole.seeds, r * 8 + c), el("span", { class: "count", text: hole.seeds })),
      el("span", { class: "name", "aria-hidden": "true", text: hole.name }),
      marks.length ? el("span", { class: "mark", "aria-hidden": "true", text: marks.map(shortMark).join(" ") }) : null));
    });
  });
  const legend = el("div", { class: "bao-legend" },
    el("span", {}, "▢ square hole: nyumba (house)"),
    b.takasia ? el("span", {}, `takasia: ${b.takasia} may not be emptied`) : null,
    b.must_capture ? el("span", {}, `must capture ${b.must_capture}`) : null);
  const wood = el("div", { class: "wood bao-wrap" },
    el("div", { class: "stock" }, stockTag(flip ? 0 : 1)), grid, el("div", { class: "stock" }, stockTag(flip ? 1 : 0)), legend);
  if (view.inHand) wood.append(el("span", { class: "in-hand", text: `in hand: ${view.inHand}` }));
  return [wood];
}

function shortMark(m) {
  return { nyumba: "⌂", "nyumba (lost power)": "⌂×", takasia: "T", "must be captured": "!" }[m] || m;
}

/** Tic-tac-toe: nine buttons; legal cells highlighted; the winning line marked. */
export function drawTicTacToe(view) {
  const b = view.board;
  const legal = new Map((view.legal || []).map((m) => [m.cell, m]));
  const win = new Set(b.line || []);
  const grid = el("div", { class: "ttt", role: "group", "aria-label": "Tic-tac-toe grid" });
  b.cells.forEach((mark, i) => {
    const r = Math.floor(i / 3);
    const c = i % 3;
    const m = view.interactive ? legal.get(i) : null;
    const text = mark === "." ? "" : mark;
    grid.append(el("button", {
      type: "button",
      class: "cell" + (m ? " legal" : "") + (mark === "X" ? " x" : mark === "O" ? " o" : "") + (win.has(i) ? " win" : "") + cls(view, i),
      "aria-label": `square ${i} (row ${r + 1}, column ${c + 1}): ${text || "empty"}${m ? ", legal" : ""}`,
      "aria-disabled": m ? null : "true", tabindex: m ? null : "-1", dataset: { cell: i, r, c },
      onclick: m ? () => view.onMove(m.move) : null,
    }, text));
  });
  return [el("div", { class: "wood", style: "max-width:26rem;margin:0 auto" }, grid)];
}

/** The key of a board button (its cell, hole or arrow), to find it again after a redraw. */
function focusKey(node) {
  if (!node || !node.dataset) return null;
  return node.dataset.move ? `[data-move="${node.dataset.move}"]` : node.dataset.hole ? `[data-hole="${node.dataset.hole}"]`
    : node.dataset.cell !== undefined ? `button[data-cell="${node.dataset.cell}"]` : null;
}

/** Any other game: its text picture, and its legal moves as buttons in its own notation. */
export function drawText(view) {
  const b = view.board;
  const picture = el("pre", { class: "text-board", role: "img", "aria-label": b.text }, b.text);
  const moves = el("div", { class: "text-moves", role: "group", "aria-label": "Legal moves" },
    (view.interactive ? view.legal : []).map((m) => el("button", {
      type: "button", class: "legal", dataset: { move: m.move }, onclick: () => view.onMove(m.move),
    }, m.move)));
  return [el("div", { class: "wood text-wrap" }, picture, moves)];
}

/** The kinds of board the page draws, by the board kind the server's views name (a game's
 * declared `board`, in `/api/games` and each state's `game`): how to draw it, which cells the
 * last move touched, which legal moves a digit key names, what the result line adds, and
 * whether a move is chosen in two steps (a hole, then a direction).  A board kind not here is
 * drawn as text, its moves as buttons. */
export const BOARDS = {
  kalah: {
    draw: drawKalah,
    lastCells: sownCells,
    keyMoves: (legal, k) => legal.filter((m) => m.pit === k),
    resultText: (b) => ` South store ${b.cells[b.stores[0]]} – North store ${b.cells[b.stores[1]]}.`,
  },
  oware: {
    draw: drawRows,
    lastCells: sownCells,
    keyMoves: (legal, k) => legal.filter((m) => m.number === k),
    resultText: (b) => ` Seeds: South ${rowSeeds(b, 0)} – North ${rowSeeds(b, 1)}.`,
  },
  togyz: {
    draw: drawRows,
    lastCells: sownCells,
    keyMoves: (legal, k) => legal.filter((m) => m.number === k),
    resultText: (b) => ` Stones: South ${rowSeeds(b, 0)} – North ${rowSeeds(b, 1)}.`,
  },
  bao: { draw: drawBao, lastCells: baoCells, twoStepMoves: true },
  tictactoe: { draw: drawTicTacToe, lastCells: stepCells, keyMoves: (legal, k) => legal.filter((m) => m.cell === k) },
  text: { draw: drawText, lastCells: stepCells },
};

/** The `BOARDS` entry of a board kind (the text board for one the page does not know). */
export function boardOf(kind) {
  return BOARDS[kind] || BOARDS.text;
}

/** Kalah and Oware: the pit sown from and the one the last seed fell in. */
function sownCells(last) {
  const out = new Set();
  const sown = (last.steps || []).filter((step) => step.kind === "sow" && step.cells.length);
  for (const step of last.steps || []) if (step.kind === "pickup") out.add(step.cell);
  if (sown.length) out.add(sown[sown.length - 1].cells.at(-1));
  return out;
}

/** Bao: the hole played from and the one the last lap ended in. */
function baoCells(last) {
  const steps = last.steps || [];
  const out = new Set([String(last.move).slice(0, 2)]);
  const lastLap = steps[steps.length - 1];
  if (lastLap && lastLap.holes && lastLap.holes.length) out.add(lastLap.holes[lastLap.holes.length - 1]);
  return out;
}

/** Any other board: every cell a step names. */
function stepCells(last) {
  return new Set((last.steps || []).map((step) => step.cell));
}

/** Oware, Togyz Kumalak: the seeds a side ends with (its store, and its own row once the game
 * is over). */
function rowSeeds(b, seat) {
  const row = seat === 0 ? b.rows.south : b.rows.north;
  return b.cells[b.stores[seat]] + (b.finished ? row.reduce((a, c) => a + b.cells[c], 0) : 0);
}

/** Draw any board into `container`.  When the keyboard focus was on the board it stays there:
 * on the same pit if it is still playable, else on the first playable one, else on the board. */
export function drawBoard(container, view) {
  const focused = container.contains(document.activeElement) ? document.activeElement : null;
  const key = focused && focused !== container ? focusKey(focused) : null;
  const parts = boardOf(view.board.kind).draw(view);
  container.replaceChildren(...parts);
  if (!focused) return;
  const playable = (node) => node && node.tabIndex !== -1 && node.getAttribute("aria-disabled") !== "true";
  const same = key ? container.querySelector(key) : null;
  const target = playable(same) ? same
    : [...container.querySelectorAll("button")].find((b) => playable(b)) || container;
  target.focus({ preventScroll: true });
}
