// The account's event stream (/api/stream/event): games that start and finish,
// challenges received and declined. Reconnects with backoff while logged in.

import { api, guest, readNdjson, session } from './api.js';

const listeners = new Set();
/** Games in progress for this account: id -> game object of gameStart. */
export const currentGames = new Map();
/** Incoming challenges: id -> challenge. */
export const challenges = new Map();

let controller = null;
let generation = 0;
let expecting = 0;

/** Calls `fn(event)` for every event; returns an unsubscribe function. */
export function onEvent(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/**
 * Marks that a game is expected soon (a seek, a challenge, a rematch), so its
 * gameStart is followed even when it comes right after (re)connecting.
 */
export function expectGame(ms = 120_000) {
  const until = Date.now() + ms;
  expecting = Math.max(expecting, until);
}

function emit(event) {
  for (const fn of listeners) {
    try {
      fn(event);
    } catch (err) {
      console.error(err);
    }
  }
}

function handle(event, openedAt) {
  const type = event.type;
  if (type === 'gameStart' && event.game) {
    const id = event.game.gameId || event.game.id;
    const known = currentGames.has(id);
    currentGames.set(id, event.game);
    // Games already going on when the stream opens are listed, not jumped to.
    const replay = Date.now() - openedAt < 1500 && Date.now() > expecting;
    emit({ ...event, id, fresh: !known && !replay });
    return;
  }
  if (type === 'gameFinish' && event.game) {
    const id = event.game.gameId || event.game.id;
    currentGames.delete(id);
    emit({ ...event, id });
    return;
  }
  if (type === 'challenge' && event.challenge) {
    // Both sides hear of a challenge, as on lichess: only incoming ones wait
    // for an answer here.
    if (event.challenge.direction === 'out') return;
    challenges.set(event.challenge.id, event.challenge);
  } else if ((type === 'challengeDeclined' || type === 'challengeCanceled') && event.challenge) {
    challenges.delete(event.challenge.id);
  }
  emit(event);
}

/** Opens the stream (closing any other); it reconnects until `stop()`. */
export function start() {
  stop();
  const mine = ++generation;
  const ctl = new AbortController();
  controller = ctl;
  let delay = 1000;
  (async () => {
    while (mine === generation && session.user) {
      const openedAt = Date.now();
      try {
        const response = await api('/api/stream/event', { raw: true, signal: ctl.signal, accept: 'application/x-ndjson' });
        delay = 1000;
        emit({ type: 'connected' });
        await readNdjson(response, (event) => handle(event, openedAt));
      } catch (err) {
        if (err && err.name === 'AbortError') return;
        if (err && (err.status === 401 || err.status === 403)) return;
      }
      if (mine !== generation) return;
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 15000);
    }
  })();
}

/** Closes the stream. */
export function stop() {
  generation++;
  if (controller) controller.abort();
  controller = null;
  currentGames.clear();
  challenges.clear();
}

/** Forgets a challenge (accepted or declined here). */
export function dropChallenge(id) {
  challenges.delete(id);
  emit({ type: 'challengesChanged' });
}

/** Makes sure someone is logged in, as a new guest if nobody is. */
export async function ensureSession() {
  if (session.user) return session.user;
  await guest();
  return session.user;
}
