/** Deterministic recipe-like documents for the benchmark (the same N gives the same data every run). */

/** mulberry32: a small seeded PRNG, so runs seed identical content. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const REGIONS = ['Europe', 'Asia', 'Africa', 'North America', 'South America', 'Oceania'];
export const CUISINES: readonly (readonly [string, number])[] = [
  ['Italian', 0], ['French', 0], ['Spanish', 0], ['Greek', 0], ['German', 0], ['Nordic', 0],
  ['Japanese', 1], ['Chinese', 1], ['Thai', 1], ['Indian', 1], ['Korean', 1], ['Vietnamese', 1],
  ['Moroccan', 2], ['Ethiopian', 2], ['Nigerian', 2], ['Mexican', 3], ['Cajun', 3], ['Canadian', 3],
  ['Peruvian', 4], ['Brazilian', 4], ['Argentinian', 4], ['Australian', 5], ['Polynesian', 5], ['Maori', 5],
];
export const TAG_COUNT = 40;
/** The cuisine the "filter through a relation" scenario selects (about 1 recipe in 24). */
export const FILTER_CUISINE = 'Italian';

const WORDS = (
  'tomato basil garlic onion lemon butter olive oil pepper salt thyme rosemary ginger chili ' +
  'coconut rice noodle bean lentil chickpea potato carrot spinach mushroom cheese cream yogurt ' +
  'honey vinegar soy sesame cumin paprika saffron cinnamon almond walnut apple pear plum fig ' +
  'roast braise simmer grill bake steam toss fold whisk knead rest slice dice crush marinate'
).split(' ');
const UNITS = ['g', 'kg', 'ml', 'l', 'tsp', 'tbsp', 'cup', 'piece'];

function words(rand: () => number, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(WORDS[Math.floor(rand() * WORDS.length)] ?? 'salt');
  return out.join(' ');
}

const sentence = (rand: () => number, n: number) => {
  const w = words(rand, n);
  return `${w.charAt(0).toUpperCase()}${w.slice(1)}.`;
};

/** A Strapi `blocks` body: a heading, paragraphs with some bold text, and a list. */
function blocksBody(rand: () => number): unknown[] {
  const paragraphs = 2 + Math.floor(rand() * 2);
  const body: unknown[] = [{ type: 'heading', level: 2, children: [{ type: 'text', text: sentence(rand, 4) }] }];
  for (let p = 0; p < paragraphs; p++) {
    body.push({
      type: 'paragraph',
      children: [
        { type: 'text', text: `${sentence(rand, 10)} ` },
        { type: 'text', text: words(rand, 3), bold: true },
        { type: 'text', text: ` ${sentence(rand, 8)}` },
      ],
    });
  }
  body.push({
    type: 'list',
    format: 'unordered',
    children: [0, 1, 2].map(() => ({ type: 'list-item', children: [{ type: 'text', text: sentence(rand, 5) }] })),
  });
  return body;
}

export interface Refs {
  /** documentIds of the cuisines, in CUISINES order. */
  readonly cuisines: readonly string[];
  readonly tags: readonly string[];
}

/** The `data` of recipe number `i`: a manyToOne, a manyToMany, a component, a repeatable component, a dynamic zone and a blocks body. */
export function recipe(i: number, refs: Refs, withSlug = true): Record<string, unknown> {
  const rand = prng(0x5eed + i * 7919);
  const title = `${sentence(rand, 3).slice(0, -1)} #${i}`;
  const tagCount = 1 + Math.floor(rand() * 4);
  const tags = new Set<string>();
  while (tags.size < tagCount) tags.add(refs.tags[Math.floor(rand() * refs.tags.length)] ?? '');
  const ingredients = Array.from({ length: 3 + Math.floor(rand() * 4) }, () => ({
    name: words(rand, 2),
    quantity: Math.round(rand() * 5000) / 10,
    unit: UNITS[Math.floor(rand() * UNITS.length)],
    optional: rand() < 0.2,
  }));
  const sections = Array.from({ length: 2 + Math.floor(rand() * 3) }, (_, s) =>
    s % 3 === 2
      ? { __component: 'recipe.tip', text: sentence(rand, 9), author: words(rand, 2) }
      : { __component: 'recipe.step', instruction: sentence(rand, 12), durationMinutes: 1 + Math.floor(rand() * 30) },
  );
  return {
    title,
    ...(withSlug ? { slug: `recipe-${i}` } : {}),
    summary: sentence(rand, 16),
    prepMinutes: 5 + Math.floor(rand() * 116),
    servings: 1 + Math.floor(rand() * 8),
    rating: Math.round(rand() * 50) / 10,
    vegetarian: rand() < 0.4,
    publishDate: new Date(Date.UTC(2015, 0, 1) + Math.floor(rand() * 3650) * 86_400_000).toISOString().slice(0, 10),
    cuisine: refs.cuisines[i % refs.cuisines.length],
    tags: [...tags],
    nutrition: {
      calories: 100 + Math.floor(rand() * 900),
      protein: Math.round(rand() * 600) / 10,
      fat: Math.round(rand() * 600) / 10,
      carbohydrates: Math.round(rand() * 1200) / 10,
    },
    ingredients,
    sections,
    body: blocksBody(rand),
  };
}
