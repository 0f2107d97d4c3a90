// People play people: the person's name (asked once, kept in this browser), the lobby of the
// server's open games (pushed by the server as it changes: `lobby` with `subscribe`), joining or
// watching one, the invite link of a game waiting for its second player, and the note a link
// that cannot give a seat leaves (a full game opens to watch).
import { describePlayer, el } from "./boards.js";
import { $, app, ui } from "./state.js";
import { request } from "./messages.js";

const NAME_KEY = "mancala-name";

/** The name this browser keeps for its person, or null. */
export function savedName() {
  const name = localStorage.getItem(NAME_KEY);
  return name && name.trim() ? name : null;
}

/** Wire the name form and its "Change" button; show the name kept, or ask for one. */
export function initPeople() {
  $("name-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = $("name-input").value.trim();
    if (!name) { nameError("Type a name first (at most 40 characters)."); return; }
    request("name", { name }, "name");
  });
  $("name-change").addEventListener("click", () => {
    showName(true);
    $("name-input").focus();
  });
  $("name-cancel").addEventListener("click", () => { showName(false); $("name-change").focus(); });
  showName(!savedName());
}

/** Show the form (`asking`) or the name kept with its Change button. */
function showName(asking) {
  const name = savedName();
  $("name-form").hidden = !asking;
  $("name-cancel").hidden = !name;
  $("name-shown").hidden = asking || !name;
  $("name-value").textContent = name || "";
  if (asking) $("name-input").value = name || "";
  $("name-error").hidden = true;
}

/** The server took the name (trimmed as it keeps it): keep it in this browser. */
export function onNamed(msg) {
  localStorage.setItem(NAME_KEY, msg.name);
  const focused = document.activeElement && $("name-form").contains(document.activeElement);
  showName(false);
  if (focused) $("name-change").focus();
  ui.announce(`Your name is now ${msg.name}.`);
}

/** Why the name was refused, under the form (the server's one sentence). */
export function nameError(text) {
  $("name-form").hidden = false;
  $("name-error").hidden = false;
  $("name-error").textContent = text;
}

/** A seat in the lobby in words: who sits there, or that it is free. */
function seatText(p) {
  if (p.free) return `${p.name}: free seat`;
  const who = p.who || (p.kind === "ai" ? "AI" : "Guest");
  return `${p.name}: ${who}${p.held ? " (reconnecting…)" : ""}`;
}

/** Draw the lobby from a `lobby` message: each open game with Join (its first free seat) and
 * Watch; the game this page shows is marked, without buttons. */
export function renderLobby(msg) {
  app.lobby = msg.games;
  const list = $("lobby-list");
  const current = app.state ? app.state.game_id : null;
  const items = msg.games.map((g) => {
    const id = `lobby-${g.game_id}`;
    const here = g.game_id === current;
    const free = g.players.find((p) => p.free);
    const item = el("li", { class: "lobby-game", dataset: { gameId: g.game_id } },
      el("p", { id, class: "lobby-what" }, el("strong", {}, g.game), ` · ${g.rules} rules · ${g.clock_text}`),
      el("p", { class: "lobby-who", id: `${id}-who` }, g.players.map(seatText).join(" · "),
        g.started ? "" : " — waiting for a player"));
    if (here) {
      item.append(el("p", { class: "note" }, "This is the game shown here."));
      return item;
    }
    const buttons = el("div", { class: "lobby-buttons" });
    if (free) {
      buttons.append(el("button", { type: "button", class: "join primary", "aria-describedby": `${id} ${id}-who`,
        onclick: () => join(g.game_id, free.player) }, `Join as ${free.name}`));
    }
    buttons.append(el("button", { type: "button", class: "watch", "aria-describedby": `${id} ${id}-who`,
      onclick: () => watch(g.game_id) }, "Watch"));
    item.append(buttons);
    return item;
  });
  if (!items.length) {
    items.push(el("li", { class: "empty" }, "No open games on this server now. Start one with New game… and “Another client (remote seat)” as a player, then send the invite link."));
  }
  list.replaceChildren(...items);
  $("lobby-count").textContent = msg.games.length ? ` (${msg.games.length})` : "";
}

function join(gameId, seat) {
  app.linkGame = gameId;
  $("board").focus({ preventScroll: true });
  request("join", { game_id: gameId, seat }, "lobby-join");
}

function watch(gameId) {
  app.linkGame = gameId;
  $("board").focus({ preventScroll: true });
  request("watch", { game_id: gameId }, "watch");
}

/** A join (a link's, the lobby's) that could not take a seat: a full or finished game opens to
 * watch, with a note (a finished game the server freed from memory opens from its kept record,
 * read-only); an unknown one the lobby offered says so, in the server's words of which case it
 * is (the lobby lists what there is; an unknown link's is said as any bad link's). Returns
 * whether it handled the error. */
export function joinFailed(msg, what) {
  const gameId = app.linkGame;
  if (!gameId) return false;
  if (msg.code === "seat_taken" || msg.code === "game_over") {
    app.joinNote = msg.code === "seat_taken" ? "Both seats are taken: you are watching." : "That game is over: you are watching its end.";
    request("watch", { game_id: gameId }, "watch");
    return true;
  }
  if (msg.code === "no_game") {
    app.linkGame = null;
    if (what === "join" && !app.state) return false; // a link's: said as a bad link's, and the default game opens
    const why = msg.message.replace(/ \(send list to see the games\)/, "").replace(/\.$/, "");
    app.joinNote = `That game cannot be opened: ${why}. The open games are listed under “Play people”.`;
    showJoinNote();
    return true;
  }
  return false;
}

/** The note a link left (a full game watched, an unknown game), once, above the board. */
export function showJoinNote() {
  const note = app.joinNote;
  app.joinNote = null;
  $("join-note").hidden = !note;
  $("join-note").textContent = note || "";
}

/** The invite box of a game waiting for its remote player (to its creator): the link, which
 * wraps only after its / ? = & (never inside a word), and a button that copies it. */
export function updateInvite(s) {
  const box = $("invite");
  const waitingSeat = s.players.some((p) => p.kind === "remote" && !p.connected && p.held == null);
  if (!waitingSeat || s.result || !s.you.length) { box.hidden = true; delete box.dataset.url; return; }
  const url = `${location.origin}${location.pathname}?join=${encodeURIComponent(s.game_id)}`;
  box.hidden = false;
  if (box.dataset.url === url) return; // (redrawn only for another game: the button keeps its focus)
  box.dataset.url = url;
  const parts = url.split(/(?<=[/?=&])/).flatMap((part) => [part, el("wbr")]);
  const link = el("code", { class: "url", id: "invite-url" }, parts);
  box.replaceChildren(el("span", {}, "Invite the other player: open "), link,
    el("span", {}, " in another browser (or pick it under “Play people” there), or run an agent on game "), el("code", {}, s.game_id), ". ",
    el("button", { type: "button", id: "copy-invite", onclick: () => copyInvite(url) }, "Copy invite link"),
    el("span", { id: "invite-note", class: "note", role: "status" }));
}

async function copyInvite(url) {
  let copied = false;
  try {
    await navigator.clipboard.writeText(url);
    copied = true;
  } catch { /* no clipboard here: the link is selected to copy by hand */ }
  if (!copied) window.getSelection().selectAllChildren($("invite-url"));
  $("invite-note").textContent = copied ? "The invite link is copied." : "The link is selected: copy it (Ctrl+C or ⌘C).";
}

/** The players of a state in words, as the header and the move list's key show them. */
export function playersText(s, at = performance.now()) {
  return s.players.map((p) => {
    const held = p.held != null ? Math.max(0, Math.ceil(p.held - (at - (app.stateAt || at)) / 1000)) : null;
    const who = describePlayer({ ...p, you: s.you.includes(p.player) });
    return `${p.name}: ${who}${held !== null ? ` (held ${held} s)` : ""}`;
  }).join(" · ");
}

/** The header and the move list's key, counted down while a seat is held. */
export function updatePlayers() {
  const s = app.state;
  if (!s) return;
  const text = playersText(s);
  const header = `${s.game.title} — ${text}`;
  if ($("game-title").textContent !== header) $("game-title").textContent = header;
  if ($("history-players").textContent !== text) $("history-players").textContent = text;
}
