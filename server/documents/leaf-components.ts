import type { Attribute, ComponentModel } from '../schema/types.js';
import { isRecord } from '../errors/is-record.js';
import { insertManyReturningIds } from './batch-write.js';
import { scalarColumns } from './scalars.js';
import type { ComponentLink, WriteEnv } from './store.js';

/** A component with scalar attributes only: writing one is one row, nothing below it. */
const isLeaf = (component: ComponentModel): boolean =>
  (component.morphs?.size ?? 0) === 0 && [...component.attributes.values()].every((a) => a.kind === 'scalar');

/**
 * The new rows of an attribute whose items are all new leaf components, inserted a table at a
 * time (in item order per table, so ids are those one-by-one inserts gave); null when any item
 * may reuse a current component or has something below it (then items are written one by one).
 */
export async function insertLeafItems(env: WriteEnv, attr: Attribute, items: readonly unknown[], links: readonly ComponentLink[]): Promise<Map<number, { cmpId: number; uid: string }> | null> {
  if (attr.kind !== 'component' && attr.kind !== 'dynamiczone') return null;
  const rows: { index: number; uid: string; table: string; values: Record<string, unknown> }[] = [];
  for (const [index, item] of items.entries()) {
    if (!isRecord(item)) continue;
    const uid = attr.kind === 'component' ? attr.component : String(item.__component);
    const component = env.registry.component(uid);
    if (!component) continue;
    const givenId = item.id === undefined || item.id === null ? undefined : Number(item.id);
    if (!isLeaf(component) || links.some((l) => l.cmpId === givenId && l.uid === uid)) return null;
    rows.push({ index, uid, table: component.table, values: await scalarColumns(component, item) });
  }
  const out = new Map<number, { cmpId: number; uid: string }>();
  for (const table of new Set(rows.map((r) => r.table))) {
    const mine = rows.filter((r) => r.table === table);
    // One statement per run of items with the same columns (a multi-row INSERT names one column list).
    for (let start = 0; start < mine.length; ) {
      const columns = Object.keys(mine[start]?.values ?? {}).join('\u0000');
      let end = start + 1;
      while (end < mine.length && Object.keys(mine[end]?.values ?? {}).join('\u0000') === columns) end++;
      const run = mine.slice(start, end);
      const ids = await insertManyReturningIds(env.db, table, run.map((r) => r.values));
      run.forEach((r, i) => out.set(r.index, { cmpId: ids[i] ?? 0, uid: r.uid }));
      start = end;
    }
  }
  return out;
}
