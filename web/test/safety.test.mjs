// Unit tests of the pure parts of accounts and safety: the account page's form
// checks, which chat lines may be reported, the route and the mute setting
// (run: node --test web/test/).

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { errorField, passwordProblem } from '../js/pages/account.js';
import { reportable } from '../js/pages/chat.js';
import { REPORT_REASONS } from '../js/pages/profile.js';
import { matchRoute } from '../js/routes.js';
import { DEFAULTS, sanitize } from '../js/settings.js';

test('a server error names the field it is about', () => {
  const fields = ['currentPassword', 'newPassword'];
  assert.equal(errorField('newPassword: at least 8 characters', fields), 'newPassword');
  assert.equal(errorField("currentPassword: that is not the account's password", fields), 'currentPassword');
  assert.equal(errorField('text: too long', fields), null);
  assert.equal(errorField('too many tries: wait a minute', fields), null);
  assert.equal(errorField(undefined, fields), null);
});

test('the new password must be typed twice the same', () => {
  assert.equal(passwordProblem('correct-horse', 'correct-horse'), null);
  assert.equal(passwordProblem('correct-horse', 'correct-hors'), 'account.mismatch');
});

test('only someone else\'s chat line may be reported, by a signed-in viewer', () => {
  assert.equal(reportable({ username: 'Boris', text: 'hi' }, 'anna'), true);
  assert.equal(reportable({ username: 'Anna', text: 'hi' }, 'anna'), false);
  assert.equal(reportable({ username: 'Boris', text: 'hi' }, null), false);
  assert.equal(reportable({ text: 'hi' }, 'anna'), false);
});

test('the report reasons are the server\'s', () => {
  assert.deepEqual(REPORT_REASONS, ['cheat', 'stall', 'boost', 'comm', 'other']);
});

test('/account is the account page', () => {
  assert.deepEqual(matchRoute('/account'), { page: 'account', params: {} });
  assert.deepEqual(matchRoute('/account/'), { page: 'account', params: {} });
});

test('the chat is shown until muted, and the setting is kept as a boolean', () => {
  assert.equal(DEFAULTS.chatMuted, false);
  assert.equal(sanitize({ chatMuted: true }).chatMuted, true);
  assert.equal(sanitize({ chatMuted: 'yes' }).chatMuted, false);
});
