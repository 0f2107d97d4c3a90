"""The ManKalah subcommands: ``mancala mankalah-agent`` and ``mancala referee``."""

from __future__ import annotations

import argparse

from mancala.arena.mankalah_agent import agent_main
from mancala.arena.referee import run_referee
from mancala.cli.common import add_command
from mancala.mankalah.protocol import DEFAULT_TOTAL_SECONDS

# --- command line ---------------------------------------------------------------------

#: ``mancala mankalah-agent --help``'s description and examples
AGENT = (
    "Speak the Manchester ManKalah protocol on stdin/stdout (Kalah(7,7), pie rule): our player "
    "chooses the moves. Only protocol lines go to stdout and nothing to stderr; --log FILE "
    "records the exchange, the moves' thinking times and any mismatch with the referee's states."
)
AGENT_EXAMPLES = (
    'examples:\n  java -jar ManKalah.jar "mancala mankalah-agent --player best:time=2" '
    '"java -jar MKRefAgent.jar"\n'
    '  mancala referee "mancala mankalah-agent --player best:time=1" '
    '"mancala mankalah-agent --player greedy"'
)
#: ``mancala referee --help``'s description and example
REFEREE = (
    "Run two ManKalah agent programs (any language) and referee games between them with the "
    "Java referee's rules and messages: a timeout, an illegal move or a malformed message loses. "
    "Seats alternate over the games; each agent has --timeout seconds per game."
)
REFEREE_EXAMPLE = (
    'example:\n  mancala referee "mancala mankalah-agent --player best:time=1" '
    '"java -jar MKRefAgent.jar" --games 4 --log results/'
)


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``mankalah-agent`` and ``referee`` to the CLI's subcommands."""
    summary = "one of our players as a ManKalah agent (stdin/stdout protocol)"
    agent = add_command(sub, "mankalah-agent", summary, AGENT, AGENT_EXAMPLES)
    agent.add_argument(
        "--player",
        default="best:time=1",
        metavar="SPEC",
        help="who chooses the moves (default best:time=1), e.g. alphabeta:depth=6",
    )
    agent.add_argument("--log", metavar="FILE", help="append a log of the game to FILE (default: no log)")
    agent.set_defaults(func=agent_main)

    ref = add_command(sub, "referee", "referee games between two ManKalah agent programs", REFEREE, REFEREE_EXAMPLE)
    ref.add_argument("agent1", metavar="CMD1", help="the first agent's command (South in odd-numbered games)")
    ref.add_argument("agent2", metavar="CMD2", help="the second agent's command")
    ref.add_argument("--games", type=int, default=2, help="number of games, seats alternating (default 2)")
    ref.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_TOTAL_SECONDS,
        metavar="S",
        help="thinking time per agent per game in seconds (default 3600, as the Java referee)",
    )
    ref.add_argument(
        "--log",
        metavar="DIR",
        help="save each game as DIR/game-NNN.json (a game record) and DIR/game-NNN.log (the transcript)",
    )
    ref.set_defaults(func=run_referee)
