import { array, bool, dataOf, nullable, num, object, oneOf, optional, record, str, unknownValue, type Decoder } from './decode';
import { readSchema, type Schema } from './schema';

/** An admin user (never a password hash). */
export interface User {
  readonly id: number;
  readonly email: string;
  readonly firstname: string | null;
  readonly lastname: string | null;
}
/** Decodes a user. */
export const userDecoder: Decoder<User> = object({ id: num, email: str, firstname: nullable(str), lastname: nullable(str) });

/** `{ token, user }` from login, register and desktop-session. */
export interface SessionAnswer {
  readonly token: string;
  readonly user: User;
}
/** Decodes a session answer. */
export const sessionDecoder = dataOf<SessionAnswer>(object({ token: str, user: userDecoder }));

/** `GET /admin/api/init`. */
export const initDecoder = dataOf(object({ hasAdmin: bool, desktop: optional(bool) }));

/** A content-type as the builder lists it. */
export interface ContentType {
  readonly uid: string;
  readonly apiID: string;
  readonly schema: Schema;
  /** The project's code that touches the type: route middlewares Hearth applies, code it does not run. */
  readonly projectCode?: readonly ProjectCodeNote[] | undefined;
}
/** One piece of a Strapi project's code beside a type, as the server read it (never ran it). */
export interface ProjectCodeNote {
  readonly file: string;
  readonly status: 'applied' | 'not-applied' | 'not-run';
  readonly message: string;
}
const projectCodeNote: Decoder<ProjectCodeNote> = object({ file: str, status: oneOf(['applied', 'not-applied', 'not-run'] as const), message: str });
const schemaDecoder: Decoder<Schema> = (v) => readSchema(v);
/** Decodes one content-type. */
export const contentTypeDecoder: Decoder<ContentType> = object({ uid: str, apiID: str, schema: schemaDecoder, projectCode: optional(array(projectCodeNote)) });

/** A component as the builder lists it. */
export interface Component {
  readonly uid: string;
  readonly category: string;
  readonly schema: Schema;
}
/** Decodes one component. */
export const componentDecoder: Decoder<Component> = object({ uid: str, category: str, schema: schemaDecoder });

/** An i18n locale. */
export interface Locale {
  readonly id: number;
  readonly code: string;
  readonly name: string;
  readonly isDefault: boolean;
}
/** Decodes the locales list. */
export const localesDecoder = dataOf(array<Locale>(object({ id: num, code: str, name: str, isDefault: bool })));

/** Publication status of one document (locale). */
export type DocStatus = 'draft' | 'published' | 'modified';
const statusDecoder: Decoder<DocStatus> = (v) => (v === 'published' || v === 'modified' ? v : 'draft');

/** A document as the content manager reads it: the draft, plus status and localizations. */
export interface Entry {
  readonly documentId: string;
  readonly id: number | null;
  readonly locale: string | null;
  readonly status: DocStatus;
  readonly updatedAt: string | null;
  readonly publishedAt: string | null;
  readonly localizations: readonly { readonly locale: string; readonly status: DocStatus }[];
  /** The whole entry as received (attribute values). */
  readonly values: Record<string, unknown>;
}
const localizationDecoder = object({ locale: str, status: statusDecoder });
/** Decodes one entry. */
export const entryDecoder: Decoder<Entry> = (v, p) => {
  const values = record(v, p);
  const head = object({
    documentId: str,
    id: nullable(num),
    locale: nullable(str),
    status: statusDecoder,
    updatedAt: nullable(str),
    publishedAt: nullable(str),
    localizations: optional(array(localizationDecoder)),
  })(values, p);
  return { ...head, localizations: head.localizations ?? [], values };
};

/** Page-mode pagination meta. */
export interface Pagination {
  readonly page: number;
  readonly pageSize: number;
  readonly pageCount: number;
  readonly total: number;
}
/** Decodes `meta.pagination`. */
export const paginationDecoder: Decoder<Pagination> = object({ page: num, pageSize: num, pageCount: num, total: num });

/** A list with its pagination meta. */
export interface Page<T> {
  readonly items: T[];
  readonly pagination: Pagination;
}
/** Decodes `{ data: T[], meta: { pagination } }`. */
export const pageDecoder =
  <T>(item: Decoder<T>): Decoder<Page<T>> =>
  (v) => {
    const body = record(v, 'body');
    const meta = record(body.meta, 'meta');
    return { items: array(item)(body.data, 'data'), pagination: paginationDecoder(meta.pagination, 'meta.pagination') };
  };

/** An image format (thumbnail, small, ...). */
export interface FileFormat {
  readonly url: string;
  readonly width: number | null;
  readonly height: number | null;
}
/** A media library file. */
export interface MediaFile {
  readonly id: number;
  readonly name: string;
  readonly alternativeText: string | null;
  readonly caption: string | null;
  readonly url: string;
  readonly mime: string;
  readonly ext: string | null;
  readonly size: number;
  readonly width: number | null;
  readonly height: number | null;
  readonly formats: Readonly<Record<string, FileFormat>> | null;
  readonly createdAt: string | null;
  readonly updatedAt: string | null;
  /** The file object as the server sent it (a blocks image keeps all of it, as Strapi's does). */
  readonly raw: Readonly<Record<string, unknown>>;
}
const formatDecoder: Decoder<FileFormat> = object({ url: str, width: nullable(num), height: nullable(num) });
const formatsDecoder: Decoder<Record<string, FileFormat> | null> = (v) => {
  if (v === null || v === undefined || typeof v !== 'object' || Array.isArray(v)) return null;
  const out: Record<string, FileFormat> = {};
  for (const [k, f] of Object.entries(v)) out[k] = formatDecoder(f, `formats.${k}`);
  return out;
};
const fileFields = object<Omit<MediaFile, 'raw'>>({
  id: num,
  name: str,
  alternativeText: nullable(str),
  caption: nullable(str),
  url: str,
  mime: str,
  ext: nullable(str),
  size: num,
  width: nullable(num),
  height: nullable(num),
  formats: formatsDecoder,
  createdAt: nullable(str),
  updatedAt: nullable(str),
});
/** Decodes one file, keeping the whole object too. */
export const fileDecoder: Decoder<MediaFile> = (v, p) => ({ ...fileFields(v, p), raw: record(v, p) });

/** A media library folder. */
export interface Folder {
  readonly id: number;
  readonly name: string;
  readonly path: string;
  readonly childCount: number;
  readonly fileCount: number;
}
const countDecoder: Decoder<number> = (v) => (typeof v === 'object' && v !== null && 'count' in v ? num(v.count) : 0);
/** Decodes one folder. */
export const folderDecoder: Decoder<Folder> = (v, p) => {
  const r = record(v, p);
  return { id: num(r.id, 'id'), name: str(r.name, 'name'), path: typeof r.path === 'string' ? r.path : '', childCount: countDecoder(r.children), fileCount: countDecoder(r.files) };
};

/** Where a file is used. */
export interface Usage {
  readonly uid: string;
  readonly documentId: string;
  readonly locale: string | null;
  readonly field: string;
  readonly displayName: string | null;
  readonly title: string | null;
}
/** Decodes a where-used list. */
export const usagesDecoder = dataOf(
  array<Usage>(object({ uid: str, documentId: str, locale: nullable(str), field: str, displayName: nullable(str), title: nullable(str) })),
);

/** The API token types. */
export type TokenType = 'read-only' | 'full-access' | 'custom';
/** An API token (without its plaintext). */
export interface ApiToken {
  readonly id: number;
  readonly name: string;
  readonly description: string | null;
  readonly type: TokenType;
  readonly permissions: readonly string[];
  readonly lifespan: number | null;
  readonly expiresAt: string | null;
  readonly lastUsedAt: string | null;
  readonly createdAt: string | null;
}
const tokenTypeDecoder: Decoder<TokenType> = (v) => (v === 'full-access' || v === 'custom' ? v : 'read-only');
const permissionsDecoder: Decoder<string[]> = (v) =>
  Array.isArray(v) ? v.map((p: unknown) => (typeof p === 'string' ? p : typeof p === 'object' && p !== null && 'action' in p ? str(p.action) : String(p))) : [];
/** Decodes one token. */
export const tokenDecoder: Decoder<ApiToken> = object({
  id: num,
  name: str,
  description: nullable(str),
  type: tokenTypeDecoder,
  permissions: permissionsDecoder,
  lifespan: nullable(num),
  expiresAt: nullable(str),
  lastUsedAt: nullable(str),
  createdAt: nullable(str),
});
/** Decodes a token answer that carries the plaintext. */
export const tokenWithKeyDecoder = dataOf((v) => ({ token: tokenDecoder(v), accessKey: str(record(v).accessKey, 'accessKey') }));

/** A group of content API actions (one content-type or plugin). */
export interface ActionGroup {
  readonly uid: string;
  readonly displayName: string;
  readonly kind: string;
  readonly actions: readonly string[];
}
/** Decodes `/admin/api/permissions/actions`. */
export const actionGroupsDecoder = dataOf(
  array<ActionGroup>((v, p) => {
    const g = object({ uid: str, displayName: optional(str), kind: optional(str), actions: array(str) })(v, p);
    // Actions may come as full names or as short names under the group uid.
    const actions = g.actions.map((a) => (a.includes('::') || a.includes('.') ? a : `${g.uid}.${a}`));
    return { uid: g.uid, displayName: g.displayName ?? g.uid, kind: g.kind ?? '', actions };
  }),
);

/** A users-permissions role. */
export interface Role {
  readonly id: number;
  readonly name: string;
  readonly description: string | null;
  readonly type: string;
}
/** Decodes the roles list. */
export const rolesDecoder = dataOf(array<Role>(object({ id: num, name: str, description: nullable(str), type: str })));
/** Decodes one role with its permissions. */
export const roleDecoder = dataOf(object({ id: num, name: str, type: str, permissions: permissionsDecoder }));

/** `GET /admin/api/information`. */
export interface Information {
  readonly version: string;
  readonly serverUrl: string;
  readonly dataDir: string;
  readonly schemasDir: string | null;
  readonly database: string;
  readonly uploadProvider: string;
  readonly desktop: boolean;
  /** How to run this install's CLI from anywhere (absolute paths; never `npx hearth`, another project's name on npm). */
  readonly cli: CliCommand;
  /** Team mode: what the admin should know about the other instances on the database (e.g. local files they cannot serve). */
  readonly warnings: readonly string[];
}
/** A command line: the program, its first arguments and its environment. */
export interface CliCommand {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}
const envDecoder: Decoder<Record<string, string>> = (v, p = '') => Object.fromEntries(Object.entries(record(v, p)).map(([k, x]) => [k, str(x, `${p}.${k}`)]));
/** Decodes the server information. */
export const informationDecoder = dataOf<Information>(
  object({
    version: str,
    serverUrl: str,
    dataDir: str,
    schemasDir: nullable(str),
    database: str,
    uploadProvider: str,
    desktop: (v) => v === true,
    cli: object<CliCommand>({ command: str, args: array(str), env: envDecoder }),
    warnings: (v, p = '') => (v === undefined ? [] : array(str)(v, p)),
  }),
);

/** Any JSON value, kept as is. */
export const anyData = dataOf(unknownValue);
