/** `Blog Post` -> `blog-post`: Strapi's singular/plural API ids and component file names. */
export function kebab(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** A naive English plural, good enough as a suggestion the person can edit. */
export function pluralize(word: string): string {
  if (word === '') return '';
  if (/(s|x|z|ch|sh)$/.test(word)) return `${word}es`;
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`;
  return `${word}s`;
}

/** A table name from an API id (`blog-posts` -> `blog_posts`). */
export function tableName(apiId: string): string {
  return apiId.replace(/-/g, '_');
}

/** Attribute names Strapi accepts: a letter, then letters, digits or underscores. */
export const ATTRIBUTE_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

/** Names the server reserves for every document. */
export const RESERVED_NAMES = new Set(['id', 'documentId', 'createdAt', 'updatedAt', 'publishedAt', 'createdBy', 'updatedBy', 'locale', 'localizations', 'status']);

/** Why an attribute name is not acceptable, or null. */
export function attributeNameProblem(name: string, taken: readonly string[]): string | null {
  if (name === '') return 'Give the field a name.';
  if (!ATTRIBUTE_NAME.test(name)) return 'Use letters, digits and underscores, starting with a letter.';
  if (RESERVED_NAMES.has(name)) return `"${name}" is reserved by Hearth.`;
  if (taken.includes(name)) return `Another field is already named "${name}".`;
  return null;
}
