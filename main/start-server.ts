import { isAppError, resolveConfig, type HearthConfig, type RunningServer, type StartOptions } from '../server/index.js';

/** The desktop server listens on loopback only, whatever HOST says: it hosts a single user's admin. */
export const DESKTOP_HOST = '127.0.0.1';

/** The port tried first: Strapi's, so clients written for `localhost:1337` work unchanged. */
export const PREFERRED_PORT = 1337;

/** Port 0: the system picks a free port. */
const ANY_FREE_PORT = 0;

/** The desktop configuration: resolveConfig's defaults and environment, on the given data dir, loopback, the given port. */
export function desktopConfig(dataDir: string, env: NodeJS.ProcessEnv, port: number = PREFERRED_PORT): HearthConfig {
  return resolveConfig({ data: dataDir, host: DESKTOP_HOST, port: String(port) }, env);
}

/** What starting with fallback needs: the server's start function and how to note the fallback. */
export interface FallbackDeps {
  readonly start: (options: StartOptions) => Promise<RunningServer>;
  readonly log: (message: string) => void;
}

/** Starts the server on the configured port; if it cannot listen there, on a free port the system picks. */
export async function startWithFallback(deps: FallbackDeps, options: StartOptions): Promise<RunningServer> {
  try {
    return await deps.start(options);
  } catch (err) {
    if (!isAppError(err, 'ListenError')) throw err;
    deps.log(`${err.message}; using a free port instead`);
    return deps.start({ ...options, config: { ...options.config, port: ANY_FREE_PORT } });
  }
}
