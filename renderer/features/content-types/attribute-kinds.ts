import type { Attribute, AttributeType, RelationKind } from '../../api/schema';

/** One entry of the "add a field" picker. */
export interface KindChoice {
  readonly type: AttributeType;
  readonly label: string;
  readonly description: string;
}

/** The field types offered by the builder, in the picker's order. */
export const KIND_CHOICES: readonly KindChoice[] = [
  { type: 'string', label: 'Short text', description: 'Titles, names, one line' },
  { type: 'text', label: 'Long text', description: 'Descriptions, plain paragraphs' },
  { type: 'blocks', label: 'Rich text (blocks)', description: 'Headings, lists, links, images' },
  { type: 'richtext', label: 'Markdown', description: 'Rich text written as Markdown' },
  { type: 'integer', label: 'Integer', description: 'Whole numbers' },
  { type: 'biginteger', label: 'Big integer', description: 'Very large whole numbers' },
  { type: 'decimal', label: 'Decimal', description: 'Prices, measures' },
  { type: 'float', label: 'Float', description: 'Floating-point numbers' },
  { type: 'boolean', label: 'Boolean', description: 'Yes or no' },
  { type: 'date', label: 'Date', description: 'A calendar day' },
  { type: 'time', label: 'Time', description: 'A time of day' },
  { type: 'datetime', label: 'Date and time', description: 'A moment' },
  { type: 'email', label: 'Email', description: 'A checked email address' },
  { type: 'password', label: 'Password', description: 'Never returned by the API' },
  { type: 'enumeration', label: 'Enumeration', description: 'One value from a list' },
  { type: 'uid', label: 'UID', description: 'A unique slug' },
  { type: 'json', label: 'JSON', description: 'Any JSON value' },
  { type: 'media', label: 'Media', description: 'Images, videos, files' },
  { type: 'relation', label: 'Relation', description: 'Links to another type' },
  { type: 'component', label: 'Component', description: 'A reusable group of fields' },
  { type: 'dynamiczone', label: 'Dynamic zone', description: 'A list of mixed components' },
];

/** A friendly name of an attribute's type. */
export function kindLabel(attribute: Attribute): string {
  const base = KIND_CHOICES.find((k) => k.type === attribute.type)?.label ?? attribute.type;
  if (attribute.type === 'relation') return `Relation (${relationLabel(attribute.relation ?? 'manyToOne')}) → ${attribute.target ?? '?'}`;
  if (attribute.type === 'component') return `${attribute.repeatable ? 'Repeatable component' : 'Component'} · ${attribute.component ?? '?'}`;
  if (attribute.type === 'dynamiczone') return `Dynamic zone · ${(attribute.components ?? []).join(', ')}`;
  if (attribute.type === 'media') return `Media (${attribute.multiple ? 'multiple' : 'single'})`;
  if (attribute.customField !== undefined) return `${base} · custom field ${attribute.customField}`;
  return base;
}

const RELATION_LABELS: Record<RelationKind, string> = {
  oneWay: 'has one',
  manyWay: 'has many',
  oneToOne: 'one to one',
  oneToMany: 'one to many',
  manyToOne: 'many to one',
  manyToMany: 'many to many',
};

/** A relation kind in words. */
export function relationLabel(kind: RelationKind): string {
  return RELATION_LABELS[kind];
}

/** True for relation kinds that hold several targets. */
export function isToMany(kind: RelationKind | undefined): boolean {
  return kind === 'manyWay' || kind === 'oneToMany' || kind === 'manyToMany';
}

/** Types whose values are scalars (they can be unique, have a default, be sorted). */
export function isScalarType(type: AttributeType): boolean {
  return !['media', 'relation', 'component', 'dynamiczone', 'blocks', 'json', 'password'].includes(type);
}
