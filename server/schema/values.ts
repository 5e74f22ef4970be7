/**
 * Strapi's value parsing for dates, times and numbers, as Strapi 5.54 answers it (the
 * type transcripts): the same parsers turn body values into stored values and filter values
 * into bound parameters, so a filter always compares like with like.
 */

import { isAppError, validationError } from '../errors/app-error.js';

/** Whether `err` is the 400 a value that cannot be read as its attribute's type throws here (its message is Strapi's). */
export const isValueError = (err: unknown): boolean => isAppError(err, 'ValidationError');

const TIME = /^(2[0-3]|[01][0-9]):([0-5][0-9]):([0-5][0-9])(.[0-9]{1,3})?$/;

/** `HH:mm:ss.SSS`, padding the fraction (`13:45:30` -> `13:45:30.000`). */
export function parseTime(value: unknown): string {
  if (typeof value !== 'string') throw validationError('Invalid time format, expected HH:mm:ss.SSS');
  const match = TIME.exec(value);
  if (!match) throw validationError('Invalid time format, expected HH:mm:ss.SSS');
  const [, hours, minutes, seconds, fraction = '.000'] = match;
  return `${hours}:${minutes}:${seconds}.${fraction.slice(1).padEnd(3, '0')}`;
}

const ISO = /^(\d{4})(?:-?(\d{2})(?:-?(\d{2}))?)?(?:[T ](\d{2})(?::?(\d{2})(?::?(\d{2})(?:[.,](\d+))?)?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * Parses an ISO 8601 date or date-time the way date-fns' parseISO does; a value without a
 * zone is read as UTC (Strapi's servers run in UTC; Hearth does not depend on the machine's zone).
 * Returns epoch milliseconds, or undefined when the text is not a valid date.
 */
export function parseIsoInstant(text: string): number | undefined {
  const m = ISO.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo = '01', d = '01', h = '00', mi = '00', s = '00', frac = '', zone] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 24 || minute > 59 || second > 59 || (hour === 24 && (minute > 0 || second > 0))) return undefined;
  const ms = frac === '' ? 0 : Math.floor(Number(`0.${frac}`) * 1000);
  let offset = 0;
  if (zone !== undefined && zone.toUpperCase() !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const zh = Number(digits.slice(0, 2));
    const zm = digits.length > 2 ? Number(digits.slice(2)) : 0;
    if (zh > 23 || zm > 59) return undefined;
    offset = sign * (zh * 60 + zm) * 60_000;
  }
  return Date.UTC(year, month - 1, day, hour, minute, second, ms) - offset;
}

const DATE = /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])/;

/** `yyyy-MM-dd`; a full ISO date-time is accepted and cut to its (UTC) date. */
export function parseDate(value: unknown): string {
  if (typeof value !== 'string' || !DATE.test(value)) throw validationError('Invalid format, expected yyyy-MM-dd');
  const [, y, mo, d] = DATE.exec(value) ?? [];
  if (daysInMonth(Number(y), Number(mo)) < Number(d)) throw validationError('Invalid date');
  if (value.length === 10) return value;
  const instant = parseIsoInstant(value);
  if (instant === undefined) throw validationError('Invalid date');
  return new Date(instant).toISOString().slice(0, 10);
}

/** An instant from an ISO string, an epoch-milliseconds number, or a string of epoch milliseconds. */
export function parseInstant(value: unknown): number {
  const instant = instantOf(value);
  // Beyond ±8.64e15 ms there is no Date (and no ISO string): a 400, never a RangeError later.
  if (instant === undefined || !(Math.abs(instant) <= MAX_EPOCH_MS)) throw validationError('Invalid format, expected a timestamp or an ISO date');
  return instant;
}

/** The largest distance from the epoch a JavaScript Date can hold, in milliseconds. */
const MAX_EPOCH_MS = 8.64e15;

function instantOf(value: unknown): number | undefined {
  if (value instanceof Date && !Number.isNaN(value.getTime())) return value.getTime();
  if (typeof value === 'number' && Number.isFinite(value)) return Math.trunc(value);
  if (typeof value === 'string') {
    const iso = parseIsoInstant(value);
    if (iso !== undefined) return iso;
    if (/^-?\d+$/.test(value.trim())) return Number(value.trim());
  }
  return undefined;
}

/** A datetime as Strapi returns it: ISO 8601 with milliseconds and `Z`. */
export const formatDateTime = (epochMs: number): string => new Date(epochMs).toISOString();

/** The stored form of a date, time, datetime or timestamp value, as bodies and filters both write it (a 400 ValidationError when it is not one). */
export function storedTemporal(type: 'date' | 'time' | 'datetime' | 'timestamp', value: unknown): string | number {
  switch (type) {
    case 'date':
      return parseDate(value);
    case 'time':
      return parseTime(value);
    case 'datetime':
      return formatDateTime(parseInstant(value));
    case 'timestamp':
      return parseInstant(value);
  }
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Whether a value is a biginteger Strapi accepts (an integer, as a number or a string of digits). */
export function isBigIntegerInput(value: unknown): boolean {
  if (typeof value === 'number') return Number.isInteger(value);
  if (typeof value === 'bigint') return true;
  return typeof value === 'string' && /^-?\d+$/.test(value);
}

/** The exact integer a biginteger input stands for, within the 64-bit range both databases store. */
export function toBigInteger(value: unknown): bigint {
  if (!isBigIntegerInput(value)) throw validationError('must be a valid integer');
  const n = typeof value === 'bigint' ? value : BigInt(typeof value === 'number' ? Math.trunc(value) : (value as string));
  if (n < INT64_MIN || n > INT64_MAX) throw validationError('must be between -9223372036854775808 and 9223372036854775807');
  return n;
}

/** lodash's toNumber, which Strapi uses to read numeric filter values. */
export function toNumberLikeLodash(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value !== 'string') return Number.NaN;
  const text = value.trim();
  if (/^0b[01]+$/i.test(text)) return parseInt(text.slice(2), 2);
  if (/^0o[0-7]+$/i.test(text)) return parseInt(text.slice(2), 8);
  if (/^[-+]0x[0-9a-f]+$/i.test(text)) return Number.NaN;
  return Number(text);
}

/** Strapi's boolean reading: `true/t/1` and `false/f/0`, otherwise JavaScript truthiness. */
export function toBooleanLikeStrapi(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 't' || value === '1' || value === 1) return true;
  if (value === 'false' || value === 'f' || value === '0' || value === 0) return false;
  return Boolean(value);
}
