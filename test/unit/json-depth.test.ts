import { describe, expect, it } from 'vitest';
import { nestsDeeperThan } from '../../server/http/json-depth.js';

describe('nestsDeeperThan (the raw-text nesting check run before JSON.parse)', () => {
  const cases: [string, string, number, boolean][] = [
    ['a flat value', '"a"', 0, false],
    ['one object', '{"a":1}', 1, false],
    ['two levels past a limit of one', '{"a":[1]}', 1, true],
    ['siblings do not add up', '[[1],[2],{"a":[3]}]', 3, false],
    ['brackets inside a string do not count', '["[[[{{{"]', 1, false],
    ['an escaped quote does not end the string', '["\\"[[[["]', 1, false],
    ['an escaped backslash before the closing quote ends it', '["\\\\",[[1]]]', 2, true],
    ['unicode escapes are skipped as text', '["\\u005b[",1]', 1, false],
  ];
  for (const [name, text, max, expected] of cases) {
    it(name, () => {
      expect(() => JSON.parse(text)).not.toThrow();
      expect(nestsDeeperThan(text, max)).toBe(expected);
    });
  }
  it('stops at the first level past the limit, whatever follows', () => {
    expect(nestsDeeperThan(`${'['.repeat(101)}oops`, 100)).toBe(true);
  });
});
