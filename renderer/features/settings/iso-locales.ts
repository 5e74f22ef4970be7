/** ISO locale codes the Locales screen offers to pick from (a language, or a language and region). */
export const ISO_LOCALES: readonly string[] = [
  'af', 'am', 'ar', 'ar-AE', 'ar-EG', 'ar-MA', 'ar-SA', 'az', 'be', 'bg', 'bn', 'bs', 'ca', 'cs', 'cy', 'da', 'de', 'de-AT', 'de-CH', 'de-DE',
  'el', 'en', 'en-AU', 'en-CA', 'en-GB', 'en-IE', 'en-IN', 'en-NZ', 'en-SG', 'en-US', 'en-ZA', 'es', 'es-AR', 'es-CL', 'es-CO', 'es-ES', 'es-MX', 'es-US',
  'et', 'eu', 'fa', 'fi', 'fil', 'fr', 'fr-BE', 'fr-CA', 'fr-CH', 'fr-FR', 'ga', 'gl', 'gu', 'he', 'hi', 'hr', 'hu', 'hy', 'id', 'is', 'it', 'it-CH', 'it-IT',
  'ja', 'ka', 'kk', 'km', 'kn', 'ko', 'lb', 'lo', 'lt', 'lv', 'mk', 'ml', 'mn', 'mr', 'ms', 'mt', 'my', 'nb', 'ne', 'nl', 'nl-BE', 'nl-NL', 'nn',
  'pa', 'pl', 'pt', 'pt-BR', 'pt-PT', 'ro', 'ru', 'si', 'sk', 'sl', 'sq', 'sr', 'sr-Cyrl', 'sr-Latn', 'sv', 'sw', 'ta', 'te', 'th', 'tr', 'uk', 'ur', 'uz',
  'vi', 'zh', 'zh-CN', 'zh-Hans', 'zh-Hant', 'zh-HK', 'zh-TW', 'zu',
];

/**
 * A code's language name in English, the admin UI's language ("French", "Brazilian Portuguese"), or
 * null when the browser does not know it. Not in navigator.language: it can be a tag Intl refuses
 * (`en-US@posix` from a POSIX locale), which threw and left every name empty.
 */
export function languageName(code: string): string | null {
  try {
    const name = new Intl.DisplayNames(['en'], { type: 'language' }).of(code);
    return name && name !== code ? name : null;
  } catch {
    // Not a well-formed language tag.
    return null;
  }
}

/** The display name Strapi gives a locale it lists: "French (fr)". Empty when the code names no language. */
export function localeDisplayName(code: string): string {
  const name = languageName(code);
  return name ? `${name} (${code})` : '';
}
