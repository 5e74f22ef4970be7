import { useCallback, useRef, useState } from 'react';
import { describeError } from '../../api/errors';
import type { MediaFile } from '../../api/types';
import { useClient } from '../auth/session';
import { uploadedFiles } from './media-api';

/** One file in the upload queue. */
export interface UploadItem {
  readonly key: string;
  readonly name: string;
  readonly progress: number;
  readonly state: 'queued' | 'uploading' | 'done' | 'failed';
  readonly error?: string;
}

const PARALLEL = 2;
let counter = 0;

/** Uploads files one request each (so each has its own progress), two at a time, into `folder` (null: the root). */
export function useUploads(folder: number | null, onUploaded: (files: MediaFile[]) => void) {
  const client = useClient();
  const [items, setItems] = useState<UploadItem[]>([]);
  const done = useRef(onUploaded);
  done.current = onUploaded;

  const update = (key: string, changes: Partial<UploadItem>) => setItems((all) => all.map((i) => (i.key === key ? { ...i, ...changes } : i)));

  const uploadOne = useCallback(
    async (key: string, file: File): Promise<MediaFile[]> => {
      update(key, { state: 'uploading' });
      try {
        // Straight into the folder the person is looking at (the content API would file it under "API Uploads").
        const answer = await client.upload({ file, folder, onProgress: (fraction) => update(key, { progress: fraction }) });
        const files = uploadedFiles(answer);
        update(key, { state: 'done', progress: 1 });
        return files;
      } catch (error) {
        update(key, { state: 'failed', error: describeError(error) });
        return [];
      }
    },
    [client, folder],
  );

  const add = useCallback(
    async (files: readonly File[]) => {
      const queued = files.map((file) => ({ key: `upload-${++counter}`, file }));
      setItems((all) => [...all.filter((i) => i.state !== 'done'), ...queued.map(({ key, file }) => ({ key, name: file.name, progress: 0, state: 'queued' as const }))]);
      const results: MediaFile[] = [];
      let next = 0;
      const worker = async () => {
        while (next < queued.length) {
          const item = queued[next++];
          if (item) results.push(...(await uploadOne(item.key, item.file)));
        }
      };
      await Promise.all(Array.from({ length: Math.min(PARALLEL, queued.length) }, worker));
      if (results.length > 0) done.current(results);
      return results;
    },
    [uploadOne],
  );

  const clear = useCallback(() => setItems((all) => all.filter((i) => i.state === 'uploading' || i.state === 'queued')), []);
  return { items, add, clear };
}
