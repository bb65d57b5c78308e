// A tournament's page: what it is, the countdown to its next round (an
// arena's: to its end), joining, withdrawing (an arena's: pausing) and byes,
// the organiser's controls, the player's current game, the top board on TV,
// standings with tiebreaks (an arena's: with each player's sheet), every
// round's pairings (an arena's: the games being played) and the crosstable.
// It follows /api/swiss/{id}/stream, so it changes as the tournament does.

import { api, isMe, readNdjson, session } from '../api.js';
import { t } from '../i18n.js';
import { rulesetName, timeControlLabel } from '../format.js';
import { confirmButton, h, replace, setTitle, showError, toast } from '../ui.js';
import { countdownText, systemName } from './tournaments.js';

/** A crosstable cell's text: "5w1", "3b½", "+" ... from a TRF entry. */
export function crossCell(entry) {
  if (!entry) return '';
  if (entry.bye !== undefined) {
    return { H: '½', F: '1', U: '1', Z: '0' }[entry.bye] ?? entry.bye;
  }
  const result = { '=': '½', D: '½', W: '1', L: '0' }[entry.result] ?? entry.result;
  return `${entry.opponent}${entry.color === 'white' ? 'w' : 'b'}${result}`;
}

/**
 * The board where `name` plays and no result is in yet: a Swiss's is in its
 * current round, an arena's in any wave of pairings (the latest first).
 */
export function currentGameOf(standings, name) {
  const rounds = standings?.rounds || [];
  if (!name) return null;
  const me = name.toLowerCase();
  for (let i = rounds.length - 1; i >= 0; i--) {
    const board = rounds[i].boards.find((b) => !b.result
      && (b.white.toLowerCase() === me || b.black.toLowerCase() === me));
    if (board) return { round: rounds[i].round, board };
  }
  return null;
}

/** A FIDE Elo change as the standings show it: "+4.8", "-9.6", "0.0". */
export function eloText(change) {
  if (!change || typeof change.change !== 'number') return '';
  const d = change.change;
  if (d > 0) return `+${d.toFixed(1)}`;
  if (d < 0) return `-${Math.abs(d).toFixed(1)}`;
  return '0.0';
}

/** An arena's games being played, from every wave of pairings. */
export function gamesBeingPlayed(standings) {
  return (standings?.rounds || []).flatMap((r) => r.boards.filter((b) => !b.result));
}

/**
 * What the countdown counts to, in seconds from when the tournament was read:
 * the start, the next round, or (an arena being played) its end.
 */
export function countdownOf(tour) {
  if (!tour || tour.status === 'finished') return null;
  if (tour.system === 'arena' && tour.status === 'started') {
    return typeof tour.secondsToFinish === 'number' ? { key: 'tournament.endsIn', seconds: tour.secondsToFinish } : null;
  }
  if (!tour.nextRound) return null;
  return { key: tour.status === 'created' ? 'tournament.startsAt' : 'tournament.nextRound', seconds: tour.nextRound.in };
}

export async function mount(container, params, { navigate }) {
  const page = new TournamentPage(container, params.id, navigate);
  page.follow();
  return page;
}

class TournamentPage {
  constructor(container, id, navigate) {
    this.container = container;
    this.id = id;
    this.navigate = navigate;
    this.tour = null;
    this.standings = null;
    this.shownRound = null;
    this.receivedAt = 0;
    this.controller = null;
    this.timer = setInterval(() => this.tick(), 1000);
    this.byeRound = '';
    this.password = '';
    /** The player's current game when last told (undefined: not read yet). */
    this.toldGame = undefined;
    this.alive = true;
  }

  destroy() {
    this.alive = false;
    clearInterval(this.timer);
    if (this.controller) this.controller.abort();
  }

  onLang() {
    this.render();
  }

  /** Reads the stream, reconnecting with backoff until the page closes. */
  async follow() {
    replace(this.container, h('p', { class: 'muted' }, t('common.loading')));
    let delay = 1000;
    while (this.alive) {
      this.controller = new AbortController();
      try {
        const response = await api(`/api/swiss/${encodeURIComponent(this.id)}/stream`, { raw: true, signal: this.controller.signal });
        delay = 1000;
        await readNdjson(response, (line) => this.update(line));
        if (this.tour?.status === 'finished') return;
      } catch (err) {
        if (!this.alive || err.name === 'AbortError') return;
        if (err.status === 404) {
          replace(this.container, h('h1', {}, t('tournament.notFound')), h('p', {}, h('a', { href: '/tournaments' }, t('tournament.back'))));
          return;
        }
        showError(err);
      }
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, 30_000);
    }
  }

  update({ tournament, standings }) {
    if (!tournament || !this.alive) return;
    const followingLast = this.shownRound === null || this.shownRound === (this.standings?.rounds?.length || 0);
    this.tour = tournament;
    this.standings = standings;
    this.receivedAt = Date.now();
    if (followingLast) this.shownRound = standings?.rounds?.length || 0;
    const mine = session.user ? currentGameOf(standings, session.user.username) : null;
    const key = mine ? `${mine.round}/${mine.board.gameId}` : null;
    // A round that starts while the page is open takes the player to the game;
    // one already going on when the page opens is only shown.
    const fresh = mine && this.toldGame !== undefined && key !== this.toldGame;
    this.toldGame = key;
    this.render();
    if (fresh) {
      toast(tournament.system === 'arena' ? t('tournament.arenaGameStarted') : t('tournament.gameStarted', { round: mine.round }), 'info');
      this.navigate(`/game/${encodeURIComponent(mine.board.gameId)}`);
    }
  }

  tick() {
    const box = this.container.querySelector('[data-testid="countdown"]');
    const countdown = countdownOf(this.tour);
    if (!box || !countdown) return;
    box.textContent = countdownText(countdown.seconds - (Date.now() - this.receivedAt) / 1000);
  }

  isArena() {
    return this.tour?.system === 'arena';
  }

  joined() {
    const me = session.user?.username;
    const row = me && this.standings?.standings?.find((s) => isMe(s.username));
    return row ? (row.withdrawn ? 'withdrawn' : 'playing') : null;
  }

  async act(path, form) {
    // An arena is joined and paused as lichess's arenas are.
    const base = this.isArena() ? '/api/tournament' : '/api/swiss';
    try {
      await api(`${base}/${encodeURIComponent(this.id)}/${path}`, { method: 'POST', form: form || {} });
    } catch (err) {
      showError(err);
    }
  }

  render() {
    const tour = this.tour;
    if (!tour) return;
    setTitle(tour.name);
    const status = h('span', { class: `badge${tour.status === 'started' ? ' live' : ''}`, 'data-testid': 'status' }, t(`tournament.status.${tour.status}`));
    const arena = this.isArena();
    const facts = [
      systemName(tour.system),
      timeControlLabel(tour.clock || {}),
      rulesetName(tour.ruleset),
      t(tour.rated ? 'seek.rated' : 'seek.casual'),
      arena ? t('tournament.minutesLong', { n: tour.minutes }) : t('tournament.roundOf', { round: tour.round, total: tour.nbRounds }),
      arena && tour.berserkable ? t('tournament.berserkable') : null,
      t('tournament.nbPlayers', { n: tour.nbPlayers }),
      t('tournament.by', { name: tour.createdBy }),
    ].filter(Boolean);
    const until = countdownOf(tour);
    const countdown = until
      ? h('p', { class: 'countdown' }, t(until.key), ' ',
        h('strong', { 'data-testid': 'countdown' }, countdownText(until.seconds - (Date.now() - this.receivedAt) / 1000)))
      : null;
    const id = encodeURIComponent(this.id);
    const watch = h('p', { class: 'inline tournament-links' },
      tour.status === 'started' && tour.nbOngoing > 0
        ? h('a', { class: 'button', href: `/tournament/${id}/tv`, 'data-action': 'top-board' }, t('tournament.topBoard'))
        : null,
      session.user
        ? h('a', { class: 'button', href: `/arbiter?tournament=${id}`, 'data-action': 'arbiter-console' }, t('tournament.arbiterConsole'))
        : null);
    replace(this.container,
      h('div', { class: 'page-head' },
        h('h1', {}, tour.name, ' ', status),
        h('p', { class: 'muted' }, h('a', { href: '/tournaments' }, t('tournament.back')))),
      h('p', { class: 'tournament-facts' }, facts.join(' · ')),
      tour.description ? h('p', { class: 'tournament-description' }, tour.description) : null,
      countdown,
      this.actions(),
      this.myGame(),
      watch,
      h('div', { class: 'tournament-body' },
        h('section', { class: 'card', 'aria-labelledby': 'standings-title' },
          h('h2', { id: 'standings-title' }, t('tournament.standings')), this.standingsTable()),
        h('section', { class: 'card', 'aria-labelledby': 'pairings-title' },
          h('h2', { id: 'pairings-title' }, t(arena ? 'tournament.beingPlayed' : 'tournament.pairings')),
          arena ? this.arenaGames() : this.pairings())),
      arena ? null : h('section', { class: 'card', 'aria-labelledby': 'cross-title' },
        h('h2', { id: 'cross-title' }, t('tournament.crosstable')), this.crosstable()),
      h('p', { class: 'tournament-exports' },
        h('a', { href: `/swiss/${encodeURIComponent(this.id)}.trf`, download: `${this.id}.trf` }, t('tournament.downloadTrf')), ' · ',
        h('a', { href: `/api/swiss/${encodeURIComponent(this.id)}/games`, download: `${this.id}.pgn` }, t('tournament.downloadPgn'))));
  }

  actions() {
    const tour = this.tour;
    if (!session.user || tour.status === 'finished') return null;
    const buttons = [];
    const state = this.joined();
    // A Swiss takes back a player who withdrew, an arena one who paused; a
    // round robin does not.
    const arena = this.isArena();
    if (state === 'withdrawn') buttons.push(h('span', { class: 'muted' }, t(arena ? 'tournament.youPaused' : 'tournament.youWithdrew')));
    if (!state || (state === 'withdrawn' && (tour.system === 'swiss' || arena))) {
      if (tour.private) {
        buttons.push(h('label', { for: 'tour-password' }, t('tournament.password')),
          h('input', { id: 'tour-password', type: 'password', value: this.password, oninput: (e) => { this.password = e.target.value; } }));
      }
      buttons.push(h('button', {
        type: 'button', class: 'button primary', 'data-action': 'join',
        onclick: () => this.act('join', { password: this.password }),
      }, t('tournament.join')));
    } else if (state === 'playing' && arena) {
      buttons.push(h('button', {
        type: 'button', class: 'button', 'data-action': 'withdraw',
        onclick: () => this.act('withdraw'),
      }, t('tournament.pause')));
    } else if (state === 'playing') {
      buttons.push(confirmButton(t('tournament.withdraw'), t('tournament.withdrawSure'), () => this.act('withdraw'),
        { class: 'button danger', 'data-action': 'withdraw' }));
      const firstOpen = (tour.round || 0) + 1;
      if (tour.system === 'swiss' && firstOpen <= tour.nbRounds) {
        const rounds = [];
        for (let r = firstOpen; r <= tour.nbRounds; r++) rounds.push(r);
        if (!rounds.includes(Number(this.byeRound))) this.byeRound = String(firstOpen);
        buttons.push(h('label', { for: 'bye-round' }, t('tournament.byeRound')),
          h('select', { id: 'bye-round', onchange: (e) => { this.byeRound = e.target.value; } },
            rounds.map((r) => h('option', { value: String(r), selected: String(r) === this.byeRound }, String(r)))),
          h('button', {
            type: 'button', class: 'button', 'data-action': 'bye',
            onclick: () => this.act('bye', { round: this.byeRound }),
          }, t('tournament.askBye')));
      }
    }
    if (isMe(tour.createdBy)) {
      const ongoing = tour.status === 'started' && tour.nbOngoing > 0;
      // An arena starts at its time and pairs by itself.
      if (!ongoing && !arena) {
        buttons.push(h('button', {
          type: 'button', class: 'button', 'data-action': 'start-now',
          onclick: () => this.act('schedule-next-round', { date: Date.now() }),
        }, t(tour.status === 'created' ? 'tournament.startNow' : 'tournament.nextRoundNow')));
      }
      buttons.push(confirmButton(t('tournament.terminate'), t('tournament.terminateSure'), () => this.act('terminate'),
        { class: 'button danger', 'data-action': 'terminate' }));
    }
    return h('div', { class: 'inline tournament-actions' }, buttons);
  }

  myGame() {
    const mine = session.user ? currentGameOf(this.standings, session.user.username) : null;
    if (!mine) return null;
    const b = mine.board;
    const opponent = isMe(b.white) ? b.black : b.white;
    return h('p', { class: 'card my-game', 'data-testid': 'my-game' },
      this.isArena() ? t('tournament.yourArenaGame', { name: opponent }) : t('tournament.yourGame', { round: mine.round, name: opponent }), ' ',
      h('a', { class: 'button primary', href: `/game/${encodeURIComponent(b.gameId)}` }, t('tournament.goToGame')));
  }

  standingsTable() {
    const rows = this.standings?.standings || [];
    if (!rows.length) return h('p', { class: 'muted' }, t('tournament.noPlayers'));
    const arena = this.isArena();
    // An arena's sheet stands where a Swiss's tiebreaks do.
    const codes = arena ? [] : this.standings.tiebreaks || [];
    // A rated over-the-board event: each player's FIDE Elo change.
    const elo = Array.isArray(this.standings.eloChanges)
      ? new Map(this.standings.eloChanges.map((c) => [c.username, c]))
      : null;
    return h('table', { class: 'table standings-table', 'data-testid': 'standings' },
      h('thead', {}, h('tr', {},
        h('th', {}, '#'), h('th', {}, t('tournament.player')), h('th', {}, t('tournament.rating')),
        arena ? h('th', {}, t('tournament.sheet')) : null,
        h('th', {}, t('tournament.points')), codes.map((c) => h('th', { title: c }, c)),
        elo ? h('th', { title: t('tournament.eloChangeHint') }, t('tournament.eloChange')) : null)),
      h('tbody', {}, rows.map((s) => h('tr', { class: isMe(s.username) ? 'mine' : null, 'data-player': s.username },
        h('td', {}, String(s.rank)),
        h('td', {}, h('a', { href: `/@/${encodeURIComponent(s.username)}` }, s.username),
          s.withdrawn ? h('span', { class: 'muted' }, ` (${t(arena ? 'tournament.paused' : 'tournament.withdrawn')})`) : null),
        h('td', {}, String(s.rating || '')),
        arena ? h('td', { class: `sheet${s.fire ? ' fire' : ''}`, title: s.fire ? t('tournament.onFire') : null }, s.sheet || '') : null,
        h('td', { class: 'points' }, String(s.points)),
        codes.map((c) => h('td', {}, s.tiebreaks.find((x) => x.code === c)?.value ?? '')),
        elo ? h('td', { class: 'elo-change' }, eloText(elo.get(s.username))) : null))));
  }

  arenaGames() {
    const boards = gamesBeingPlayed(this.standings);
    if (!boards.length) return h('p', { class: 'muted' }, t('tournament.noneBeingPlayed'));
    return h('table', { class: 'table pairings-table', 'data-testid': 'arena-games' },
      h('thead', {}, h('tr', {}, h('th', {}, t('color.white')), h('th', {}, ''), h('th', {}, t('color.black')))),
      h('tbody', {}, boards.map((b) => h('tr', { class: isMe(b.white) || isMe(b.black) ? 'mine' : null },
        h('td', {}, b.white),
        h('td', {}, h('a', { href: `/game/${encodeURIComponent(b.gameId)}` }, t('tournament.playing'))),
        h('td', {}, b.black)))));
  }

  pairings() {
    const rounds = this.standings?.rounds || [];
    if (!rounds.length) return h('p', { class: 'muted' }, t('tournament.notPaired'));
    const shown = Math.min(Math.max(this.shownRound || rounds.length, 1), rounds.length);
    const round = rounds[shown - 1];
    const tabs = h('div', { class: 'round-tabs', role: 'tablist', 'aria-label': t('tournament.rounds') },
      rounds.map((r) => h('button', {
        type: 'button', role: 'tab', class: `button${r.round === shown ? ' primary' : ''}`,
        'aria-selected': r.round === shown ? 'true' : 'false',
        onclick: () => { this.shownRound = r.round; this.render(); },
      }, String(r.round))));
    return h('div', {},
      tabs,
      h('table', { class: 'table pairings-table', 'data-round': String(shown) },
        h('thead', {}, h('tr', {}, h('th', {}, t('tournament.board')), h('th', {}, t('color.white')),
          h('th', {}, t('tournament.result')), h('th', {}, t('color.black')))),
        h('tbody', {}, round.boards.map((b) => h('tr', { class: isMe(b.white) || isMe(b.black) ? 'mine' : null },
          h('td', {}, String(b.board)),
          h('td', {}, b.white),
          h('td', {}, h('a', { href: `/game/${encodeURIComponent(b.gameId)}` }, b.result || t('tournament.playing'))),
          h('td', {}, b.black))))),
      round.bye ? h('p', { class: 'muted' }, t('tournament.bye', { name: round.bye })) : null);
  }

  crosstable() {
    const rows = this.standings?.crosstable || [];
    if (!rows.length) return h('p', { class: 'muted' }, t('tournament.noPlayers'));
    const rounds = Math.max(0, ...rows.map((r) => r.rounds.length));
    const points = new Map((this.standings?.standings || []).map((s) => [s.username, s.points]));
    const cols = [];
    for (let i = 1; i <= rounds; i++) cols.push(i);
    return h('div', { class: 'crosstable-wrap' }, h('table', { class: 'table crosstable', 'data-testid': 'crosstable' },
      h('thead', {}, h('tr', {}, h('th', {}, '#'), h('th', {}, t('tournament.player')), cols.map((c) => h('th', {}, String(c))),
        h('th', {}, t('tournament.points')))),
      h('tbody', {}, rows.map((r) => h('tr', { class: isMe(r.username) ? 'mine' : null },
        h('td', {}, String(r.startRank)), h('td', {}, r.username),
        cols.map((c) => h('td', {}, crossCell(r.rounds[c - 1]))),
        h('td', { class: 'points' }, String(points.get(r.username) ?? '')))))));
  }
}
