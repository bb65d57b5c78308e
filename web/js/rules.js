// The rules of chess and PGN in the browser: our own Rust crates compiled to
// WebAssembly (crates/wasm, built into web/wasm/caissa.wasm by
// scripts/build-wasm.sh). Nothing here decides a rule: each call sends one JSON
// request to the module and returns its answer, or throws its error.
//
// Load once with `loadRules()`; every call after that is synchronous.

const encoder = new TextEncoder();
const decoder = new TextDecoder();
let exports = null;
let loading = null;

/** An error the rules module answered with (an illegal move, a bad FEN ...). */
export class RulesError extends Error {}

/**
 * Loads the module: from the server by default, or from `bytes` (tests).
 * Resolves once every other function here can be called.
 */
export function loadRules(bytes) {
  if (!loading) {
    loading = (async () => {
      let result;
      if (bytes) {
        result = await WebAssembly.instantiate(bytes, {});
      } else {
        const url = new URL('../wasm/caissa.wasm', import.meta.url);
        const response = await fetch(url);
        if (!response.ok) throw new Error(`${url.pathname}: ${response.status}`);
        result = await WebAssembly.instantiate(await response.arrayBuffer(), {});
      }
      exports = result.instance.exports;
    })().catch((err) => {
      loading = null;
      throw err;
    });
  }
  return loading;
}

/** Whether the module is loaded. */
export function rulesLoaded() {
  return exports !== null;
}

function call(request) {
  if (!exports) throw new Error('the rules module is not loaded yet');
  const bytes = encoder.encode(JSON.stringify(request));
  const ptr = exports.caissa_alloc(bytes.length);
  // Views of memory are taken after each call: memory may grow in it.
  new Uint8Array(exports.memory.buffer, ptr, bytes.length).set(bytes);
  exports.caissa_call(ptr, bytes.length);
  const out = new Uint8Array(exports.memory.buffer, exports.caissa_out_ptr(), exports.caissa_out_len());
  const reply = JSON.parse(decoder.decode(out));
  if ('error' in reply) throw new RulesError(reply.error);
  return reply.ok;
}

/**
 * A position as the board shows it: {fen, turn, check (square or null), dests
 * ({from: [to...]}), fullmoves, halfmoves, end ({result, reason, winner} or
 * null), claims}. `fen` defaults to the initial position.
 */
export function position(fen = null, chess960 = false) {
  return call({ op: 'position', fen, chess960 });
}

/** Plays `move` (UCI or SAN): {uci, san, fen, check, position}. */
export function play(fen, move, chess960 = false) {
  return call({ op: 'play', fen, move, chess960 });
}

/** Plays a line of moves (UCI or SAN): {moves: [{uci, san, fen, check}], position}. */
export function replay(fen, moves, chess960 = false) {
  return call({ op: 'replay', fen, moves, chess960 });
}

/**
 * Every game of a PGN text: {games, more}. A game is {tags: [[name, value]],
 * fen, chess960, result, comments, moves} or {tags, error}; a move is {san,
 * uci, fen, check, nags, comments, clock (ms), variations: [{comments, moves}]}.
 */
export function readPgn(text) {
  return call({ op: 'readPgn', pgn: text });
}

/** A game ({tags, comments, moves: [{san, nags, comments, variations}], result}) as PGN. */
export function writePgn(game) {
  return call({ op: 'writePgn', game });
}

/** The board's map of destinations from a position's `dests`. */
export function destsMap(dests) {
  return new Map(Object.entries(dests || {}));
}
