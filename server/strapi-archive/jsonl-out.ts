import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { lineWriter } from '../backup/json-lines.js';
import type { Stage } from './jsonl.js';

/**
 * Strapi's split of a stage into `<stage>_00001.jsonl`, `_00002`...: a file is closed before the
 * line that would take it past the limit, measured as Strapi measures it (JavaScript string
 * length of the buffered lines; data-transfer's createTarEntryStream, default 2.56e8).
 */
const STRAPI_JSONL_MAX_SIZE = 2.56e8;

/** A stage being written: lines in, member paths (relative to the staging folder) out. */
export interface StageWriter {
  write(value: unknown): Promise<void>;
  /** Closes the last file; resolves to the members written, in order. */
  end(): Promise<string[]>;
}

/** Writes one stage's JSON lines under `root/<stage>/`, split as Strapi splits them. */
export function stageWriter(root: string, stage: Stage, maxSize: number = STRAPI_JSONL_MAX_SIZE): StageWriter {
  type Writer = ReturnType<typeof lineWriter>;
  const members: string[] = [];
  const state: { current: Writer | null; size: number } = { current: null, size: 0 };
  const next = async (): Promise<Writer> => {
    await state.current?.end();
    await mkdir(join(root, stage), { recursive: true });
    const member = `${stage}/${stage}_${String(members.length + 1).padStart(5, '0')}.jsonl`;
    members.push(member);
    const writer = lineWriter(join(root, member));
    state.current = writer;
    state.size = 0;
    return writer;
  };
  return {
    async write(value) {
      const line = JSON.stringify(value);
      const chunk = line.length + 1;
      if (chunk > maxSize) throw new Error(`a ${stage} line is ${chunk} characters, more than a Strapi archive file holds (${maxSize})`);
      const writer = state.current === null || state.size + chunk > maxSize ? await next() : state.current;
      state.size += chunk;
      await writer.write(line);
    },
    async end() {
      await state.current?.end();
      state.current = null;
      return members;
    },
  };
}
