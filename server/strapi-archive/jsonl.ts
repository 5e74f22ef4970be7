import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../errors/app-error.js';
import { BACKUP_MAX_LINE_BYTES } from '../limits.js';
import { linesOf } from '../backup/json-lines.js';
import { isRecord } from '../errors/is-record.js';

/** The stages of a Strapi archive, each a folder of `<stage>_NNNNN.jsonl` files. */
export type Stage = 'schemas' | 'entities' | 'links' | 'configuration';

/** A damaged or unusable Strapi archive: the import stops before the data dir is touched. */
export const strapiArchiveError = (message: string): AppError => new AppError('ValidationError', `invalid Strapi archive: ${message}`);

/** One parsed JSONL line and where it was read, for messages (`entities/entities_00001.jsonl:12`). */
export interface Located<T> {
  readonly value: T;
  readonly at: string;
}


/** The JSONL files of one stage, in order (`_00001`, `_00002`, ...); none is an empty stage. */
async function stageFiles(dir: string, stage: Stage): Promise<string[]> {
  const names = await readdir(join(dir, stage)).catch(() => [] as string[]);
  return names.filter((n) => new RegExp(`^${stage}_\\d{5}\\.jsonl$`).test(n)).sort();
}

/** Every line of a stage as a JSON object, with its `file:line`; a line that is not one is an error naming it. */
export async function* stageLines(dir: string, stage: Stage): AsyncGenerator<Located<Record<string, unknown>>> {
  for (const name of await stageFiles(dir, stage)) {
    let line = 0;
    for await (const text of linesOf(join(dir, stage, name), BACKUP_MAX_LINE_BYTES)) {
      line++;
      const at = `${stage}/${name}:${line}`;
      if (text === '') continue;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        throw strapiArchiveError(`${at}: not a JSON line (the archive may be truncated)`);
      }
      if (!isRecord(value)) throw strapiArchiveError(`${at}: not a JSON object`);
      yield { value, at };
    }
  }
}

/** Reads a whole stage into memory (schemas and configuration are small). */
export async function readStage(dir: string, stage: Stage): Promise<Located<Record<string, unknown>>[]> {
  const out: Located<Record<string, unknown>>[] = [];
  for await (const line of stageLines(dir, stage)) out.push(line);
  return out;
}

export { isRecord };
