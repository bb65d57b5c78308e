// The analysis engine's client: the deepening stream read line by line
// however the bytes arrive, one search at a time.

import assert from 'node:assert/strict';
import test from 'node:test';

import { Deepening, deepen, resetEngine } from '../js/engine.js';

/** A fetch answering `body`, cut into `chunks` pieces of bytes. */
function streaming(body, chunks) {
  return async () => {
    const bytes = new TextEncoder().encode(body);
    const size = Math.ceil(bytes.length / chunks);
    const stream = new ReadableStream({
      start(ctl) {
        for (let i = 0; i < bytes.length; i += size) ctl.enqueue(bytes.slice(i, i + size));
        ctl.close();
      },
    });
    return new Response(stream, { status: 200 });
  };
}

test('the deepening stream is read line by line, even when a line comes in pieces', async () => {
  resetEngine();
  const lines = [1, 2, 3].map((d) => JSON.stringify({ fen: 'x', depth: d, knodes: d, pvs: [{ moves: 'e2e4 e7e5', cp: 10 * d }] }));
  const saved = globalThis.fetch;
  try {
    for (const chunks of [1, 7, 50]) {
      globalThis.fetch = streaming(`${lines.join('\n')}\n`, chunks);
      const seen = [];
      await deepen('x', { onAnswer: (ev) => seen.push([ev.depth, ev.cp]) });
      assert.deepEqual(seen, [[1, 10], [2, 20], [3, 30]], `${chunks} chunks`);
    }
  } finally {
    globalThis.fetch = saved;
  }
});

test('following another position stops the search of the last one', async () => {
  resetEngine();
  const saved = globalThis.fetch;
  const asked = [];
  globalThis.fetch = (url, { signal }) => {
    asked.push({ url, signal });
    return new Promise(() => {});
  };
  try {
    const deepening = new Deepening(() => {});
    deepening.follow('fen one');
    deepening.follow('fen one');
    assert.equal(asked.length, 1, 'the same position is not asked twice');
    deepening.follow('fen two');
    assert.equal(asked.length, 2);
    assert.ok(asked[0].signal.aborted, 'the first search is stopped');
    assert.ok(!asked[1].signal.aborted);
    assert.match(asked[1].url, /\/api\/analysis\/stream\?fen=fen%20two/);
    deepening.stop();
    assert.ok(asked[1].signal.aborted);
  } finally {
    globalThis.fetch = saved;
  }
});
