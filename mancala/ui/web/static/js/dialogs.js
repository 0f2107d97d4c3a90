// The dialogs: the new-game form (its games, options and players from the server's catalogues),
// and saving and loading a game record.
import { el } from "./boards.js";
import { $, app, ui } from "./state.js";
import { request, showError } from "./messages.js";

const MAX_RECORD_BYTES = 60 * 1024; // the server refuses messages over 64 KiB

export function download(msg) {
  if (typeof msg.text === "string") { copyText(msg.text); return; }
  const blob = new Blob([JSON.stringify(msg.record, null, 2) + "\n"], { type: "application/json" });
  const a = el("a", { href: URL.createObjectURL(blob), download: msg.filename || "mancala-game.json" });
  document.body.append(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
  ui.announce(`Saved as ${msg.filename}.`);
}

export async function loadFile(file) {
  if (!file) return;
  if (file.size > MAX_RECORD_BYTES) {
    showError(`That file is too large (${Math.ceil(file.size / 1024)} KB): a game record is at most ${MAX_RECORD_BYTES / 1024} KB. Your current game goes on.`);
    return;
  }
  const text = await file.text();
  let record;
  try {
    record = JSON.parse(text);
  } catch (e) {
    // not our JSON record: perhaps a game record kept elsewhere (PlayOK's), which the server reads
    request("load", { text }, "load");
    return;
  }
  request("load", { record }, "load");
}

export async function loadCatalogue() {
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
    $(side).replaceChildren(...choices.map((c) => el("option", { value: c.spec, dataset: c.games ? { games: JSON.stringify(c.games) } : {} }, c.label)));
  }
  const defaults = (app.players && app.players.default) || ["human", "medium"];
  $("f-p0").value = defaults[0];
  $("f-p1").value = defaults[1];
  formPresets();
  formChanged();
}

export function formPresets() {
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

export function formChanged(presetOnly = false) {
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
      placeholder: o.placeholder });
    else if (o.kind === "numbers") input = el("input", { id, type: "text", value: (value || []).join(" "), dataset: { opt: o.name, kind: "numbers" },
      placeholder: "whole numbers, e.g. 2 3", inputmode: "numeric" });
    else if (o.kind === "bool") input = el("input", { id, type: "checkbox", checked: !!value, dataset: { opt: o.name } });
    else input = el("input", { id, type: "number", value: value ?? "", dataset: { opt: o.name } });
    rows.push(el("label", { for: id }, o.name.replaceAll("_", " ")), input);
  }
  $("f-options").replaceChildren(...rows);
  $("more-rules").hidden = rows.length === 0;
  offerPlayers(g);
}

/** Offer a player that plays only some games and rules (OpenSpiel's) only for those: another
 * choice is left hidden, and a seat that held it goes back to the default. */
function offerPlayers(g) {
  const preset = g && Object.keys(g.presets || {}).length ? $("f-preset").value : "";
  const defaults = (app.players && app.players.default) || ["human", "medium"];
  ["f-p0", "f-p1"].forEach((side, i) => {
    for (const option of $(side).options) {
      const games = option.dataset.games ? JSON.parse(option.dataset.games) : null;
      const off = !!games && !!g && !(games[g.name] || []).includes(preset);
      option.hidden = off;
      option.disabled = off;
    }
    if ($(side).selectedOptions[0] && $(side).selectedOptions[0].disabled) $(side).value = defaults[i];
  });
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

export function startFromForm(event) {
  event.preventDefault();
  const players = [formPlayer(0), formPlayer(1)];
  const fields = { game: $("f-game").value, options: formOptions(), players };
  if ($("f-clock").value) fields.clock = JSON.parse($("f-clock").value); // (a clock makes it a match: no take-backs)
  if (players.every((p) => p !== "human" && p !== "remote")) fields.move_delay = Number($("w-delay").value);
  $("new-error").hidden = true;
  $("new-dialog").close();
  $("board").focus({ preventScroll: true }); // the new game's board, not the button that opened the dialog
  request("create", fields, "new-form");
}

/** The game as text (a `save` answered `as: "text"`): copied to the clipboard, and shown to
 * copy by hand where the page may not write the clipboard. */
async function copyText(text) {
  const box = $("share-text");
  box.hidden = false;
  box.value = text;
  let copied = false;
  try {
    await navigator.clipboard.writeText(text);
    copied = true;
  } catch { /* no clipboard here: the text is shown, selected, to copy by hand */ }
  if (!copied) { box.focus(); box.select(); }
  $("share-note").textContent = copied ? "The moves are copied as text." : "Copy the moves from the box.";
  ui.announce($("share-note").textContent);
}

/** Open the paste dialog. */
export function openPaste() {
  $("paste-error").hidden = true;
  $("paste-dialog").showModal();
  $("paste-text").focus();
}

/** Open what was pasted as a new game: the server reads it (a copied game, a game file, or a
 * move list of the game shown) and says why when it cannot. */
export function submitPaste(event) {
  event.preventDefault();
  const text = $("paste-text").value;
  if (!text.trim()) return;
  if (text.length > MAX_RECORD_BYTES) {
    $("paste-error").textContent = `That is too long (${Math.ceil(text.length / 1024)} KB) for a game: at most ${MAX_RECORD_BYTES / 1024} KB.`;
    $("paste-error").hidden = false;
    return;
  }
  request("load", { text, game: app.state ? app.state.game.spec : undefined }, "paste");
}
