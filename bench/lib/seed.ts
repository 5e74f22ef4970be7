import { CUISINES, REGIONS, TAG_COUNT, recipe, type Refs } from './data.js';
import { sendJson } from './http.js';

type Created = { data: { documentId: string } };

async function create(url: string, token: string, plural: string, data: unknown): Promise<string> {
  const res = await sendJson<Created>(`${url}/api/${plural}`, { method: 'POST', token, json: { data } }, 201);
  return res.data.documentId;
}

/** Regions, cuisines (manyToOne target, with a region) and tags (manyToMany target). */
export async function seedReferences(url: string, token: string): Promise<Refs> {
  const regions: string[] = [];
  for (const name of REGIONS) regions.push(await create(url, token, 'regions', { name }));
  const cuisines: string[] = [];
  for (const [name, region] of CUISINES) cuisines.push(await create(url, token, 'cuisines', { name, region: regions[region] }));
  const tags: string[] = [];
  for (let t = 0; t < TAG_COUNT; t++) tags.push(await create(url, token, 'tags', { label: `tag-${t}` }));
  return { cuisines, tags };
}

export interface SeedArgs {
  readonly url: string;
  readonly token: string;
  readonly refs: Refs;
  readonly count: number;
  readonly concurrency: number;
  /** Send the uid slug (see BenchOptions.slugs). */
  readonly slugs: boolean;
  /** Document counts at which seeding pauses (nothing in flight) and `onCheckpoint` runs. */
  readonly checkpoints: readonly number[];
  readonly onCheckpoint: (seeded: number) => Promise<void>;
}

export interface Seeded {
  /** documentIds of the recipes, in creation order. */
  readonly documentIds: string[];
  /** Seconds spent creating recipes (checkpoints excluded). */
  readonly seconds: number;
  /** Creation rate between checkpoints (shows whether writes slow down as the table grows). */
  readonly segments: { from: number; to: number; seconds: number; perSecond: number }[];
}

/** Creates `count` recipes through `POST /api/recipes`, several in flight, with progress on stderr. */
export async function seedRecipes(args: SeedArgs): Promise<Seeded> {
  const documentIds: string[] = new Array<string>(args.count);
  const stops = [...new Set([...args.checkpoints.filter((c) => c > 0 && c < args.count), args.count])].sort((a, b) => a - b);
  const segments: Seeded['segments'] = [];
  let next = 0;
  let done = 0;
  let busy = 0;
  let last = { at: performance.now(), done: 0 };
  const progress = () => {
    const now = performance.now();
    if (now - last.at < 5000) return;
    const rate = ((done - last.done) * 1000) / (now - last.at);
    last = { at: now, done };
    const eta = (args.count - done) / Math.max(rate, 0.001);
    process.stderr.write(`  seeded ${done.toLocaleString('en-US')}/${args.count.toLocaleString('en-US')} recipes (${rate.toFixed(0)}/s now, ~${eta.toFixed(0)} s left at that rate)\n`);
  };
  for (const stop of stops) {
    const from = next;
    const segmentStart = performance.now();
    const worker = async () => {
      while (next < stop) {
        const i = next++;
        documentIds[i] = await create(args.url, args.token, 'recipes', recipe(i, args.refs, args.slugs));
        done++;
        progress();
      }
    };
    await Promise.all(Array.from({ length: Math.min(args.concurrency, stop - next) }, worker));
    const seconds = (performance.now() - segmentStart) / 1000;
    busy += seconds;
    segments.push({ from, to: stop, seconds, perSecond: (stop - from) / seconds });
    process.stderr.write(`  seeded ${stop.toLocaleString('en-US')} recipes (${from.toLocaleString('en-US')}-${stop.toLocaleString('en-US')} at ${((stop - from) / seconds).toFixed(0)}/s)\n`);
    last = { at: performance.now(), done };
    if (stop !== args.count || args.checkpoints.includes(stop)) await args.onCheckpoint(stop);
  }
  return { documentIds, seconds: busy, segments };
}
