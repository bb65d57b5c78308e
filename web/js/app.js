// The application shell: language, account, header, client-side routing and the
// notifications that can arrive on any page (challenges, games starting).

import { LANGS, lang, onLangChange, pickLanguage, setLang, t } from './i18n.js';
import { api, isMe, loadAccount, logout, onSession, session } from './api.js';
import * as events from './events.js';
import * as settings from './settings.js';
import { h, replace, setTitle, showError, toast } from './ui.js';
export { setTitle } from './ui.js';
import * as sound from './sound.js';
import { icon } from './icons.js';
import { timeControlLabel } from './format.js';
import { matchRoute } from './routes.js';

let mounted = null;
let routeToken = 0;
let booted = false;

/** Goes to an address of the app without reloading. */
export function navigate(path, { replace: replaceState = false } = {}) {
  // Already there (e.g. a game announced twice): nothing to do.
  if (path === location.pathname + location.search) return Promise.resolve();
  if (replaceState) history.replaceState({}, '', path);
  else history.pushState({}, '', path);
  return route();
}

async function route() {
  const token = ++routeToken;
  const { page, params } = matchRoute(location.pathname);
  const query = new URLSearchParams(location.search);
  let module;
  try {
    module = page === 'notfound' ? null : await import(`./pages/${page}.js`);
  } catch (err) {
    showError(err);
    return;
  }
  if (token !== routeToken) return;
  if (mounted && mounted.destroy) {
    try {
      mounted.destroy();
    } catch (err) {
      console.error(err);
    }
  }
  mounted = null;
  const main = document.getElementById('main');
  const container = h('div', { class: `page page-${page}` });
  replace(main, container);
  renderHeader();
  renderNotifications();
  if (!module) {
    setTitle(t('page.notFound'));
    container.append(h('h1', {}, t('page.notFound')), h('p', {}, h('a', { href: '/' }, t('nav.home'))));
    return;
  }
  try {
    mounted = (await module.mount(container, params, { navigate, query })) || {};
  } catch (err) {
    showError(err);
  }
  // After a page change, start reading (and tabbing) from the new page.
  if (booted && token === routeToken) {
    window.scrollTo(0, 0);
    main.focus({ preventScroll: true });
  }
  booted = true;
}


// ----- header -----

function logo() {
  const span = h('span', { class: 'logo', 'aria-hidden': 'true' });
  span.innerHTML =
    '<svg viewBox="0 0 32 32" width="28" height="28"><path fill="currentColor" d="M16 3c-2 0-3.5 1.6-3.5 3.5 0 1 .4 1.9 1.1 2.5-2.1.9-3.6 2.8-3.6 5 0 1.6.8 3 2 4l-2 6H9v3h14v-3h-1l-2-6c1.2-1 2-2.4 2-4 0-2.2-1.5-4.1-3.6-5 .7-.6 1.1-1.5 1.1-2.5C19.5 4.6 18 3 16 3z"/></svg>';
  return span;
}

/** The colour scheme the page shows: the player's choice, or the system's. */
function effectiveScheme() {
  const chosen = settings.get('scheme');
  if (chosen !== 'system') return chosen;
  return globalThis.matchMedia && matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** Puts the chosen scheme on the page (no attribute: the system's). */
function applyScheme() {
  const chosen = settings.get('scheme');
  if (chosen === 'system') delete document.documentElement.dataset.scheme;
  else document.documentElement.dataset.scheme = chosen;
}

function renderHeader() {
  const header = document.getElementById('header');
  if (!header) return;
  const path = location.pathname;
  const link = (href, key) =>
    h('a', { href, class: 'nav-link', 'aria-current': path === href ? 'page' : null }, t(key));
  const langSelect = h(
    'select',
    {
      id: 'lang-select',
      class: 'lang-select',
      'aria-label': t('nav.language'),
      onchange: async (e) => {
        const code = e.target.value;
        settings.update({ lang: code });
        try {
          await setLang(code);
        } catch (err) {
          showError(err);
        }
      },
    },
    LANGS.map((l) => h('option', { value: l.code, selected: l.code === lang(), lang: l.code }, l.name)),
  );
  const user = session.user;
  const account = user
    ? h('div', { class: 'account' },
      h('a', { href: `/@/${encodeURIComponent(user.username)}`, class: 'nav-link user-link', 'data-testid': 'user-link' }, user.username),
      h('button', {
        type: 'button',
        class: 'link-button',
        onclick: async () => {
          try {
            await logout();
            toast(t('auth.loggedOut'), 'info');
            navigate('/');
          } catch (err) {
            showError(err);
          }
        },
      }, t('nav.logout')))
    : h('div', { class: 'account' }, link('/login', 'nav.login'), link('/register', 'nav.register'));
  // On a phone the header is one row: the logo, a menu button that opens the
  // navigation and the scheme switch, the language and the account. Wider, the
  // menu lies open in the row.
  const menu = h('div', { class: 'site-menu', id: 'site-menu' },
    h('nav', { class: 'main-nav', 'aria-label': t('nav.main') },
      link('/', 'nav.play'),
      link('/tournaments', 'nav.tournaments'),
      link('/leaderboard', 'nav.leaderboard'),
      link('/watch', 'nav.watch'),
      link('/tv', 'nav.tv'),
      link('/analysis', 'nav.analysis'),
      link('/learn', 'nav.learn'),
      link('/training', 'nav.puzzles'),
      user ? link('/arbiter', 'nav.arbiter') : null,
      link('/settings', 'nav.settings')),
    h('div', { class: 'header-tools' }, schemeToggle()));
  replace(
    header,
    h('a', { href: '/', class: 'brand' }, logo(), h('span', { class: 'brand-name' }, 'Caissa')),
    menuButton(header),
    menu,
    langSelect,
    account,
  );
  const skip = document.getElementById('skip-link');
  if (skip) skip.textContent = t('nav.skip');
}

/** The phone's menu button: opens and closes the header's menu (Escape closes it too). */
function menuButton(header) {
  const button = h('button', {
    type: 'button',
    class: 'button icon menu-toggle',
    'aria-expanded': 'false',
    'aria-controls': 'site-menu',
    'aria-label': t('nav.menu'),
    title: t('nav.menu'),
    onclick: () => setMenu(!header.classList.contains('menu-open')),
  }, icon('menu'));
  const setMenu = (open) => {
    header.classList.toggle('menu-open', open);
    button.setAttribute('aria-expanded', String(open));
  };
  header.classList.remove('menu-open');
  header.onkeydown = (e) => {
    if (e.key === 'Escape' && header.classList.contains('menu-open')) {
      setMenu(false);
      button.focus();
    }
  };
  return button;
}

/** The header's light/dark switch: the other scheme than the one shown. */
function schemeToggle() {
  const dark = effectiveScheme() === 'dark';
  const label = dark ? t('settings.scheme.toLight') : t('settings.scheme.toDark');
  return h('button', {
    type: 'button',
    class: 'button icon scheme-toggle',
    'data-action': 'scheme',
    'aria-label': label,
    title: label,
    onclick: () => settings.update({ scheme: dark ? 'light' : 'dark' }),
  }, icon(dark ? 'sun' : 'moon'));
}

// ----- notifications: challenges -----

function renderNotifications() {
  const box = document.getElementById('notifications');
  if (!box) return;
  const here = matchRoute(location.pathname);
  // The live game page shows its own rematch offer next to the board.
  const gameShowsRematch = here.page === 'game' && !!document.querySelector('.game-controls [data-action="rematch"]');
  const cards = [];
  for (const c of events.challenges.values()) {
    if (c.rematchOf && gameShowsRematch && here.params.id === c.rematchOf) continue;
    const from = c.challenger?.name || '?';
    const tc = c.timeControl?.type === 'clock'
      ? (c.timeControl.pgn || timeControlLabel({ limit: c.timeControl.limit, increment: c.timeControl.increment }))
      : t('tc.unlimited');
    let text = c.rematchOf
      ? t('challenge.rematchFrom', { name: from })
      : t('challenge.from', { name: from, tc, mode: t(c.rated ? 'seek.rated' : 'seek.casual') });
    // Accepting accepts the arbiters the challenger named.
    if (Array.isArray(c.arbiters) && c.arbiters.length) text += ` ${t('challenge.arbiters', { names: c.arbiters.join(', ') })}`;
    cards.push(
      h('div', { class: 'notification', role: 'alert', 'data-challenge': c.id },
        h('span', {}, text),
        h('button', { type: 'button', class: 'button primary', onclick: () => answerChallenge(c, true) }, t('challenge.accept')),
        h('button', { type: 'button', class: 'button', onclick: () => answerChallenge(c, false) }, t('challenge.decline'))),
    );
  }
  replace(box, cards);
}

/** Accepts or declines a challenge received on the event stream. */
export async function answerChallenge(challenge, accept) {
  try {
    if (accept) events.expectGame();
    await api(`/api/challenge/${encodeURIComponent(challenge.id)}/${accept ? 'accept' : 'decline'}`, { method: 'POST' });
    events.dropChallenge(challenge.id);
  } catch (err) {
    showError(err);
    events.dropChallenge(challenge.id);
  }
}

events.onEvent((event) => {
  if (event.type === 'gameStart' && event.fresh) {
    const id = event.id;
    const here = matchRoute(location.pathname);
    if (!(here.page === 'game' && here.params.id === id)) navigate(`/game/${encodeURIComponent(id)}`);
  } else if (event.type === 'challenge') {
    sound.play('notify');
    renderNotifications();
  } else if (event.type === 'challengeDeclined') {
    // Both sides hear it: the challenger is told who declined.
    const c = event.challenge || {};
    if (isMe(c.challenger?.name) && c.destUser?.name) toast(t('challenge.declined', { name: c.destUser.name }), 'info');
    renderNotifications();
  } else if (event.type === 'challengeCanceled') {
    // Both sides hear it: the challenged player is told it was withdrawn.
    const c = event.challenge || {};
    if (!isMe(c.challenger?.name)) toast(t('challenge.canceled', { name: c.challenger?.name || '' }), 'info');
    renderNotifications();
  } else if (event.type === 'challengesChanged') {
    renderNotifications();
  }
});

// ----- boot -----

function interceptLinks() {
  document.addEventListener('click', (e) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const a = e.target.closest && e.target.closest('a[href]');
    if (!a || a.target || a.hasAttribute('download')) return;
    const url = new URL(a.href, location.href);
    if (url.origin !== location.origin) return;
    if (/^\/(static|api|game\/export)\//.test(url.pathname)) return;
    if (url.hash && url.pathname === location.pathname) return;
    e.preventDefault();
    navigate(url.pathname + url.search);
  });
  window.addEventListener('popstate', () => route());
  // Browsers start audio suspended until a gesture.
  document.addEventListener('pointerdown', () => sound.unlock(), { once: true });
}

async function boot() {
  const chosen = settings.get('lang') || pickLanguage(navigator.languages || [navigator.language]);
  try {
    await setLang(chosen);
  } catch (err) {
    console.error(err);
  }
  applyScheme();
  settings.onChange((s, changed) => {
    if ('scheme' in changed) {
      applyScheme();
      renderHeader();
    }
  });
  onLangChange(() => {
    renderHeader();
    renderNotifications();
    if (mounted && mounted.onLang) mounted.onLang();
    else route();
  });
  onSession(() => {
    renderHeader();
    if (session.user) events.start();
    else {
      events.stop();
      renderNotifications();
    }
  });
  interceptLinks();
  try {
    await loadAccount();
  } catch (err) {
    showError(err);
  }
  renderHeader();
  await route();
}

boot();
