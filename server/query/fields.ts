import { validationError } from '../errors/app-error.js';
import type { Model } from '../schema/types.js';

/**
 * `fields`: a comma string or a list of scalar field names; `*` (or absent) means every field.
 * `id` (and `documentId` on content types) are always selected, first, as Strapi does.
 */
export function convertFields(raw: unknown, model: Model): string[] | null {
  if (raw === undefined || raw === null || raw === '*') return null;
  const names: string[] = [];
  const collect = (value: unknown, depth: number) => {
    if (typeof value === 'string') names.push(...value.split(',').map((v) => v.trim()));
    else if (Array.isArray(value) && value.every((v) => typeof v === 'string')) value.forEach((v) => collect(v, depth + 1));
    else throw validationError('Invalid fields parameter. Expected a string or an array of strings');
  };
  collect(raw, 0);
  const always = model.modelType === 'contentType' ? ['id', 'documentId'] : ['id'];
  return [...new Set([...always, ...names.filter((n) => n !== '')])];
}
