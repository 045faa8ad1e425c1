import type { Kysely } from 'kysely';
import type { Database } from '../../db/tables.js';
import { isForeignKeyViolation } from '../../db/errors.js';
import * as repo from './duplicates.repository.js';
import type { PairRow } from './duplicates.repository.js';
import {
  hashKeys,
  hashProbeKeys,
  signatureOf,
  textKeys,
  verifyPair,
  type Signature,
} from './duplicates.signature.js';

/*
 * Keeping the duplicate index current (D7). The analysis job calls indexImage once the text
 * and hash of an image are stored; that is the only moment an image is compared with others,
 * and it costs a few indexed lookups and at most a few hundred precise checks, whatever the
 * size of the gallery. Listing groups then only reads verified pairs.
 *
 * Every analysed image is indexed, whatever its status: approval and rejection change nothing
 * here, and the listing filters by status (approved and pending images group, rejected ones
 * never). Deleting an image deletes its keys and pairs by cascade.
 *
 * reindexAll rebuilds everything from the stored analyses (after a change of thresholds or
 * keys, or for images analysed before this index existed), in memory and in one transaction.
 */

/** Text candidates checked per image: the ones sharing most buckets. */
export const TEXT_CANDIDATE_LIMIT = 200;
/** Hash candidates checked per image; a probe value holds about N / 65,536 images. */
export const HASH_CANDIDATE_LIMIT = 2000;
/**
 * Pairs kept per indexed image, the most similar first. Groups are connected components, so a
 * writing photographed a thousand times still forms one group without storing half a million
 * pairs.
 */
export const MAX_PAIRS_PER_IMAGE = 100;

const PAGE = 5000;

export type DuplicateIndex = ReturnType<typeof createDuplicateIndex>;

export function createDuplicateIndex(db: Kysely<Database>) {
  /** (Re)indexes one analysed image: its keys, then its verified pairs with indexed images. */
  async function indexImage(id: number): Promise<void> {
    const image = await repo.findAnalysis(db, id);
    if (image === undefined) return;
    const signature = signatureOf(image);
    const texts = textKeys(signature);
    const hashes = hashKeys(signature);
    const hasText = signature.text === null ? 0 : 1;
    await db.transaction().execute(async (trx) => {
      await repo.removeImage(trx, id);
      await repo.insertTextKeys(
        trx,
        texts.map((bucket) => ({ bucket, id_image: id })),
      );
      await repo.insertHashKeys(
        trx,
        hashes.map((band_key) => ({ band_key, id_image: id, has_text: hasText })),
      );
    });
    // Looked up only after the keys are committed: of two images indexed at the same moment,
    // the later lookup is sure to see the other's keys, so their pair is never missed.
    const [byText, byHash] = await Promise.all([
      repo.textCandidates(db, texts, { exclude: id, limit: TEXT_CANDIDATE_LIMIT }),
      repo.hashCandidates(db, hashProbeKeys(signature), {
        exclude: id,
        limit: HASH_CANDIDATE_LIMIT,
        // Every close hash is a candidate: with text on both sides, verifyPair also asks the
        // texts to agree loosely (see duplicates.signature.ts).
        withoutTextOnly: false,
      }),
    ]);
    const others = (await repo.findAnalyses(db, [...byText, ...byHash])).map(signatureOf);
    const pairs = bestPairs(signature, others);
    if (pairs.length === 0) return;
    try {
      await repo.insertPairs(db, pairs);
    } catch (error) {
      // One of the images was deleted since the lookup: store the pairs that still stand.
      if (!isForeignKeyViolation(error)) throw error;
      const alive = new Set(
        await repo.existingIds(
          db,
          pairs.flatMap((pair) => [pair.id_a, pair.id_b]),
        ),
      );
      await repo.insertPairs(
        db,
        pairs.filter((pair) => alive.has(pair.id_a) && alive.has(pair.id_b)),
      );
    }
  }

  /**
   * Rebuilds the whole index from the stored analyses. Each image is compared with the images
   * before it, exactly as if they had been analysed one by one in id order, but with the
   * buckets in memory. Measured with test/duplicates.test.ts's speed check (texts from a
   * 130-word vocabulary, so buckets are far more crowded than with real writing) on a busy
   * 2-core machine: 14 s for 20,000 images, 200 s for 100,000; counting shared buckets of
   * popular words and writing the rows take most of it. A maintenance task, never a request.
   */
  async function reindexAll(): Promise<{ images: number; pairs: number }> {
    const signatures: Signature[] = [];
    for (let after = 0; ;) {
      const page = await repo.analysedPage(db, after, PAGE);
      if (page.length === 0) break;
      signatures.push(...page.map(signatureOf));
      after = page[page.length - 1]?.id_image ?? after;
    }

    const textIndex = new Map<number, number[]>();
    const hashIndex = new Map<number, number[]>();
    const textRows: Array<{ bucket: number; id_image: number }> = [];
    const hashRows: Array<{ band_key: number; id_image: number; has_text: 0 | 1 }> = [];
    const pairs: PairRow[] = [];
    // Shared-key counts per earlier image, in a typed array reset through the touched list:
    // popular phrases make millions of increments, which a Map would make the slowest part.
    const counts = new Uint16Array(signatures.length);
    const touched: number[] = [];
    for (const [position, signature] of signatures.entries()) {
      const id = signature.id_image;
      const texts = textKeys(signature);
      const hashes = hashKeys(signature);
      const hasText = signature.text === null ? 0 : 1;

      // Candidates among the images before this one, chosen as the SQL lookups choose them.
      for (const key of texts) {
        const list = textIndex.get(key);
        if (list === undefined) continue;
        for (const other of list) {
          if (counts[other] === 0) touched.push(other);
          counts[other] = (counts[other] ?? 0) + 1;
        }
      }
      const byText = mostShared(touched, counts, TEXT_CANDIDATE_LIMIT);
      for (const other of touched) counts[other] = 0;
      touched.length = 0;
      const byHash = new Set<number>();
      for (const key of hashProbeKeys(signature)) {
        const list = hashIndex.get(key);
        if (list === undefined) continue;
        for (const other of list) {
          if (byHash.size >= HASH_CANDIDATE_LIMIT) break;
          byHash.add(other);
        }
      }
      const others = [...new Set([...byText, ...byHash])].flatMap((other) => {
        const found = signatures[other];
        return found === undefined ? [] : [found];
      });
      pairs.push(...bestPairs(signature, others));

      for (const key of texts) {
        textRows.push({ bucket: key, id_image: id });
        push(textIndex, key, position);
      }
      for (const key of hashes) {
        hashRows.push({ band_key: key, id_image: id, has_text: hasText });
        push(hashIndex, key, position);
      }
    }

    await db.transaction().execute(async (trx) => {
      await repo.clearIndex(trx);
      await repo.insertTextKeys(trx, textRows);
      await repo.insertHashKeys(trx, hashRows);
      await repo.insertPairs(trx, pairs);
    });
    return { images: signatures.length, pairs: pairs.length };
  }

  return { indexImage, reindexAll };
}

/** The verified pairs of an image with candidates, the most similar first, capped. */
function bestPairs(image: Signature, others: readonly Signature[]): PairRow[] {
  const pairs: PairRow[] = [];
  for (const other of others) {
    if (other.id_image === image.id_image) continue;
    const verified = verifyPair(image, other);
    if (verified === null) continue;
    pairs.push({
      id_a: Math.min(image.id_image, other.id_image),
      id_b: Math.max(image.id_image, other.id_image),
      kind: verified.kind,
      similarity: verified.similarity,
    });
  }
  return pairs.sort((a, b) => b.similarity - a.similarity).slice(0, MAX_PAIRS_PER_IMAGE);
}

/**
 * The `limit` candidates sharing most keys, ties to the newest, as the SQL lookup orders them;
 * by counts rather than a full sort, since popular phrases give thousands of candidates.
 */
function mostShared(candidates: readonly number[], counts: Uint16Array, limit: number): number[] {
  if (candidates.length <= limit) return [...candidates];
  const byCount: number[][] = [];
  for (const candidate of candidates) {
    const count = counts[candidate] ?? 0;
    const list = byCount[count];
    if (list === undefined) byCount[count] = [candidate];
    else list.push(candidate);
  }
  const out: number[] = [];
  for (let count = byCount.length - 1; count > 0 && out.length < limit; count -= 1) {
    const list = byCount[count];
    if (list === undefined) continue;
    if (out.length + list.length > limit) list.sort((a, b) => b - a);
    for (const candidate of list) {
      if (out.length === limit) break;
      out.push(candidate);
    }
  }
  return out;
}

function push(index: Map<number, number[]>, key: number, value: number): void {
  const list = index.get(key);
  if (list === undefined) index.set(key, [value]);
  else list.push(value);
}
