"""Rules only: one module per game, all speaking :class:`base.Game`.

Games are registered by name and built from a spec string, OpenSpiel style::

    make_game("kalah")                      # standard Kalah(6,4)
    make_game("kalah(pits=6,seeds=3)")
    make_game("kalah(preset=mankalah)")
    make_game("kalah(preset=homework,pits=3)")
    make_game("tictactoe")
    make_game("bao")                        # Bao la Kiswahili, Zanzibar rules
    make_game("oware(preset=awari)")        # Oware, Romein and Bal's rules
    make_game("togyz")                      # Togyz Kumalak, the federation's rules
"""

from __future__ import annotations

import re

from mancala.errors import BadInput, echo
from mancala.games.bao import Bao, BaoRules
from mancala.games.base import Game, outcome_text, winner
from mancala.games.catalogue import (
    CATALOGUE,
    GameInfo,
    find_game,
    game_info,
    load_plugins,
    normalise_name,
    register,
    spec_of,
)

# each game registers itself when its module is imported (the catalogue keeps their rank order)
from mancala.games.kalah import PRESETS, Kalah, KalahRules
from mancala.games.oware import Oware, OwareRules
from mancala.games.tictactoe import TicTacToe
from mancala.games.togyz import TogyzKumalak, TogyzRules

load_plugins()

__all__ = [
    "Bao",
    "BaoRules",
    "CATALOGUE",
    "Game",
    "GameInfo",
    "Kalah",
    "KalahRules",
    "PRESETS",
    "TicTacToe",
    "TogyzKumalak",
    "TogyzRules",
    "game_info",
    "game_spec",
    "make_game",
    "Oware",
    "OwareRules",
    "outcome_text",
    "register",
    "winner",
    "GAMES",
]

#: registry: game name -> one-line description (a view of :data:`CATALOGUE`)
GAMES = {name: info.text for name, info in CATALOGUE.items()}


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``name(key=value,...)`` into the name and the options (as text)."""
    m = re.fullmatch(r"\s*([a-z_-]+)\s*(?:\((.*)\))?\s*", spec, flags=re.I | re.S)
    if not m:
        raise BadInput(f"cannot read game spec {echo(spec)}: expected name or name(key=value,...)")
    known = find_game(m.group(1))
    name = known.name if known is not None else normalise_name(m.group(1))
    options: dict[str, str] = {}
    body = (m.group(2) or "").strip()
    if body:
        # a comma parts options only where a name and '=' follow it: a value may hold commas
        # (Togyz Kumalak's start position: 9,9,9,…/… 0-0 S)
        for part in re.split(r",(?=\s*[A-Za-z_][\w-]*\s*=)", body):
            if "=" not in part:
                raise BadInput(f"cannot read {echo(part.strip())} in game spec {echo(spec)}: expected key=value")
            key, value = part.split("=", 1)
            key = key.strip().replace("-", "_")
            if key in options:
                raise BadInput(f"game spec {echo(spec)} gives {key} twice; give each option once")
            options[key] = value.strip()
    return name, options


def make_game(spec: str = "kalah", **overrides) -> Game:
    """The game named by ``spec`` (see the module doc), with keyword overrides."""
    name, options = parse_spec(spec)
    options.update({k: v for k, v in overrides.items() if v is not None})
    return game_info(name).make(options)


def kalah_rules(options: dict) -> KalahRules:
    """Kalah rules from a preset name (key ``preset``) and option overrides."""
    game = make_game("kalah", **options)
    assert isinstance(game, Kalah)
    return game.rules


def game_spec(game: Game) -> str:
    """The spec string that rebuilds ``game`` with :func:`make_game`."""
    return spec_of(game)
