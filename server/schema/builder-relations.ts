import { isJson, schemaFieldError, type Json, type Root } from './builder-input.js';

/**
 * Keeps both sides of bidirectional relations consistent, as Strapi's content-type builder does:
 * declaring `inversedBy`/`mappedBy` creates or updates the other side on the target, renaming an
 * attribute renames the other side's reference, and removing one side removes the other.
 */

/** Schema documents by uid (content types and components), edited in place. */
export type Docs = Map<string, Json>;

const INVERSE: Record<string, string> = { oneToOne: 'oneToOne', oneToMany: 'manyToOne', manyToOne: 'oneToMany', manyToMany: 'manyToMany' };

const attributesOf = (doc: Json | undefined): Json => (doc && isJson(doc.attributes) ? doc.attributes : {});

interface Bidirectional {
  readonly name: string;
  readonly target: string;
  /** The other side's attribute name. */
  readonly other: string;
  /** Which key this side uses. */
  readonly key: 'inversedBy' | 'mappedBy';
  readonly relation: string;
}

function bidirectional(name: string, attr: unknown): Bidirectional | null {
  if (!isJson(attr) || attr.type !== 'relation' || typeof attr.target !== 'string') return null;
  const key = typeof attr.inversedBy === 'string' ? 'inversedBy' : typeof attr.mappedBy === 'string' ? 'mappedBy' : null;
  if (key === null) return null;
  return { name, target: attr.target, other: String(attr[key]), key, relation: String(attr.relation) };
}

const otherKey = (key: Bidirectional['key']) => (key === 'inversedBy' ? 'mappedBy' : 'inversedBy');

/** Whether `attr` is the other side of relation `side` of model `uid`, under the name `name`. */
function pointsBack(attr: unknown, uid: string, side: Bidirectional['key'], name: string): attr is Json {
  return isJson(attr) && attr.type === 'relation' && attr.target === uid && attr[otherKey(side)] === name;
}

/** Removes or renames the other side of relations that `before` declared and `after` dropped or renamed. */
function followOldSides(docs: Docs, uid: string, before: Json | undefined, after: Json, renames: ReadonlyMap<string, string>): void {
  for (const [name, attr] of Object.entries(attributesOf(before))) {
    const side = bidirectional(name, attr);
    if (side === null) continue;
    const newName = renames.get(name) ?? name;
    const now = bidirectional(newName, attributesOf(after)[newName]);
    const kept = now !== null && now.target === side.target && now.other === side.other && now.key === side.key;
    const targetAttrs = attributesOf(side.target === uid ? after : docs.get(side.target));
    const other = targetAttrs[side.other];
    if (!pointsBack(other, uid, side.key, name)) continue;
    if (kept) other[otherKey(side.key)] = newName;
    else delete targetAttrs[side.other];
  }
}

/** Creates the other side of each bidirectional relation of `doc` where missing, and aligns its relation kind. */
function completeNewSides(docs: Docs, uid: string, doc: Json, root: Root): void {
  for (const [name, attr] of Object.entries(attributesOf(doc))) {
    const side = bidirectional(name, attr);
    if (side === null) continue;
    const targetDoc = side.target === uid ? doc : docs.get(side.target);
    if (targetDoc === undefined || !isJson(targetDoc.attributes)) continue; // the registry reports the unknown target
    const inverse = INVERSE[side.relation];
    if (inverse === undefined) continue; // one-way kinds take no inverse: the parser reports it
    const targetAttrs = targetDoc.attributes;
    const other = targetAttrs[side.other];
    if (other === undefined) {
      targetAttrs[side.other] = { type: 'relation', relation: inverse, target: uid, [otherKey(side.key)]: name };
    } else if (pointsBack(other, uid, side.key, name)) {
      if (other.relation !== inverse) other.relation = inverse;
    } else {
      throw schemaFieldError([root, 'attributes', name], `attribute "${name}": ${side.target} already has an attribute "${side.other}" that is not its other side`);
    }
  }
}

/**
 * Applies the saving of `after` (replacing `before`) to the other schemas: their sides of
 * bidirectional relations follow renames and removals and are created when declared.
 */
export function syncInverseSides(docs: Docs, args: { uid: string; before: Json | undefined; after: Json; renames: ReadonlyMap<string, string>; root: Root }): void {
  followOldSides(docs, args.uid, args.before, args.after, args.renames);
  completeNewSides(docs, args.uid, args.after, args.root);
}

/** Removes every relation that targets a removed content type from the other schemas. */
export function dropRelationsTo(docs: Docs, uid: string): void {
  for (const doc of docs.values()) {
    const attributes = attributesOf(doc);
    for (const [name, attr] of Object.entries(attributes)) {
      if (isJson(attr) && attr.type === 'relation' && attr.target === uid) delete attributes[name];
    }
  }
}

/** Removes a removed component from the other schemas: its component attributes go, dynamic zones forget it. */
export function dropComponentUses(docs: Docs, uid: string): void {
  for (const doc of docs.values()) {
    const attributes = attributesOf(doc);
    for (const [name, attr] of Object.entries(attributes)) {
      if (!isJson(attr)) continue;
      if (attr.type === 'component' && attr.component === uid) delete attributes[name];
      if (attr.type === 'dynamiczone' && Array.isArray(attr.components)) attr.components = attr.components.filter((c) => c !== uid);
    }
  }
}
