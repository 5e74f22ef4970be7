import { notFound } from '../errors/app-error.js';
import type { Registry } from '../schema/registry.js';
import type { Caller } from '../auth/caller.js';
import type { ComponentModel, ContentTypeModel } from '../schema/types.js';
import { answer, textArg, type Args, type McpContext, type ToolAnswer } from './context.js';
import { apiTypes, reachableComponents, resolveType, schemaOf, summaryOf, visible } from './model-info.js';

/** The content types the caller may see, and the components they reach. */
export function visibleModels(registry: Registry, caller: Caller): { types: ContentTypeModel[]; components: ComponentModel[] } {
  const types = apiTypes(registry).filter((m) => visible(caller, m));
  return { types, components: reachableComponents(registry, types) };
}

/** The locale codes of the data dir, default first. */
export async function localeCodes(ctx: McpContext): Promise<string[]> {
  const { locales } = ctx.services;
  const [all, first] = await Promise.all([locales.list(), locales.defaultCode()]);
  return [first, ...all.map((l) => l.code).filter((c) => c !== first)];
}

/** `list_content_types`: `{ data: [...] }`, content types then components. */
export async function listContentTypes(ctx: McpContext): Promise<ToolAnswer> {
  const caller = await ctx.caller();
  const { types, components } = visibleModels(ctx.services.registry(), caller);
  const locales = await localeCodes(ctx);
  return answer({ data: [...types, ...components].map((m) => summaryOf(m, locales)) });
}

/** The type or component a name gives, if the caller may see it. */
export function modelNamed(registry: Registry, caller: Caller, name: string): ContentTypeModel | ComponentModel {
  const component = visibleModels(registry, caller).components.find((c) => c.uid === name);
  return component ?? resolveType(registry, caller, name);
}

/** `get_content_type`: `{ data: { uid, kind, ..., attributes } }`. */
export async function getContentType(ctx: McpContext, args: Args): Promise<ToolAnswer> {
  const caller = await ctx.caller();
  const name = textArg(args, 'contentType', true);
  const model = modelNamed(ctx.services.registry(), caller, name);
  if (!model) throw notFound();
  return answer({ data: schemaOf(model, await localeCodes(ctx)) });
}
