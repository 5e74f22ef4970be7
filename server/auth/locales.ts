import type { Db } from '../db/database.js';

/** An i18n locale. */
export interface Locale {
  readonly code: string;
  readonly name: string;
  readonly isDefault: boolean;
}

/** Locale codes as Strapi accepts them (BCP 47-like). */
const LOCALE_CODE = /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/;
export const isLocaleCode = (code: string): boolean => code.length <= 35 && LOCALE_CODE.test(code);

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

export class LocaleInputError extends Error {
  override readonly name = 'LocaleInputError';
}

/** The i18n locales; a new data dir has `en` as its default, as Strapi does. */
export function createLocaleService(deps: { db: Db; now: () => Date }) {
  const { db, now } = deps;
  const service = {
    async list(): Promise<Locale[]> {
      const rows = await db.selectFrom('hearth_locales').selectAll().orderBy('created_at').orderBy('code').execute();
      return rows.map((r) => ({ code: String(r.code), name: String(r.name), isDefault: Number(r.is_default) === 1 }));
    },
    async defaultCode(): Promise<string> {
      const row = await db.selectFrom('hearth_locales').select('code').where('is_default', '=', 1).executeTakeFirst();
      return row ? String(row.code) : 'en';
    },
    async exists(code: string): Promise<boolean> {
      const row = await db.selectFrom('hearth_locales').select('code').where('code', '=', code).executeTakeFirst();
      return row !== undefined;
    },
    /** Adds a locale (or renames an existing one) and optionally makes it the default. */
    async add(input: { code: string; name?: string; isDefault?: boolean }): Promise<Locale> {
      if (!isLocaleCode(input.code)) throw new LocaleInputError(`"${input.code}" is not a locale code (e.g. en, fr, pt-BR)`);
      const name = input.name?.trim() || defaultLocaleName(input.code);
      await db.transaction().execute(async (trx) => {
        if (input.isDefault) await trx.updateTable('hearth_locales').set({ is_default: 0 }).execute();
        await trx
          .insertInto('hearth_locales')
          .values({ code: input.code, name, is_default: input.isDefault ? 1 : 0, created_at: now().toISOString() })
          .onConflict((oc) =>
            oc.column('code').doUpdateSet(input.isDefault ? { name, is_default: 1 } : { name }),
          )
          .execute();
      });
      return { code: input.code, name, isDefault: Boolean(input.isDefault) };
    },
    /** Makes sure a default locale exists (`en` on a new data dir). */
    async ensureDefault(): Promise<void> {
      const row = await db.selectFrom('hearth_locales').select('code').limit(1).executeTakeFirst();
      if (!row) await service.add({ code: 'en', isDefault: true });
    },
  };
  return service;
}

export type LocaleService = ReturnType<typeof createLocaleService>;
