// A challenge's own page (/challenge/{id}), for open challenge links.
//
// The challenger sees the link to share (with a Copy button), waits for an
// opponent and may cancel; the page goes to the game when someone accepts.
// Anyone else sees who challenges with what terms and may accept (after playing
// as a guest if not logged in) or decline. A challenge that was taken or
// withdrawn shows the server's words.

import { ApiError, api, guest, isMe, session } from '../api.js';
import * as events from '../events.js';
import { t } from '../i18n.js';
import { colorName, opposite, rulesetName, speedName, timeControlLabel } from '../format.js';
import { h, replace, setTitle, showError, toast } from '../ui.js';

const POLL_MS = 3000;

/** The time control of a challenge in words ("5+3 Blitz", "No clock"). */
export function challengeTimeControl(c) {
  const tc = c.timeControl || {};
  let label;
  if (tc.type === 'clock') label = timeControlLabel({ limit: tc.limit, increment: tc.increment });
  else if (tc.type === 'correspondence') label = timeControlLabel({ days: tc.daysPerTurn || tc.days });
  else label = t('tc.unlimited');
  return c.speed && tc.type !== 'unlimited' ? `${label} ${speedName(c.speed)}` : label;
}

/** The server's words as a sentence (capital first letter). */
function sentence(text) {
  const s = String(text || '');
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

/** The colour the one who accepts plays: the challenger's opposite, or random. */
export function acceptorColor(c) {
  return c.color === 'white' || c.color === 'black' ? opposite(c.color) : 'random';
}

export async function mount(container, params, ctx) {
  const page = new ChallengePage(container, params.id, ctx);
  await page.start();
  return page;
}

class ChallengePage {
  constructor(container, id, ctx) {
    this.container = container;
    this.id = id;
    this.navigate = ctx.navigate;
    this.challenge = null;
    this.error = null;
    this.gameExists = false;
    this.busy = false;
    this.cleanups = [];
  }

  get gamePath() {
    return `/game/${encodeURIComponent(this.id)}`;
  }

  async start() {
    setTitle(t('nav.play'));
    replace(this.container, h('p', { class: 'muted' }, t('common.loading')));
    // The game of an accepted challenge has the challenge's id. (Not
    // events.expectGame(): that would also follow the other games in progress
    // that the event stream lists when it opens.)
    this.cleanups.push(events.onEvent((e) => {
      if (e.type === 'gameStart' && e.id === this.id) this.navigate(this.gamePath);
    }));
    await this.load();
    if (this.destroyed) return;
    this.poll = setInterval(() => this.load(true), POLL_MS);
  }

  destroy() {
    this.destroyed = true;
    clearInterval(this.poll);
    for (const fn of this.cleanups) fn();
  }

  onLang() {
    this.render();
  }

  async load(quiet) {
    let challenge = null;
    let error = null;
    try {
      challenge = await api(`/api/challenge/${encodeURIComponent(this.id)}/show`);
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 404) {
        // A passing problem: keep what is shown, say it once.
        if (!quiet) showError(err);
        if (!this.challenge && !quiet) {
          this.error = err.message;
          this.render();
        }
        return;
      }
      error = err.message;
    }
    if (this.destroyed) return;
    if (challenge) {
      const changed = !this.challenge || this.error;
      this.challenge = challenge;
      this.error = null;
      if (changed) this.render();
      return;
    }
    // Gone: accepted (the game exists), declined or withdrawn.
    const wasMine = this.challenge && isMe(this.challenge.challenger?.name);
    this.gameExists = await this.findGame();
    if (this.destroyed) return;
    if (this.gameExists && (wasMine || this.playsIn())) {
      this.navigate(this.gamePath);
      return;
    }
    this.error = error;
    this.challenge = null;
    clearInterval(this.poll);
    this.render();
  }

  /** Whether the game of this challenge exists (someone accepted it). */
  async findGame() {
    try {
      this.game = await api(`/game/export/${encodeURIComponent(this.id)}`, { accept: 'application/json' });
      return true;
    } catch {
      this.game = null;
      return false;
    }
  }

  /** Whether the logged-in user plays in the challenge's game. */
  playsIn() {
    const players = this.game?.players || {};
    return ['white', 'black'].some((c) => isMe(players[c]?.user?.name || players[c]?.name));
  }

  render() {
    if (this.destroyed) return;
    if (this.error !== null && !this.challenge) {
      this.renderGone();
      return;
    }
    const c = this.challenge;
    if (!c) return;
    if (isMe(c.challenger?.name)) this.renderMine(c);
    else this.renderOffer(c);
  }

  terms(c, mine) {
    const name = c.challenger?.name || '?';
    const theirColor = c.color === 'white' || c.color === 'black' ? c.color : 'random';
    const colorWords = (color) => (color === 'random' ? t('color.random') : colorName(color));
    const row = (label, value, testid) => [h('dt', {}, label), h('dd', { 'data-testid': testid }, value)];
    return h('dl', { class: 'challenge-terms', 'data-testid': 'challenge-terms' },
      row(t('lobby.time'), challengeTimeControl(c), 'challenge-tc'),
      row(t('lobby.mode'), t(c.rated ? 'seek.rated' : 'seek.casual'), 'challenge-mode'),
      row(t('create.ruleset'), rulesetName(c.ruleset), 'challenge-ruleset'),
      mine
        ? row(t('challenge.youPlay'), colorWords(theirColor), 'challenge-color')
        : [
          ...row(t('challenge.youPlay'), colorWords(acceptorColor(c)), 'challenge-color'),
          ...row(t('challenge.theyPlay', { name }), colorWords(theirColor), 'challenge-their-color'),
        ]);
  }

  renderMine(c) {
    setTitle(t('challenge.linkTitle'));
    const url = new URL(`/challenge/${encodeURIComponent(c.id)}`, location.origin).href;
    const input = h('input', {
      type: 'text', id: 'challenge-url', class: 'challenge-url', readonly: true, value: url,
      'data-testid': 'challenge-url', onfocus: (e) => e.target.select(),
    });
    const copyButton = h('button', {
      type: 'button', class: 'button primary', 'data-action': 'copy-link',
      onclick: () => this.copy(url, input, copyButton),
    }, t('challenge.copy'));
    replace(this.container, h('section', { class: 'card challenge-page', 'data-testid': 'challenge-mine', 'aria-labelledby': 'challenge-title' },
      h('h1', { id: 'challenge-title' }, t('challenge.linkTitle')),
      h('div', { class: 'field' },
        h('label', { for: 'challenge-url' }, t('challenge.link')),
        h('div', { class: 'inline copy-row' }, input, copyButton),
        h('p', { class: 'hint' }, t('challenge.shareHint'))),
      this.terms(c, true),
      h('p', { class: 'seeking-note', role: 'status', 'data-testid': 'challenge-waiting' },
        h('span', { class: 'spinner', 'aria-hidden': 'true' }), t('challenge.waiting')),
      h('div', { class: 'button-row' },
        h('button', { type: 'button', class: 'button', 'data-action': 'cancel-challenge', onclick: () => this.cancel() }, t('challenge.cancel')))));
  }

  renderOffer(c) {
    const name = c.challenger?.name || '?';
    setTitle(t('challenge.title', { name }));
    const dest = c.destUser?.name || null;
    let actions;
    if (dest && !isMe(dest)) {
      actions = h('p', { class: 'muted' }, t('challenge.forOther', { name: dest }));
    } else if (!session.user) {
      const next = encodeURIComponent(location.pathname);
      actions = [
        h('p', { class: 'muted' }, t('challenge.loginToAccept')),
        h('div', { class: 'button-row' },
          h('button', { type: 'button', class: 'button primary', 'data-action': 'play-as-guest', onclick: () => this.playAsGuest() }, t('auth.playAsGuest')),
          h('a', { class: 'button', href: `/login?next=${next}` }, t('nav.login')),
          h('a', { class: 'button', href: `/register?next=${next}` }, t('nav.register'))),
      ];
    } else {
      actions = h('div', { class: 'button-row' },
        h('button', { type: 'button', class: 'button primary', 'data-action': 'accept-challenge', disabled: this.busy, onclick: () => this.accept() }, t('challenge.accept')),
        h('button', { type: 'button', class: 'button', 'data-action': 'decline-challenge', disabled: this.busy, onclick: () => this.decline() }, t('challenge.decline')));
    }
    replace(this.container, h('section', { class: 'card challenge-page', 'data-testid': 'challenge-offer', 'aria-labelledby': 'challenge-title' },
      h('h1', { id: 'challenge-title' },
        t('challenge.title', { name }).split(name).flatMap((part, i) => (i ? [h('a', { href: `/@/${encodeURIComponent(name)}` }, name), part] : [part]))),
      this.terms(c, false),
      actions));
  }

  renderGone() {
    setTitle(t('challenge.goneTitle'));
    replace(this.container, h('section', { class: 'card challenge-page', 'data-testid': 'challenge-gone', 'aria-labelledby': 'challenge-title' },
      h('h1', { id: 'challenge-title' }, t('challenge.goneTitle')),
      h('p', { class: 'error-text', role: 'alert', 'data-testid': 'challenge-error' }, sentence(this.error)),
      h('p', { class: 'button-row' },
        this.gameExists ? h('a', { class: 'button primary', href: this.gamePath }, t('challenge.toGame')) : null,
        h('a', { class: 'button', href: '/' }, t('nav.home')))));
  }

  async copy(url, input, button) {
    let ok = false;
    try {
      await navigator.clipboard.writeText(url);
      ok = true;
    } catch {
      input.focus();
      input.select();
      try {
        ok = document.execCommand('copy');
      } catch {
        ok = false;
      }
    }
    if (ok) {
      toast(t('challenge.copied'), 'info', 2500);
      button.textContent = t('challenge.copied');
      setTimeout(() => { button.textContent = t('challenge.copy'); }, 2000);
    } else {
      input.focus();
      input.select();
      toast(t('challenge.copyFailed'));
    }
  }

  async cancel() {
    try {
      await api(`/api/challenge/${encodeURIComponent(this.id)}/decline`, { method: 'POST' });
      toast(t('challenge.cancelled'), 'info');
      this.navigate('/');
    } catch (err) {
      showError(err);
      this.load(true);
    }
  }

  async playAsGuest() {
    try {
      await guest();
      toast(t('auth.welcome', { name: session.user.username }), 'info');
      this.render();
    } catch (err) {
      showError(err);
    }
  }

  async accept() {
    if (this.busy) return;
    this.busy = true;
    this.render();
    try {
      await api(`/api/challenge/${encodeURIComponent(this.id)}/accept`, { method: 'POST' });
      this.navigate(this.gamePath);
    } catch (err) {
      showError(err);
      this.busy = false;
      await this.load(true);
      this.render();
    }
  }

  async decline() {
    const c = this.challenge;
    // Only a challenge addressed to you is declined at the server; an open one
    // simply stays open for someone else.
    if (c && c.destUser && isMe(c.destUser.name)) {
      try {
        await api(`/api/challenge/${encodeURIComponent(this.id)}/decline`, { method: 'POST' });
        events.dropChallenge(this.id);
      } catch (err) {
        showError(err);
      }
    }
    this.navigate('/');
  }
}
