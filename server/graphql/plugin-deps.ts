import type { Request, Response } from 'express';
import { AppError } from '../errors/app-error.js';
import type { Caller } from '../auth/caller.js';
import type { Access } from '../documents/index.js';
import type { FileInfo } from '../uploads/file-info.js';
import type { AuthFlows } from '../users/auth-flows.js';
import type { UserIdentity } from '../users/strategy.js';

/**
 * What the plugin mutations (upload, users & permissions) and the `i18NLocales` queries call: the
 * same services as the REST routes, handed in by app.ts (graphql/ never imports http/).
 */

/** The upload service's front door as the media mutations use it. */
export interface MediaDeps {
  /** One file as REST's `GET /api/upload/files/:id` answers it, or null. */
  one(id: number, access: Access): Promise<Record<string, unknown> | null>;
  /** Strapi's `updateFileInfo`: absent or null values keep the stored ones; an unknown id is NotFoundError `Entity not found`. */
  updateInfo(id: number, info: FileInfo): Promise<void>;
  /** Deletes the file's row, links and objects; false when there is no such file. */
  remove(id: number): Promise<boolean>;
  /** The entries and components linking each file (`populate=related`: `{ ...fields, __type }`), types the caller may not read left out; one batched read for all. */
  related(ids: readonly number[], access: Access): Promise<ReadonlyMap<number, Record<string, unknown>[]>>;
}

/** Users & permissions as its REST routes use it. */
export interface UsersPluginDeps {
  readonly auth: AuthFlows;
  readonly identify: (caller: Caller) => UserIdentity | undefined;
  readonly admin: {
    create(body: unknown, access: Access): Promise<Record<string, unknown>>;
    update(id: number, body: unknown, access: Access): Promise<Record<string, unknown>>;
    remove(id: number, access: Access): Promise<Record<string, unknown> | null>;
  };
  readonly roles: {
    create(body: unknown): Promise<unknown>;
    update(id: number, body: unknown): Promise<unknown>;
    remove(id: number): Promise<unknown>;
  };
  /**
   * The REST auth routes' rate limiter, counting this request as one to `path` (`/api/auth/local`
   * ...): a GraphQL attempt and a REST attempt share one budget. Rejects with the 429 RateLimitError.
   */
  readonly rateLimit: (req: Request, res: Response, body: unknown, path: string) => Promise<void>;
}

/** One locale as the locale service lists it. */
export interface LocaleRow {
  readonly id: number;
  readonly code: string;
  readonly name: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface PluginDeps {
  readonly media: MediaDeps;
  readonly users: UsersPluginDeps;
  readonly locales: () => Promise<readonly LocaleRow[]>;
}

/** The plugin services and the HTTP exchange of one GraphQL request. */
export interface PluginContext extends PluginDeps {
  readonly req: Request;
  readonly res: Response;
  readonly caller: Caller;
}

/** The plugin services of a request's context (route.ts puts them there beside `GraphqlContext`). */
export function pluginsOf(ctx: object): PluginContext {
  const plugins = (ctx as { plugins?: PluginContext }).plugins;
  if (!plugins) throw new AppError('InternalServerError', 'graphql: the plugin services are missing from the context');
  return plugins;
}
