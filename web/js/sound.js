// Sounds synthesised with WebAudio (no files): move, capture, check, low time,
// game start and end. Silent when the "sound" setting is off.

import { get } from './settings.js';

let ctx = null;

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

/** A short decaying tone. */
function tone(ac, { freq, start = 0, length = 0.12, type = 'sine', gain = 0.2, slide = null }) {
  const t0 = ac.currentTime + start;
  const osc = ac.createOscillator();
  const amp = ac.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, t0);
  if (slide) osc.frequency.exponentialRampToValueAtTime(slide, t0 + length);
  amp.gain.setValueAtTime(0.0001, t0);
  amp.gain.exponentialRampToValueAtTime(gain, t0 + 0.005);
  amp.gain.exponentialRampToValueAtTime(0.0001, t0 + length);
  osc.connect(amp).connect(ac.destination);
  osc.start(t0);
  osc.stop(t0 + length + 0.02);
}

/** A burst of filtered noise: the "wood" of a piece put down. */
function knock(ac, { start = 0, length = 0.06, freq = 1800, gain = 0.5 }) {
  const t0 = ac.currentTime + start;
  const frames = Math.max(1, Math.floor(ac.sampleRate * length));
  const buffer = ac.createBuffer(1, frames, ac.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / frames) ** 3;
  const src = ac.createBufferSource();
  src.buffer = buffer;
  const filter = ac.createBiquadFilter();
  filter.type = 'bandpass';
  filter.frequency.value = freq;
  filter.Q.value = 1.2;
  const amp = ac.createGain();
  amp.gain.value = gain;
  src.connect(filter).connect(amp).connect(ac.destination);
  src.start(t0);
}

const SOUNDS = {
  move(ac) {
    knock(ac, { freq: 1500 });
    tone(ac, { freq: 220, length: 0.05, gain: 0.08 });
  },
  capture(ac) {
    knock(ac, { freq: 900, gain: 0.7, length: 0.09 });
    knock(ac, { freq: 1700, gain: 0.4, start: 0.05 });
  },
  check(ac) {
    tone(ac, { freq: 880, length: 0.1, type: 'triangle', gain: 0.15 });
    tone(ac, { freq: 1175, start: 0.1, length: 0.16, type: 'triangle', gain: 0.15 });
  },
  lowtime(ac) {
    tone(ac, { freq: 660, length: 0.08, type: 'square', gain: 0.05 });
    tone(ac, { freq: 660, start: 0.15, length: 0.08, type: 'square', gain: 0.05 });
  },
  start(ac) {
    tone(ac, { freq: 523, length: 0.12, gain: 0.12 });
    tone(ac, { freq: 784, start: 0.1, length: 0.2, gain: 0.12 });
  },
  end(ac) {
    tone(ac, { freq: 784, length: 0.18, gain: 0.12 });
    tone(ac, { freq: 659, start: 0.15, length: 0.18, gain: 0.12 });
    tone(ac, { freq: 523, start: 0.3, length: 0.35, gain: 0.12 });
  },
  notify(ac) {
    tone(ac, { freq: 988, length: 0.1, gain: 0.1, slide: 1318 });
  },
};

/** Plays one of: move, capture, check, lowtime, start, end, notify. */
export function play(name) {
  const ac = audio();
  const fn = SOUNDS[name];
  if (!ac || !fn) return;
  try {
    fn(ac);
  } catch {
    // A sound that cannot play is no reason to stop the game.
  }
}

/** Unlocks audio after a user gesture (browsers start contexts suspended). */
export function unlock() {
  audio();
}
