// Preloaded into a Hearth server by `npm run bench -- --profile` (node --import): times every
// better-sqlite3 statement call (all/get/run/iterate) by SQL text and, at exit, writes the totals as
// JSON to $HEARTH_BENCH_SQL_TRACE. Changes nothing in Hearth; adds ~1 µs per statement.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const out = process.env.HEARTH_BENCH_SQL_TRACE;
if (out) {
  const require = createRequire(join(process.cwd(), 'package.json'));
  const Database = require('better-sqlite3');
  const probe = new Database(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('select 1'));
  probe.close();
  const stats = new Map();
  const record = (sql, ms) => {
    let s = stats.get(sql);
    if (!s) stats.set(sql, (s = { sql, calls: 0, ms: 0, maxMs: 0 }));
    s.calls++;
    s.ms += ms;
    if (ms > s.maxMs) s.maxMs = ms;
  };
  for (const name of ['all', 'get', 'run']) {
    const original = proto[name];
    proto[name] = function timed(...args) {
      const t0 = performance.now();
      try {
        return original.apply(this, args);
      } finally {
        record(this.source, performance.now() - t0);
      }
    };
  }
  const iterate = proto.iterate;
  proto.iterate = function* timedIterate(...args) {
    const t0 = performance.now();
    try {
      yield* iterate.apply(this, args);
    } finally {
      record(this.source, performance.now() - t0);
    }
  };
  process.on('exit', () => {
    writeFileSync(out, JSON.stringify([...stats.values()].sort((a, b) => b.ms - a.ms)));
  });
}
