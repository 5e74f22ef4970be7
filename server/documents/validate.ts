import { AppError } from '../errors/app-error.js';
import { yupDetails } from '../errors/yup-details.js';
import type { Registry } from '../schema/registry.js';
import type { Attribute, ComponentModel, ContentTypeModel, Model, ScalarAttribute } from '../schema/types.js';
import type { Row } from '../db/database.js';
import { blocksSchema, surelyValidBlocks } from './blocks-schema.js';
import { isBigIntegerInput, isValueError, toBigInteger } from '../schema/values.js';
import { installYupLocale, yup } from './yup-setup.js';

installYupLocale();

type AnySchema = yup.AnySchema;

/** The context a validation runs in, as Strapi's entity validator receives it. */
export interface EntityValidationOptions {
  readonly mode: 'creation' | 'update';
  /** Drafts skip `required`, `minLength` and component `min` checks, as in Strapi. */
  readonly isDraft: boolean;
  readonly locale: string | null;
  /** The row being updated (unchanged unique values on drafts are not re-checked). */
  readonly entity: Row | null;
  readonly isUnique: (args: { model: ContentTypeModel; attribute: ScalarAttribute; value: unknown; isDraft: boolean; locale: string | null; excludeId: number | null }) => Promise<boolean>;
  /** Checks media/relation ids exist; returns Strapi's message when some do not. */
  readonly checkRelations: (data: Record<string, unknown>) => Promise<string | null>;
  /**
   * The caller uses only whether the body is valid, not the cast value (the publish check):
   * `blocks` values that surely pass are not walked by yup (see surelyValidBlocks).
   */
  readonly checkOnly?: boolean;
}

/**
 * What a schema is built from. Schemas depend only on this and on the shape of the value (see
 * `signature`), so they are built once per shape and kept; what changes per call (the options,
 * the lookup failure) reaches the tests through yup's `context` (RunCtx).
 */
interface Ctx {
  readonly registry: Registry;
  readonly mode: 'creation' | 'update';
  readonly isDraft: boolean;
}

/** The per-call part of a validation, given to yup as `context`. */
interface RunCtx {
  readonly options: EntityValidationOptions;
  /** The first failure of a uniqueness lookup, thrown once validation ends. */
  readonly lookup: { failure: { error: unknown } | null };
}

const runCtx = (context: unknown): RunCtx => context as RunCtx;

/** yup 0.32's typings do not accept lazy schemas as array items, though yup does: one named cast. */
const lazy = (pick: (value: unknown) => AnySchema): AnySchema => yup.lazy(pick) as unknown as AnySchema;

const preventCast = <T extends AnySchema>(schema: T): T => schema.transform((_value: unknown, original: unknown) => original) as T;
const isNil = (v: unknown) => v === null || v === undefined;

/** Whether String()/Number() throw on a value: a JSON object (or a list of them) with its own `toString`/`valueOf` keys. */
function primitiveThrows(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  try {
    String(value);
    Number(value);
    return false;
  } catch {
    return true;
  }
}

/**
 * yup 0.32 looks each key of a value up in the schema's `fields`, an ordinary object: a key such as
 * `constructor` finds Object.prototype's member and crashes yup (a 500). With no prototype it is an
 * unknown key like any other. (Only entries of no known component get here: the others' keys are
 * checked first, by input-check.ts.)
 */
function withPlainFields<T extends yup.AnyObjectSchema>(schema: T): T {
  Object.setPrototypeOf(schema.fields, null);
  return schema;
}

/** The schema without yup's casts, which would throw a TypeError (a 500) where the type check answers a 400. */
function uncast<T extends AnySchema>(schema: T): T {
  const next = schema.clone();
  next.transforms = [];
  return next;
}

function notNil<T extends AnySchema>(schema: T): T {
  return schema.test('defined', '${path} must be defined.', (v: unknown) => !isNil(v)) as T;
}

function notNull<T extends AnySchema>(schema: T): T {
  return schema.test('defined', '${path} cannot be null.', (v: unknown) => v !== null) as T;
}

function withRequired<T extends AnySchema>(schema: T, required: boolean, mode: 'creation' | 'update'): T {
  if (!required) return schema.nullable() as T;
  return mode === 'creation' ? notNil(schema) : notNull(schema);
}

function withUnique<T extends AnySchema>(schema: T, attr: ScalarAttribute, model: Model): T {
  if (!attr.unique || model.modelType !== 'contentType') return schema;
  return schema.test('unique', 'This attribute must be unique', async (value: unknown, test) => {
    const ctx = runCtx(test.options.context);
    const { options } = ctx;
    if (isNil(value)) return true;
    if (options.isDraft && options.entity && value === options.entity[attr.name]) return true;
    // yup 0.32 never settles a validation whose async test rejects: keep the error for after it.
    try {
      return await options.isUnique({
        model,
        attribute: attr,
        value,
        isDraft: options.isDraft,
        locale: model.localized ? options.locale : null,
        excludeId: options.entity ? Number(options.entity.id) : null,
      });
    } catch (err) {
      ctx.lookup.failure ??= { error: err };
      return true;
    }
  }) as T;
}

function stringSchema(attr: ScalarAttribute, model: Model, ctx: Ctx) {
  let schema = preventCast(yup.string());
  if (attr.minLength !== undefined && Number.isInteger(attr.minLength) && attr.minLength > 0 && !ctx.isDraft) schema = schema.min(attr.minLength);
  if (attr.maxLength !== undefined && Number.isInteger(attr.maxLength) && attr.maxLength > 0) schema = schema.max(attr.maxLength);
  if (attr.regex !== undefined) schema = schema.matches(new RegExp(attr.regex), { excludeEmptyString: !attr.required });
  return withUnique(schema, attr, model);
}

function numberSchema(attr: ScalarAttribute, model: Model, integer: boolean) {
  let schema = integer ? yup.number().integer() : yup.number();
  if (typeof attr.min === 'number') schema = schema.min(integer ? Math.trunc(attr.min) : attr.min);
  if (typeof attr.max === 'number') schema = schema.max(integer ? Math.trunc(attr.max) : attr.max);
  return withUnique(schema, attr, model);
}

function bigIntegerSchema(attr: ScalarAttribute, model: Model) {
  const schema = yup
    .mixed()
    .test('biginteger', '${path} must be a valid integer', (v: unknown) => isNil(v) || isBigIntegerInput(v))
    .test('biginteger-range', '${path} must be between -9223372036854775808 and 9223372036854775807', (v: unknown) => {
      if (isNil(v) || !isBigIntegerInput(v)) return true;
      try {
        toBigInteger(v);
        return true;
      } catch (err) {
        if (isValueError(err)) return false;
        throw err;
      }
    });
  return withUnique(schema, attr, model);
}

function scalarSchema(attr: ScalarAttribute, model: Model, ctx: Ctx): AnySchema {
  switch (attr.type) {
    case 'string':
    case 'text':
    case 'richtext':
    case 'password':
      return stringSchema(attr, model, ctx);
    case 'email':
      return stringSchema(attr, model, ctx).email().min(1, '${path} cannot be empty');
    case 'uid':
      return stringSchema(attr, model, ctx).matches(/^[A-Za-z0-9-_.~]*$/);
    case 'enumeration':
      return yup.string().oneOf([...(attr.enum ?? []), null as unknown as string]);
    case 'boolean':
      return yup.boolean();
    case 'integer':
      return numberSchema(attr, model, true);
    case 'float':
    case 'decimal':
      return numberSchema(attr, model, false);
    case 'biginteger':
      return bigIntegerSchema(attr, model);
    case 'date':
    case 'time':
    case 'datetime':
    case 'timestamp':
      return withUnique(yup.mixed(), attr, model);
    case 'blocks':
      return blocksSchema();
    case 'json':
      return yup.mixed();
  }
}

function withMinMax<T extends yup.AnySchema & { min(n: number): T; max(n: number): T }>(
  schema: T,
  attr: { required: boolean; min: number | undefined; max: number | undefined },
  value: unknown,
): T {
  let next = schema;
  if (Number.isInteger(attr.min) && (attr.required || (Array.isArray(value) && value.length > 0))) next = next.min(attr.min as number);
  if (Number.isInteger(attr.max)) next = next.max(attr.max as number);
  return next;
}

function attributeSchema(attr: Attribute, model: Model, value: unknown, ctx: Ctx): AnySchema | null {
  const { mode, isDraft } = ctx;
  let schema: AnySchema;
  switch (attr.kind) {
    case 'localizations':
      return null;
    case 'scalar':
      schema = withRequired(scalarSchema(attr, model, ctx), !isDraft && attr.required, mode);
      if (primitiveThrows(value)) schema = uncast(schema);
      break;
    case 'media':
      schema = yup.mixed();
      break;
    case 'relation':
      schema = preventCast(Array.isArray(value) ? yup.array().of(yup.mixed()) : yup.mixed());
      break;
    case 'component': {
      const component = ctx.registry.component(attr.component);
      if (!component) return null;
      if (attr.repeatable) {
        let list = yup.array().of(
          lazy((item: unknown) =>
            cached(ctx, component, `item|${ctx.mode}|${ctx.isDraft}|${signature(component, item, ctx)}`, () =>
              modelSchema(component, item, ctx).test('defined', '${path} cannot be null.', (v: unknown) => v !== null),
            ),
          ),
        );
        list = withRequired(list, true, mode);
        if (!isDraft) list = withMinMax(list, attr, value);
        schema = preventCast(list);
      } else {
        schema = preventCast(withRequired(modelSchema(component, value, ctx), !isDraft && attr.required, mode));
      }
      break;
    }
    case 'dynamiczone': {
      const allComponents = [...ctx.registry.componentUidsForMessages];
      let list = yup.array().of(
        lazy((item: unknown) => {
          const uid = typeof item === 'object' && item !== null ? (item as Record<string, unknown>).__component : undefined;
          const component = typeof uid === 'string' ? ctx.registry.component(uid) : undefined;
          const build = () => {
            const base = yup
              .object()
              .shape({
                __component: yup
                  .string()
                  .required()
                  .oneOf(allComponents)
                  // Strapi checks only that the component exists; Hearth also refuses one this zone does not allow.
                  .test('allowed-component', `\${path} must be one of the following values: ${attr.components.join(', ')}`, (v: unknown) => isNil(v) || attr.components.includes(String(v))),
              })
              .test('defined', '${path} cannot be null.', (v: unknown) => v !== null);
            return component ? base.concat(modelSchema(component, item, ctx)) : withPlainFields(base);
          };
          // Entries of no known component are built each time (their schema is mutated by withPlainFields).
          return component ? cached(ctx, component, `zone|${model.uid}.${attr.name}|${ctx.mode}|${ctx.isDraft}|${signature(component, item, ctx)}`, build) : build();
        }),
      );
      list = withRequired(list, true, mode);
      if (!isDraft) list = withMinMax(list, attr, value);
      schema = preventCast(list);
      break;
    }
  }
  if (mode === 'creation') {
    const defaultValue =
      (attr.kind === 'component' && attr.repeatable) || attr.kind === 'dynamiczone'
        ? attr.required
          ? undefined
          : []
        : attr.kind === 'scalar'
          ? attr.default
          : undefined;
    schema = schema.default(defaultValue);
  } else {
    schema = schema.default(undefined);
  }
  return schema;
}

const asRecord = (data: unknown): Record<string, unknown> => (typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {});

/** What of a value its schema depends on (attributeSchema's uses of `value`), as a cache key. */
function signature(model: Model, data: unknown, ctx: Ctx): string {
  const record = asRecord(data);
  let out = '';
  for (const attr of model.attributes.values()) {
    const value = record[attr.name];
    if (attr.kind === 'scalar') out += primitiveThrows(value) ? 'u' : '.';
    else if (attr.kind === 'relation' || attr.kind === 'dynamiczone') out += Array.isArray(value) ? (value.length > 0 ? 'n' : 'a') : '.';
    else if (attr.kind === 'component' && attr.repeatable) out += Array.isArray(value) && value.length > 0 ? 'n' : '.';
    else if (attr.kind === 'component') {
      const component = ctx.registry.component(attr.component);
      out += `(${component ? signature(component, value, ctx) : ''})`;
    } else out += '.';
  }
  return out;
}

/** Built schemas, per registry (a schema change builds a new one), model and shape. */
const built = new WeakMap<Registry, WeakMap<Model, Map<string, yup.AnyObjectSchema>>>();

function cached(ctx: Ctx, model: Model, key: string, build: () => yup.AnyObjectSchema): yup.AnyObjectSchema {
  let byModel = built.get(ctx.registry);
  if (!byModel) built.set(ctx.registry, (byModel = new WeakMap()));
  let byKey = byModel.get(model);
  if (!byKey) byModel.set(model, (byKey = new Map()));
  let schema = byKey.get(key);
  if (!schema) byKey.set(key, (schema = build()));
  return schema;
}

function modelSchema(model: ContentTypeModel | ComponentModel, data: unknown, ctx: Ctx): yup.AnyObjectSchema {
  return cached(ctx, model, `${ctx.mode}|${ctx.isDraft}|${signature(model, data, ctx)}`, () => {
    const shape: Record<string, AnySchema> = {};
    const record = asRecord(data);
    for (const attr of model.attributes.values()) {
      const schema = attributeSchema(attr, model, record[attr.name], ctx);
      if (schema) shape[attr.name] = schema;
    }
    return yup.object().shape(shape);
  });
}

/**
 * The value with each `blocks` value that surely passes yup replaced by `[]` (which passes alike),
 * at the root and in single components: yup then gives the same errors without walking those
 * blocks. Errors of an object's fields come in the order of its keys; those of a list's items come
 * in the order the items finish (yup sorts nothing there), so blocks inside lists (repeatable
 * components, dynamic zones) are left as they are: walking less there would reorder the errors.
 */
function withoutValidBlocks(model: Model, data: Record<string, unknown>, registry: Registry): Record<string, unknown> {
  let out: Record<string, unknown> | null = null;
  for (const attr of model.attributes.values()) {
    const value = data[attr.name];
    let next = value;
    if (attr.kind === 'scalar' && attr.type === 'blocks') {
      if (Array.isArray(value) && value.length > 0 && surelyValidBlocks(value)) next = [];
    } else if (attr.kind === 'component' && !attr.repeatable && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      const component = registry.component(attr.component);
      if (component) next = withoutValidBlocks(component, value as Record<string, unknown>, registry);
    }
    if (next !== value) (out ??= { ...data })[attr.name] = next;
  }
  return out ?? data;
}

/** The `details` Strapi gives a failed yup validation. */
const toDetails = (error: yup.ValidationError) => yupDetails(error);

/**
 * Validates a content-type body as Strapi's entity validator does (yup, same messages, same
 * draft leniency), returning the cast data (defaults applied) or throwing a 400 ValidationError.
 */
export async function validateEntity(
  model: ContentTypeModel,
  data: Record<string, unknown>,
  registry: Registry,
  options: EntityValidationOptions,
): Promise<Record<string, unknown>> {
  const ctx: Ctx = { registry, mode: options.mode, isDraft: options.isDraft };
  const run: RunCtx = { options, lookup: { failure: null } };
  if (options.checkOnly) data = withoutValidBlocks(model, data, registry);
  const schema = cached(ctx, model, `root|${ctx.mode}|${ctx.isDraft}|${signature(model, data, ctx)}`, () =>
    modelSchema(model, data, ctx)
    .test('relations-test', 'check that all relations exist', async function relations(value: unknown) {
      let message: string | null;
      try {
        message = await runCtx(this.options.context).options.checkRelations((value ?? {}) as Record<string, unknown>);
      } catch (err) {
        // Strapi keeps the message of its own ValidationErrors from the relations store; anything else is generic.
        message = err instanceof AppError && err.name === 'ValidationError' ? err.message : 'Invalid relations';
      }
      return message === null ? true : this.createError({ path: this.path, message });
    })
    .required(),
  );
  try {
    const valid = (await schema.validate(data, { strict: false, abortEarly: false, context: run })) as Record<string, unknown>;
    if (run.lookup.failure) throw run.lookup.failure.error;
    return valid;
  } catch (err) {
    if (run.lookup.failure) throw run.lookup.failure.error;
    if (err instanceof yup.ValidationError) {
      const { message, details } = toDetails(err);
      throw new AppError('ValidationError', message, details);
    }
    throw err;
  }
}
