import { adminCreate, adminResetPassword } from './admin/cli-admin.js';
import { dataDirOf, databaseUrlOf, resolveConfig } from './config.js';
import { openDataDir } from './data-dir.js';
import { getMeta } from './db/migrations.js';
import { startServer } from './index.js';
import { TOKEN_TYPES, type TokenType } from './auth/api-tokens.js';
import { transferTokenCommand } from './transfer/cli.js';
import { webhookAdd, webhookList, webhookRemove } from './webhooks/cli.js';
import { isWellFormedAction } from './auth/permissions.js';
import { localeCodeProblem } from './auth/locales.js';
import { ensureDefaultRoles, findRoleByType } from './users/roles.js';
import { USERS_PERMISSIONS } from './users/models.js';
import { loadProject } from './schema/load.js';
import { applicationError, isAppError, usageError } from './errors/app-error.js';
import { list, only, parseArgs, processIo, required, stopSignal, text, type Io, type Parsed } from './cli-args.js';

const USAGE = `Usage: hearth <command> [options]

Commands:
  serve  [--data DIR] [--schemas DIR] [--host 127.0.0.1] [--port 1337] [--accept-schema-changes] [--schema-source database|folder]
  token create --name NAME --type read-only|full-access|custom [--actions A,B,...] [--lifespan DAYS] [--description TEXT] [--data DIR]
  token create --type transfer --access push|pull|full --name NAME [--data DIR]
  permissions grant --role public|authenticated|ROLE_TYPE --actions A,B,... [--data DIR] [--schemas DIR]
  locale add --code CODE [--name NAME] [--default] [--data DIR]
  webhook add --url URL --events E1,E2,... [--name NAME] [--header "Key: Value"]... [--secret S] [--data DIR]
  webhook list [--data DIR]
  webhook remove --id ID [--data DIR]
  admin create --email E --password P [--firstname F] [--lastname L] [--data DIR]
  admin reset-password --email E --password P [--data DIR]
  export --file F.tar.gz [--data DIR]
  import --file F.tar.gz [--data DIR] [--force]
  import --from-strapi FILE [--key KEY] [--data DIR] [--schemas DIR] [--force]
  export --format strapi --file F.tar.gz [--key KEY] [--data DIR]
  mcp [--data DIR] [--schemas DIR] [--token TOKEN] [--allow-destructive]

Environment: HEARTH_DATA, HOST, PORT, API_REST_DEFAULT_LIMIT, API_REST_MAX_LIMIT, UPLOAD_SIZE_LIMIT, UPLOAD_MAX_IMAGE_PIXELS,
HEARTH_PUBLIC_URL, HEARTH_ALLOWED_HOSTS, HEARTH_CORS_ORIGINS, HEARTH_RESPONSE_CACHE, UPLOAD_PROVIDER, S3_*,
DATABASE_URL, HEARTH_SCHEMA_SOURCE, UP_* (users & permissions), HEARTH_MCP_DESTRUCTIVE (see the README).
`;

async function serve(parsed: Parsed, io: Io): Promise<number> {
  only(parsed, ['data', 'schemas', 'host', 'port', 'accept-schema-changes', 'schema-source']);
  const config = resolveConfig({
    data: text(parsed, 'data'),
    schemas: text(parsed, 'schemas'),
    host: text(parsed, 'host'),
    port: text(parsed, 'port'),
    acceptSchemaChanges: parsed.flags.get('accept-schema-changes') === true,
    schemaSource: text(parsed, 'schema-source'),
  });
  // The signal handlers come first: a SIGTERM sent the moment the ready line is read must find
  // them (sent during start-up, it stops the server as soon as it is up).
  const signal = stopSignal();
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer({ config, log: (m) => io.err(`${m}\n`) });
  } catch (err) {
    signal.release();
    throw err;
  }
  io.out(`Hearth listening on ${server.url}\n`);
  await signal.stopped;
  await server.close();
  return 0;
}

async function tokenCreate(parsed: Parsed, io: Io): Promise<number> {
  if (text(parsed, 'type') === 'transfer') return transferTokenCommand(parsed, io);
  only(parsed, ['name', 'type', 'actions', 'lifespan', 'description', 'data']);
  const name = required(parsed, 'name');
  const type = required(parsed, 'type');
  if (!(TOKEN_TYPES as readonly string[]).includes(type)) throw usageError(`--type must be one of ${TOKEN_TYPES.join(', ')}`);
  const actions = text(parsed, 'actions');
  if (type === 'custom' && (actions === undefined || list(actions).length === 0)) throw usageError('--type custom requires --actions');
  if (type !== 'custom' && actions !== undefined) throw usageError('--actions is only for --type custom');
  for (const action of list(actions ?? '')) if (!isWellFormedAction(action)) throw usageError(`"${action}" is not an action name (e.g. api::article.article.find)`);
  const lifespanText = text(parsed, 'lifespan');
  let lifespanDays: number | null = null;
  if (lifespanText !== undefined) {
    lifespanDays = Number(lifespanText);
    if (!Number.isInteger(lifespanDays) || lifespanDays <= 0) throw usageError('--lifespan takes a whole number of days (7, 30, 90, ...)');
  }
  const dir = await openDataDir(dataDirOf(text(parsed, 'data')), { databaseUrl: databaseUrlOf() });
  try {
    if ((await dir.tokens.list()).some((token) => token.name === name)) throw applicationError(`a token named "${name}" already exists`);
    const { accessKey } = await dir.tokens.create({
      name,
      description: text(parsed, 'description') ?? '',
      type: type as TokenType,
      permissions: list(actions ?? ''),
      lifespanDays,
    });
    io.out(`${accessKey}\n`);
    return 0;
  } finally {
    await dir.database.close();
  }
}

async function knownContentTypes(schemasDir: string | undefined): Promise<{ dir: string; uids: Set<string> } | null> {
  if (schemasDir === undefined) return null;
  try {
    const project = await loadProject(schemasDir, USERS_PERMISSIONS);
    return { dir: schemasDir, uids: new Set(project.contentTypes.map((c) => c.uid)) };
  } catch {
    return null;
  }
}

async function permissionsGrant(parsed: Parsed, io: Io): Promise<number> {
  only(parsed, ['role', 'actions', 'data', 'schemas']);
  const role = required(parsed, 'role');
  const actions = list(required(parsed, 'actions'));
  if (actions.length === 0) throw usageError('--actions is required');
  for (const action of actions) if (!isWellFormedAction(action)) throw usageError(`"${action}" is not an action name (e.g. api::article.article.find)`);
  const dir = await openDataDir(dataDirOf(text(parsed, 'data')), { databaseUrl: databaseUrlOf() });
  try {
    await ensureDefaultRoles({ db: dir.database.db, permissions: dir.permissions, now: () => new Date() });
    if (!(await findRoleByType(dir.database.db, role))) {
      throw usageError(`--role must be public or authenticated, or the type of a role made with the admin API ("${role}" is none)`);
    }
    await dir.permissions.grant(role, actions);
    const schemas = text(parsed, 'schemas') ?? (await getMeta(dir.database.db, 'last_schemas_dir'));
    const known = await knownContentTypes(schemas);
    if (known) {
      for (const action of actions) {
        if (!action.startsWith('api::')) continue;
        const uid = action.slice(0, action.lastIndexOf('.'));
        if (!known.uids.has(uid)) io.err(`warning: ${action} names no content-type in ${known.dir}\n`);
      }
    }
    return 0;
  } finally {
    await dir.database.close();
  }
}

async function localeAdd(parsed: Parsed, _io: Io): Promise<number> {
  only(parsed, ['code', 'name', 'default', 'data']);
  const code = required(parsed, 'code');
  const problem = localeCodeProblem(code);
  if (problem !== null) throw usageError(problem);
  const dir = await openDataDir(dataDirOf(text(parsed, 'data')), { databaseUrl: databaseUrlOf() });
  try {
    await dir.locales.add({ code, name: text(parsed, 'name'), isDefault: parsed.flags.get('default') === true });
    return 0;
  } finally {
    await dir.database.close();
  }
}

/** One subcommand handler; resolves to the exit code. */
type Command = (parsed: Parsed, io: Io) => Promise<number>;

/**
 * Every subcommand: a command word, then (for groups) a sub-word. Features add theirs here.
 */
const COMMANDS: Record<string, Command | { readonly usage: string; readonly subs: Record<string, Command> }> = {
  serve,
  token: { usage: 'hearth token create --name NAME --type TYPE', subs: { create: tokenCreate } },
  permissions: { usage: 'hearth permissions grant --role ROLE --actions A,B', subs: { grant: permissionsGrant } },
  locale: { usage: 'hearth locale add --code CODE', subs: { add: localeAdd } },
  webhook: { usage: 'hearth webhook add|list|remove', subs: { add: webhookAdd, list: webhookList, remove: webhookRemove } },
  admin: { usage: 'hearth admin create|reset-password --email E --password P', subs: { create: adminCreate, 'reset-password': adminResetPassword } },
  // Loaded when run: `hearth serve` never pays for the MCP stdio code at start.
  mcp: async (parsed, io) => (await import('./cli-mcp.js')).mcpCommand(parsed, io),
  // Loaded when run: `hearth serve` never pays for the archive code (tar) at start.
  // The Strapi formats are dispatched here, not by backup/: strapi-archive/ builds on backup/, never the reverse.
  export: async (parsed, io) => {
    const backup = await import('./backup/cli-backup.js');
    if (text(parsed, 'format') !== 'strapi') return backup.exportCommand(parsed, io);
    return (await import('./strapi-archive/cli.js')).strapiExportCommand(parsed, io, backup.mediaProviderOfData(parsed));
  },
  import: async (parsed, io) => {
    const backup = await import('./backup/cli-backup.js');
    if (!parsed.flags.has('from-strapi')) return backup.importCommand(parsed, io);
    return (await import('./strapi-archive/cli.js')).strapiImportCommand(parsed, io, backup.mediaProviderOfData(parsed));
  },
};

/** Runs the `hearth` command; resolves to the exit code. */
export async function main(argv: readonly string[], io: Io = processIo): Promise<number> {
  try {
    const parsed = parseArgs(argv);
    const [command, sub] = parsed.words;
    if (parsed.flags.get('help') === true || command === undefined || command === 'help') {
      io.out(USAGE);
      return command === undefined && parsed.flags.get('help') !== true ? 2 : 0;
    }
    const entry = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
    if (entry === undefined) throw usageError(`unknown command "${command}" (see hearth --help)`);
    const run = typeof entry === 'function' ? entry : sub !== undefined && Object.hasOwn(entry.subs, sub) ? entry.subs[sub] : undefined;
    if (run === undefined) throw usageError(`usage: ${typeof entry === 'function' ? 'hearth --help' : entry.usage}`);
    const words = typeof entry === 'function' ? 1 : 2;
    if (parsed.words.length > words) throw usageError(`unexpected argument "${parsed.words[words]}"`);
    return await run(parsed, io);
  } catch (err) {
    // A mistake in how the command was called, or a setting Hearth cannot use: exit 2; any other failure: exit 1, first line.
    if (isAppError(err, 'UsageError') || isAppError(err, 'ConfigError')) {
      io.err(`hearth: ${err.message}\n`);
      return 2;
    }
    const message = err instanceof Error ? err.message : String(err);
    io.err(`hearth: ${message.split('\n')[0]}\n`);
    return 1;
  }
}
