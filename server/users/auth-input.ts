import { installYupLocale, yup } from '../documents/index.js';
import { AppError } from '../errors/app-error.js';
import { yupDetails } from '../errors/yup-details.js';
import { UP_PASSWORD_MAX_BYTES } from '../limits.js';
import { withoutPasswordValues } from './redact.js';

installYupLocale();

/**
 * The request bodies of the auth routes, checked with Strapi's yup schemas
 * (`users-permissions/server/controllers/validation/auth`) and its `validateYupSchema`
 * options (strict, every error at once), so messages and details are Strapi's.
 */

const password = () =>
  yup
    .string()
    .required()
    .test('password-bytes', `Password must be less than ${UP_PASSWORD_MAX_BYTES + 1} bytes`, (v: string | undefined) => !v || Buffer.byteLength(v, 'utf8') <= UP_PASSWORD_MAX_BYTES);
const confirmation = () => yup.string().required().oneOf([yup.ref('password')], 'Passwords do not match');

const SCHEMAS = {
  callback: yup.object({ identifier: yup.string().required(), password: yup.string().required() }),
  register: yup.object({ email: yup.string().email().required(), username: yup.string().required(), password: password() }),
  forgotPassword: yup.object({ email: yup.string().email().required() }).noUnknown(),
  resetPassword: yup.object({ password: password(), passwordConfirmation: confirmation(), code: yup.string().required() }).noUnknown(),
  changePassword: yup.object({ password: password(), passwordConfirmation: confirmation(), currentPassword: yup.string().required() }).noUnknown(),
  sendEmailConfirmation: yup.object({ email: yup.string().email().required() }),
  emailConfirmation: yup.object({ confirmation: yup.string().required() }),
};

/** The checked fields of each auth body. */
export interface AuthBodies {
  callback: { identifier: string; password: string };
  register: { email: string; username: string; password: string };
  forgotPassword: { email: string };
  resetPassword: { password: string; passwordConfirmation: string; code: string };
  changePassword: { password: string; passwordConfirmation: string; currentPassword: string };
  sendEmailConfirmation: { email: string };
  emailConfirmation: { confirmation: string };
}

/** Checks one auth body; a missing body is an empty object, as koa-body gives Strapi. */
export async function checkBody<K extends keyof AuthBodies>(kind: K, body: unknown): Promise<AuthBodies[K]> {
  const value = body === undefined || body === null ? {} : body;
  try {
    await SCHEMAS[kind].validate(value, { strict: true, abortEarly: false });
  } catch (err) {
    if (err instanceof yup.ValidationError) {
      const { message, details } = yupDetails(err);
      throw withoutPasswordValues(new AppError('ValidationError', message, details));
    }
    throw err;
  }
  return value as AuthBodies[K];
}
