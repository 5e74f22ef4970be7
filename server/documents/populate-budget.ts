import { AppError } from '../errors/app-error.js';

/**
 * The entries a read's populate prints, counted level by level against MAX_POPULATED_ROWS before
 * the next level is read. An entry printed under several parents (one author under 100 books) is
 * one object in memory but is printed, and its own lists populated, once per parent: each
 * populated entry carries a weight, the number of times it is printed, and a level adds the
 * weights of the parents that print each of its entries.
 */
export interface PopulateBudget {
  readonly max: number;
  used: number;
}

/** A budget of `max` entries. */
export const populateBudget = (max: number): PopulateBudget => ({ max, used: 0 });

/** Counts `entries` printed entries; past the budget, the 400 that asks for fewer levels, filters or a smaller page (REST refuses a nested `pageSize`, as Strapi's validator). */
export function spend(budget: PopulateBudget | undefined, entries: number): void {
  if (!budget) return;
  budget.used += entries;
  if (budget.used > budget.max) {
    const max = budget.max.toLocaleString('en-US');
    throw new AppError('ValidationError', `populate would return more than ${max} entries: populate fewer levels, filter the nested relations (populate[x][filters]) or ask for a smaller page (pagination[pageSize])`, {});
  }
}

/** How many times an entry is printed (a root, or an entry populated without a budget: once). */
export const weightOf = (item: { readonly weight?: number }): number => item.weight ?? 1;

/** Weights by parent row id (an id twice among the parents prints its entries twice). */
export function parentWeights(parents: readonly { readonly row: Record<string, unknown>; readonly weight?: number }[]): Map<number, number> {
  const weights = new Map<number, number>();
  for (const p of parents) weights.set(Number(p.row.id), (weights.get(Number(p.row.id)) ?? 0) + weightOf(p));
  return weights;
}
