// The account page (/account): what only the owner may do with their account,
// kept apart from the look-and-feel settings: change the password, see and lift
// their blocks, and close the account for good (after a clear warning and a
// second, explicit confirmation). Each form shows the server's answer beside it.

import { api, loadAccount, session } from '../api.js';
import { t } from '../i18n.js';
import { h, replace, setTitle, showError, toast } from '../ui.js';

/**
 * The form field a server error names ("newPassword: too short" names
 * `newPassword`), if it is one of `fields`; else null.
 */
export function errorField(message, fields) {
  const m = /^(\w+):/.exec(String(message || ''));
  return m && fields.includes(m[1]) ? m[1] : null;
}

/** What is wrong with a new password before asking the server: an i18n key, or null. */
export function passwordProblem(newPassword, repeated) {
  return newPassword === repeated ? null : 'account.mismatch';
}

export async function mount(container, params, ctx) {
  const page = new AccountPage(container, ctx.navigate);
  page.render();
  if (session.user) await page.loadBlocking();
  return page;
}

/**
 * Shows `err` in a form's error line and marks the input it is about as
 * invalid: `field`, else the one the server's `field:` prefix names, else the
 * only input.
 */
function showFormError(line, err, inputs, field = errorField(err.message, Object.keys(inputs))) {
  line.textContent = err.message;
  const names = Object.keys(inputs);
  const named = field ?? (names.length === 1 ? names[0] : null);
  for (const [name, input] of Object.entries(inputs)) input.setAttribute('aria-invalid', String(name === named));
  if (named) inputs[named].focus();
}

function clearFormError(line, inputs) {
  line.textContent = '';
  for (const input of Object.values(inputs)) input.removeAttribute('aria-invalid');
}

/** A labelled password input. */
function passwordField(id, label, autocomplete, extra = {}) {
  const input = h('input', { type: 'password', id, required: true, autocomplete, ...extra });
  return [input, h('div', { class: 'field' }, h('label', { for: id }, label), input)];
}

class AccountPage {
  constructor(container, navigate) {
    this.container = container;
    this.navigate = navigate;
    this.blocking = null;
    this.blockingError = '';
  }

  destroy() {}

  onLang() {
    this.render();
  }

  render() {
    setTitle(t('account.title'));
    if (!session.user) {
      replace(this.container,
        h('h1', {}, t('account.title')),
        h('p', {}, h('a', { href: '/login?next=%2Faccount' }, t('account.signIn'))));
      return;
    }
    this.blockingEl = h('div', { 'aria-live': 'polite' });
    replace(this.container,
      h('h1', {}, t('account.title')),
      h('p', { class: 'muted' }, t('account.signedInAs', { name: session.user.username })),
      h('div', { class: 'account-cards' },
        this.passwordCard(),
        h('section', { class: 'card', 'aria-labelledby': 'blocking-title', 'data-testid': 'blocking' },
          h('h2', { id: 'blocking-title' }, t('account.blocking')),
          h('p', { class: 'hint' }, t('account.blockingHint')),
          this.blockingEl),
        this.closeCard()));
    this.renderBlocking();
  }

  // ----- password -----

  passwordCard() {
    const [current, currentField] = passwordField('pw-current', t('account.currentPassword'), 'current-password');
    const [fresh, freshField] = passwordField('pw-new', t('account.newPassword'), 'new-password', { minlength: '8', 'aria-describedby': 'pw-new-hint' });
    freshField.append(h('p', { class: 'hint', id: 'pw-new-hint' }, t('auth.passwordHint')));
    const [repeat, repeatField] = passwordField('pw-repeat', t('account.repeatPassword'), 'new-password');
    const inputs = { currentPassword: current, newPassword: fresh, repeat };
    const error = h('p', { class: 'field-error', role: 'alert', 'data-testid': 'password-error' });
    const done = h('p', { class: 'ok-text', role: 'status', 'data-testid': 'password-done' });
    const submit = h('button', { type: 'submit', class: 'button primary' }, t('account.changePassword'));
    const form = h('form', {
      class: 'account-form',
      'aria-labelledby': 'password-title',
      onsubmit: async (e) => {
        e.preventDefault();
        clearFormError(error, inputs);
        done.textContent = '';
        const problem = passwordProblem(fresh.value, repeat.value);
        if (problem) {
          showFormError(error, new Error(t(problem)), inputs, 'repeat');
          return;
        }
        submit.disabled = true;
        try {
          const answer = await api('/api/account/password', { json: { currentPassword: current.value, newPassword: fresh.value } });
          form.reset();
          done.textContent = t('account.passwordChanged', { n: answer.sessionsEnded ?? 0 });
        } catch (err) {
          showFormError(error, err, inputs);
        } finally {
          submit.disabled = false;
        }
      },
    }, currentField, freshField, repeatField, error, submit);
    return h('section', { class: 'card', 'aria-labelledby': 'password-title', 'data-testid': 'password-card' },
      h('h2', { id: 'password-title' }, t('account.password')), form, done);
  }

  // ----- blocks -----

  async loadBlocking() {
    try {
      const answer = await api('/api/rel/blocking');
      this.blocking = answer.blocking || [];
      this.blockingError = '';
    } catch (err) {
      this.blockingError = err.message;
    }
    this.renderBlocking();
  }

  renderBlocking() {
    if (!this.blockingEl) return;
    const error = h('p', { class: 'field-error', role: 'alert' }, this.blockingError);
    if (!this.blocking) {
      replace(this.blockingEl, this.blockingError ? error : h('p', { class: 'muted' }, t('common.loading')));
      return;
    }
    replace(this.blockingEl,
      this.blocking.length
        ? h('ul', { class: 'block-list' }, this.blocking.map((u) => h('li', { class: 'blocked-user', 'data-user': u.id },
          h('a', { href: `/@/${encodeURIComponent(u.username)}` }, u.username),
          h('button', {
            type: 'button',
            class: 'button',
            'data-action': 'unblock',
            'aria-label': t('account.unblockName', { name: u.username }),
            onclick: () => this.unblock(u),
          }, t('profile.unblock')))))
        : h('p', { class: 'muted' }, t('account.blockingNone')),
      error);
  }

  async unblock(user) {
    try {
      await api(`/api/rel/unblock/${encodeURIComponent(user.username)}`, { method: 'POST' });
      this.blocking = this.blocking.filter((u) => u.id !== user.id);
      this.blockingError = '';
      toast(t('profile.unblocked', { name: user.username }), 'info', 2000);
    } catch (err) {
      this.blockingError = err.message;
    }
    this.renderBlocking();
  }

  // ----- closing -----

  closeCard() {
    const [password, passwordBox] = passwordField('close-password', t('account.closePassword'), 'current-password');
    const inputs = { password };
    const error = h('p', { class: 'field-error', role: 'alert', 'data-testid': 'close-error' });
    const confirmBox = h('div', { class: 'close-confirm', 'data-testid': 'close-confirm', hidden: true });
    const start = h('button', { type: 'submit', class: 'button danger', 'data-action': 'close-account' }, t('account.close'));
    const ask = (on) => {
      confirmBox.hidden = !on;
      start.hidden = on;
      password.readOnly = on;
    };
    const finish = async (yes) => {
      yes.disabled = true;
      try {
        await api('/api/account/close', { json: { password: password.value } });
        // The server cleared the session cookie: the app forgets the account too.
        await loadAccount().catch(showError);
        toast(t('account.closed'), 'info');
        this.navigate('/');
      } catch (err) {
        ask(false);
        showFormError(error, err, inputs);
      } finally {
        yes.disabled = false;
      }
    };
    const yes = h('button', { type: 'button', class: 'button danger armed', 'data-action': 'close-confirm', onclick: () => finish(yes) }, t('account.closeYes'));
    replace(confirmBox,
      h('p', { class: 'error-text' }, t('account.closeSure')),
      h('div', { class: 'button-row' },
        yes,
        h('button', {
          type: 'button',
          class: 'button',
          'data-action': 'close-cancel',
          onclick: () => {
            ask(false);
            start.focus();
          },
        }, t('account.closeCancel'))));
    const form = h('form', {
      class: 'account-form',
      'aria-labelledby': 'close-title',
      onsubmit: (e) => {
        e.preventDefault();
        clearFormError(error, inputs);
        ask(true);
        yes.focus();
      },
    }, passwordBox, error, start, confirmBox);
    return h('section', { class: 'card danger-zone', 'aria-labelledby': 'close-title', 'data-testid': 'close-card' },
      h('h2', { id: 'close-title' }, t('account.closeTitle')),
      h('p', { class: 'warning-text' }, t('account.closeWarning')),
      form);
  }
}
