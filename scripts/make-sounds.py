#!/usr/bin/env python3
"""Renders the game's sounds into web/sounds/*.wav (run: python3 scripts/make-sounds.py;
an argument names another folder to write to).

Made for Caissa so that the sounds are samples the project owns and can
rebuild: each one is a small physical model, not a recording. A strike (a
short burst of noise, or a smooth mallet pulse) drives a few damped resonant
modes, each a two-pole resonator with its own frequency and decay time:

- a wooden piece set down on a wooden board: the board's low thump plus the
  inharmonic modes of a small boxwood block, struck through a felt base;
- a capture: the taken piece knocked aside, then the capturing piece set down;
- check: a harder, brighter knock (no felt, higher and longer modes);
- low time: two clock ticks;
- game start / end: a soft two-note wooden chime (a tuned marimba bar,
  modes near 1 : 4 : 10), rising to start and falling at the end;
- notify: one higher chime note.

Python 3 standard library only. The noise comes from a fixed seed, so a
re-run writes the same bytes. Output: 16-bit mono PCM at 22,050 Hz, each file
at most 0.5 s, trailing silence cut.
"""

import math
import random
import struct
import sys
import wave
from pathlib import Path

RATE = 22050
MAX_SECONDS = 0.5
SEED = 20240611


def burst(rng, ms, softness):
    """A strike as a force: noise under a half-sine window, low-passed.

    `softness` (0..1) is the one-pole low-pass coefficient: felt or a soft
    mallet rounds the contact off and feeds less energy to the high modes.
    """
    n = max(2, int(ms * RATE / 1000))
    out, y = [], 0.0
    for i in range(n):
        x = (rng.random() * 2 - 1) * math.sin(math.pi * i / (n - 1))
        y = softness * y + (1 - softness) * x
        out.append(y)
    return out


def pulse(ms):
    """A mallet's smooth force pulse (raised cosine): almost no noise."""
    n = max(2, int(ms * RATE / 1000))
    return [0.5 - 0.5 * math.cos(2 * math.pi * i / (n - 1)) for i in range(n)]


def resonate(force, modes, seconds):
    """Drives damped modes (freq Hz, amplitude, decay time s) with `force`."""
    total = int(seconds * RATE)
    out = [0.0] * total
    for freq, amp, decay in modes:
        w = 2 * math.pi * freq / RATE
        r = math.exp(-1 / (decay * RATE))
        a1, a2 = 2 * r * math.cos(w), -r * r
        b = amp * math.sin(w)  # a unit impulse rings at about `amp`
        y1 = y2 = 0.0
        for i in range(total):
            x = force[i] if i < len(force) else 0.0
            y = a1 * y1 + a2 * y2 + b * x
            out[i] += y
            y2, y1 = y1, y
    return out


def mix(*parts):
    """Adds (start seconds, samples, gain) parts into one signal."""
    end = max(int(start * RATE) + len(samples) for start, samples, _ in parts)
    out = [0.0] * end
    for start, samples, gain in parts:
        offset = int(start * RATE)
        for i, s in enumerate(samples):
            out[offset + i] += s * gain
    return out


def finish(samples, peak):
    """Scales to `peak`, cuts the tail below -48 dB (or at 0.5 s) and fades
    out the last 15% (at least 10 ms) so that a cut never clicks."""
    top = max(abs(s) for s in samples) or 1.0
    samples = [s * peak / top for s in samples]
    floor = peak * 10 ** (-48 / 20)
    last = max(i for i, s in enumerate(samples) if abs(s) > floor)
    samples = samples[:min(last + int(0.01 * RATE), int(MAX_SECONDS * RATE))]
    fade = max(int(0.01 * RATE), len(samples) * 15 // 100)
    for k in range(min(fade, len(samples))):
        samples[-1 - k] *= k / fade
    return samples


# The board under the piece: a low, quickly damped plate thump.
BOARD = [(170, 1.0, 0.018), (310, 0.6, 0.012)]
# A small boxwood block: inharmonic modes, higher ones dying faster.
PIECE = [(620, 0.55, 0.030), (1390, 0.40, 0.020), (2270, 0.28, 0.012), (3350, 0.16, 0.008)]


def knock(rng, modes, ms=3.0, softness=0.6, seconds=0.2):
    return resonate(burst(rng, ms, softness), modes, seconds)


def bar(note_hz, seconds):
    """A marimba-like wooden bar: tuned modes 1 : 3.93 : 9.2, the fundamental
    held longer by its resonator tube."""
    modes = [(note_hz, 1.0, 0.11), (note_hz * 3.93, 0.30, 0.04), (note_hz * 9.2, 0.10, 0.012)]
    return resonate(pulse(0.8), modes, seconds)


def sounds(rng):
    move = knock(rng, BOARD + PIECE, ms=3.0, softness=0.55)
    # The taken piece is knocked (higher, lighter), then the capturer lands.
    taken = knock(rng, [(m[0] * 1.12, m[1], m[2]) for m in PIECE], ms=2.0, softness=0.4)
    lands = knock(rng, BOARD + PIECE, ms=3.5, softness=0.6)
    capture = mix((0, taken, 0.7), (0.075, lands, 1.0))
    bright = [(260, 0.6, 0.02), (900, 0.7, 0.045), (1980, 0.55, 0.035), (3100, 0.4, 0.022), (4600, 0.25, 0.012)]
    check = knock(rng, bright, ms=1.2, softness=0.15, seconds=0.2)
    tick_modes = [(2450, 0.8, 0.008), (4100, 0.6, 0.006), (6300, 0.4, 0.004)]
    tick = knock(rng, tick_modes, ms=0.6, softness=0.05, seconds=0.05)
    lowtime = mix((0, tick, 1.0), (0.15, knock(rng, tick_modes, ms=0.6, softness=0.05, seconds=0.05), 0.8))
    g4, d5, a5 = 392.0, 587.33, 880.0
    start = mix((0, bar(g4, 0.36), 0.9), (0.1, bar(d5, 0.28), 1.0))
    end = mix((0, bar(d5, 0.36), 1.0), (0.12, bar(g4, 0.26), 0.9))
    notify = bar(a5, 0.22)
    return {
        'move': finish(move, 0.7),
        'capture': finish(capture, 0.8),
        'check': finish(check, 0.75),
        'lowtime': finish(lowtime, 0.5),
        'start': finish(start, 0.5),
        'end': finish(end, 0.5),
        'notify': finish(notify, 0.45),
    }


def write(path, samples):
    frames = b''.join(struct.pack('<h', max(-32767, min(32767, round(s * 32767)))) for s in samples)
    with wave.open(str(path), 'wb') as f:
        f.setnchannels(1)
        f.setsampwidth(2)
        f.setframerate(RATE)
        f.writeframes(frames)


def main():
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent / 'web' / 'sounds'
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(SEED)
    total = 0
    for name, samples in sounds(rng).items():
        path = out / f'{name}.wav'
        write(path, samples)
        size = path.stat().st_size
        total += size
        print(f'{path}: {len(samples) / RATE:.3f} s, {size} bytes')
    print(f'total: {total} bytes')


if __name__ == '__main__':
    main()
