import type { Executor } from '../../db/executor.js';
import type { UserRow } from '../../db/tables.js';
import * as repo from './images.repository.js';

/*
 * A logged-in viewer's own toggles (like, favourite, sad, dislike, wow), which every list of
 * images they see carries. Asking the database for them on each page cost a logged-in gallery
 * about half its throughput (issue 8, goal 1), so each user's toggles are kept in memory,
 * under the `reactions_version` they were read with. Every change to a user's toggles raises
 * that number in its own transaction, and every authenticated request reads the user's row
 * afresh, so a kept set is used only while it is exactly current, whichever process made the
 * change. Deleted images may stay in a set: their ids are never handed out again.
 */

export interface Toggle {
  id_image: number;
  id_tipo_interazione: number;
}

export interface OwnTogglesOptions {
  /** Users kept, least recently seen dropped first (default 10,000). */
  maxUsers?: number;
  /** A user with more toggles than this is asked for page by page instead (default 2,000). */
  maxToggles?: number;
}

interface Kept {
  version: number;
  /** Image id → toggle types, ascending. */
  byImage: Map<number, number[]>;
}

export function createOwnToggles(db: Executor, options: OwnTogglesOptions = {}) {
  const maxUsers = options.maxUsers ?? 10_000;
  const maxToggles = options.maxToggles ?? 2_000;
  // A Map iterates in insertion order: re-inserting on use makes the first key the least
  // recently used.
  const kept = new Map<number, Kept>();

  async function load(viewer: UserRow): Promise<Kept | undefined> {
    const toggles = await repo.allTogglesOfUser(db, viewer.id_utente, maxToggles + 1);
    if (toggles.length > maxToggles) return undefined;
    const entry: Kept = { version: viewer.reactions_version, byImage: group(toggles) };
    kept.set(viewer.id_utente, entry);
    if (kept.size > maxUsers) {
      const oldest = kept.keys().next();
      if (oldest.done !== true) kept.delete(oldest.value);
    }
    return entry;
  }

  return {
    /** The viewer's toggles on these images, image by image in the order of `ids`, types ascending. */
    async of(viewer: UserRow, ids: readonly number[]): Promise<Toggle[]> {
      if (ids.length === 0) return [];
      let entry = kept.get(viewer.id_utente);
      if (entry !== undefined) {
        kept.delete(viewer.id_utente);
        if (entry.version === viewer.reactions_version) kept.set(viewer.id_utente, entry);
        else entry = undefined;
      }
      entry ??= await load(viewer);
      const byImage = entry?.byImage ?? group(await repo.togglesOfUser(db, viewer.id_utente, ids));
      return [...new Set(ids)].flatMap((id) =>
        (byImage.get(id) ?? []).map((type) => ({ id_image: id, id_tipo_interazione: type })),
      );
    },
  };
}

export type OwnToggles = ReturnType<typeof createOwnToggles>;

function group(toggles: readonly Toggle[]): Map<number, number[]> {
  const byImage = new Map<number, number[]>();
  for (const toggle of toggles) {
    const types = byImage.get(toggle.id_image) ?? [];
    types.push(toggle.id_tipo_interazione);
    byImage.set(toggle.id_image, types);
  }
  for (const types of byImage.values()) types.sort((a, b) => a - b);
  return byImage;
}
