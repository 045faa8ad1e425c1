import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../../db/tables.js';
import { FULL_SIZE_JOB } from '../../jobs/full-size/full-size.job.js';
import { IMAGE_ANALYSIS_JOB } from '../../jobs/image-analysis/image-analysis.job.js';
import { unfinishedJobs } from '../../jobs/queue.js';
import type { Clock } from '../../lib/clock.js';
import { badRequest, notFound } from '../../lib/errors.js';
import type { FileUrlSigner } from '../images/file-urls.js';
import { stemWords } from '../search/search.text.js';
import type { TaxonomyService } from '../taxonomy/taxonomy.service.js';
import { UNCATEGORISED_ID } from '../taxonomy/taxonomy.service.js';
import { createDuplicateIndex } from './duplicates.index.js';
import * as repo from './duplicates.repository.js';
import type { GroupImageRow } from './duplicates.repository.js';
import {
  connectedComponents,
  signatureOf,
  textKeys,
  textSimilarity,
  type PairKind,
} from './duplicates.signature.js';

/*
 * Duplicate images (D7) and moderation hints (issue 4).
 *
 * Which images: approved and pending ones (a pending copy of a published photo is exactly what
 * a moderator wants to see), never rejected ones. Images not analysed yet have no text or hash
 * and join their group once the analysis job has run.
 *
 * How: the analysis job indexes each image (duplicates.index.ts) and stores the pairs that
 * passed the precise check (duplicates.signature.ts: text similarity tolerant to OCR slips, or
 * perceptual-hash distance for images without usable text). A listing reads those pairs, keeps
 * the ones between approved or pending images and joins them into groups (connected
 * components): no image is compared with another inside a request.
 *
 * 'Non sono duplicati' (D7) stores the group's sorted ids; a group whose ids are all inside a
 * dismissed set stays hidden (also after one of its images is deleted), and shows again as soon
 * as an image outside the set joins it.
 */

export const DUPLICATE_MESSAGES = {
  imageNotFound: 'Immagine non trovata',
  tooFewImages: 'Indica almeno due immagini diverse del gruppo.',
  tooManyImages: 'Un gruppo può contenere al massimo 100 immagini.',
  // Also what a group changed meanwhile (an image rejected or deleted) gets: hence the reload.
  notOneGroup:
    'Le immagini indicate non fanno parte di uno stesso gruppo di duplicati: ricarica l’elenco dei gruppi.',
} as const;

/** A dismissal names at most this many images (the body schema says so too). */
export const MAX_DISMISSED_IMAGES = 100;

/** Hints: approved images sharing buckets whose texts are compared for suggestions. */
const SUGGESTION_CANDIDATES = 50;
/** Hints: how alike a text must be to lend its category and tags (looser than duplicates). */
const SUGGESTION_SIMILARITY = 0.5;
/** Hints: a category or tag named in the text weighs as much as one identical image. */
const NAME_VOTE = 1;
const MAX_POSSIBLE_DUPLICATES = 10;
const MAX_SUGGESTED_TAGS = 5;
/** Name words shorter than this ('e', 'di') say nothing about a picture. */
const MIN_NAME_STEM_LENGTH = 3;

export interface DuplicateGroupImage {
  id_image: number;
  titolo_img: string | null;
  filename: string;
  status: string;
  user: { username: string };
  created_at: string;
  published_at: string | null;
  stats: { likes: number; downloads: number };
  size: number;
  width: number;
  height: number;
  thumbnail_url: string;
  image_url: string;
}

export interface DuplicateGroup {
  count: number;
  testo_estratto: string;
  kind: PairKind;
  images: DuplicateGroupImage[];
}

/** How far the reading of the photos is, which the groups depend on. */
export interface AnalysisProgress {
  /** Images whose text and hash are still to come; 0 when every image has been read. */
  images_to_analyse: number;
}

export interface PossibleDuplicate {
  id_image: number;
  titolo_img: string | null;
  thumbnail_url: string;
  similarity: number;
  kind: PairKind;
}

export interface ModerationHints {
  /** Approved images that look like copies of this one, most similar first. */
  possible_duplicates: PossibleDuplicate[];
  suggested_category: { id_categoria: number; nome: string } | null;
  suggested_tags: Array<{ id_tag: number; nome: string }>;
}

export type DuplicatesService = ReturnType<typeof createDuplicatesService>;

export function createDuplicatesService(
  db: Kysely<Database>,
  clock: Clock,
  deps: { fileUrls: FileUrlSigner; taxonomy: TaxonomyService },
) {
  const index = createDuplicateIndex(db);

  function present(row: GroupImageRow, now: number, admin: UserRow | null): DuplicateGroupImage {
    const urls = deps.fileUrls.urls(row, now, admin);
    return {
      id_image: row.id_image,
      titolo_img: row.titolo_img,
      filename: row.filename,
      status: row.status,
      user: { username: row.username },
      created_at: row.created_at,
      published_at: row.published_at,
      stats: { likes: row.likes_count, downloads: row.downloads_count },
      size: row.size_bytes,
      width: row.width,
      height: row.height,
      thumbnail_url: urls.thumbnail_url,
      image_url: urls.image_url,
    };
  }

  /** Every group there is, dismissed ones included, with its images' rows and its pairs. */
  async function allGroups() {
    const [allPairs, paired] = await Promise.all([repo.allPairs(db), repo.pairedImages(db)]);
    // Only approved and pending images are loaded: pairs with a rejected image fall away here.
    const rows = new Map(paired.map((row) => [row.id_image, row]));
    const pairs = allPairs.filter((pair) => rows.has(pair.id_a) && rows.has(pair.id_b));
    const components = connectedComponents(
      pairs.map((pair) => [pair.id_a, pair.id_b] as const),
    ).filter((ids) => ids.length >= 2);
    return { rows, pairs, components };
  }

  /** The groups an administrator sees: largest first, then the most recently grown. */
  async function listGroups(admin: UserRow | null = null): Promise<DuplicateGroup[]> {
    const [{ rows, pairs, components: every }, dismissed] = await Promise.all([
      allGroups(),
      repo.dismissedSets(db),
    ]);
    const textPaired = new Set<number>();
    for (const pair of pairs) {
      if (pair.kind === 'text') {
        textPaired.add(pair.id_a);
        textPaired.add(pair.id_b);
      }
    }
    const hidden = dismissalFilter(dismissed);
    const components = every.filter((ids) => !hidden(ids));
    const now = clock.now().getTime();
    const groups: Array<DuplicateGroup & { newest: string }> = [];
    for (const ids of components) {
      // The oldest first: usually the original, and the one to keep.
      const members = ids
        .flatMap((id) => {
          const row = rows.get(id);
          return row === undefined ? [] : [row];
        })
        .sort((a, b) => compareText(a.created_at, b.created_at) || a.id_image - b.id_image);
      groups.push({
        count: members.length,
        testo_estratto: groupText(members),
        kind: members.some((row) => textPaired.has(row.id_image)) ? 'text' : 'visual',
        images: members.map((row) => present(row, now, admin)),
        newest: members.reduce((max, row) => (row.created_at > max ? row.created_at : max), ''),
      });
    }
    groups.sort((a, b) => b.count - a.count || compareText(b.newest, a.newest));
    return groups.map(({ newest: _newest, ...group }) => group);
  }

  /**
   * Images not read yet: a group can form only once its images have been read, so an empty
   * list means 'no duplicates' only when this is 0. Each upload (and each demo image) has one
   * job at a time on its way to being read: its full size, whose job then queues the analysis
   * in the same transaction; so the unfinished jobs of the two count the images.
   */
  async function analysisProgress(): Promise<AnalysisProgress> {
    return { images_to_analyse: await unfinishedJobs(db, [FULL_SIZE_JOB, IMAGE_ANALYSIS_JOB]) };
  }

  /**
   * 'Non sono duplicati' (D7): remembers the set, so the group stays hidden until an image
   * outside it joins. Answers the stored ids, sorted.
   */
  async function dismissGroup(imageIds: readonly number[], admin: UserRow): Promise<number[]> {
    const ids = [...new Set(imageIds)].sort((a, b) => a - b);
    if (ids.length < 2) throw badRequest(DUPLICATE_MESSAGES.tooFewImages);
    if (ids.length > MAX_DISMISSED_IMAGES) throw badRequest(DUPLICATE_MESSAGES.tooManyImages);
    const existing = await repo.existingIds(db, ids);
    if (existing.length !== ids.length) throw notFound(DUPLICATE_MESSAGES.imageNotFound);
    // Images of one group (a part of it too: one may have joined since the list was read,
    // and the group then shows again with it); a set of unrelated images would otherwise be
    // kept, and would hide those images' group before it ever formed.
    const { components } = await allGroups();
    if (!components.some((group) => ids.every((id) => group.includes(id)))) {
      throw badRequest(DUPLICATE_MESSAGES.notOneGroup);
    }
    await repo.insertDismissal(db, {
      image_ids: ids.join(','),
      dismissed_by: admin.id_utente,
      created_at: clock.now().toISOString(),
    });
    return ids;
  }

  /**
   * Moderation hints for many images at once (the pending list): possible duplicates among
   * approved images, and a category and tags suggested from the extracted text, by the
   * categories and tags of approved images with a similar text and by the names of categories
   * and tags written on the wall. Images not found are left out of the map.
   */
  async function hintsForImages(
    ids: readonly number[],
    admin: UserRow | null = null,
  ): Promise<Map<number, ModerationHints>> {
    const own = await repo.imageSummaries(db, ids);
    const hints = new Map<number, ModerationHints>();
    if (own.length === 0) return hints;
    const ownIds = own.map((row) => row.id_image);

    // Neighbours lend their category and tags, weighted by similarity: stored duplicate pairs,
    // then approved images whose text is alike without being a duplicate.
    const neighbours = new Map<number, Map<number, { similarity: number; kind: PairKind }>>();
    const addNeighbour = (id: number, other: number, similarity: number, kind: PairKind) => {
      let mine = neighbours.get(id);
      if (mine === undefined) {
        mine = new Map<number, { similarity: number; kind: PairKind }>();
        neighbours.set(id, mine);
      }
      const known = mine.get(other);
      if (known === undefined || known.similarity < similarity) {
        mine.set(other, { similarity, kind });
      }
    };
    const duplicateOf = new Map<number, Set<number>>();
    for (const pair of await repo.approvedNeighbours(db, ownIds)) {
      addNeighbour(pair.id_image, pair.id_other, pair.similarity, pair.kind);
      let set = duplicateOf.get(pair.id_image);
      if (set === undefined) {
        set = new Set<number>();
        duplicateOf.set(pair.id_image, set);
      }
      set.add(pair.id_other);
    }
    const candidatesOf = await repo.textCandidatesOfMany(
      db,
      own.flatMap((row) => {
        const signature = signatureOf(row);
        return signature.text === null ? [] : [{ id: row.id_image, keys: textKeys(signature) }];
      }),
      { limit: SUGGESTION_CANDIDATES, approvedOnly: true },
    );
    const candidateTexts = new Map(
      (await repo.findAnalyses(db, [...candidatesOf.values()].flat())).map((row) => [
        row.id_image,
        signatureOf(row).text,
      ]),
    );
    for (const row of own) {
      const text = signatureOf(row).text;
      if (text === null) continue;
      for (const other of candidatesOf.get(row.id_image) ?? []) {
        const otherText = candidateTexts.get(other);
        if (otherText === null || otherText === undefined) continue;
        const similarity = textSimilarity(text, otherText, SUGGESTION_SIMILARITY);
        if (similarity !== null) addNeighbour(row.id_image, other, similarity, 'text');
      }
    }

    const neighbourIds = [...neighbours.values()].flatMap((mine) => [...mine.keys()]);
    const [summaries, tags, categories, usedTags] = await Promise.all([
      repo.imageSummaries(db, neighbourIds),
      repo.tagsOfImages(db, neighbourIds),
      deps.taxonomy.listCategories(),
      deps.taxonomy.listUsedTags(),
    ]);
    const summaryOf = new Map(summaries.map((row) => [row.id_image, row]));
    const tagsOf = new Map<number, Array<{ id_tag: number; nome: string }>>();
    for (const tag of tags) {
      const list = tagsOf.get(tag.id_image);
      if (list === undefined) tagsOf.set(tag.id_image, [{ id_tag: tag.id_tag, nome: tag.nome }]);
      else list.push({ id_tag: tag.id_tag, nome: tag.nome });
    }
    const categoryNames = categories
      .filter((category) => category.id !== UNCATEGORISED_ID)
      .map((category) => ({ ...category, stems: nameStems(displayName(category.nome)) }))
      .filter((category) => category.stems.length > 0);
    const tagNames = usedTags
      .map((tag) => ({ ...tag, stems: nameStems(tag.nome) }))
      .filter((tag) => tag.stems.length > 0);

    const now = clock.now().getTime();
    for (const row of own) {
      const categoryVotes = new Votes();
      const tagVotes = new Votes();
      const mine =
        neighbours.get(row.id_image) ?? new Map<number, { similarity: number; kind: PairKind }>();
      for (const [other, { similarity }] of mine) {
        const summary = summaryOf.get(other);
        if (summary === undefined) continue;
        if (summary.id_categoria !== UNCATEGORISED_ID) {
          categoryVotes.add(summary.id_categoria, summary.categoria_nome, similarity);
        }
        for (const tag of tagsOf.get(other) ?? []) tagVotes.add(tag.id_tag, tag.nome, similarity);
      }
      const written = new Set(stemWords(row.extracted_text ?? ''));
      if (written.size > 0) {
        for (const category of categoryNames) {
          if (category.stems.every((stem) => written.has(stem))) {
            categoryVotes.add(category.id, category.nome, NAME_VOTE);
          }
        }
        for (const tag of tagNames) {
          if (tag.stems.every((stem) => written.has(stem)))
            tagVotes.add(tag.id, tag.nome, NAME_VOTE);
        }
      }

      const duplicates = [...(duplicateOf.get(row.id_image) ?? [])]
        .flatMap((other) => {
          const summary = summaryOf.get(other);
          const pair = mine.get(other);
          if (summary === undefined || pair === undefined) return [];
          return [
            {
              id_image: other,
              titolo_img: summary.titolo_img,
              thumbnail_url: deps.fileUrls.urls(summary, now, admin).thumbnail_url,
              similarity: Math.round(pair.similarity * 1000) / 1000,
              kind: pair.kind,
            },
          ];
        })
        .sort((a, b) => b.similarity - a.similarity || a.id_image - b.id_image)
        .slice(0, MAX_POSSIBLE_DUPLICATES);
      const category = categoryVotes.top(1)[0];
      hints.set(row.id_image, {
        possible_duplicates: duplicates,
        suggested_category:
          category === undefined ? null : { id_categoria: category.id, nome: category.nome },
        suggested_tags: tagVotes
          .top(MAX_SUGGESTED_TAGS)
          .map((tag) => ({ id_tag: tag.id, nome: tag.nome })),
      });
    }
    return hints;
  }

  /** The hints of one image (see hintsForImages); 404 when the image does not exist. */
  async function hintsForImage(id: number, admin: UserRow | null = null): Promise<ModerationHints> {
    const hints = (await hintsForImages([id], admin)).get(id);
    if (hints === undefined) throw notFound(DUPLICATE_MESSAGES.imageNotFound);
    return hints;
  }

  return {
    listGroups,
    analysisProgress,
    dismissGroup,
    hintsForImage,
    hintsForImages,
    /** Called by the analysis job once an image's text and hash are stored. */
    indexImage: index.indexImage,
    /** Rebuilds the whole index from the stored analyses (maintenance, older databases). */
    reindexAll: index.reindexAll,
  };
}

/** Code-unit order: ISO timestamps sort by time, without the cost of a locale. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The text a group is shown with: the oldest image's usable reading, else any reading. */
function groupText(members: readonly GroupImageRow[]): string {
  const usable = members.find((row) => signatureOf({ ...row, phash: null }).text !== null);
  const any = usable ?? members.find((row) => (row.extracted_text ?? '').trim() !== '');
  return (any?.extracted_text ?? '').trim();
}

/** Whether a group lies wholly inside a set an administrator dismissed. */
function dismissalFilter(stored: readonly string[]): (ids: readonly number[]) => boolean {
  const setsWith = new Map<number, Array<Set<number>>>();
  for (const text of stored) {
    const set = new Set(
      text
        .split(',')
        .map(Number)
        .filter((id) => Number.isSafeInteger(id)),
    );
    for (const id of set) {
      const list = setsWith.get(id);
      if (list === undefined) setsWith.set(id, [set]);
      else list.push(set);
    }
  }
  return (ids) => {
    const first = ids[0];
    if (first === undefined) return false;
    return (setsWith.get(first) ?? []).some((set) => ids.every((id) => set.has(id)));
  };
}

/** 'messaggi_amore' → 'amore': the prefix and underscores of SPEC §3 category names. */
function displayName(nome: string): string {
  return nome.replace(/^messaggio?_/iu, '').replaceAll('_', ' ');
}

function nameStems(name: string): string[] {
  return [...new Set(stemWords(name))].filter((stem) => stem.length >= MIN_NAME_STEM_LENGTH);
}

/** Weighted votes for categories or tags; ties go to the name first in alphabetical order. */
class Votes {
  private readonly totals = new Map<number, { id: number; nome: string; votes: number }>();

  add(id: number, nome: string, weight: number): void {
    const known = this.totals.get(id);
    if (known === undefined) this.totals.set(id, { id, nome, votes: weight });
    else known.votes += weight;
  }

  top(count: number): Array<{ id: number; nome: string }> {
    return [...this.totals.values()]
      .sort((a, b) => b.votes - a.votes || a.nome.localeCompare(b.nome, 'it'))
      .slice(0, count);
  }
}
