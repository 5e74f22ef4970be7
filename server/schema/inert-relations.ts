import type { ProjectSchemas } from './load.js';
import type { Model, RelationAttribute } from './types.js';

/**
 * Strapi creates nothing for the non-owner side of a relation (`mappedBy`) and never checks the
 * side it names ("TODO: verify other side is valid" in its database metadata), so a `mappedBy`
 * naming an attribute its target does not have is inert there: no join table, never read.
 * Hearth serves the model without it (its file keeps it) and says so once at start.
 */

/** A relation left out of the served model: its `mappedBy` names no attribute of its target. */
export interface InertRelation {
  readonly name: string;
  readonly target: string;
  readonly mappedBy: string;
}

/** Whether `attr` is the non-owner side of a relation whose target (known) lacks the attribute it names. */
function isInert(attr: RelationAttribute, byUid: ReadonlyMap<string, Model>): attr is RelationAttribute & { mappedBy: string } {
  if (attr.mappedBy === undefined) return false;
  const target = byUid.get(attr.target);
  return target !== undefined && !target.attributes.has(attr.mappedBy) && target.morphs?.has(attr.mappedBy) !== true;
}

/** The model without its inert relations, which it records in `inertRelations`; the same object when it has none. */
function withoutInert<M extends Model>(model: M, byUid: ReadonlyMap<string, Model>): M {
  const inert: InertRelation[] = [];
  for (const attr of model.attributes.values()) {
    if (attr.kind === 'relation' && isInert(attr, byUid)) inert.push({ name: attr.name, target: attr.target, mappedBy: attr.mappedBy });
  }
  if (inert.length === 0) return model;
  const dropped = new Set(inert.map((r) => r.name));
  // `raw` stays as written: the builder writes schemas back from it, and the file must keep the attribute.
  const attributes = new Map([...model.attributes].filter(([name]) => !dropped.has(name)));
  return { ...model, attributes, inertRelations: inert };
}

/**
 * The project with its inert relations left out of the models. `builtIn` are the models Hearth
 * always has (the media library's file, the users & permissions types), which a relation may target.
 */
export function dropInertRelations(project: ProjectSchemas, builtIn: readonly Model[]): ProjectSchemas {
  const byUid = new Map<string, Model>();
  for (const model of [...builtIn, ...(project.plugins ?? []), ...project.contentTypes, ...project.components]) byUid.set(model.uid, model);
  return {
    ...project,
    contentTypes: project.contentTypes.map((m) => withoutInert(m, byUid)),
    components: project.components.map((m) => withoutInert(m, byUid)),
    plugins: project.plugins?.map((m) => withoutInert(m, byUid)),
  };
}

/** One line per relation left out of a served model, naming the model, the attribute and the inverse its target lacks. */
export function inertRelationWarnings(models: readonly Model[]): string[] {
  return models.flatMap((model) =>
    (model.inertRelations ?? []).map(
      (r) =>
        `schemas: ${model.uid} attribute "${r.name}": its inverse "${r.mappedBy}" is not an attribute of ${r.target}; ` +
        `Hearth leaves the relation out (Strapi creates nothing for it). Declare "${r.mappedBy}" on ${r.target} with inversedBy: "${r.name}" to use it`,
    ),
  );
}
