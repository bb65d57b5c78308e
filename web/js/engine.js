// The one place where positions are evaluated, for the evaluation graph.
//
// evaluate(fen) answers {cp} (centipawns, White's point of view) or {mate}
// (moves to mate, positive when White mates), or null when there is no
// evaluation. The server has no engine yet: this asks the lichess-style
// /api/cloud-eval endpoint once and, when the server does not know it, stops
// asking. Plug a real engine (server endpoint or a worker) in here.

import { ApiError, api } from './api.js';

let available = true;
const cache = new Map();

export async function evaluate(fen) {
  if (!available) return null;
  if (cache.has(fen)) return cache.get(fen);
  let result = null;
  try {
    const answer = await api(`/api/cloud-eval?fen=${encodeURIComponent(fen)}`);
    const pv = answer && Array.isArray(answer.pvs) ? answer.pvs[0] : answer;
    if (pv && typeof pv.mate === 'number') result = { mate: pv.mate };
    else if (pv && typeof pv.cp === 'number') result = { cp: pv.cp };
  } catch (err) {
    if (err instanceof ApiError && (err.routeMissing || err.status === 501)) available = false;
    result = null;
  }
  cache.set(fen, result);
  return result;
}

/** Whether an engine answered (or may still answer). */
export function engineAvailable() {
  return available;
}
