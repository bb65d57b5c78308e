// Board themes, piece sets and sounds agree across the settings, the board,
// the stylesheet, the translations and the files on disk; the themes keep
// their squares apart; the sound files are what js/sound.js expects and are
// rebuilt byte for byte by scripts/make-sounds.py (run: node --test web/test/).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { CHOICES, DEFAULTS, sanitize } from '../js/settings.js';
import { PIECE_SETS, THEMES } from '../js/board.js';

const WEB = join(dirname(fileURLToPath(import.meta.url)), '..');
const CSS = readFileSync(join(WEB, 'css', 'board.css'), 'utf8');
const SOUNDS = ['move', 'capture', 'check', 'lowtime', 'start', 'end', 'notify'];

test('settings accept every theme and piece set, and nothing else', () => {
  for (const theme of CHOICES.theme) assert.equal(sanitize({ theme }).theme, theme);
  for (const pieceSet of CHOICES.pieceSet) assert.equal(sanitize({ pieceSet }).pieceSet, pieceSet);
  for (const theme of ['marble', 'ink', 'contrast']) assert.ok(CHOICES.theme.includes(theme), theme);
  for (const set of ['minimal', 'chinese']) assert.ok(CHOICES.pieceSet.includes(set), set);
  assert.equal(sanitize({ theme: 'Marble' }).theme, DEFAULTS.theme);
  assert.equal(sanitize({ pieceSet: 'chinese ' }).pieceSet, DEFAULTS.pieceSet);
});

test('the board draws what the settings offer, and each has a name in every language', () => {
  assert.deepEqual(THEMES, CHOICES.theme);
  assert.deepEqual(PIECE_SETS, CHOICES.pieceSet);
  for (const lang of ['en', 'zh-Hans', 'zh-Hant']) {
    const dict = JSON.parse(readFileSync(join(WEB, 'i18n', `${lang}.json`), 'utf8'));
    for (const theme of THEMES) assert.ok(dict[`settings.theme.${theme}`], `${lang}: settings.theme.${theme}`);
    for (const set of PIECE_SETS) assert.ok(dict[`settings.piece.${set}`], `${lang}: settings.piece.${set}`);
  }
});

/** A theme's own value of a custom property in board.css, as [r, g, b]. */
function themeColour(theme, prop) {
  const block = CSS.match(new RegExp(`\\.cb-theme-${theme} \\{([^}]*)\\}`))?.[1] ?? '';
  const hex = block.match(new RegExp(`${prop}:\\s*#([0-9a-f]{6})`, 'i'))?.[1];
  assert.ok(hex, `${theme} sets ${prop}`);
  return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
}

/** WCAG contrast ratio of two colours. */
function contrast(a, b) {
  const lum = (rgb) => {
    const [r, g, bl] = rgb.map((c) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

test('every theme keeps its squares and coordinates apart', () => {
  for (const theme of THEMES) {
    const light = themeColour(theme, '--cb-light');
    const dark = themeColour(theme, '--cb-dark');
    assert.ok(contrast(light, dark) >= 2.4, `${theme}: squares ${contrast(light, dark).toFixed(2)}`);
    // Bold coordinates: 2.8:1 at least (blue's on its dark squares is 2.9).
    assert.ok(contrast(themeColour(theme, '--cb-coord-on-light'), light) >= 2.8, `${theme}: coordinates on light`);
    assert.ok(contrast(themeColour(theme, '--cb-coord-on-dark'), dark) >= 2.8, `${theme}: coordinates on dark`);
  }
  // The high-contrast theme: squares 4:1, and both piece colours of the sets
  // (near-black #2a2a2e and near-white #fbfbf8) at 3:1 on its dark squares.
  const light = themeColour('contrast', '--cb-light');
  const dark = themeColour('contrast', '--cb-dark');
  assert.ok(contrast(light, dark) >= 4);
  assert.ok(contrast([0x2a, 0x2a, 0x2e], dark) >= 3);
  assert.ok(contrast([0xfb, 0xfb, 0xf8], dark) >= 3);
});

/** The fields of a 16-bit PCM WAV file's header. */
function wavInfo(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at) => String.fromCharCode(...bytes.subarray(at, at + 4));
  assert.equal(tag(0), 'RIFF');
  assert.equal(tag(8), 'WAVE');
  assert.equal(tag(12), 'fmt ');
  assert.equal(tag(36), 'data');
  return {
    format: view.getUint16(20, true),
    channels: view.getUint16(22, true),
    rate: view.getUint32(24, true),
    bits: view.getUint16(34, true),
    seconds: view.getUint32(40, true) / 2 / view.getUint32(24, true),
  };
}

test('every sound the app plays is a short mono 16-bit WAV at 22,050 Hz', () => {
  const played = new Set();
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.js')) {
        for (const [, name] of readFileSync(path, 'utf8').matchAll(/sound\.play\('(\w+)'\)/g)) played.add(name);
      }
    }
  };
  walk(join(WEB, 'js'));
  for (const name of played) assert.ok(SOUNDS.includes(name), `played but not made: ${name}`);
  let total = 0;
  for (const name of SOUNDS) {
    const bytes = readFileSync(join(WEB, 'sounds', `${name}.wav`));
    total += bytes.length;
    assert.deepEqual({ ...wavInfo(bytes), seconds: undefined }, { format: 1, channels: 1, rate: 22050, bits: 16, seconds: undefined }, name);
    assert.ok(wavInfo(bytes).seconds > 0.05 && wavInfo(bytes).seconds <= 0.5, `${name}: ${wavInfo(bytes).seconds} s`);
  }
  assert.ok(total < 80 * 1024, `${total} bytes of sounds`);
});

test('scripts/make-sounds.py rebuilds the same bytes', (t) => {
  if (spawnSync('python3', ['--version']).status !== 0) {
    t.skip('no python3');
    return;
  }
  const out = mkdtempSync(join(tmpdir(), 'caissa-sounds-'));
  try {
    const run = spawnSync('python3', [join(WEB, '..', 'scripts', 'make-sounds.py'), out], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    for (const name of SOUNDS) {
      assert.ok(readFileSync(join(out, `${name}.wav`)).equals(readFileSync(join(WEB, 'sounds', `${name}.wav`))), name);
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
