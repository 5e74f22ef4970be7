import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adminUrl, apiUrl, dataDirFor, isWebUrl, sameOrigin, userDataDir, windowTitle } from '../../main/paths.js';

describe('data dir choice', () => {
  const userData = resolve('/home/ada/.config/Hearth');

  it.each([
    ['unset', {}, userData],
    ['empty', { HEARTH_DATA: '' }, userData],
    ['absolute', { HEARTH_DATA: '/srv/hearth' }, resolve('/srv/hearth')],
    ['relative', { HEARTH_DATA: 'data' }, resolve('data')],
  ])('HEARTH_DATA %s', (_name, env, expected) => {
    expect(dataDirFor(env, userData)).toBe(expected);
  });

  it('names the per-user folder after the product, not the npm package', () => {
    expect(userDataDir(resolve('/home/ada/.config'))).toBe(resolve('/home/ada/.config/Hearth'));
  });
});

describe('URLs', () => {
  it('derives the admin URL, API URL and window title from the server URL', () => {
    expect(adminUrl('http://127.0.0.1:1337')).toBe('http://127.0.0.1:1337/admin/');
    expect(apiUrl('http://127.0.0.1:40123')).toBe('http://127.0.0.1:40123/api');
    expect(windowTitle('http://127.0.0.1:40123')).toBe('Hearth — http://127.0.0.1:40123');
  });

  it.each([
    ['https://strapi.io/docs', true],
    ['http://example.com', true],
    ['file:///etc/passwd', false],
    ['javascript:alert(1)', false],
    ['mailto:a@example.com', false],
    ['not a url', false],
  ])('isWebUrl(%s) = %s', (url, expected) => {
    expect(isWebUrl(url)).toBe(expected);
  });

  it.each([
    ['http://127.0.0.1:1337/admin/content', true],
    ['http://127.0.0.1:1337', true],
    ['http://127.0.0.1:1338/admin/', false],
    ['https://127.0.0.1:1337/admin/', false],
    ['http://localhost:1337/admin/', false],
    ['data:text/html,hi', false],
    ['', false],
  ])('sameOrigin(%s, server) = %s', (url, expected) => {
    expect(sameOrigin(url, 'http://127.0.0.1:1337')).toBe(expected);
  });
});
