import { ADMIN_PASSWORD_MAX_LENGTH, ADMIN_PASSWORD_MIN_LENGTH } from '../limits.js';

/** Strapi admin's password rule; the messages name the rule broken, or null when the password is acceptable. */
export function passwordProblem(password: string): string | null {
  if (password.length < ADMIN_PASSWORD_MIN_LENGTH) return `password must be at least ${ADMIN_PASSWORD_MIN_LENGTH} characters`;
  if (password.length > ADMIN_PASSWORD_MAX_LENGTH) return `password must be at most ${ADMIN_PASSWORD_MAX_LENGTH} characters`;
  if (!/[a-z]/.test(password)) return 'password must contain at least one lowercase character';
  if (!/[A-Z]/.test(password)) return 'password must contain at least one uppercase character';
  if (!/\d/.test(password)) return 'password must contain at least one number';
  return null;
}
