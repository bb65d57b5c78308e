// The game's sounds: short WAV samples in web/sounds/, rendered from physical
// models by scripts/make-sounds.py. Each is fetched and decoded on its first
// use, then kept. Silent when the "sound" setting is off or audio is missing.

import { get } from './settings.js';

const NAMES = new Set(['move', 'capture', 'check', 'lowtime', 'start', 'end', 'notify']);
// A sample that arrives later than this after its event is dropped, not played late.
const STALE_MS = 400;

let ctx = null;
const samples = new Map(); // name -> Promise<AudioBuffer | null>

function audio() {
  if (!get('sound')) return null;
  const Ctor = globalThis.AudioContext || globalThis.webkitAudioContext;
  if (!Ctor) return null;
  if (!ctx) {
    try {
      ctx = new Ctor();
    } catch {
      return null;
    }
  }
  if (ctx.state === 'suspended') ctx.resume().catch(() => {});
  return ctx;
}

/** The decoded sample, fetched once; null (and tried again later) on failure. */
function sample(ac, name) {
  let pending = samples.get(name);
  if (!pending) {
    pending = fetch(new URL(`../sounds/${name}.wav`, import.meta.url))
      .then((res) => (res.ok ? res.arrayBuffer() : Promise.reject(new Error(`${res.status}`))))
      .then((bytes) => ac.decodeAudioData(bytes))
      .catch(() => {
        samples.delete(name);
        return null;
      });
    samples.set(name, pending);
  }
  return pending;
}

/** Plays one of: move, capture, check, lowtime, start, end, notify. */
export function play(name) {
  const ac = audio();
  if (!ac || !NAMES.has(name)) return;
  const asked = Date.now();
  sample(ac, name).then((buffer) => {
    if (!buffer || !get('sound') || Date.now() - asked > STALE_MS) return;
    try {
      const src = ac.createBufferSource();
      src.buffer = buffer;
      src.connect(ac.destination);
      src.start();
    } catch {
      // A sound that cannot play is no reason to stop the game.
    }
  });
}

/** Unlocks audio after a user gesture (browsers start contexts suspended). */
export function unlock() {
  audio();
}
