// Opening names for what a board shows: the server's table (/api/openings,
// by position), fetched once. A line is named by the last of its positions
// found there, so transpositions get the right name.

import { api } from './api.js';

let table = null;
let loading = null;

/** Fetches the table once; resolves (to nothing) whether it came or not. */
export function loadOpenings() {
  if (!loading) {
    loading = api('/api/openings')
      .then((answer) => {
        table = answer.positions || {};
      })
      .catch(() => {
        loading = null;
      });
  }
  return loading;
}

/** The key of a position: the first four fields of its FEN. */
export function positionKey(fen) {
  return String(fen).split(' ').slice(0, 4).join(' ');
}

/** Uses `positions` ({KEY: [eco, name]}) as the table (tests). */
export function useOpenings(positions) {
  table = positions;
  loading = Promise.resolve();
}

/** The opening of a line given its FENs from the start: {eco, name, ply}, or null. */
export function openingOf(fens) {
  if (!table) return null;
  for (let i = fens.length - 1; i >= 0; i--) {
    const hit = table[positionKey(fens[i])];
    if (hit) return { eco: hit[0], name: hit[1], ply: i };
  }
  return null;
}
