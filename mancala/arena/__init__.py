"""Games between players: single games and matches (:mod:`.match`), tournaments from
balanced openings with resumable results (:mod:`.tournament`), ratings (:mod:`.ratings`),
reports (:mod:`.report`) and the review of a finished game (:mod:`.review`)."""

from mancala.arena.match import MatchResult, play_game, play_match, random_opening

__all__ = ["MatchResult", "play_game", "play_match", "random_opening"]
