// Sowing animation from the server's `last.steps` (docs/protocol.md): a sequence of frames,
// each an intermediate board plus what to highlight.  The page never computes a move: the
// frames only replay the events the server reported, and the final board is always the
// server's `board`.

/** The longest one move's sowing is animated, in ms (frames are skipped to keep to it). */
export const ANIMATION_CAP_MS = 12000;

/** When each frame is due (ms from the start) and when the move's animation ends: a seed a
 * delay (slow frames three), the whole squeezed into ANIMATION_CAP_MS when it would be longer. */
export function frameSchedule(frames, delay, cap = ANIMATION_CAP_MS) {
  const weights = frames.map((f) => (f.slow ? 3 : 1));
  const total = weights.reduce((a, w) => a + w, 0) * delay;
  const step = total > cap ? delay * (cap / total) : delay;
  const starts = [];
  let t = 0;
  for (const w of weights) { starts.push(t); t += w * step; }
  return { starts, end: t };
}

function clone(x) {
  return JSON.parse(JSON.stringify(x));
}

/** Frames for a Kalah move: pick-up, seed by seed sowing, capture, end-of-game sweep. */
export function kalahFrames(before, steps) {
  const board = clone(before);
  const frames = [];
  let hand = 0;
  for (const step of steps) {
    if (step.kind === "pickup") {
      hand = board.cells[step.cell];
      board.cells[step.cell] = 0;
      frames.push({ board: clone(board), picked: step.cell, hot: new Set(), inHand: hand, say: null });
    } else if (step.kind === "sow") {
      for (const cell of step.cells) {
        board.cells[cell] += 1;
        hand = Math.max(0, hand - 1);
        frames.push({ board: clone(board), hot: new Set([cell]), inHand: hand });
      }
    } else if (step.kind === "capture") {
      let taken = 0;
      for (const cell of step.cells) { taken += board.cells[cell]; board.cells[cell] = 0; }
      frames.push({ board: clone(board), captured: new Set(step.cells), hot: new Set(), inHand: taken, slow: true });
      board.cells[step.store] += taken;
      frames.push({ board: clone(board), hot: new Set([step.store]), slow: true });
    } else if (step.kind === "sweep") {
      for (const mv of step.moves) {
        board.cells[mv.to] += board.cells[mv.from];
        board.cells[mv.from] = 0;
      }
      frames.push({ board: clone(board), hot: new Set(step.moves.map((m) => m.to)), slow: true });
    }
  }
  return frames;
}

/** Frames for an Oware or Togyz Kumalak move: pick-up, seed by seed sowing (a lap passing its
 * origin by, the origin marked all along; a stone reaching a tuzdik going on to its owner's
 * kazan), a grand slam's houses, the captures house by house (the landing house first, then
 * backwards) into the mover's store, a tuzdik made, the end's share-out. */
export function owareFrames(before, steps) {
  const board = clone(before);
  board.restricted = null; // the note on the position before the move: not the one after
  const frames = [];
  const name = (cell) => board.names[cell];
  let hand = 0;
  let origin = null;
  const taken = [];
  for (const step of steps) {
    if (step.kind === "pickup") {
      hand = board.cells[step.cell];
      board.cells[step.cell] = 0;
      origin = step.cell;
      frames.push({ board: clone(board), picked: step.cell, origin, hot: new Set(), inHand: hand });
    } else if (step.kind === "sow") {
      for (const cell of step.cells) {
        board.cells[cell] += 1;
        hand = Math.max(0, hand - 1);
        frames.push({ board: clone(board), hot: new Set([cell]), origin, inHand: hand });
      }
    } else if (step.kind === "skip") {
      const say = step.why === "origin" ? `lap: ${name(step.cell)} is skipped (the house sown from)`
        : `${name(step.cell)} holds 12 or more: skipped`;
      frames.push({ board: clone(board), skip: step.cell, origin, hot: new Set(), inHand: hand, slow: true, say, sayKind: "lap" });
    } else if (step.kind === "back") {
      board.cells[step.cell] += 1;
      hand = Math.max(0, hand - 1);
      frames.push({ board: clone(board), hot: new Set([step.cell]), origin, inHand: hand });
    } else if (step.kind === "grand_slam") {
      frames.push({ board: clone(board), captured: new Set(step.cells), origin, slow: true,
        say: step.rule === "no-capture" ? "grand slam: nothing is captured" : "grand slam", sayKind: "grand_slam" });
    } else if (step.kind === "capture") {
      taken.push(`${name(step.cell)} ${step.seeds}`);
      const say = `capture: ${taken.join(", ")}`;
      frames.push({ board: clone(board), captured: new Set([step.cell]), origin, inHand: step.seeds, slow: true, say, sayKind: "capture" });
      board.cells[step.cell] = 0;
      board.cells[step.store] += step.seeds;
      frames.push({ board: clone(board), hot: new Set([step.store]), origin, slow: true });
    } else if (step.kind === "deliver") {
      // a stone sown into a tuzdik goes on to its owner's kazan
      board.cells[step.store] += 1;
      hand = Math.max(0, hand - 1);
      frames.push({ board: clone(board), hot: new Set([step.cell, step.store]), origin, inHand: hand, slow: true,
        say: `${name(step.cell)} is a tuzdik: the stone goes to its owner's kazan`, sayKind: "tuzdik" });
    } else if (step.kind === "tuzdik") {
      frames.push({ board: clone(board), captured: new Set([step.cell]), origin, inHand: step.seeds, slow: true,
        say: "tuzdik! 3 stones: the house is the mover's for the rest of the game", sayKind: "tuzdik" });
      board.cells[step.cell] = 0;
      board.cells[step.store] += step.seeds;
      board.tuzdiks = [...(board.tuzdiks || [null, null])];
      board.tuzdiks[step.owner] = step.cell;
      frames.push({ board: clone(board), hot: new Set([step.store, step.cell]), origin, slow: true });
    } else if (step.kind === "sweep") {
      for (const mv of step.moves) board.cells[mv.from] = 0;
      board.stores.forEach((cell, seat) => { board.cells[cell] = step.stores[seat]; });
      frames.push({ board: clone(board), hot: new Set(step.moves.map((m) => m.to).filter((c) => c !== null)), slow: true,
        say: `game over: the ${board.kind === "togyz" ? "stones" : "seeds"} left are shared out`, sayKind: "game_over" });
    }
  }
  return frames;
}

/** Bao: a hole by name in the drawn rows. */
function findHole(board, name) {
  for (const row of board.rows) for (const h of row) if (h.name === name) return h;
  return null;
}

/** Frames for a Bao move, lap by lap: stock seed, captures (the captured hole lights up), relays. */
export function baoFrames(before, steps, move) {
  const board = clone(before);
  const frames = [];
  let from = findHole(board, String(move).slice(0, 2));
  for (const step of steps) {
    if (step.kind === "stock") {
      const hole = findHole(board, step.hole);
      const owner = hole ? hole.player : 0;
      board.stock[owner] = Math.max(0, board.stock[owner] - 1);
      if (hole) hole.seeds += 1;
      frames.push({ board: clone(board), hot: new Set([step.hole]), say: "a seed from the stock", slow: true });
      from = hole;
      continue;
    }
    let seeds = step.seeds || step.holes.length;
    if (step.kind === "capture" && step.captured) {
      const victim = findHole(board, step.captured);
      if (victim) victim.seeds = 0;
      frames.push({ board: clone(board), captured: new Set([step.captured]), inHand: seeds, say: `capture of ${step.captured}`, slow: true });
      // the seed placed from the stock in namua stays; the capturing hole is not emptied
    } else if (from) {
      from.seeds = Math.max(0, from.seeds - seeds);
      frames.push({ board: clone(board), picked: from.name, inHand: seeds, say: lapWord(step.kind) });
    }
    for (const name of step.holes) {
      const hole = findHole(board, name);
      if (hole) hole.seeds += 1;
      seeds = Math.max(0, seeds - 1);
      frames.push({ board: clone(board), hot: new Set([name]), inHand: seeds });
    }
    from = findHole(board, step.holes[step.holes.length - 1]);
  }
  return frames;
}

function lapWord(kind) {
  return { relay: "relay sowing", tax: "tax from the nyumba", house: "the nyumba is played", sow: null }[kind] || null;
}

/** Frames for a tic-tac-toe move. */
export function tttFrames(before, steps) {
  const board = clone(before);
  return steps.map((s) => {
    board.cells[s.cell] = s.mark;
    return { board: clone(board), hot: new Set([s.cell]) };
  });
}

/** All frames of `last` (a state's `last` object), for any game. */
export function framesFor(last) {
  if (!last || !last.before || !last.steps) return [];
  return (FRAMES[last.before.kind] || tttFrames)(last.before, last.steps, last.move);
}

/** How each board kind's moves are animated (any other: each step's cell lit in turn). */
const FRAMES = { kalah: kalahFrames, oware: owareFrames, togyz: owareFrames, bao: baoFrames };
