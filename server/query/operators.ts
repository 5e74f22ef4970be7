import { COMPARISON_OPERATORS } from './ast.js';

/** Logical operators that take a list of filter objects. */
export const GROUP_OPERATORS = ['$and', '$or'] as const;
/** Every operator Strapi's validators recognise as an operator. */
const ALL_OPERATORS = new Set<string>([...COMPARISON_OPERATORS, '$not', ...GROUP_OPERATORS, '$jsonSupersetOf']);
/** Operators whose value is converted to the attribute's stored type before comparing. */
export const CAST_OPERATORS = new Set<string>(['$not', '$in', '$notIn', '$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$between']);
/** Operators that take a list of values. */
export const ARRAY_OPERATORS = new Set<string>(['$in', '$notIn', '$between']);

export const isOperator = (key: string): boolean => ALL_OPERATORS.has(key);
