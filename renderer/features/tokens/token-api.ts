import type { ApiClient } from '../../api/client';
import { tokenWithKeyDecoder, type ApiToken, type TokenType } from '../../api/types';

const DAY_MS = 86_400_000;

/** How long a new token lasts: days, or '' for unlimited. */
export const TOKEN_DURATIONS = [
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '', label: 'Unlimited' },
] as const;

/** The three token types, as the forms offer them. */
export const TOKEN_TYPES: readonly { value: TokenType; label: string; hint: string }[] = [
  { value: 'read-only', label: 'Read-only', hint: 'find and findOne on every type and on files' },
  { value: 'full-access', label: 'Full access', hint: 'every action' },
  { value: 'custom', label: 'Custom', hint: 'only the actions you choose' },
];

/** What a new API token is made of. */
export interface NewToken {
  readonly name: string;
  readonly description: string;
  readonly type: TokenType;
  /** Custom tokens only: the actions granted. */
  readonly permissions: ReadonlySet<string>;
  /** A TOKEN_DURATIONS value: days, or '' for unlimited. */
  readonly duration: string;
}

/** Creates an API token through the admin API; answers the token and its plaintext (shown once). */
export async function createApiToken({
  client,
  token,
}: {
  readonly client: ApiClient;
  readonly token: NewToken;
}): Promise<{ token: ApiToken; accessKey: string }> {
  const lifespan = token.duration === '' ? null : Number(token.duration) * DAY_MS;
  const body = {
    name: token.name.trim(),
    description: token.description,
    type: token.type,
    permissions: token.type === 'custom' ? [...token.permissions] : [],
    lifespan,
  };
  return tokenWithKeyDecoder(await client.post('/admin/api/api-tokens', body));
}
