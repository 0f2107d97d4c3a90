"""Rules only: one module per game, all speaking :class:`base.Game`.

Games are registered by name and built from a spec string, OpenSpiel style::

    make_game("kalah")                      # standard Kalah(6,4)
    make_game("kalah(pits=6,seeds=3)")
    make_game("kalah(preset=mankalah)")
    make_game("kalah(preset=homework,pits=3)")
    make_game("tictactoe")
    make_game("bao")                        # Bao la Kiswahili, Zanzibar rules
"""

from __future__ import annotations

import re

from mancala.errors import BadInput
from mancala.games.bao import Bao, BaoRules, bao_from_options
from mancala.games.base import Game, outcome_text, winner
from mancala.games.kalah import PRESETS, Kalah, KalahRules
from mancala.games.tictactoe import TicTacToe

__all__ = ["Bao", "BaoRules", "Game", "Kalah", "KalahRules", "PRESETS", "TicTacToe", "make_game", "game_spec", "winner",
           "outcome_text", "GAMES"]

#: registry: game name -> one-line description
GAMES = {
    "kalah": "Kalah with every rule variant (options: preset, pits, seeds, capture, ...)",
    "tictactoe": "tic-tac-toe, the alpha-beta teaching aid of seed 003",
    "bao": ("Bao la Kiswahili, Zanzibar rules (options: singletons, mtaji_house, tax_small_house, "
            "takasia, takasia_exempt_singletons, takasia_forces_capture, max_plies, max_laps)"),
}


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``name(key=value,...)`` into the name and the options (as text)."""
    m = re.fullmatch(r"\s*([a-z_-]+)\s*(?:\((.*)\))?\s*", spec, flags=re.I | re.S)
    if not m:
        raise BadInput(f"cannot read game spec {spec!r}: expected name or name(key=value,...)")
    name = m.group(1).lower().replace("-", "").replace("_", "")
    options: dict[str, str] = {}
    body = (m.group(2) or "").strip()
    if body:
        for part in body.split(","):
            if "=" not in part:
                raise BadInput(f"cannot read {part.strip()!r} in game spec {spec!r}: expected key=value")
            key, value = part.split("=", 1)
            key = key.strip().replace("-", "_")
            if key in options:
                raise BadInput(f"game spec {spec!r} gives {key} twice; give each option once")
            options[key] = value.strip()
    return name, options


def make_game(spec: str = "kalah", **overrides) -> Game:
    """The game named by ``spec`` (see the module doc), with keyword overrides."""
    name, options = parse_spec(spec)
    options.update({k: v for k, v in overrides.items() if v is not None})
    if name == "tictactoe":
        if options:
            raise BadInput(f"tictactoe takes no options, got {', '.join(options)}")
        return TicTacToe()
    if name == "kalah":
        return Kalah(kalah_rules(options))
    if name == "bao":
        return bao_from_options(options)
    raise BadInput(f"unknown game {name!r}; known games: {', '.join(GAMES)}")


def kalah_rules(options: dict) -> KalahRules:
    """Kalah rules from a preset name (key ``preset``) and option overrides."""
    options = dict(options)
    preset = str(options.pop("preset", "standard")).lower()
    if preset not in PRESETS:
        raise BadInput(f"unknown Kalah preset {preset!r}; presets: {', '.join(PRESETS)}")
    data = PRESETS[preset].to_dict()
    data.update(options)
    return KalahRules.from_dict(data)


def game_spec(game: Game) -> str:
    """The spec string that rebuilds ``game`` with :func:`make_game`."""
    if isinstance(game, TicTacToe):
        return "tictactoe"
    if isinstance(game, Kalah):
        data = game.rules.to_dict()
        default = KalahRules().to_dict()
        parts = []
        for key, value in data.items():
            if value != default[key]:
                if isinstance(value, list):
                    value = " ".join(map(str, value))
                parts.append(f"{key}={value}")
        return "kalah(" + ",".join(parts) + ")" if parts else "kalah"
    if isinstance(game, Bao):
        default = BaoRules().to_dict()
        parts = [f"{k}={str(v).lower() if isinstance(v, bool) else v}"
                 for k, v in game.rules.to_dict().items() if v != default[k]]
        return "bao(" + ",".join(parts) + ")" if parts else "bao"
    raise BadInput(f"no spec for {game!r}")
