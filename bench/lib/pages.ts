/**
 * The marketing-page scenario's data: pages whose dynamic zone holds six section kinds (hero,
 * feature grid, recipe list, testimonials, gallery, call to action) with nested components,
 * relations to recipes and cuisines, and media, as the home pages of Strapi's LaunchPad and
 * FoodAdvisor demos are built. Seeded through the API like the recipes.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { query } from './common.js';
import { prng } from './data.js';
import { sendJson } from './http.js';
import { writePngBomb } from './png-bomb.js';

/** Pages seeded (the scenario cycles through them). */
export const PAGE_COUNT = 20;
/** Small images uploaded once and linked from every page. */
const IMAGE_SIZES = [[64, 48], [96, 64], [120, 90], [48, 48]] as const;

/** What the page scenario reads: every section populated, four relation levels below the zone (`on` fragments). */
export const PAGE_POPULATE = {
  seo: { populate: { metaImage: true } },
  blocks: {
    on: {
      'sections.hero': { populate: { image: true, buttons: { populate: { recipe: { populate: { cuisine: true } } } } } },
      'sections.feature-grid': {
        populate: { features: { populate: { icon: true, recipe: { populate: { cuisine: { populate: { region: true } } } }, link: { populate: { recipe: true } } } } },
      },
      'sections.recipe-list': { populate: { recipes: { populate: { cuisine: { populate: { region: true } }, tags: true } } } },
      'sections.testimonials': { populate: { quotes: { populate: { author: { populate: { avatar: true } }, cuisine: { populate: { region: true } } } } } },
      'sections.gallery': { populate: { images: true } },
      'sections.call-to-action': { populate: { link: { populate: { recipe: true } } } },
    },
  },
};

/** The path the scenario requests for one page (by slug, as a site's front end does). */
export const pagePath = (slug: string): string => `/api/pages?${query({ filters: { slug: { $eq: slug } }, populate: PAGE_POPULATE })}`;

async function uploadImage(url: string, token: string, bytes: Buffer, name: string): Promise<number> {
  const body = new FormData();
  body.append('files', new Blob([bytes], { type: 'image/png' }), name);
  const res = await fetch(`${url}/api/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`POST /api/upload answered ${res.status}: ${text.slice(0, 300)}`);
  const [file] = JSON.parse(text) as { id: number }[];
  if (!file) throw new Error('POST /api/upload answered no file');
  return file.id;
}

/** The `data` of page `i`. */
function page(i: number, refs: { recipes: readonly string[]; cuisines: readonly string[]; images: readonly number[] }): Record<string, unknown> {
  const rand = prng(0xba6e + i * 104_729);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
  const link = (label: string) => ({ label, url: `/recipes/${label.toLowerCase().replace(/\s+/g, '-')}`, newTab: rand() < 0.3, recipe: pick(refs.recipes) });
  return {
    title: `Page ${i}`,
    slug: `page-${i}`,
    seo: { metaTitle: `Page ${i} | Recipes`, metaDescription: `Everything about page ${i}.`, metaImage: pick(refs.images) },
    blocks: [
      { __component: 'sections.hero', title: `Cook something new, ${i}`, subtitle: 'Seasonal recipes from every region.', image: pick(refs.images), buttons: [link('Start cooking'), link('Browse all')] },
      {
        __component: 'sections.feature-grid',
        heading: 'Why cook with us',
        features: Array.from({ length: 6 }, (_, f) => ({ title: `Feature ${f}`, text: 'Short, tested, and seasonal.', icon: pick(refs.images), recipe: pick(refs.recipes), link: link(`Read more ${f}`) })),
      },
      { __component: 'sections.recipe-list', heading: 'Popular this week', recipes: Array.from({ length: 6 }, () => pick(refs.recipes)).filter((r, k, all) => all.indexOf(r) === k) },
      {
        __component: 'sections.testimonials',
        heading: 'What cooks say',
        quotes: Array.from({ length: 3 }, (_, q) => ({ text: `A quote number ${q}.`, author: { name: `Cook ${q}`, role: 'Home cook', avatar: pick(refs.images) }, cuisine: pick(refs.cuisines) })),
      },
      { __component: 'sections.gallery', heading: 'From our kitchen', images: [...refs.images] },
      { __component: 'sections.recipe-list', heading: 'Quick dinners', recipes: Array.from({ length: 4 }, () => pick(refs.recipes)).filter((r, k, all) => all.indexOf(r) === k) },
      { __component: 'sections.call-to-action', text: 'Get the weekly menu', link: link('Subscribe') },
    ],
  };
}

/** Uploads the images (generated into `work`) and creates PAGE_COUNT pages; returns their slugs. */
export async function seedPages(args: { url: string; token: string; work: string; recipes: readonly string[] }): Promise<string[]> {
  const { url, token } = args;
  const images: number[] = [];
  for (const [k, [width, height]] of IMAGE_SIZES.entries()) {
    const path = join(args.work, `page-image-${k}.png`);
    await writePngBomb(path, width, height);
    images.push(await uploadImage(url, token, await readFile(path), `page-image-${k}.png`));
  }
  const cuisines = (await sendJson<{ data: { documentId: string }[] }>(`${url}/api/cuisines?${query({ pagination: { pageSize: 100 } })}`, { token }, 200)).data.map((c) => c.documentId);
  const recipes = args.recipes.slice(0, 200);
  const slugs: string[] = [];
  for (let i = 0; i < PAGE_COUNT; i++) {
    const data = page(i, { recipes, cuisines, images });
    await sendJson(`${url}/api/pages`, { method: 'POST', token, json: { data } }, 201);
    slugs.push(String(data.slug));
  }
  return slugs;
}
