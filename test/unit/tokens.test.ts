import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashAccessKey, tokenAllows, type ApiToken } from '../../server/auth/api-tokens.js';

const token = (type: ApiToken['type'], permissions: string[] = []): ApiToken => ({
  id: 1,
  name: 't',
  description: '',
  type,
  permissions,
  lifespan: null,
  expiresAt: null,
  lastUsedAt: null,
  createdAt: '',
  updatedAt: '',
});

describe('API token hash', () => {
  it('is HMAC-SHA512 of the plaintext keyed with the per-install salt', () => {
    const expected = createHmac('sha512', 'salt-1').update('plaintext').digest('hex');
    expect(hashAccessKey('plaintext', 'salt-1')).toBe(expected);
    expect(hashAccessKey('plaintext', 'salt-1')).toHaveLength(128);
  });

  it('differs with the salt, so a copied database does not reveal reusable hashes', () => {
    expect(hashAccessKey('plaintext', 'salt-1')).not.toBe(hashAccessKey('plaintext', 'salt-2'));
  });
});

describe('token scopes', () => {
  it('read-only tokens may only find and findOne', () => {
    expect(tokenAllows(token('read-only'), 'api::a.a.find')).toBe(true);
    expect(tokenAllows(token('read-only'), 'plugin::upload.content-api.findOne')).toBe(true);
    expect(tokenAllows(token('read-only'), 'api::a.a.create')).toBe(false);
    expect(tokenAllows(token('read-only'), 'plugin::upload.content-api.upload')).toBe(false);
  });
  it('custom tokens may do exactly their actions; full-access tokens everything', () => {
    expect(tokenAllows(token('custom', ['api::a.a.create']), 'api::a.a.create')).toBe(true);
    expect(tokenAllows(token('custom', ['api::a.a.create']), 'api::a.a.find')).toBe(false);
    expect(tokenAllows(token('full-access'), 'api::a.a.delete')).toBe(true);
  });
});
