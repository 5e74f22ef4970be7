/** Locale codes as Strapi accepts them (BCP 47-like). */
const LOCALE_CODE = /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/;

/** Whether a code is well-formed (it may still name no language Intl knows). */
export const isLocaleCode = (code: string): boolean => code.length <= 35 && LOCALE_CODE.test(code);
