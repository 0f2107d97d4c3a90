"""Small helpers shared by test files (importable because pytest puts tests/ on sys.path)."""

from __future__ import annotations


def random_position(game, rng, plies: int):
    """The state after up to ``plies`` random legal moves from the start (fewer if the game ends)."""
    state = game.initial_state()
    for _ in range(plies):
        if game.is_terminal(state):
            break
        state = game.apply(state, rng.choice(list(game.legal_moves(state))))
    return state
