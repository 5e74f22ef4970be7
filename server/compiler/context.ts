import type { Database } from '../db/database.js';
import type { Registry } from '../schema/registry.js';

/** What compiling needs: the dialect (for the few places SQL differs) and the schema registry. */
export interface CompileContext {
  readonly kind: Database['kind'];
  readonly registry: Registry;
  /** Next table alias number (t0 is the root table); shared so nested subqueries never clash. */
  aliases: number;
}

export const nextAlias = (ctx: CompileContext): string => `t${++ctx.aliases}`;
