import fs from 'node:fs/promises';
import path from 'node:path';
import type { Executor } from '../../db/executor.js';
import type { Clock } from '../../lib/clock.js';
import {
  imageNameOfKeptPixels,
  imagesRoot,
  PIXELS_FOLDER,
  STORED_FILENAME,
} from './images.storage.js';

/*
 * Issue 7: a process killed mid-upload can leave a temporary file, or finished files whose row
 * was never committed (files are written before the row, so the opposite, a row without its
 * files, cannot happen; the full size, made by a job after the commit, has the row's kept
 * pixels until then); so can an upload whose connection to the database broke during its
 * transaction, since it cannot know whether the commit happened and keeps its files. The sweeper removes both kinds once they are older than a grace
 * period, long enough that an upload still in flight is never touched.
 */

/** An upload writes its files and commits its row within seconds; an hour is generous. */
export const ORPHAN_GRACE_MS = 60 * 60 * 1000;

/**
 * The folders swept, and how a file name there maps to the image name a row would hold. The
 * kept pixels (images/pixels/) of a row stay however old they are: its full-size job, even a
 * failed one, still needs them.
 */
const FOLDERS: Array<[string, (name: string) => string | undefined]> = [
  ['', storedName],
  ['display', storedName],
  ['thumbs', storedName],
  [PIXELS_FOLDER, imageNameOfKeptPixels],
];

function storedName(name: string): string | undefined {
  return STORED_FILENAME.test(name) ? name : undefined;
}
/** Names looked up in one query: well under every engine's bound-parameter limit. */
const LOOKUP_CHUNK = 500;

export interface SweepResult {
  temporary: number;
  orphans: number;
}

export async function sweepOrphanFiles(
  db: Executor,
  clock: Clock,
  dataDir: string,
  graceMs = ORPHAN_GRACE_MS,
): Promise<SweepResult> {
  const cutoff = clock.now().getTime() - graceMs;
  const result: SweepResult = { temporary: 0, orphans: 0 };
  const candidates = new Map<string, string[]>();
  for (const [folder, imageName] of FOLDERS) {
    const dir = path.join(imagesRoot(dataDir), folder);
    let names: string[];
    try {
      names = await fs.readdir(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    for (const name of names) {
      const isTemporary = name.endsWith('.tmp');
      const image = isTemporary ? undefined : imageName(name);
      if (!isTemporary && image === undefined) continue;
      const file = path.join(dir, name);
      const stat = await fs.stat(file).catch(() => undefined);
      if (stat === undefined || !stat.isFile() || stat.mtimeMs > cutoff) continue;
      if (isTemporary) {
        await fs.rm(file, { force: true });
        result.temporary += 1;
      } else if (image !== undefined) {
        candidates.set(image, [...(candidates.get(image) ?? []), file]);
      }
    }
  }
  const names = [...candidates.keys()];
  for (let start = 0; start < names.length; start += LOOKUP_CHUNK) {
    const chunk = names.slice(start, start + LOOKUP_CHUNK);
    const known = new Set(
      (
        await db.selectFrom('images').select('filename').where('filename', 'in', chunk).execute()
      ).map((row) => row.filename),
    );
    for (const name of chunk) {
      if (known.has(name)) continue;
      for (const file of candidates.get(name) ?? []) {
        await fs.rm(file, { force: true });
        result.orphans += 1;
      }
    }
  }
  return result;
}
