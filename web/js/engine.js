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
//
// The position a player looks at is then searched longer: GET
// /api/analysis/stream answers NDJSON, one line in the same shape at every
// completed depth; a Deepening follows one position at a time and stops the
// search (by closing the request) when the player moves on.

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

/**
 * Streams the evaluation of `fen` as the search deepens: onAnswer(result) at
 * every completed depth, result as evaluate's (and cached in its place).
 * Resolves when the search ends; rejects with an AbortError when `signal` aborts.
 */
export async function deepen(fen, { multiPv = 1, signal, onAnswer }) {
  if (!available) return;
  const url = `/api/analysis/stream?fen=${encodeURIComponent(fen)}&multiPv=${multiPv}`;
  const res = await fetch(url, { signal, headers: { accept: 'application/x-ndjson' } });
  if (!res.ok || !res.body) return;
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffered += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, end).trim();
      buffered = buffered.slice(end + 1);
      let result = null;
      try {
        result = line ? parseCloudEval(JSON.parse(line)) : null;
      } catch {
        result = null;
      }
      if (!result) continue;
      cache.set(fen, { multiPv, result });
      onAnswer(result);
    }
  }
}

/**
 * One deepening search at a time, for the position shown: follow(fen) stops
 * the last one and searches `fen` (unless it was searched to the end already);
 * onAnswer(fen, result) hears each depth.
 */
export class Deepening {
  constructor(onAnswer) {
    this.onAnswer = onAnswer;
    this.fen = null;
    this.ctl = null;
    this.finished = new Set();
  }

  follow(fen) {
    if (fen === this.fen || this.finished.has(fen)) return;
    this.stop();
    this.fen = fen;
    const ctl = (this.ctl = new AbortController());
    deepen(fen, { signal: ctl.signal, onAnswer: (result) => this.onAnswer(fen, result) })
      .then(() => {
        if (!ctl.signal.aborted) this.finished.add(fen);
      })
      .catch(() => {})
      .finally(() => {
        if (this.ctl === ctl) this.fen = null;
      });
  }

  /** Stops the search under way, if any. */
  stop() {
    if (this.ctl) this.ctl.abort();
    this.ctl = null;
    this.fen = null;
  }
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
