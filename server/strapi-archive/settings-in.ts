import { access, copyFile, mkdir, writeFile } from 'node:fs/promises';
import { LOCALES_TABLE, PERMISSIONS_TABLE } from '../db/system-tables.js';
import { dirname, join } from 'node:path';
import type { Db } from '../db/database.js';
import type { EntityState } from './entities-in.js';
import { readStage, strapiArchiveError } from './jsonl.js';
import type { LinkSummary } from './links-in.js';

/** The archive's default locale: the core-store row `plugin_i18n_default_locale`, if any. */
export async function defaultLocaleOf(dir: string): Promise<string | null> {
  for (const { value } of await readStage(dir, 'configuration')) {
    const row = value.value;
    if (value.type !== 'core-store' || typeof row !== 'object' || row === null || Array.isArray(row)) continue;
    const { key, value: setting } = row as Record<string, unknown>;
    if (key === 'plugin_i18n_default_locale' && typeof setting === 'string') return setting.replace(/^"|"$/g, '');
  }
  return null;
}

/** Replaces the staged data dir's locales with the archive's (the default one first marked as such). */
export async function writeLocales(db: Db, entities: EntityState, defaultCode: string | null): Promise<number> {
  if (entities.locales.length === 0) return 0;
  const isDefault = (code: string, i: number) => (defaultCode === null ? i === 0 : code === defaultCode);
  if (!entities.locales.some((l, i) => isDefault(l.code, i))) throw strapiArchiveError(`configuration: the default locale ${defaultCode} is not among the archive's locales`);
  await db.deleteFrom(LOCALES_TABLE).execute();
  for (const [i, locale] of entities.locales.entries()) {
    await db
      .insertInto(LOCALES_TABLE)
      .values({ code: locale.code, name: locale.name, is_default: isDefault(locale.code, i) ? 1 : 0, created_at: locale.createdAt, updated_at: locale.updatedAt })
      .execute();
  }
  return entities.locales.length;
}

/** Role permissions as Hearth keeps them: one action name per role type. */
export async function writePermissions(db: Db, entities: EntityState, links: LinkSummary, now: string): Promise<number> {
  let written = 0;
  for (const [permissionId, action] of entities.permissions) {
    const roleId = links.permissionRoles.get(permissionId);
    const role = roleId === undefined ? undefined : entities.roleTypes.get(roleId);
    if (role === undefined) continue;
    await db.insertInto(PERMISSIONS_TABLE).values({ role, action, created_at: now }).execute();
    written++;
  }
  return written;
}

/** Where a data dir keeps the configuration stage of the Strapi archive it was imported from (Strapi's core-store rows, webhooks). */
export const KEPT_CONFIGURATION = join('strapi-archive', 'configuration.jsonl');

/**
 * Keeps the archive's configuration lines in the new data dir: Hearth does not use Strapi's
 * core-store (admin layouts, plugin settings), but `strapi import` deletes the core-store before
 * it restores an archive's, so an export for Strapi gives them back.
 */
export async function keepConfiguration(dir: string, built: string): Promise<number> {
  const lines = await readStage(dir, 'configuration');
  if (lines.length === 0) return 0;
  await mkdir(join(built, dirname(KEPT_CONFIGURATION)), { recursive: true });
  await writeFile(join(built, KEPT_CONFIGURATION), lines.map((l) => `${JSON.stringify(l.value)}\n`).join(''));
  return lines.length;
}

/** Copies a built data dir's kept configuration (when it has one) into the data dir it now fills (PostgreSQL import, transfer push). */
export async function copyKeptConfiguration(built: string, dataDir: string): Promise<void> {
  const kept = join(built, KEPT_CONFIGURATION);
  if (!(await access(kept).then(() => true, () => false))) return;
  await mkdir(dirname(join(dataDir, KEPT_CONFIGURATION)), { recursive: true });
  await copyFile(kept, join(dataDir, KEPT_CONFIGURATION));
}
