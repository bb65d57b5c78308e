// No emoji or other symbol the machine's fonts may lack: icons are inline SVG
// (js/icons.js). Every character from U+2000 up in the app's sources must be
// punctuation, a chess figurine, ∞, or CJK text (run: node --test web/test/).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const WEB = join(dirname(fileURLToPath(import.meta.url)), '..');

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'test' || name === 'pieces' ? [] : files(path);
    return /\.(js|css|html|json)$/.test(name) ? [path] : [];
  });
}

function allowed(cp) {
  if (cp < 0x2000) return true;
  if (cp >= 0x2000 && cp <= 0x206f) return true; // general punctuation: – — … ·
  if (cp >= 0x2654 && cp <= 0x265f) return true; // chess figurines (text presentation)
  if (cp === 0x221e) return true; // ∞
  if (cp >= 0x2e80 && cp <= 0x9fff) return true; // CJK punctuation and ideographs
  if (cp >= 0xff00 && cp <= 0xffef) return true; // full-width forms
  if (cp === 0xfeff) return true; // the byte-order mark, stripped from PGN input
  return false;
}

test('no emoji or font-dependent symbols in the web app', () => {
  const bad = [];
  for (const path of files(WEB)) {
    const text = readFileSync(path, 'utf8').replace(/\\u\{?([0-9a-fA-F]{4,5})\}?/g, (_, hex) => String.fromCodePoint(parseInt(hex, 16)));
    for (const ch of text) {
      const cp = ch.codePointAt(0);
      if (!allowed(cp) || cp === 0xfe0f) bad.push(`${relative(WEB, path)}: U+${cp.toString(16).toUpperCase()} ${ch}`);
    }
  }
  assert.deepEqual(bad, []);
});
