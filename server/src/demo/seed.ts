import type { AppContext } from '../context.js';
import { processAllSizes } from '../lib/imaging.js';
import { generatePassword } from '../modules/auth/passwords.js';
import { newStoredFilename, writeImageFiles } from '../modules/images/images.storage.js';
import * as demoRepo from './demo.repository.js';
import { PHRASES, THEMES, type Phrase } from './phrases.js';
import { createRandom, type Random } from './random.js';
import {
  releaseRenderCaches,
  renderWallWriting,
  wallWritingSpec,
  type WallWritingSpec,
} from './render.js';

/*
 * D12 demo content: on first start with an empty database, a living gallery — users, the
 * themed categories, tags, about 300 generated photos of wall writings (some photographed
 * twice, so the duplicate finder has work), a few uploads waiting for review and a rejected
 * one, follows, and reactions and views spread over the last 30 days so trending has a week.
 * Everything comes from one seed, so every newcomer sees the same gallery.
 */

export interface DemoOptions {
  images?: number;
  seed?: string;
  /** Called for every image created, after its row exists (analysis jobs, search index). */
  afterImage?: (imageId: number) => Promise<void>;
}

export interface DemoSummary {
  users: number;
  categories: number;
  tags: number;
  approved: number;
  pending: number;
  rejected: number;
  duplicateGroups: number;
  follows: number;
  interactions: number;
  seconds: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * How far back the demo's activity reaches: pictures are published up to 30 days ago and
 * uploaded up to 48 hours before that; follows and reactions are of the last 30 days.
 */
const ACTIVITY_DAYS = 32;
const DUPLICATE_GROUPS = 8;
const PENDING = 6;

const FIRST_NAMES = [
  'giulia',
  'marco',
  'francesca',
  'luca',
  'chiara',
  'alessandro',
  'sara',
  'matteo',
  'elena',
  'davide',
  'martina',
  'simone',
  'valentina',
  'andrea',
  'federica',
  'lorenzo',
  'alice',
  'tommaso',
  'giorgia',
  'riccardo',
  'beatrice',
  'stefano',
  'ilaria',
  'pietro',
  'noemi',
  'emanuele',
  'camilla',
  'filippo',
  'aurora',
  'gabriele',
];
const SURNAMES = ['rossi', 'russo', 'bianchi', 'romano', 'gallo', 'costa', 'fontana', 'conti'];

export async function seedDemoContent(
  ctx: AppContext,
  options: DemoOptions = {},
): Promise<DemoSummary> {
  const started = Date.now();
  const db = ctx.database.db;
  const random = createRandom(options.seed ?? 'muri-parlanti-demo');
  const now = ctx.clock.now().getTime();
  const total = options.images ?? 300;

  const users = await createUsers(ctx, random.fork('users'));
  await backdateUsers(ctx, random.fork('joined'), users, now);
  const categoryIds = new Map<string, number>();
  for (const theme of THEMES) {
    categoryIds.set(theme.category, (await ctx.taxonomy.createCategory(theme.category)).id);
  }

  // Which pictures to make: mostly distinct phrases, a few photographed twice.
  const plan = planPictures(random.fork('plan'), total);
  const imageIds: number[] = [];
  const approvedIds: number[] = [];
  let pending = 0;
  let rejected = 0;
  const specs = plan.map((picture, index) =>
    wallWritingSpec(random.fork(`picture-${index}`), picture.phrase),
  );
  plan.forEach((picture, index) => {
    const original = picture.copyOf === undefined ? undefined : specs[picture.copyOf];
    if (original !== undefined) specs[index] = rephotograph(original, random.fork(`copy-${index}`));
  });
  await inPool(plan, 2, async (picture, index) => {
    const pictureRandom = random.fork(`picture-${index}`);
    const spec = specs[index];
    if (spec === undefined) return;
    const jpeg = await renderWallWriting(spec);
    // Demo content is made before the server listens: its full size at once, no job.
    const processed = await processAllSizes(jpeg);
    const filename = newStoredFilename();
    await writeImageFiles(ctx.config.dataDir, filename, {
      original: processed.original,
      display: processed.display,
      thumb: processed.thumb,
    });

    const publishedAt = now - pictureRandom.float(0.02, 30) * DAY_MS;
    const createdAt = publishedAt - pictureRandom.float(1, 48) * 60 * 60 * 1000;
    const uploader = pictureRandom.pick(users);
    const status = picture.status;
    const id = await demoRepo.insertImageRow(db, {
      filename,
      original_filename: `IMG_${String(4000 + index)}.jpg`,
      titolo_img: picture.phrase.text,
      id_utente: uploader,
      id_categoria: categoryIds.get(picture.phrase.category) ?? 1,
      status,
      rejection_reason:
        status === 'rejected'
          ? 'Nella foto si leggono nome e cognome di una persona: per rispetto della privacy non pubblichiamo dati personali.'
          : null,
      reviewed_at: status === 'pending' ? null : new Date(publishedAt).toISOString(),
      mime_type: 'image/webp',
      size_bytes: processed.original.length,
      width: processed.width,
      height: processed.height,
      placeholder: processed.placeholder,
      created_at: new Date(createdAt).toISOString(),
      published_at: status === 'approved' ? new Date(publishedAt).toISOString() : null,
    });
    await ctx.taxonomy.assignTags(id, picture.phrase.tags);
    imageIds.push(id);
    if (status === 'approved') approvedIds.push(id);
    if (status === 'pending') pending += 1;
    if (status === 'rejected') rejected += 1;
  });

  releaseRenderCaches();
  const follows = await createFollows(ctx, random.fork('follows'), users, now);
  const interactions = await createInteractions(
    ctx,
    random.fork('interactions'),
    users,
    approvedIds.sort((a, b) => a - b),
    now,
  );
  await ctx.interactions.recountCounters();
  await ctx.taxonomy.recountAll();
  for (const id of imageIds.sort((a, b) => a - b)) await options.afterImage?.(id);

  return {
    users: users.length,
    categories: THEMES.length,
    tags: new Set(PHRASES.flatMap((phrase) => phrase.tags)).size,
    approved: approvedIds.length,
    pending,
    rejected,
    duplicateGroups: plan.filter((picture) => picture.copyOf !== undefined).length,
    follows,
    interactions,
    seconds: Math.round((Date.now() - started) / 100) / 10,
  };
}

export function isGalleryEmpty(ctx: AppContext): Promise<boolean> {
  return demoRepo.isGalleryEmpty(ctx.database.db);
}

async function createUsers(ctx: AppContext, random: Random): Promise<number[]> {
  const ids: number[] = [];
  for (const [index, first] of FIRST_NAMES.entries()) {
    const surname = random.pick(SURNAMES);
    const username = random.pick([
      `${first}.${surname}`,
      `${first}_${surname[0] ?? 'x'}`,
      `${first}${index + 80}`,
    ]);
    // Demo people cannot log in: their passwords are random and never shown.
    const user = await ctx.users.create({
      username,
      email: `${username}@demo.muriparlanti.it`,
      password: generatePassword(),
      ageConfirmed: true,
    });
    ids.push(user.id_utente);
  }
  return ids;
}

/**
 * Demo people joined before anything they did: a profile's 'Membro dal' after its own photos
 * would give the demo away. A fork of its own, so usernames and pictures stay what they were.
 */
async function backdateUsers(
  ctx: AppContext,
  random: Random,
  users: number[],
  now: number,
): Promise<void> {
  for (const id of users) {
    const joinedAt = new Date(now - (ACTIVITY_DAYS + random.float(1, 300)) * DAY_MS).toISOString();
    await demoRepo.setUserJoinedAt(ctx.database.db, id, joinedAt);
  }
}

interface Picture {
  phrase: Phrase;
  status: 'approved' | 'pending' | 'rejected';
  /** For a second photograph of the same writing: the index of the first. */
  copyOf?: number;
}

/**
 * The same wall and writing photographed again another day: other light, another angle, a
 * slightly different framing and camera. Text and picture stay recognisably the same, which
 * is what the duplicate finder must catch.
 */
function rephotograph(spec: WallWritingSpec, random: Random): WallWritingSpec {
  return {
    ...spec,
    light: {
      ...spec.light,
      exposure: spec.light.exposure + random.float(-0.12, 0.12),
      warmth: spec.light.warmth + random.float(-0.1, 0.1),
      gradient: Math.min(0.4, Math.max(0, spec.light.gradient + random.float(-0.08, 0.08))),
    },
    camera: {
      ...spec.camera,
      tilt: spec.camera.tilt + random.float(-1.5, 1.5),
      yaw: spec.camera.yaw + random.float(-0.04, 0.04),
      noise: spec.camera.noise + random.float(0, 3),
      jpegQuality: Math.round(random.float(70, 92)),
    },
  };
}

function planPictures(random: Random, total: number): Picture[] {
  const phrases = random.shuffle(PHRASES);
  // A gallery of a few pictures (DEMO_IMAGES=5 for a quick look) is all distinct and approved:
  // the copies and the review queue below need about twenty pictures to draw from.
  if (total < 20) {
    return phrases.slice(0, total).map((phrase) => ({ phrase, status: 'approved' }));
  }
  const distinct = total - DUPLICATE_GROUPS;
  const pictures: Picture[] = [];
  for (let i = 0; i < distinct; i += 1) {
    const phrase = phrases[i % phrases.length];
    if (phrase !== undefined) pictures.push({ phrase, status: 'approved' });
  }
  // The same writing photographed a second time: most were approved anyway, the last ones
  // wait for review, where the duplicate finder should flag them.
  for (let i = 0; i < DUPLICATE_GROUPS; i += 1) {
    const copyOf = Math.floor((i * distinct) / DUPLICATE_GROUPS);
    const original = pictures[copyOf];
    if (original === undefined) continue;
    pictures.push({
      phrase: original.phrase,
      status: i < DUPLICATE_GROUPS - 3 ? 'approved' : 'pending',
      copyOf,
    });
  }
  for (let i = 0; i < PENDING - 3; i += 1) {
    const picture = pictures[distinct - 1 - i];
    if (picture !== undefined) picture.status = 'pending';
  }
  const last = pictures[distinct - 1 - PENDING];
  if (last !== undefined) last.status = 'rejected';
  return pictures;
}

async function createFollows(
  ctx: AppContext,
  random: Random,
  users: number[],
  now: number,
): Promise<number> {
  const rows = new Map<string, { follower_id: number; followed_id: number; created_at: string }>();
  for (const follower of users) {
    for (let i = 0; i < random.int(0, 5); i += 1) {
      const followed = random.pick(users);
      if (followed === follower) continue;
      rows.set(`${follower}-${followed}`, {
        follower_id: follower,
        followed_id: followed,
        created_at: new Date(now - random.float(0, 30) * DAY_MS).toISOString(),
      });
    }
  }
  await demoRepo.insertFollows(ctx.database.db, [...rows.values()]);
  return rows.size;
}

/** Reactions and views of the last 30 days, more of them on a few popular pictures. */
async function createInteractions(
  ctx: AppContext,
  random: Random,
  users: number[],
  images: number[],
  now: number,
): Promise<number> {
  const rows: Parameters<typeof demoRepo.insertInteractions>[1] = [];
  for (const image of images) {
    const popularity = random.chance(0.1) ? random.float(3, 6) : random.float(0.2, 1.5);
    const when = () => new Date(now - random.float(0, 30) ** 1.3 * DAY_MS * 0.35).toISOString();
    for (const user of random.shuffle(users).slice(0, Math.round(random.int(0, 6) * popularity))) {
      rows.push({ id_image: image, id_utente: user, id_tipo_interazione: 1, created_at: when() });
      if (random.chance(0.3)) {
        rows.push({ id_image: image, id_utente: user, id_tipo_interazione: 2, created_at: when() });
      }
      const mood = random.weighted<number>([
        [6, 3],
        [4, 1],
        [5, 1],
        [0, 6],
      ]);
      if (mood !== 0) {
        rows.push({
          id_image: image,
          id_utente: user,
          id_tipo_interazione: mood,
          created_at: when(),
        });
      }
    }
    for (let i = 0; i < Math.round(random.int(0, 3) * popularity); i += 1) {
      rows.push({
        id_image: image,
        id_utente: random.pick(users),
        id_tipo_interazione: 3,
        created_at: when(),
      });
    }
    for (let i = 0; i < Math.round(random.int(3, 25) * popularity); i += 1) {
      const user = random.chance(0.3) ? random.pick(users) : null;
      rows.push({
        id_image: image,
        id_utente: user,
        id_tipo_interazione: 7,
        viewer_key: user === null ? `a:demo-${random.seed().toString(36)}` : `u:${user}`,
        created_at: when(),
      });
    }
  }
  await demoRepo.insertInteractions(ctx.database.db, rows);
  return rows.length;
}

/** Runs `work` over `items` with at most `size` at once: rendering uses both cores. */
async function inPool<T>(
  items: readonly T[],
  size: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const runners = Array.from({ length: size }, async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      const item = items[index];
      if (item !== undefined) await work(item, index);
    }
  });
  await Promise.all(runners);
}
