import { describe, expect, it } from 'vitest';
import { paginationMeta, pageWindow, toPagination, withCount } from '../../server/query/pagination.js';
import { MAX_PAGINATION_VALUE } from '../../server/limits.js';
import { parseDate, parseInstant, parseTime } from '../../server/schema/values.js';

/** The 400 a value that is not its type's throws, with exactly this (Strapi's) message. */
const valueError = (message: string) => expect.objectContaining({ name: 'ValidationError', message, details: {} });

const limits = { defaultLimit: 25, maxLimit: 100 };
const meta = (raw: Record<string, unknown>, total = 3) => {
  const pagination = toPagination(pageWindow(raw, limits), withCount(raw));
  return paginationMeta(pagination, pagination.withCount ? total : undefined);
};

describe("Strapi's pagination arithmetic on query-string values", () => {
  const cases: [string, Record<string, unknown>, Record<string, number>][] = [
    ['defaults', {}, { page: 1, pageSize: 25, pageCount: 1, total: 3 }],
    ['page and pageSize', { page: '2', pageSize: '1' }, { page: 2, pageSize: 1, pageCount: 3, total: 3 }],
    ['page 0 is page 1', { page: '0' }, { page: 1, pageSize: 25, pageCount: 1, total: 3 }],
    ['pageSize 0 is 1', { pageSize: '0' }, { page: 1, pageSize: 1, pageCount: 3, total: 3 }],
    ['pageSize is capped silently', { pageSize: '500' }, { page: 1, pageSize: 100, pageCount: 1, total: 3 }],
    ['offset mode', { start: '1', limit: '1' }, { start: 1, limit: 1, total: 3 }],
    ['limit=-1 as a string is 1', { limit: '-1' }, { start: 0, limit: 1, total: 3 }],
    ['limit is capped silently', { limit: '1000' }, { start: 0, limit: 100, total: 3 }],
    ['a page past the end', { page: '99' }, { page: 99, pageSize: 25, pageCount: 1, total: 3 }],
  ];
  for (const [name, raw, expected] of cases) {
    it(name, () => expect(meta(raw)).toEqual(expected));
  }
  it('without count the total and pageCount are left out', () => {
    expect(meta({ pageSize: '1', withCount: 'false' })).toEqual({ page: 1, pageSize: 1 });
  });
  it('mixing page and offset is a PaginationError', () => {
    expect(() => pageWindow({ page: '1', start: '0' }, limits)).toThrow('Cannot use both page & offset pagination in the same query');
  });
  it('a start or limit past MAX_PAGINATION_VALUE is a ValidationError, not a value the database refuses', () => {
    const huge = (raw: Record<string, unknown>, max: number | null = 100) => () => toPagination(pageWindow(raw, { defaultLimit: 25, maxLimit: max }), true);
    expect(huge({ page: '9223372036854775807' })).toThrow(`Invalid parameter at 'start'. Expected integer <= ${MAX_PAGINATION_VALUE}, received: 230584300921369400000`);
    expect(huge({ start: '1e20' })).toThrow("Invalid parameter at 'start'");
    expect(huge({ pageSize: '1e20' }, null)).toThrow("Invalid parameter at 'limit'");
    expect(huge({ start: String(MAX_PAGINATION_VALUE), limit: '1' })()).toMatchObject({ start: MAX_PAGINATION_VALUE, limit: 1 });
  });
  it('a non-numeric page gives the NaN offset Strapi reports', () => {
    expect(pageWindow({ page: 'abc' }, limits).start).toBeNaN();
  });
  it('withCount accepts Strapi boolean spellings only', () => {
    expect(withCount({ withCount: 't' })).toBe(true);
    expect(withCount({ withCount: '0' })).toBe(false);
    expect(() => withCount({ withCount: 'maybe' })).toThrow('Invalid withCount parameter. Expected "t","1","true","false","0","f"');
  });
});

describe('date and time values', () => {
  it('times are HH:mm:ss.SSS', () => {
    expect(parseTime('13:45:30')).toBe('13:45:30.000');
    expect(parseTime('09:05:00.5')).toBe('09:05:00.500');
    for (const bad of ['13:45', '25:00:00', '1:5:0', '13:45:30Z', '', 'abc']) {
      expect(() => parseTime(bad)).toThrow(valueError('Invalid time format, expected HH:mm:ss.SSS'));
    }
  });
  it('dates are yyyy-MM-dd; a datetime is cut to its UTC date', () => {
    expect(parseDate('2026-03-01')).toBe('2026-03-01');
    expect(parseDate('2026-03-01T23:30:00Z')).toBe('2026-03-01');
    expect(parseDate('2026-03-01T23:30:00-05:00')).toBe('2026-03-02');
    expect(() => parseDate('2026-02-30')).toThrow(valueError('Invalid date'));
    for (const bad of ['yesterday', '', '2026-13-01', 1772359200000]) {
      expect(() => parseDate(bad)).toThrow(valueError('Invalid format, expected yyyy-MM-dd'));
    }
  });
  it('instants come from ISO strings (zone-less is UTC), epoch-ms numbers and digit strings', () => {
    expect(parseInstant('2026-03-01T10:00:00+02:00')).toBe(Date.UTC(2026, 2, 1, 8));
    expect(parseInstant('2026-03-01T10:00:00')).toBe(Date.UTC(2026, 2, 1, 10));
    expect(parseInstant('2026-03-01')).toBe(Date.UTC(2026, 2, 1));
    expect(parseInstant(1772359200000)).toBe(1772359200000);
    expect(parseInstant('1772359200')).toBe(1772359200);
    expect(parseInstant(8.64e15)).toBe(8.64e15);
    // Past what a Date can hold (found by the body fuzzer: it was a RangeError, a 500).
    for (const bad of ['not a date', '', '2026-02-30T10:00:00Z', 8640000000000001, -8640000000000001, '8640000000000001']) {
      expect(() => parseInstant(bad)).toThrow(valueError('Invalid format, expected a timestamp or an ISO date'));
    }
  });
});
