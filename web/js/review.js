// A game reviewed from the engine's evaluations of its positions. Each move is
// judged by how much it lost of the mover's winning chances, on the logistic
// curve lichess fits to centipawns: a drop of 10 points of winning chances is
// an inaccuracy, 20 a mistake, 30 a blunder. A move's accuracy falls
// exponentially with that drop (lichess's published fit); a side's accuracy is
// the mean of the arithmetic and harmonic means of its moves' accuracies, so a
// single blunder weighs more than in a plain average.

/** White's winning chances (0 to 100) in an evaluation from White's side, or null. */
export function winChance(ev) {
  if (!ev) return null;
  if (typeof ev.mate === 'number') {
    if (ev.mate === 0) return ev.mated === 'white' ? 0 : ev.mated === 'black' ? 100 : null;
    return ev.mate > 0 ? 100 : 0;
  }
  if (typeof ev.cp !== 'number') return null;
  const cp = Math.max(-1000, Math.min(1000, ev.cp));
  return 50 + 50 * (2 / (1 + Math.exp(-0.00368208 * cp)) - 1);
}

/** How a move is judged from the winning chances it lost (0 to 100). */
export function judgement(drop) {
  if (drop >= 30) return 'blunder';
  if (drop >= 20) return 'mistake';
  if (drop >= 10) return 'inaccuracy';
  return null;
}

/** A move's accuracy (0 to 100) from the mover's winning chances before and after. */
export function moveAccuracy(before, after) {
  const drop = Math.max(0, before - after);
  return Math.max(0, Math.min(100, 103.1668 * Math.exp(-0.04354 * drop) - 3.1669));
}

/** One side's accuracy from its moves' accuracies, or null without moves. */
export function sideAccuracy(accuracies) {
  if (!accuracies.length) return null;
  const mean = accuracies.reduce((a, b) => a + b, 0) / accuracies.length;
  const harmonic = accuracies.length / accuracies.reduce((a, b) => a + 1 / Math.max(b, 1), 0);
  return (mean + harmonic) / 2;
}

/**
 * Reviews a line: `evals[i]` is the evaluation (from White's side) of the
 * position after ply i, index 0 the start; `ucis[i]` the move played from
 * position i; `startColor` the side to move at the start. Returns
 * `{moves: [{ply, color, drop, judgement, best}], accuracy: {white, black},
 * counts: {white: {inaccuracy, mistake, blunder}, black: {...}}, complete}`.
 * A move is judged only when both positions around it are evaluated; `best`
 * is the engine's first move in the position before a judged move.
 */
export function review(evals, ucis, startColor = 'white') {
  const moves = [];
  const accuracies = { white: [], black: [] };
  const counts = {
    white: { inaccuracy: 0, mistake: 0, blunder: 0 },
    black: { inaccuracy: 0, mistake: 0, blunder: 0 },
  };
  let complete = true;
  for (let i = 0; i < ucis.length; i++) {
    const color = (i % 2 === 0) === (startColor === 'white') ? 'white' : 'black';
    const before = winChance(evals[i]);
    const after = winChance(evals[i + 1]);
    if (before === null || after === null) {
      complete = false;
      continue;
    }
    // The mover's chances: White's, or what is left of them for Black.
    const mine = (w) => (color === 'white' ? w : 100 - w);
    const drop = Math.max(0, mine(before) - mine(after));
    const judged = judgement(drop);
    const best = evals[i]?.pvs?.[0]?.moves?.[0] || null;
    accuracies[color].push(moveAccuracy(mine(before), mine(after)));
    if (judged) counts[color][judged]++;
    moves.push({ ply: i + 1, color, drop, judgement: judged, best: judged && best !== ucis[i] ? best : null });
  }
  return {
    moves,
    accuracy: { white: sideAccuracy(accuracies.white), black: sideAccuracy(accuracies.black) },
    counts,
    complete,
  };
}
