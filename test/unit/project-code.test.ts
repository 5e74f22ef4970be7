import { describe, expect, it } from 'vitest';
import { applySteps, readMiddleware, type MiddlewareReading } from '../../server/project-code/middleware.js';
import { moduleScope } from '../../server/project-code/module-scope.js';
import { parseSource } from '../../server/project-code/parse-source.js';

async function read(source: string, typescript = true): Promise<MiddlewareReading> {
  const parsed = await parseSource(source, typescript);
  return parsed.ok ? readMiddleware(moduleScope(parsed.program)) : parsed;
}

const handler = (body: string, top = '') => `${top}\nexport default (config, { strapi }) => {\n  return async (ctx, next) => {\n${body}\n  };\n};\n`;

describe('route middlewares Hearth proves and applies', () => {
  it.each([
    ['a const by name', handler('    ctx.query.populate = populate;\n    await next();', "const seo = { fields: ['metaTitle'] };\nconst populate = { seo, blocks: { populate: '*' } };"), {}, { populate: { seo: { fields: ['metaTitle'] }, blocks: { populate: '*' } } }],
    ['a spread of a const, with `as const`', handler('    ctx.query.fields = [...base, "slug"];\n    return next();', "const base = ['title'] as const;"), { fields: ['x'] }, { fields: ['title', 'slug'] }],
    [
      "a whole new query keeping the client's slug filter and locale (LaunchPad v4)",
      handler('    ctx.query = { populate: { seo: true }, filters: { slug: ctx.query.filters?.slug }, locale: ctx.query.locale };\n    await next();'),
      { filters: { slug: { $eq: 'home' }, title: 'x' }, locale: 'fr', sort: 'title' },
      { populate: { seo: true }, filters: { slug: { $eq: 'home' } }, locale: 'fr' },
    ],
    ['a function declaration returning a function expression', 'module.exports = function (config) { return async function (ctx, next) { ctx.query.sort = ["title:asc"]; await next(); }; };', { sort: 'x' }, { sort: ['title:asc'] }],
    ['an arrow returning the handler directly, numbers and negatives', 'export default (c, s) => async (context, done) => { context.query.pagination = { page: 1, pageSize: 10, n: -1 }; await done(); };', {}, { pagination: { page: 1, pageSize: 10, n: -1 } }],
  ])('%s', async (_name, source, client, expected) => {
    const reading = await read(source);
    if (!reading.ok) throw new Error(reading.reason);
    expect(applySteps(reading.steps, client)).toEqual(expected);
  });
});

describe('middlewares Hearth does not apply, and why', () => {
  it.each([
    ['a function call', handler('    ctx.query.populate = build();\n    await next();'), 'line 4: a function call is not a literal'],
    ['a variable that is not a const', handler('    ctx.query.populate = populate;\n    await next();', 'let populate = {};'), 'line 4: "populate" is not a const of this file'],
    ['a key Hearth does not apply', handler("    ctx.query.locale = 'fr';\n    await next();"), 'line 4: sets ctx.query.locale'],
    ['a condition', handler("    if (ctx.query.slug) ctx.query.populate = '*';\n    await next();"), 'line 4: a statement other than an assignment to ctx.query (IfStatement)'],
    ['code after next()', handler("    await next();\n    ctx.body = {};"), 'line 5: code runs after the controller answers'],
    ['no next()', handler("    ctx.query.populate = '*';"), 'line 3: the handler never calls next()'],
    ['a template with expressions', handler('    ctx.query.sort = `${field}:asc`;\n    await next();'), 'line 4: a template with expressions is not a literal'],
    ['a state change', handler('    ctx.state.seen = true;\n    await next();'), 'line 4: an assignment to something other than ctx.query'],
    ['code when loaded', `${handler('    await next();')}\nregister();`, 'line 8: runs code when loaded'],
    ['a syntax error', 'export default (config => {', 'cannot be parsed'],
  ])('%s', async (_name, source, reason) => {
    const reading = await read(source);
    expect(reading.ok).toBe(false);
    if (!reading.ok) expect(reading.reason).toContain(reason);
  });
});
