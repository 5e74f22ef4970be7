import type { QueryValue } from '../../api/query';
import type { Attribute } from '../../api/schema';
import { isToMany } from '../content-types/attribute-kinds';

/** One filter condition on a field; a relation's value is the picked entry's documentId, `label` its main field. */
export interface FilterRule {
  readonly field: string;
  readonly operator: string;
  readonly value: string;
  readonly label?: string;
}

/** An operator and the words the list shows for it. */
export type Operator = readonly [string, string];

const EMPTY: readonly Operator[] = [
  ['$null', 'is empty'],
  ['$notNull', 'is not empty'],
];
const TEXT_OPS: readonly Operator[] = [
  ['$containsi', 'contains'],
  ['$notContainsi', 'does not contain'],
  ['$eqi', 'is'],
  ['$nei', 'is not'],
  ['$startsWithi', 'starts with'],
  ['$endsWithi', 'ends with'],
  ...EMPTY,
];
const EQUALITY: readonly Operator[] = [['$eq', 'is'], ['$ne', 'is not'], ...EMPTY];
const VALUE_OPS: readonly Operator[] = [
  ['$eq', 'is'],
  ['$ne', 'is not'],
  ['$gt', 'is greater than'],
  ['$gte', 'is at least'],
  ['$lt', 'is less than'],
  ['$lte', 'is at most'],
  ...EMPTY,
];
const TO_ONE: readonly Operator[] = EQUALITY;
const TO_MANY: readonly Operator[] = [
  ['$eq', 'includes'],
  ['$ne', 'does not include'],
  ['$null', 'has none'],
  ['$notNull', 'has some'],
];
const NO_VALUE = new Set(['$null', '$notNull']);

/** Whether an operator takes no value (`$null`, `$notNull`). */
export const takesNoValue = (operator: string): boolean => NO_VALUE.has(operator);

/**
 * The operators a field can be filtered with, as Strapi's admin offers them: text operators on text,
 * ordering on numbers and dates, equality on booleans and enumerations, an entry picked by name on
 * relations, emptiness only on media; none on blocks, JSON, components, dynamic zones and passwords.
 */
export function operatorsFor(attribute: Attribute | undefined): readonly Operator[] {
  if (!attribute || attribute.private) return [];
  switch (attribute.type) {
    case 'string':
    case 'text':
    case 'richtext':
    case 'email':
    case 'uid':
      return TEXT_OPS;
    case 'boolean':
    case 'enumeration':
      return EQUALITY;
    case 'integer':
    case 'biginteger':
    case 'float':
    case 'decimal':
    case 'date':
    case 'time':
    case 'datetime':
    case 'timestamp':
      return VALUE_OPS;
    case 'relation':
      return isToMany(attribute.relation) ? TO_MANY : TO_ONE;
    case 'media':
      return EMPTY;
    case 'blocks':
    case 'json':
    case 'component':
    case 'dynamiczone':
    case 'password':
      return [];
  }
}

function condition(rule: FilterRule, attribute: Attribute | undefined): Record<string, QueryValue> {
  if (NO_VALUE.has(rule.operator)) return { [rule.field]: { [rule.operator]: 'true' } };
  if (attribute?.type !== 'relation') return { [rule.field]: { [rule.operator]: rule.value } };
  // A relation is matched by the picked entry's documentId; "is not" keeps entries without any link too.
  const picked = { [rule.field]: { documentId: { $eq: rule.value } } };
  return rule.operator === '$ne' ? { $not: picked } : picked;
}

/** The filters of a list as Strapi's `filters` query (`$and` of each rule). */
export function filtersQuery(rules: readonly FilterRule[], attributes: Readonly<Record<string, Attribute>> = {}): Record<string, QueryValue> | null {
  if (rules.length === 0) return null;
  return { $and: rules.map((r) => condition(r, attributes[r.field])) };
}

/** A rule in words, as its chip shows it (`category is “Travel”`). */
export function ruleWords(rule: FilterRule, attributes: Readonly<Record<string, Attribute>>): string {
  const op = operatorsFor(attributes[rule.field]).find(([o]) => o === rule.operator)?.[1] ?? rule.operator;
  return NO_VALUE.has(rule.operator) ? `${rule.field} ${op}` : `${rule.field} ${op} “${rule.label ?? rule.value}”`;
}
