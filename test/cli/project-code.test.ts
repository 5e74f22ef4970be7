import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServe } from '../helpers/cli.js';

const PROJECT = resolve(import.meta.dirname, '../fixtures/project-code');

describe('hearth serve reads a project’s route middlewares (the bundled CLI loads the parser on demand)', () => {
  it('lists them on stderr and applies the literal populate', async () => {
    const data = await mkdtemp(join(tmpdir(), 'hearth-cli-project-code-'));
    const serve = await startServe(['--data', data, '--schemas', PROJECT, '--port', '0']);
    try {
      // The listing is written before the ready line.
      expect(serve.stderr()).toContain('project code: src/api/page/middlewares/page-populate.ts: applied to api::page.page find, findOne (sets populate)\n');
      expect(serve.stderr()).toContain('project code: src/api/page/routes/custom-page.ts: custom routes, not served: GET /pages/slug/:slug\n');
      expect(serve.stderr()).not.toContain('cannot be parsed');
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exited;
      await rm(data, { recursive: true, force: true });
    }
  });
});
