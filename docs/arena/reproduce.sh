#!/usr/bin/env bash
# Every tournament of docs/evaluation.md, in order.  Run from docs/arena with the package
# importable (e.g. PYTHONPATH=../.. or an installed mancala).  Each command resumes from its
# results file, so with the committed files this only redraws the reports (X.md, X.png);
# delete a results file to play its games again (same seed -> same games).
set -euo pipefail
M="${MANCALA:-python -m mancala}"
A="alphabeta:depth=3"; B="alphabeta:depth=2"; C="alphabeta:depth=3"
COMB="store:1,seeds:0.25,extra:0.5,threat:0.5"
REG="store:1,seeds:0.75,mobility:2,extra:0.4,threat:0.5,exposure:0.4,hoard:0.4,near:-0.5,endgame:-0.9,starve:-1.4"
REGEC="store:1,seeds:0.55,mobility:2.6,extra:1.2,threat:0.8,exposure:0.35,hoard:0.8,near:-0.7,endgame:-0.8,starve:-0.5"
BM="front:1,back:1,stock:0.8"
BDEF="$BM,nyumba:3,threat:1.6,waiting:0.6,mobility:0.3"
$M arena "$A,eval=score" "$A,eval=material" "$A,eval=store:1,extra:1" "$A,eval=store:1,threat:0.5" \
  "$A,eval=store:1,exposure:-0.25" "$A,eval=store:1,near:0.25" "$A,eval=store:1,mobility:0.5" \
  "$A,eval=store:1,endgame:1" "$A,eval=$COMB" --openings 10 --results kalah-terms-d3.jsonl "$@"
$M arena "$A,eval=score" "$A,eval=material" "$A,eval=store:1,exposure:-0.25" "$A,eval=$COMB" \
  "$A,eval=$COMB,exposure:-0.25" "$A,eval=store:1,mobility:2.5" "$A,eval=$REG" \
  --openings 40 --seed 2 --results kalah-finalists-d3.jsonl "$@"
$M arena "$B,eval=score" "$B,eval=material" "$B,eval=$COMB" "$B,eval=store:1,mobility:2.5" "$B,eval=$REG" \
  "$B,eval=store:1,exposure:-0.25" --openings 60 --plies 6 --seed 8 --results kalah-d2.jsonl "$@"
$M arena "$A,eval=score" "$A,eval=material" "$A,eval=$COMB" "$A,eval=$REGEC" --preset empty-capture \
  --openings 60 --seed 3 --results kalah-empty-capture-d3.jsonl "$@"
$M arena "$A,eval=score" "$A,eval=material" "$A,eval=$COMB" "$A,eval=store:1,exposure:-0.25" \
  "$A,eval=store:1,mobility:2.5" --pits 4 --seeds 4 --openings 20 --seed 6 --results kalah-4x4-d3.jsonl "$@"
$M arena "$C,eval=bao" "$C,eval=front:1,back:0.6,stock:0.8" "$C,eval=$BDEF,captures:0.5" \
  "$C,eval=$BM,nyumba:3,mobility:0.3" "$C,eval=$BM,threat:2.5,waiting:1" \
  --game bao --plies 4 --balance 3 --openings 20 --seed 5 --results bao-d3.jsonl "$@"
$M arena "$C,eval=bao" "$C,eval=$BM,threat:2.5,waiting:1" "$C,eval=$BM,threat:3.5,waiting:1.5" \
  "$C,eval=$BM,threat:2.5,waiting:0.5" "$C,eval=$BM,threat:2.5,waiting:1,nyumba:3,mobility:0.3" \
  --game bao --plies 4 --balance 3 --openings 20 --seed 7 --results bao-tuning-d3.jsonl "$@"
$M arena random greedy "alphabeta:depth=2,eval=$COMB" "alphabeta:depth=4,eval=$COMB" best:depth=6 best:depth=9 \
  best:depth=12 openspiel-mcts:sims=100 openspiel-mcts:sims=1000 openspiel-mcts:sims=5000 \
  --openings 5 --seed 4 --results kalah-levels.jsonl "$@"
$M arena best:nodes=2000000 best:depth=12 best:depth=9 openspiel-mcts:sims=5000 --gauntlet \
  --openings 4 --seed 4 --results kalah-strongest.jsonl "$@"
cat kalah-levels.jsonl kalah-strongest.jsonl > kalah-ladder.jsonl
$M arena report kalah-ladder.jsonl
# equal time (wall clock: a rerun on another machine or load plays other games)
$M arena "alphabeta:time=0.05,eval=score" "alphabeta:time=0.05,eval=material" \
  "alphabeta:time=0.05,eval=$COMB" --openings 150 --seed 11 --workers 1 --results kalah-time-0.05.jsonl "$@"
# the levels on Bao (strongest was depth 12 then), and depth 14 as the candidate for strongest
$M arena beginner easy medium hard expert strongest --game bao --plies 4 --balance 3 --openings 10 \
  --seed 12 --workers 1 --results bao-levels.jsonl "$@"
$M arena expert strongest "alphabeta:depth=14,time=60" --game bao --plies 4 --balance 3 --openings 10 \
  --seed 12 --workers 1 --results bao-levels-deeper.jsonl "$@"
# the engine with evaluation terms at equal nodes (section 9)
$M arena best:nodes=20000 "best:nodes=20000,eval=$COMB" --openings 30 --seed 7 --workers 1 \
  --results kalah-engine-eval-first.jsonl "$@"
$M arena best:nodes=20000 "best:nodes=20000,eval=$COMB" --openings 100 --seed 8 --workers 1 \
  --results kalah-engine-eval.jsonl "$@"
# the levels, step by step (session 3): each level against the next, 40-120 games a step, then
# the new expert and strongest against the MCTS anchors; one joint fit with the first ladder
$M arena random greedy --openings 20 --seed 11 --workers 1 --results kalah-levels-2.jsonl "$@"
$M arena greedy "alphabeta:depth=2,eval=$COMB" --openings 60 --seed 11 --workers 1 --results kalah-levels-2.jsonl "$@"
$M arena "alphabeta:depth=2,eval=$COMB" "alphabeta:depth=4,eval=$COMB" --openings 40 --seed 11 --workers 1 \
  --results kalah-levels-2.jsonl "$@"
for pair in "alphabeta:depth=4,eval=$COMB best:depth=6" "alphabeta:depth=4,eval=$COMB best:depth=5" \
            "best:depth=6 best:nodes=2000000" "best:depth=5 best:nodes=2000000" \
            "best:depth=5 best:nodes=6000000,eval=$COMB"; do
  $M arena $pair --openings 20 --seed 11 --workers 1 --results kalah-levels-2.jsonl "$@"
done
$M arena best:depth=5 openspiel-mcts:sims=100 openspiel-mcts:sims=1000 openspiel-mcts:sims=5000 --gauntlet \
  --openings 5 --seed 4 --workers 1 --results kalah-levels-2.jsonl "$@"
$M arena "best:nodes=6000000,eval=$COMB" openspiel-mcts:sims=5000 --gauntlet --openings 5 --seed 4 --workers 1 \
  --results kalah-levels-2.jsonl "$@"
cat kalah-ladder.jsonl kalah-levels-2.jsonl > kalah-ladder-2.jsonl
$M arena report kalah-ladder-2.jsonl
# Oware's ladder (docs/oware.md, "The engine and the levels").  The first attempt and the
# gauntlet ran when Oware's `expert` was best:depth=8 (the level names are what the files
# record); the ladder after them is the one in mancala/players/levels.py.
OW="--game oware --openings 6 --seed 12 --workers 1"
$M arena beginner easy medium hard expert strongest $OW --results oware-levels-first.jsonl "$@"
$M arena best:depth=9 hard expert strongest --gauntlet $OW --results oware-expert-d9.jsonl "$@"
$M arena beginner easy medium hard expert strongest $OW --results oware-levels.jsonl "$@"
