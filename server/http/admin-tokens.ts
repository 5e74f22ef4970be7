import express from 'express';
import { TOKEN_TYPES, type TokenType } from '../auth/api-tokens.js';
import { isWellFormedAction } from '../auth/permissions.js';
import { notFound } from '../errors/app-error.js';
import type { Services } from '../services.js';
import { fieldError, idParam, objectBody, optionalString, requiredString, type Json } from './admin-input.js';
import { sendJson } from './respond.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The lifespans Strapi's admin offers (7, 30, 90 days), in milliseconds; null is unlimited. */
const LIFESPANS = [7, 30, 90].map((d) => d * DAY_MS);

function tokenType(body: Json, required: boolean): TokenType | undefined {
  const type = body.type;
  if (type === undefined && !required) return undefined;
  if (typeof type !== 'string' || !(TOKEN_TYPES as readonly string[]).includes(type)) {
    throw fieldError(['type'], `type must be one of the following values: ${TOKEN_TYPES.join(', ')}`);
  }
  return type as TokenType;
}

function permissions(body: Json): string[] | undefined {
  const value = body.permissions;
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw fieldError(['permissions'], 'permissions must be an array of action names');
  value.forEach((action, i) => {
    if (typeof action !== 'string' || !isWellFormedAction(action)) {
      throw fieldError(['permissions', String(i)], `permissions[${i}] is not an action name (e.g. api::article.article.find)`);
    }
  });
  return value as string[];
}

function lifespanDays(body: Json): number | null {
  const value = body.lifespan;
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !LIFESPANS.includes(value)) {
    throw fieldError(['lifespan'], `lifespan must be one of the following values: ${LIFESPANS.join(', ')}, null`);
  }
  return value / DAY_MS;
}

/** `/api-tokens`: list, create (plaintext shown once), read, update, regenerate, delete. */
export function tokenRoutes(services: Services): express.Router {
  const router = express.Router();
  const { tokens } = services;

  router.get('/api-tokens', async (_req, res) => {
    sendJson(res, 200, { data: await tokens.list() });
  });

  router.post('/api-tokens', async (req, res) => {
    const body = await objectBody(req);
    const input = {
      name: requiredString(body, 'name').trim(),
      description: optionalString(body, 'description', { nullable: true }) ?? '',
      type: tokenType(body, true) ?? 'read-only',
      permissions: permissions(body) ?? [],
      lifespanDays: lifespanDays(body),
    };
    const { token, accessKey } = await tokens.create(input);
    sendJson(res, 201, { data: { ...token, accessKey } });
  });

  router.get('/api-tokens/:id', async (req, res) => {
    const token = await tokens.get(idParam(req.params.id, 'API token'));
    if (!token) throw notFound('API token not found');
    sendJson(res, 200, { data: token });
  });

  router.put('/api-tokens/:id', async (req, res) => {
    const body = await objectBody(req);
    const name = optionalString(body, 'name');
    if (name !== undefined && name !== null && name.trim() === '') throw fieldError(['name'], 'name is a required field');
    const changes = {
      ...(typeof name === 'string' ? { name: name.trim() } : {}),
      ...(body.description !== undefined ? { description: optionalString(body, 'description', { nullable: true }) ?? '' } : {}),
      ...(body.type !== undefined ? { type: tokenType(body, false) } : {}),
      ...(body.permissions !== undefined ? { permissions: permissions(body) ?? [] } : {}),
    };
    const token = await tokens.update(idParam(req.params.id, 'API token'), changes);
    if (!token) throw notFound('API token not found');
    sendJson(res, 200, { data: token });
  });

  router.post('/api-tokens/:id/regenerate', async (req, res) => {
    const id = idParam(req.params.id, 'API token');
    const accessKey = await tokens.regenerate(id);
    const token = await tokens.get(id);
    if (accessKey === undefined || !token) throw notFound('API token not found');
    sendJson(res, 200, { data: { ...token, accessKey } });
  });

  router.delete('/api-tokens/:id', async (req, res) => {
    const id = idParam(req.params.id, 'API token');
    const token = await tokens.get(id);
    if (!token || !(await tokens.revoke(id))) throw notFound('API token not found');
    sendJson(res, 200, { data: token });
  });
  return router;
}
