import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * The team deployment files (issue 22, item 6): Dockerfile, .dockerignore, compose.yaml,
 * deploy/Caddyfile, docs/team.md. Images cannot be pulled where Hearth is developed, so nothing
 * here builds or runs them; this checks what can be checked without: the build context and the
 * commands, the compose file's services and variables, and that the docs list real variables.
 */

const ROOT = resolve(import.meta.dirname, '../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

interface Instruction {
  readonly keyword: string;
  readonly args: string;
}
interface Stage {
  readonly from: string;
  readonly name: string | null;
  readonly instructions: Instruction[];
}

/** The Dockerfile's stages and instructions (comments dropped, continuation lines joined). */
function dockerfileStages(text: string): Stage[] {
  const joined = text
    .split('\n')
    .filter((line) => !line.trim().startsWith('#'))
    .join('\n')
    .replace(/\\\n/g, ' ');
  const stages: Stage[] = [];
  for (const line of joined.split('\n')) {
    const match = /^\s*([A-Z]+)\s+(.*)$/.exec(line);
    if (!match) continue;
    const keyword = match[1] ?? '';
    const args = (match[2] ?? '').trim();
    if (keyword === 'FROM') {
      const [from = '', as, name] = args.split(/\s+/);
      stages.push({ from, name: as?.toUpperCase() === 'AS' ? (name ?? null) : null, instructions: [] });
    } else {
      const stage = stages.at(-1);
      if (!stage) throw new Error(`${keyword} before FROM`);
      stage.instructions.push({ keyword, args });
    }
  }
  return stages;
}

/** A COPY's sources and destination (JSON or shell form), and its --from stage if any. */
function copyOf(args: string): { from: string | null; sources: string[]; dest: string } {
  const words = args.startsWith('[') ? (JSON.parse(args) as string[]) : args.split(/\s+/);
  const flags = words.filter((w) => w.startsWith('--'));
  const paths = words.filter((w) => !w.startsWith('--'));
  const from = flags.find((f) => f.startsWith('--from='))?.slice('--from='.length) ?? null;
  return { from, sources: paths.slice(0, -1), dest: paths.at(-1) ?? '' };
}

/** Whether .dockerignore leaves `path` (relative to the repository) in the build context. */
function inContext(path: string, ignored: readonly string[]): boolean {
  const clean = path === '.' ? '' : path.replace(/^\.\//, '').replace(/\/$/, '');
  return !ignored.some((pattern) => clean === pattern || clean.startsWith(`${pattern}/`) || (pattern.startsWith('*.') && clean.endsWith(pattern.slice(1))));
}

const dockerignore = read('.dockerignore')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l !== '' && !l.startsWith('#'));
const stages = dockerfileStages(read('Dockerfile'));
const final = stages.at(-1) as Stage;
const build = stages.find((s) => s.name !== null) as Stage;
const runs = (stage: Stage) => stage.instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args);
const envOf = (stage: Stage) =>
  stage.instructions
    .filter((i) => i.keyword === 'ENV')
    .map((i) => i.args)
    .join(' ');

describe('Dockerfile', () => {
  it('builds on node:20-slim in two stages: a build stage and the image', () => {
    expect(stages.map((s) => s.from)).toEqual(['node:20-slim', 'node:20-slim']);
    expect(build.name).toBe('build');
  });

  it('copies only sources that exist in the repository and that .dockerignore leaves in the context', () => {
    const sources = stages.flatMap((s) => s.instructions.filter((i) => i.keyword === 'COPY').map((i) => copyOf(i.args))).filter((c) => c.from === null);
    expect(sources.length).toBeGreaterThan(0);
    for (const { sources: paths } of sources) {
      for (const path of paths) {
        expect(existsSync(join(ROOT, path)), path).toBe(true);
        expect(inContext(path, dockerignore), path).toBe(true);
      }
    }
    // `COPY . .` sends the context: what the build reads must be in it, what it makes must not.
    for (const needed of [
      'package.json',
      'package-lock.json',
      'tsconfig.json',
      'tsconfig.build.json',
      'scripts/bundle-cli.ts',
      'vite.config.ts',
      'server/cli.ts',
      'renderer',
      'bin/hearth.js',
    ]) {
      expect(existsSync(join(ROOT, needed)), needed).toBe(true);
      expect(inContext(needed, dockerignore), needed).toBe(true);
    }
    for (const made of ['node_modules', 'dist', '.git']) expect(inContext(made, dockerignore), made).toBe(false);
  });

  it('builds dist/ with the dev dependencies, then keeps the production ones', () => {
    const commands = runs(build).join(' && ');
    expect(commands).toMatch(/npm ci\b/);
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    for (const script of ['build:server', 'build:renderer']) {
      expect(commands).toContain(`npm run ${script}`);
      expect(scripts[script]).toBeDefined();
    }
    // build:server bundles the CLI into dist/cli, which bin/hearth.js runs.
    expect(scripts['build:server']).toContain('scripts/bundle-cli.ts');
    expect(read('scripts/bundle-cli.ts')).toContain("'dist/cli'");
    expect(read('bin/hearth.js')).toContain("'../dist/cli/cli.js'");
    expect(commands).toContain('npm prune --omit=dev');
    const copied = final.instructions.filter((i) => i.keyword === 'COPY').map((i) => copyOf(i.args));
    const fromBuild = copied.filter((c) => c.from === 'build').flatMap((c) => c.sources);
    expect(fromBuild).toEqual(expect.arrayContaining(['/app/dist', '/app/node_modules', '/app/package.json']));
    expect(copied.filter((c) => c.from === null).flatMap((c) => c.sources)).toContain('bin');
  });

  it('runs bin/hearth.js serve on 0.0.0.0 with HEARTH_ALLOWED_HOSTS set, as node, with a health check', () => {
    const cmd = final.instructions.filter((i) => i.keyword === 'CMD').at(-1);
    const argv = JSON.parse(cmd?.args ?? '[]') as string[];
    expect(argv.slice(0, 3)).toEqual(['node', 'bin/hearth.js', 'serve']);
    expect(argv[argv.indexOf('--host') + 1]).toBe('0.0.0.0');
    expect(envOf(final)).toMatch(/HEARTH_ALLOWED_HOSTS=\S+/);
    expect(envOf(final)).toMatch(/HEARTH_DATA=\/data/);
    expect(final.instructions.some((i) => i.keyword === 'USER' && i.args === 'node')).toBe(true);
    expect(final.instructions.find((i) => i.keyword === 'HEALTHCHECK')?.args).toContain('/_health');
  });
});

/** The variables docs/team.md lists in its table of environment variables. */
function documentedVariables(): string[] {
  const doc = read('docs/team.md');
  const section = doc.slice(doc.indexOf('## Environment variables'), doc.indexOf('## Docker'));
  const rows = section.split('\n').filter((l) => l.startsWith('| `'));
  return rows.flatMap((row) => [...(row.split('|')[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1] ?? ''));
}

/** Every server source file's text, to check a variable is one Hearth reads. */
function serverSources(dir = join(ROOT, 'server')): string {
  return readdirSync(dir)
    .map((name) => join(dir, name))
    .map((path) => (statSync(path).isDirectory() ? serverSources(path) : path.endsWith('.ts') ? readFileSync(path, 'utf8') : ''))
    .join('\n');
}

describe('compose.yaml and docs/team.md', () => {
  const compose = parse(read('compose.yaml'), { merge: true }) as {
    services: Record<string, { environment?: Record<string, string>; image?: string; build?: string; volumes?: string[] }>;
  };
  const services = compose.services;

  it('parses, with PostgreSQL, MinIO, two Hearth instances built from the Dockerfile, and Caddy', () => {
    expect(Object.keys(services).sort()).toEqual(['hearth-1', 'hearth-2', 'lb', 'minio', 'minio-setup', 'postgres']);
    expect(services.postgres?.image).toMatch(/^postgres:/);
    expect(services.minio?.image).toMatch(/^minio\/minio/);
    expect(services['hearth-1']?.build).toBe('.');
    expect(services['hearth-2']?.build).toBe('.');
    // Each instance its own data dir.
    expect(services['hearth-1']?.volumes).not.toEqual(services['hearth-2']?.volumes);
    expect(services.lb?.image).toMatch(/^caddy:/);
    const mount = (services.lb?.volumes ?? []).find((v) => v.startsWith('./deploy/')) ?? '';
    const caddyfile = read(mount.split(':')[0] ?? '');
    for (const upstream of ['hearth-1:1337', 'hearth-2:1337', 'health_uri /_health']) expect(caddyfile).toContain(upstream);
  });

  it('gives both instances what a team needs: the database, S3, the secrets, the allowed hosts and the drain', () => {
    const documented = documentedVariables();
    for (const name of ['hearth-1', 'hearth-2']) {
      const env = services[name]?.environment ?? {};
      expect(env.UPLOAD_PROVIDER).toBe('s3');
      expect(env.DATABASE_URL).toMatch(/^postgres:\/\/.*@postgres:5432\//);
      expect(env.S3_ENDPOINT).toBe('http://minio:9000');
      for (const variable of [
        'S3_BUCKET',
        'S3_ACCESS_KEY_ID',
        'S3_SECRET_ACCESS_KEY',
        'S3_FORCE_PATH_STYLE',
        'API_TOKEN_SALT',
        'JWT_SECRET',
        'HEARTH_ALLOWED_HOSTS',
        'HEARTH_SHUTDOWN_DRAIN_MS',
      ]) {
        expect(env[variable], `${name} ${variable}`).toBeDefined();
      }
      // Every variable the instances get is in the docs' table.
      for (const variable of Object.keys(env)) expect(documented, variable).toContain(variable);
    }
  });

  it('lists in docs/team.md only variables Hearth reads, and names every service', () => {
    const documented = documentedVariables();
    expect(documented.length).toBeGreaterThan(15);
    const sources = serverSources();
    for (const variable of documented) expect(sources.includes(variable), variable).toBe(true);
    const doc = read('docs/team.md');
    for (const service of Object.keys(services)) expect(doc).toContain(`\`${service}\``);
    for (const file of ['Dockerfile', 'compose.yaml', 'deploy/Caddyfile', 'deploy/team.env.example']) expect(doc).toContain(file);
  });
});
