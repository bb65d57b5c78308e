// The one place where positions are evaluated (the analysis page's evaluation,
// best line and graph).
//
// The server answers GET /api/cloud-eval?fen=<FEN>&multiPv=N in lichess's shape:
//   {"fen", "knodes", "depth", "pvs": [{"moves": "e2e4 e7e5 …", "cp": 23} | {"moves": "…", "mate": 3}]}
// with cp and mate from White's point of view (mate > 0: White mates), or 404
// with {"error"} when it cannot evaluate the position. A 404 without a JSON
// body means the server has no such endpoint at all: then we stop asking.
//
// evaluate(fen) answers {cp} or {mate} (the best line's score) with `depth`,
// `knodes` and `pvs: [{moves: [uci…], cp} | {moves: [uci…], mate}]`, or null when
// there is no evaluation. Results are cached per FEN in memory.

import { ApiError, api } from './api.js';

let available = true;
/** fen -> {multiPv, result} */
const cache = new Map();
const CACHE_LIMIT = 5000;

/** Parses one answer of /api/cloud-eval; null when it holds no usable line. */
export function parseCloudEval(answer) {
  if (!answer || typeof answer !== 'object' || !Array.isArray(answer.pvs)) return null;
  const pvs = [];
  for (const pv of answer.pvs) {
    if (!pv || typeof pv !== 'object') continue;
    const moves = typeof pv.moves === 'string' ? pv.moves.split(/\s+/).filter(Boolean) : [];
    if (typeof pv.mate === 'number' && Number.isFinite(pv.mate)) pvs.push({ moves, mate: pv.mate });
    else if (typeof pv.cp === 'number' && Number.isFinite(pv.cp)) pvs.push({ moves, cp: pv.cp });
  }
  if (!pvs.length) return null;
  const best = pvs[0];
  const result = 'mate' in best ? { mate: best.mate } : { cp: best.cp };
  result.depth = typeof answer.depth === 'number' ? answer.depth : null;
  result.knodes = typeof answer.knodes === 'number' ? answer.knodes : null;
  result.pvs = pvs;
  return result;
}

/**
 * Evaluates `fen`. Options: multiPv (lines wanted, default 1), signal (an
 * AbortSignal: aborting rejects with an AbortError and caches nothing).
 */
export async function evaluate(fen, { multiPv = 1, signal } = {}) {
  if (!available) return null;
  const cached = cache.get(fen);
  if (cached && cached.multiPv >= multiPv) return cached.result;
  let result = null;
  try {
    const answer = await api(`/api/cloud-eval?fen=${encodeURIComponent(fen)}&multiPv=${multiPv}`, { signal });
    result = parseCloudEval(answer);
  } catch (err) {
    if (err && err.name === 'AbortError') throw err;
    if (err instanceof ApiError && (err.routeMissing || err.status === 501)) {
      available = false;
      return null;
    }
    // 404 {"error"}: not this position. Other failures (busy, network) are not
    // remembered, so a later visit asks again.
    if (!(err instanceof ApiError && err.status === 404)) return null;
    result = null;
  }
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value);
  cache.set(fen, { multiPv, result });
  return result;
}

/** Whether the server may still give evaluations (it has the endpoint). */
export function engineAvailable() {
  return available;
}

/** Forgets the cache and what is known of the server (tests). */
export function resetEngine() {
  available = true;
  cache.clear();
}
