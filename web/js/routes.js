// The page addresses of the app and which page each one shows.

export const ROUTES = [
  { re: /^\/$/, page: 'lobby' },
  { re: /^\/game\/([\w-]+)(?:\/(white|black))?\/?$/, page: 'game', params: ['id', 'color'] },
  { re: /^\/@\/([\w-]+)\/?$/, page: 'profile', params: ['name'] },
  { re: /^\/tv\/?$/, page: 'watch', extra: { tv: true } },
  { re: /^\/watch\/?$/, page: 'watch', extra: { tv: false } },
  { re: /^\/analysis\/?$/, page: 'analysis' },
  { re: /^\/learn\/?$/, page: 'learn' },
  { re: /^\/learn\/([\w-]+)\/?$/, page: 'learn', params: ['id'] },
  { re: /^\/training\/?$/, page: 'puzzles' },
  { re: /^\/training\/daily\/?$/, page: 'puzzles', extra: { daily: true } },
  { re: /^\/training\/streak\/?$/, page: 'puzzles', extra: { streak: true } },
  { re: /^\/training\/theme\/([\w-]+)\/?$/, page: 'puzzles', params: ['angle'] },
  { re: /^\/training\/([\w-]+)\/?$/, page: 'puzzles', params: ['id'] },
  { re: /^\/challenge\/([\w-]+)\/?$/, page: 'challenge', params: ['id'] },
  { re: /^\/login\/?$/, page: 'auth', extra: { mode: 'login' } },
  { re: /^\/register\/?$/, page: 'auth', extra: { mode: 'register' } },
  { re: /^\/settings\/?$/, page: 'settings' },
  { re: /^\/account\/?$/, page: 'account' },
  { re: /^\/arbiter\/?$/, page: 'arbiter' },
  { re: /^\/tournaments\/?$/, page: 'tournaments' },
  { re: /^\/leaderboard\/?$/, page: 'leaderboard' },
  { re: /^\/tournament\/([\w-]+)\/?$/, page: 'tournament', params: ['id'] },
  { re: /^\/tournament\/([\w-]+)\/tv\/?$/, page: 'watch', params: ['tournament'], extra: { tv: true } },
];

/** Which page an address shows, with its parameters. */
export function matchRoute(pathname) {
  for (const route of ROUTES) {
    const m = pathname.match(route.re);
    if (!m) continue;
    const params = { ...(route.extra || {}) };
    (route.params || []).forEach((name, i) => {
      if (m[i + 1] !== undefined) params[name] = decodeURIComponent(m[i + 1]);
    });
    return { page: route.page, params };
  }
  return { page: 'notfound', params: {} };
}

