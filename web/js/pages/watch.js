// Watching: the list of live games (/watch) and TV (/tv), which follows the top
// game and moves on to the next when it ends; a tournament's TV
// (/tournament/{id}/tv) follows its top board the same way.

import { Board } from '../board.js';
import { ApiError, api } from '../api.js';
import { t } from '../i18n.js';
import * as settings from '../settings.js';
import { speedName } from '../format.js';
import { h, replace, setTitle, showError } from '../ui.js';
import { GamePage } from './game.js';
import { followLobby } from '../lobby-socket.js';

const TV_NEXT_MS = 4000;

export async function mount(container, params, ctx) {
  const page = params.tv ? new Tv(container, ctx, params.tournament) : new LiveList(container, ctx);
  await page.start();
  return page;
}

class LiveList {
  constructor(container, ctx) {
    this.container = container;
    this.navigate = ctx.navigate;
    this.boards = [];
  }

  async start() {
    this.render();
    await this.load();
    // The server pushes the list as it changes.
    this.stopFollowing = followLobby((lobby) => {
      this.games = lobby.games || [];
      this.draw(false);
    });
  }

  destroy() {
    if (this.stopFollowing) this.stopFollowing();
    for (const b of this.boards) b.destroy();
  }

  onLang() {
    this.render();
    this.draw();
  }

  render() {
    setTitle(t('nav.watch'));
    this.list = h('div', { class: 'live-grid', 'data-testid': 'live-games' });
    replace(this.container,
      h('div', { class: 'page-head' },
        h('h1', {}, t('watch.title')),
        h('a', { class: 'button', href: '/tv' }, t('nav.tv'))),
      this.list);
  }

  async load(quiet) {
    try {
      this.games = (await api('/api/games/live')).games || [];
    } catch (err) {
      if (!quiet) showError(err);
      this.games = this.games || [];
    }
    this.draw(!quiet);
  }

  draw(force = true) {
    const signature = JSON.stringify(this.games);
    if (!force && signature === this.signature) return;
    this.signature = signature;
    if (!this.games) {
      replace(this.list, h('p', { class: 'muted' }, t('common.loading')));
      return;
    }
    for (const b of this.boards) b.destroy();
    this.boards = [];
    if (!this.games.length) {
      replace(this.list, h('p', { class: 'muted' }, t('watch.none')));
      return;
    }
    const s = settings.settings();
    replace(this.list, this.games.map((g) => {
      const host = h('div', { class: 'mini-board' });
      const card = h('a', { class: 'live-card', href: `/game/${encodeURIComponent(g.id)}`, 'data-game': g.id },
        host,
        h('span', { class: 'live-names' }, `${g.white} – ${g.black}`),
        h('span', { class: 'muted' }, `${speedName(g.speed)} · ${t('watch.plies', { n: g.plies })}`));
      try {
        this.boards.push(new Board(host, {
          fen: g.fen || undefined, coordinates: false, pieceSet: s.pieceSet, theme: s.theme, movableColor: null, animation: false,
          label: `${g.white} – ${g.black}`,
        }));
      } catch {
        // No board: the names still link to the game.
      }
      return card;
    }));
  }
}

class Tv {
  constructor(container, ctx, tournament) {
    this.container = container;
    this.ctx = ctx;
    this.tournament = tournament || null;
    this.game = null;
  }

  async start() {
    await this.follow();
  }

  destroy() {
    this.destroyed = true;
    clearTimeout(this.timer);
    if (this.stopWaiting) this.stopWaiting();
    if (this.game) this.game.destroy();
  }

  /**
   * Nothing (or nothing new) to follow: waits until the server says another
   * game started, then looks for the top game again.
   */
  waitForGames() {
    if (this.stopWaiting) return;
    let known = null;
    this.stopWaiting = followLobby((lobby) => {
      const ids = (lobby.games || []).map((g) => g.id);
      const started = known !== null && ids.some((id) => !known.includes(id));
      known = ids;
      if (!started || this.destroyed) return;
      this.stopWaiting();
      this.stopWaiting = null;
      this.follow();
    });
  }

  onLang() {
    if (this.game) {
      this.renderHead();
      this.game.onLang();
    } else this.renderEmpty();
  }

  renderHead() {
    const head = this.container.querySelector('.tv-head');
    const content = [h('h1', {}, t('nav.tv')), h('span', { class: 'badge live' }, t('tv.live'))];
    if (this.tournament) {
      content.push(h('a', { href: `/tournament/${encodeURIComponent(this.tournament)}`, 'data-testid': 'tv-tournament' }, t('tv.backToTournament')));
    }
    if (head) replace(head, content);
    return h('div', { class: 'page-head tv-head' }, content);
  }

  renderEmpty() {
    setTitle(t('nav.tv'));
    replace(this.container, this.renderHead(), h('p', { class: 'muted', 'data-testid': 'tv-empty' }, t('tv.none')));
  }

  async follow() {
    if (this.destroyed) return;
    let top = null;
    try {
      top = await api(this.tournament ? `/api/tv?tournament=${encodeURIComponent(this.tournament)}` : '/api/tv');
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) showError(err);
    }
    if (this.destroyed) return;
    if (!top || !top.id) {
      // Nothing live: keep showing the game that just ended, if any.
      if (!this.game) this.renderEmpty();
      this.waitForGames();
      return;
    }
    if (this.game && this.game.id === top.id) {
      if (this.game.state && this.game.state.status !== 'started') this.waitForGames();
      return;
    }
    if (this.game) this.game.destroy();
    const host = h('div', { class: 'tv-game' });
    replace(this.container, this.renderHead(), host);
    this.game = new GamePage(host, {
      id: top.id,
      tv: true,
      onFinish: () => {
        clearTimeout(this.timer);
        this.timer = setTimeout(() => this.follow(), TV_NEXT_MS);
      },
    }, this.ctx);
    await this.game.start();
  }
}
