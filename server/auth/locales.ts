import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import { LOCALES_TABLE, type LocaleTable } from '../db/system-tables.js';
import { AppError, fieldError } from '../errors/app-error.js';
import { isLocaleCode } from '../query/locale-code.js';

/** An i18n locale. */
export interface Locale {
  readonly id: number;
  readonly code: string;
  readonly name: string;
  readonly isDefault: boolean;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** A well-formed code whose language Intl knows (`en`, `fr`, `pt-BR`; not `xx`): what the admin API accepts. */
export function isKnownLocale(code: string): boolean {
  if (!isLocaleCode(code)) return false;
  try {
    const [canonical] = Intl.getCanonicalLocales(code);
    const language = canonical?.split('-')[0] ?? '';
    return new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' }).of(language) !== undefined;
  } catch {
    return false;
  }
}

/** `English (en)`: the name Strapi gives a locale, from the language's English name. */
export function defaultLocaleName(code: string): string {
  let language = code;
  try {
    language = new Intl.DisplayNames(['en'], { type: 'language' }).of(code) ?? code;
  } catch {
    // Codes Intl does not know keep their code as the name.
  }
  return `${language} (${code})`;
}

/** Why a code cannot be a locale's, or null when it can (the CLI checks it before opening the data dir). */
export function localeCodeProblem(code: string): string | null {
  return isLocaleCode(code) ? null : `"${code}" is not a locale code (e.g. en, fr, pt-BR)`;
}

const toLocale = (r: Selectable<LocaleTable>): Locale => ({
  id: r.id,
  code: r.code,
  name: r.name,
  isDefault: r.is_default === 1,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** The i18n locales; a new data dir has `en` as its default, as Strapi does. */
export function createLocaleService(deps: { db: Db; now: () => Date }) {
  const { db, now } = deps;
  const byCode = async (code: string, on: Db = db) => {
    const row = await on.selectFrom(LOCALES_TABLE).selectAll().where('code', '=', code).executeTakeFirst();
    return row ? toLocale(row) : undefined;
  };
  const service = {
    async list(): Promise<Locale[]> {
      const rows = await db.selectFrom(LOCALES_TABLE).selectAll().orderBy('created_at').orderBy('id').execute();
      return rows.map(toLocale);
    },
    async get(id: number): Promise<Locale | undefined> {
      const row = await db.selectFrom(LOCALES_TABLE).selectAll().where('id', '=', id).executeTakeFirst();
      return row ? toLocale(row) : undefined;
    },
    async defaultCode(): Promise<string> {
      const row = await db.selectFrom(LOCALES_TABLE).select('code').where('is_default', '=', 1).executeTakeFirst();
      return row ? row.code : 'en';
    },
    async exists(code: string): Promise<boolean> {
      return (await byCode(code)) !== undefined;
    },
    /** Adds a locale (or renames an existing one) and optionally makes it the default. */
    async add(input: { code: string; name?: string; isDefault?: boolean }): Promise<Locale> {
      const problem = localeCodeProblem(input.code);
      if (problem !== null) throw fieldError(['code'], problem);
      const name = input.name?.trim() || defaultLocaleName(input.code);
      const at = now().toISOString();
      return db.transaction().execute(async (trx) => {
        if (input.isDefault) await trx.updateTable(LOCALES_TABLE).set({ is_default: 0 }).execute();
        await trx
          .insertInto(LOCALES_TABLE)
          .values({ code: input.code, name, is_default: input.isDefault ? 1 : 0, created_at: at, updated_at: at })
          .onConflict((oc) =>
            oc.column('code').doUpdateSet(input.isDefault ? { name, is_default: 1, updated_at: at } : { name, updated_at: at }),
          )
          .execute();
        const locale = await byCode(input.code, trx);
        if (!locale) throw new AppError('InternalServerError', `locale "${input.code}" could not be stored`, undefined, { safe: false });
        return locale;
      });
    },
    /** Renames a locale and/or makes it the default (the default is never unset: another one is made default instead). */
    async update(id: number, input: { name?: string; isDefault?: boolean }): Promise<Locale | undefined> {
      const at = now().toISOString();
      return db.transaction().execute(async (trx) => {
        const row = await trx.selectFrom(LOCALES_TABLE).selectAll().where('id', '=', id).executeTakeFirst();
        if (!row) return undefined;
        if (input.isDefault === true) await trx.updateTable(LOCALES_TABLE).set({ is_default: 0 }).execute();
        const changes: Record<string, unknown> = { updated_at: at };
        if (input.name !== undefined) changes.name = input.name.trim() || defaultLocaleName(row.code);
        if (input.isDefault === true) changes.is_default = 1;
        await trx.updateTable(LOCALES_TABLE).set(changes).where('id', '=', id).execute();
        return byCode(row.code, trx);
      });
    },
    /** Deletes a locale row inside the caller's transaction (which also removes that locale's content). */
    async remove(trx: Db, id: number): Promise<void> {
      await trx.deleteFrom(LOCALES_TABLE).where('id', '=', id).execute();
    },
    /** Makes sure a default locale exists (`en` on a new data dir). */
    async ensureDefault(): Promise<void> {
      const row = await db.selectFrom(LOCALES_TABLE).select('code').limit(1).executeTakeFirst();
      // Named here: the name Intl would give, without loading its language data on a new data dir's first start (~14 ms).
      if (!row) await service.add({ code: 'en', name: 'English (en)', isDefault: true });
    },
  };
  return service;
}

/** The i18n locales. */
export type LocaleService = ReturnType<typeof createLocaleService>;
