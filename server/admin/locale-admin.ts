import type { Locale, LocaleService } from '../auth/locales.js';
import type { Database } from '../db/database.js';
import type { DocumentService } from '../documents/index.js';

/** Why a locale cannot be deleted. */
export type LocaleRemoval = { ok: true; locale: Locale } | { ok: false; reason: 'missing' | 'default' };

/**
 * Deletes a locale and, in the same transaction, every version of every localized document in
 * that locale (as Strapi's i18n plugin does), so no content is left in a locale that no longer exists.
 */
export async function removeLocale(deps: { database: Database; locales: LocaleService; documents: DocumentService }, id: number): Promise<LocaleRemoval> {
  const locale = await deps.locales.get(id);
  if (!locale) return { ok: false, reason: 'missing' };
  if (locale.isDefault) return { ok: false, reason: 'default' };
  // Read before the transaction: on SQLite a query outside it would wait for the connection the transaction holds.
  const defaultLocale = await deps.locales.defaultCode();
  await deps.database.db.transaction().execute(async (trx) => {
    await deps.documents.removeAllInLocale({ trx, locale: locale.code, defaultLocale });
    await deps.locales.remove(trx, id);
  });
  return { ok: true, locale };
}
