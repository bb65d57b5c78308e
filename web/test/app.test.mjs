// Unit tests of the app's pure parts (run: node --test web/test/).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { setDictionary, setLang, t, pickLanguage } from '../js/i18n.js';
import { announceMove, resultText, resultScore, sanToWords, terminationOf, timeControlLabel } from '../js/format.js';
import { formatClock } from '../js/ui.js';
import { niceTicks, dateTicks, evalToPawns, labelAnchor, labelWidth } from '../js/chart.js';
import { parseCloudEval } from '../js/engine.js';
import { acceptorColor, challengeTimeControl } from '../js/pages/challenge.js';
import { sanitize, DEFAULTS } from '../js/settings.js';
import { materialDiff, stepPly } from '../js/components.js';
import { matchRoute } from '../js/routes.js';
import { seekFields, challengeFields, needsChallenge } from '../js/pages/lobby.js';
import { fromLocalInput, noteText } from '../js/pages/seat.js';
import { clocksNow } from '../js/pages/arbiter.js';
import { runningColor } from '../js/pages/game.js';
import { evalText, lineSan, terminalEval } from '../js/pages/analysis.js';
import { gamesPath, nextLevelIn, tally } from '../js/pages/profile.js';
import { countdownText, createFields, createPath } from '../js/pages/tournaments.js';
import { countdownOf, crossCell, currentGameOf, eloText, gamesBeingPlayed } from '../js/pages/tournament.js';
import { loadRules, play as rulesPlay } from '../js/rules.js';
import { materialOf } from '../js/fen.js';

const WEB = join(dirname(fileURLToPath(import.meta.url)), '..');
await loadRules(readFileSync(join(WEB, 'wasm/caissa.wasm')));
const LANGS = ['en', 'zh-Hans', 'zh-Hant'];
const dicts = Object.fromEntries(LANGS.map((code) => [code, JSON.parse(readFileSync(join(WEB, 'i18n', `${code}.json`), 'utf8'))]));
for (const code of LANGS) setDictionary(code, dicts[code]);

async function inLang(code, fn) {
  await setLang(code);
  try {
    return fn();
  } finally {
    await setLang('en');
  }
}

test('every language has the same keys and placeholders', () => {
  const keys = Object.keys(dicts.en).sort();
  const placeholders = (s) => (s.match(/\{\w+\}/g) || []).sort().join(',');
  for (const code of ['zh-Hans', 'zh-Hant']) {
    assert.deepEqual(Object.keys(dicts[code]).sort(), keys, `${code} has the English keys`);
    for (const key of keys) {
      assert.equal(placeholders(dicts[code][key]), placeholders(dicts.en[key]), `${code} ${key} placeholders`);
      assert.ok(dicts[code][key].trim(), `${code} ${key} is not empty`);
    }
  }
});

test('every key the code names exists', () => {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.js') && !['board.js'].includes(entry.name)) files.push(path);
    }
  };
  walk(join(WEB, 'js'));
  const prefixes = Object.keys(dicts.en).map((k) => k.split('.')[0]);
  const prefix = new RegExp(`'((?:${[...new Set(prefixes)].join('|')})\\.[\\w.-]*[\\w])'`, 'g');
  const missing = [];
  for (const file of files) {
    const source = readFileSync(file, 'utf8');
    for (const m of source.matchAll(prefix)) {
      const key = m[1];
      if (/\.(js|json|svg)$/.test(key)) continue;
      if (!(key in dicts.en)) missing.push(`${file.slice(WEB.length)}: ${key}`);
    }
  }
  assert.deepEqual(missing, []);
});

test('the seeds\' chess terms in Chinese', () => {
  assert.deepEqual(['king', 'queen', 'rook', 'bishop', 'knight', 'pawn'].map((r) => dicts['zh-Hans'][`piece.${r}`]), ['王', '后', '车', '象', '马', '兵']);
  assert.deepEqual(['king', 'queen', 'rook', 'bishop', 'knight', 'pawn'].map((r) => dicts['zh-Hant'][`piece.${r}`]), ['王', '后', '車', '象', '馬', '兵']);
  assert.equal(dicts['zh-Hans']['speak.check'], '将军');
  assert.equal(dicts['zh-Hant']['speak.check'], '將軍');
  assert.equal(dicts['zh-Hans']['speak.checkmate'], '将死');
  assert.equal(dicts['zh-Hant']['speak.checkmate'], '將死');
  assert.equal(dicts['zh-Hans']['draw.stalemate'], '逼和');
  assert.equal(dicts['zh-Hans']['draw.draw'], '和棋');
  assert.equal(dicts['zh-Hans']['game.resign'], '认输');
  assert.equal(dicts['zh-Hant']['game.resign'], '認輸');
  assert.match(dicts['zh-Hans']['end.time_forfeit'], /超时/);
  assert.match(dicts['zh-Hant']['end.time_forfeit'], /超時/);
  assert.match(dicts['zh-Hans']['game.takeback'], /悔棋/);
  assert.equal(dicts['zh-Hans']['game.rematch'], '再来一局');
  assert.equal(dicts['zh-Hant']['game.rematch'], '再來一局');
  assert.equal(dicts['zh-Hans']['game.offerDraw'], '求和');
});

test('t() fills placeholders and falls back to English, then the key', async () => {
  assert.equal(t('lobby.waiting', { n: 3 }), '3 waiting');
  assert.equal(t('no.such.key'), 'no.such.key');
  const d = { ...dicts['zh-Hant'] };
  delete d['lobby.waiting'];
  setDictionary('zh-Hant', d);
  assert.equal(await inLang('zh-Hant', () => t('lobby.waiting', { n: 2 })), '2 waiting');
  setDictionary('zh-Hant', dicts['zh-Hant']);
  assert.equal(pickLanguage(['zh-TW']), 'zh-Hant');
  assert.equal(pickLanguage(['zh-CN', 'en']), 'zh-Hans');
  assert.equal(pickLanguage(['fr', 'en-GB']), 'en');
  assert.equal(pickLanguage([]), 'en');
});

test('results in words', async () => {
  assert.equal(resultText({ status: 'outoftime', winner: 'black' }), "Black wins — White's flag fell");
  assert.equal(resultText({ status: 'mate', winner: 'white' }), 'White wins by checkmate');
  assert.equal(resultText({ status: 'resign', winner: 'white' }), 'White wins — Black resigned');
  assert.equal(resultText({ status: 'draw', termination: 'agreement' }), 'Draw by agreement');
  assert.equal(resultText({ status: 'draw', termination: 'threefold_repetition' }), 'Draw by threefold repetition');
  assert.equal(resultText({ status: 'stalemate' }), 'Draw by stalemate');
  assert.equal(resultText({ status: 'outoftime' }), 'Draw — a flag fell, but the opponent cannot checkmate');
  assert.equal(resultText({ status: 'aborted' }), 'Game aborted');
  assert.equal(resultText({ status: 'started' }), null);
  assert.equal(terminationOf({ status: 'timeout', winner: 'white' }), 'abandoned');
  assert.equal(resultScore({ status: 'mate', winner: 'black' }), '0-1');
  assert.equal(resultScore({ status: 'draw' }), '1/2-1/2');
  assert.equal(await inLang('zh-Hans', () => resultText({ status: 'outoftime', winner: 'black' })), '白方超时，黑方胜');
  assert.equal(await inLang('zh-Hant', () => resultText({ status: 'resign', winner: 'black' })), '白方認輸，黑方勝');
});

test('moves read aloud', async () => {
  assert.equal(announceMove('white', 'Nf3'), 'White: knight f3');
  assert.equal(sanToWords('exd5'), 'pawn e takes d5');
  assert.equal(sanToWords('Qxf7#'), 'queen takes f7, checkmate');
  assert.equal(sanToWords('O-O-O+'), 'castles long, check');
  assert.equal(sanToWords('e8=Q'), 'pawn e8 promotes to queen');
  assert.equal(sanToWords('Nbd2'), 'knight b d2');
  assert.equal(await inLang('zh-Hans', () => announceMove('black', 'Qh4#')), '黑方：后 h4，将死');
  assert.equal(await inLang('zh-Hant', () => announceMove('white', 'Nxe5+')), '白方：馬 吃 e5，將軍');
});

test('clock readings', () => {
  assert.equal(formatClock(180_000), '3:00');
  assert.equal(formatClock(61_999), '1:01');
  assert.equal(formatClock(9_950), '0:09.9');
  assert.equal(formatClock(-5), '0:00.0');
  assert.equal(formatClock(3_725_000), '1:02:05');
});

test('time control labels', () => {
  assert.equal(timeControlLabel({ time: 3, increment: 2 }), '3+2');
  assert.equal(timeControlLabel({ limit: 90, increment: 0 }), '1.5+0');
  assert.equal(timeControlLabel({ days: 3 }), '3 d/move');
  assert.equal(timeControlLabel({}), 'No clock');
});

test('chart ticks', () => {
  assert.deepEqual(niceTicks(1480, 1620, 5), [1500, 1550, 1600]);
  assert.deepEqual(niceTicks(0, 10, 5), [0, 2, 4, 6, 8, 10]);
  const start = Date.UTC(2025, 0, 15);
  const end = Date.UTC(2025, 11, 20);
  const ticks = dateTicks(start, end, 5);
  assert.ok(ticks.length >= 3 && ticks.length <= 12, `${ticks.length} ticks`);
  assert.ok(ticks.every((v) => v >= start && v <= end && new Date(v).getUTCDate() === 1));
  assert.equal(evalToPawns({ cp: 250 }), 2.5);
  assert.equal(evalToPawns({ mate: -3 }), -10);
  assert.equal(evalToPawns(null), null);
});

test('settings keep only known values', () => {
  assert.deepEqual(sanitize(null), DEFAULTS);
  const s = sanitize({ pieceSet: 'flat', theme: 'pink', sound: 'yes', notation: 'figurine', lang: 'zh-Hant', extra: 1 });
  assert.equal(s.pieceSet, 'flat');
  assert.equal(s.theme, DEFAULTS.theme);
  assert.equal(s.sound, DEFAULTS.sound);
  assert.equal(s.notation, 'figurine');
  assert.equal(s.lang, 'zh-Hant');
  assert.ok(!('extra' in s));
});

test('material balance and stepping', () => {
  const diff = materialDiff(materialOf('rnb1kbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'));
  assert.deepEqual(diff.white, { pieces: ['queen'], score: 9 });
  assert.deepEqual(diff.black, { pieces: [], score: 0 });
  assert.equal(stepPly('prev', 0, 5), 0);
  assert.equal(stepPly('next', 5, 5), 5);
  assert.equal(stepPly('last', 2, 5), 5);
  assert.equal(stepPly('first', 4, 5), 0);
});

test('routes', () => {
  assert.deepEqual(matchRoute('/'), { page: 'lobby', params: {} });
  assert.deepEqual(matchRoute('/game/abc123'), { page: 'game', params: { id: 'abc123' } });
  assert.deepEqual(matchRoute('/game/abc123/black'), { page: 'game', params: { id: 'abc123', color: 'black' } });
  assert.deepEqual(matchRoute('/@/Some_one'), { page: 'profile', params: { name: 'Some_one' } });
  assert.deepEqual(matchRoute('/tv'), { page: 'watch', params: { tv: true } });
  assert.equal(matchRoute('/login').params.mode, 'login');
  assert.deepEqual(matchRoute('/challenge/AbC12x'), { page: 'challenge', params: { id: 'AbC12x' } });
  assert.equal(matchRoute('/nope').page, 'notfound');
});

test('the create-game form as seek and challenge fields', () => {
  const base = { mode: 'realtime', time: 5, increment: 3, delay: 5, delayType: 'simple', perMove: 10, days: 2, rated: true, color: 'white', ruleset: 'online', ratingMin: '1400', ratingMax: '1800' };
  assert.deepEqual(seekFields(base), { rated: 'true', color: 'white', time: 5, increment: 3, ratingRange: '1400-1800' });
  assert.deepEqual(seekFields({ ...base, mode: 'fast', ratingMin: '' }), { rated: 'true', color: 'white', time: 5, increment: 3, 'clock.perMove': 10 });
  assert.deepEqual(seekFields({ ...base, mode: 'match', ruleset: 'fide-blitz', ratingMin: '' }), { rated: 'true', color: 'white', ruleset: 'fide-blitz', time: 5, increment: 0, 'clock.perMove': 10 });
  assert.deepEqual(seekFields({ ...base, mode: 'delay', delayType: 'bronstein', ratingMin: '' }), { rated: 'true', color: 'white', time: 5, increment: 0, 'clock.delay': 5, 'clock.delayType': 'bronstein' });
  assert.deepEqual(seekFields({ ...base, mode: 'correspondence', ratingMin: '' }), { rated: 'true', color: 'white', days: 2 });
  assert.deepEqual(challengeFields({ ...base, mode: 'fast', ratingMin: '' }), { rated: 'true', color: 'white', ruleset: undefined, 'clock.limit': 300, 'clock.increment': 3, 'clock.perMove': 10 });
  // Several periods go as one timeControl field, never with clock.limit.
  const periods = { ...base, mode: 'periods', timeControl: ' 40/5400+30:1800+30 ', ratingMin: '' };
  assert.deepEqual(seekFields(periods), { rated: 'true', color: 'white', timeControl: '40/5400+30:1800+30' });
  assert.deepEqual(challengeFields({ ...periods, arbiters: 'Ruth, Olga' }), { rated: 'true', color: 'white', ruleset: undefined, timeControl: '40/5400+30:1800+30', arbiters: 'Ruth, Olga' });
  // Chess960 and set-up positions go by challenge, with the position.
  const fen = '4k3/8/8/8/8/8/4P3/4K3 w - - 0 1';
  assert.equal(challengeFields({ ...base, mode: 'realtime', variant: 'fromPosition', fen: ` ${fen} ` }).fen, fen);
  assert.equal(challengeFields({ ...base, mode: 'realtime', variant: 'chess960' }).variant, 'chess960');
  assert.equal(challengeFields({ ...base, mode: 'realtime', variant: 'standard', fen }).fen, undefined);
  assert.equal(needsChallenge({ variant: 'chess960' }), true);
  assert.equal(needsChallenge({ variant: 'standard' }), false);
});

test('the arbiter seat in words and the console clocks', () => {
  assert.equal(noteText({ arbiter: 'Ruth', action: 'paused the clocks', reason: 'noise' }), 'Ruth: paused the clocks — noise');
  assert.equal(noteText({ arbiter: 'Ruth', action: 'warned Black', reason: '' }), 'Ruth: warned Black');
  assert.equal(resultScore({ status: 'unknownFinish', score: '0-0' }), '0-0');
  assert.equal(resultScore({ status: 'unknownFinish', score: '1/2-0' }), '1/2-0');
  assert.equal(fromLocalInput(''), null);
  assert.equal(typeof fromLocalInput('2026-12-24T10:00'), 'number');
  const state = { wtime: 60_000, btime: 30_000, running: 'white' };
  assert.deepEqual(clocksNow(state, 1000, 11_000), { white: 50_000, black: 30_000 });
  // Paused or adjourned: nothing runs.
  assert.deepEqual(clocksNow({ ...state, paused: true }, 1000, 11_000), { white: 60_000, black: 30_000 });
  assert.deepEqual(clocksNow({ ...state, adjourned: { sealedBy: 'white' } }, 0, 99_000), { white: 60_000, black: 30_000 });
  assert.equal(matchRoute('/arbiter').page, 'arbiter');
});

test('a tournament form becomes the fields of POST /api/swiss/new, or names what is wrong', () => {
  const form = {
    name: ' Club Swiss ', system: 'swiss', rounds: '7', minutes: '2.5', increment: '2', startsIn: '10',
    roundInterval: '30', rated: false, ruleset: 'fide-rapid', description: '', password: '',
  };
  const fields = createFields(form, 1_000_000);
  assert.equal(fields.name, 'Club Swiss');
  assert.equal(fields['clock.limit'], 150);
  assert.equal(fields['clock.increment'], 2);
  assert.equal(fields.startsAt, 1_000_000 + 600_000);
  assert.equal(fields.nbRounds, 7);
  assert.equal(fields.rated, 'false');
  assert.equal(fields.password, undefined);
  // A round robin's rounds come from its players: none are sent.
  assert.equal(createFields({ ...form, system: 'roundRobin', rounds: 'x' }).nbRounds, undefined);
  assert.throws(() => createFields({ ...form, rounds: '0' }), /Rounds/);
  assert.throws(() => createFields({ ...form, rounds: '2.5' }), /Rounds/);
  assert.throws(() => createFields({ ...form, minutes: '0' }), /Minutes/);
  assert.throws(() => createFields({ ...form, increment: '-1' }), /Increment/);
  assert.throws(() => createFields({ ...form, startsIn: 'soon' }), /Starts in/);
});

test('an arena form becomes lichess\'s POST /api/tournament fields, or names what is wrong', () => {
  const form = {
    name: '', system: 'arena', rounds: 'x', minutes: '3', increment: '2', startsIn: '1', duration: '45',
    roundInterval: 'x', rated: true, berserkable: false, ruleset: 'online', description: ' Fast ', password: '',
  };
  assert.equal(createPath('arena'), '/api/tournament');
  assert.equal(createPath('swiss'), '/api/swiss/new');
  const fields = createFields(form, 5_000);
  assert.deepEqual(fields, {
    name: undefined, clockTime: 3, clockIncrement: 2, minutes: 45, startDate: 65_000, rated: 'true',
    berserkable: 'false', ruleset: 'online', description: 'Fast', password: undefined,
  });
  assert.throws(() => createFields({ ...form, duration: '0' }), /Length/);
  assert.throws(() => createFields({ ...form, duration: '1.5' }), /Length/);
  assert.throws(() => createFields({ ...form, minutes: '90' }), /Minutes/);
  assert.throws(() => createFields({ ...form, increment: '61' }), /Increment/);
});

test('a tournament page: countdown, crosstable cells, the player\'s current game', () => {
  assert.equal(countdownText(0), 'now');
  assert.equal(countdownText(-4), 'now');
  assert.equal(countdownText(65), 'in 1:05');
  assert.equal(countdownText(3725), 'in 1:02:05');
  assert.equal(crossCell({ opponent: 4, color: 'white', result: '1' }), '4w1');
  assert.equal(crossCell({ opponent: 12, color: 'black', result: '=' }), '12b½');
  assert.equal(crossCell({ opponent: 3, color: 'black', result: '+' }), '3b+');
  assert.equal(crossCell({ bye: 'H' }), '½');
  assert.equal(crossCell({ bye: 'Z' }), '0');
  assert.equal(crossCell(null), '');
  const standings = {
    rounds: [
      { round: 1, boards: [{ board: 1, white: 'Ann', black: 'Bob', gameId: 'g1', result: '1-0' }] },
      { round: 2, boards: [{ board: 1, white: 'Bob', black: 'ann', gameId: 'g2', result: null }] },
    ],
  };
  assert.deepEqual(currentGameOf(standings, 'Ann'), { round: 2, board: standings.rounds[1].boards[0] });
  assert.equal(currentGameOf(standings, 'Cy'), null);
  standings.rounds[1].boards[0].result = '0-1';
  assert.equal(currentGameOf(standings, 'Ann'), null);
  // An arena: a game of an earlier wave may still be going on.
  const arena = {
    rounds: [
      { round: 1, boards: [{ white: 'Ann', black: 'Bob', gameId: 'a1', result: null }, { white: 'Cy', black: 'Di', gameId: 'a2', result: '1-0' }] },
      { round: 2, boards: [{ white: 'Di', black: 'Cy', gameId: 'a3', result: null }] },
    ],
  };
  assert.equal(currentGameOf(arena, 'bob').board.gameId, 'a1');
  assert.equal(currentGameOf(arena, 'Cy').board.gameId, 'a3');
  assert.deepEqual(gamesBeingPlayed(arena).map((b) => b.gameId), ['a1', 'a3']);
  assert.deepEqual(countdownOf({ system: 'arena', status: 'started', secondsToFinish: 90, nextRound: { in: 1 } }), { key: 'tournament.endsIn', seconds: 90 });
  assert.deepEqual(countdownOf({ system: 'arena', status: 'created', nextRound: { in: 30 } }), { key: 'tournament.startsAt', seconds: 30 });
  assert.deepEqual(countdownOf({ system: 'swiss', status: 'started', nextRound: { in: 5 } }), { key: 'tournament.nextRound', seconds: 5 });
  assert.equal(countdownOf({ system: 'swiss', status: 'finished', nextRound: { in: 5 } }), null);
  assert.equal(eloText({ change: 4.8 }), '+4.8');
  assert.equal(eloText({ change: -9.6 }), '-9.6');
  assert.equal(eloText({ change: 0 }), '0.0');
  assert.equal(eloText({ change: null }), '');
  assert.deepEqual(matchRoute('/tournament/ab12/tv'), { page: 'watch', params: { tv: true, tournament: 'ab12' } });
  assert.equal(matchRoute('/tournaments').page, 'tournaments');
  assert.deepEqual(matchRoute('/tournament/ab12CD34'), { page: 'tournament', params: { id: 'ab12CD34' } });
});

test('whose clock runs', () => {
  assert.equal(runningColor({ status: 'started', moves: 'e2e4', running: 'black' }, 'black'), 'black');
  assert.equal(runningColor({ status: 'started', moves: 'e2e4' }, 'black'), null);
  assert.equal(runningColor({ status: 'started', moves: 'e2e4 e7e5' }, 'white'), 'white');
  assert.equal(runningColor({ status: 'started', moves: '' }, 'white', 0), 'white');
  assert.equal(runningColor({ status: 'mate', moves: 'e2e4 e7e5' }, 'white'), null);
});

test('a profile\'s list of games asks the server for one filtered page at a time', () => {
  assert.equal(gamesPath('Ann', { speed: '', result: '', rated: '', vs: '' }), '/api/games/user/Ann?max=20');
  assert.equal(gamesPath('Ann', { speed: 'blitz', result: 'win', rated: 'true', vs: 'Bo' }, 99),
    '/api/games/user/Ann?max=20&perfType=blitz&result=win&rated=true&vs=Bo&until=99');
});

test('the ladder: points to the next level', () => {
  assert.equal(nextLevelIn(0), 100);
  assert.equal(nextLevelIn(-10), 110);
  assert.equal(nextLevelIn(250), 50);
  assert.equal(nextLevelIn(300), 100);
});

test('a player\'s score over games', () => {
  const g = (white, black, status, winner) => ({ status, winner, players: { white: { user: { name: white } }, black: { user: { name: black } } } });
  const games = [g('Ann', 'Bob', 'mate', 'white'), g('Bob', 'Ann', 'resign', 'white'), g('Ann', 'Cy', 'draw'), g('Ann', 'Cy', 'started'), g('Ann', 'Cy', 'aborted')];
  assert.deepEqual(tally(games, 'ann'), { wins: 1, losses: 1, draws: 1, total: 3 });
});

test('chart labels stay inside: anchored at the edges', () => {
  assert.equal(labelAnchor(300, 40, 640), 'middle');
  assert.equal(labelAnchor(624, 40, 640), 'end');
  assert.equal(labelAnchor(10, 40, 640), 'start');
  assert.ok(labelWidth('11月3日') > labelWidth('Nov 3'));
  assert.equal(evalToPawns({ mate: 0, mated: 'black' }), 10);
  assert.equal(evalToPawns({ mate: 0, mated: 'white' }), -10);
});

test('cloud evaluations in lichess\'s shape', () => {
  const ev = parseCloudEval({ fen: 'x', knodes: 10, depth: 22, pvs: [{ moves: 'e2e4 e7e5', cp: 23 }, { moves: 'd2d4', cp: 15 }] });
  assert.deepEqual(ev, { cp: 23, depth: 22, knodes: 10, pvs: [{ moves: ['e2e4', 'e7e5'], cp: 23 }, { moves: ['d2d4'], cp: 15 }] });
  assert.equal(parseCloudEval({ pvs: [{ moves: 'h5f7', mate: 1 }] }).mate, 1);
  assert.equal(parseCloudEval({ error: 'not found' }), null);
  assert.equal(parseCloudEval({ pvs: [] }), null);
  assert.equal(evalText({ cp: 23 }), '+0.23');
  assert.equal(evalText({ cp: -150 }), '-1.50');
  assert.equal(evalText({ cp: 0 }), '0.00');
  assert.equal(evalText({ mate: 3 }), '#3');
  assert.equal(evalText({ mate: -2 }), '#-2');
  assert.equal(evalText({ mate: 0, mated: 'black' }), '1-0');
  const start = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
  assert.equal(lineSan(start, ['e2e4', 'e7e5', 'g1f3', 'b8c6']), '1. e4 e5 2. Nf3 Nc6');
  const black = rulesPlay(start, 'e2e4').fen;
  assert.equal(lineSan(black, ['e7e5', 'g1f3', 'zzzz']), '1... e5 2. Nf3');
  assert.equal(lineSan('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1', ['e1g1']), '1. O-O');
  const mated = 'rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3';
  assert.deepEqual(terminalEval(mated), { mate: 0, mated: 'white', local: true });
  assert.equal(terminalEval(start), null);
});

test('challenge terms in words', async () => {
  assert.equal(acceptorColor({ color: 'black' }), 'white');
  assert.equal(acceptorColor({ color: 'random' }), 'random');
  assert.equal(challengeTimeControl({ timeControl: { type: 'clock', limit: 300, increment: 3 }, speed: 'blitz' }), '5+3 Blitz');
  assert.equal(challengeTimeControl({ timeControl: { type: 'unlimited' }, speed: 'correspondence' }), 'No clock');
});
