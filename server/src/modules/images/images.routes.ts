import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import type { AppContext } from '../../context.js';
import { RATE_LIMITS } from '../../plugins/security.js';
import fs from 'node:fs/promises';
import { forbidden, notFound } from '../../lib/errors.js';
import { errorResponses } from '../../lib/schemas.js';
import { plainLetters } from '../../lib/text.js';
import { currentUser } from '../../plugins/auth.js';
import { imageFilePath } from './images.storage.js';
import {
  GalleryImage,
  GalleryList,
  IdParams,
  ImageDetail,
  ImageList,
  MAX_PAGE_SIZE,
  OwnImage,
  ProfileGalleryList,
  galleryQuery,
  pageQuery,
} from './images.schemas.js';
import type { GalleryPage, Page } from './images.repository.js';
import { CURSOR_MESSAGES, decodeCursor } from './gallery-cursor.js';
import { badRequest } from '../../lib/errors.js';
import { IMAGE_MESSAGES } from './images.service.js';
import type { SearchOrder } from '../search/search.service.js';

/** SPEC §9: galleries, related images and search load 120 at a time; profiles 30. */
const GALLERY_PAGE = 120;
const PROFILE_PAGE = 30;

const GalleryQuery = pageQuery(GALLERY_PAGE);
const ProfileQuery = pageQuery(PROFILE_PAGE);
/** The galleries ordered by time, which can also continue from a cursor. */
const CursorGalleryQuery = galleryQuery(GALLERY_PAGE);
const CursorProfileQuery = galleryQuery(PROFILE_PAGE);

/** D2: larger limits are clamped, not refused. */
function toPage(query: { skip?: number; limit?: number }, defaultLimit: number): Page {
  return {
    skip: query.skip ?? 0,
    limit: Math.min(query.limit ?? defaultLimit, MAX_PAGE_SIZE),
  };
}

/**
 * A gallery page by cursor or by offset. Both at once would be ambiguous (skip from where?),
 * so a cursor with a skip above 0 is refused; skip=0 is the schema's default and means
 * "from the cursor".
 */
function toGalleryPage(
  query: { skip?: number; limit?: number; cursor?: string },
  defaultLimit: number,
): GalleryPage {
  const page = toPage(query, defaultLimit);
  if (query.cursor === undefined) return page;
  if (page.skip > 0) throw badRequest(CURSOR_MESSAGES.withSkip);
  return { ...page, after: decodeCursor(query.cursor) };
}

const InteractionBody = Type.Object(
  {
    id_tipo_interazione: Type.Integer({
      title: 'id_tipo_interazione',
      minimum: 1,
      maximum: 7,
      errorMessage: 'Tipo di interazione non valido.',
    }),
  },
  { additionalProperties: false },
);

const InteractionSummary = Type.Object({
  interactions_count: Type.Object({
    likes: Type.Integer(),
    favorites: Type.Integer(),
    downloads: Type.Integer(),
    sad: Type.Integer(),
    dislikes: Type.Integer(),
    wow: Type.Integer(),
    views: Type.Integer(),
  }),
  is_liked: Type.Boolean(),
  is_favorited: Type.Boolean(),
  is_sad: Type.Boolean(),
  is_disliked: Type.Boolean(),
  is_wow: Type.Boolean(),
});

/** A file name fit for a download: the brand, the id and the title in plain letters. */
function downloadName(image: { id_image: number; titolo_img: string | null }): string {
  const slug = plainLetters(image.titolo_img ?? '')
    .replace(/\.[a-z0-9]{2,5}$/, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `muri-parlanti-${image.id_image}${slug === '' ? '' : `-${slug}`}.webp`;
}

export const imagesRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (
  app,
  { ctx },
) => {
  const { images, taxonomy, users, interactions } = ctx;
  const { publicCache } = app;

  app.get(
    '/images',
    {
      onRequest: app.guards.optional,
      schema: {
        tags: ['images'],
        summary: 'All approved images, newest first',
        querystring: CursorGalleryQuery,
        response: { 200: GalleryList, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      await publicCache.send(
        request,
        reply,
        (viewer) =>
          images.gallery({ kind: 'all' }, toGalleryPage(request.query, GALLERY_PAGE), viewer),
        images.ownReactions,
      );
      return reply;
    },
  );

  app.get(
    '/trending-images',
    {
      onRequest: app.guards.optional,
      schema: {
        tags: ['images'],
        summary: 'The 20 images with most activity over the last 7 days (D6)',
        response: {
          200: Type.Object({ images: Type.Array(GalleryImage) }),
          ...errorResponses(401),
        },
      },
    },
    async (request, reply) => {
      await publicCache.send(
        request,
        reply,
        (viewer) => images.trending(viewer),
        images.ownReactions,
      );
      return reply;
    },
  );

  app.get(
    '/search',
    {
      config: { rateLimit: RATE_LIMITS.search },
      onRequest: app.guards.optional,
      schema: {
        tags: ['images'],
        summary:
          'Approved images matching title, text on the wall, tags, category or uploader, best first (D6)',
        querystring: Type.Object({
          query: Type.String({
            title: 'query',
            maxLength: 200,
            errorMessage: {
              maxLength: 'La ricerca può contenere al massimo 200 caratteri.',
              required: 'Inserisci un testo da cercare.',
            },
          }),
          // Issue 8, goal 3: newest first, as an alternative to the best matches first.
          order: Type.Optional(
            Type.Unsafe<SearchOrder>({
              type: 'string',
              enum: ['relevance', 'newest'],
              title: 'order',
              description: 'relevance (default): best matches first; newest: newest first',
              errorMessage: 'L’ordine della ricerca deve essere "relevance" o "newest".',
            }),
          ),
          ...GalleryQuery.properties,
        }),
        response: { 200: ImageList, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      await publicCache.send(
        request,
        reply,
        async (viewer) => {
          const page = toPage(request.query, GALLERY_PAGE);
          const found = await ctx.search.search(
            request.query.query,
            page.skip,
            page.limit,
            request.query.order,
          );
          return { images: await images.inOrder(found.ids, viewer), total: found.total };
        },
        images.ownReactions,
      );
      return reply;
    },
  );

  app.get(
    '/images/:id',
    {
      onRequest: app.guards.optional,
      schema: {
        tags: ['images'],
        summary: 'One image with category, tags, uploader, counts and the own reactions',
        params: IdParams,
        response: { 200: ImageDetail, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      // An anonymous visitor's page of an image is kept like the lists: a popular picture's page
      // is the same bytes for everyone. Logged-in viewers get theirs afresh (their reactions,
      // and an uploader's or administrator's view of a picture under review).
      await publicCache.send(request, reply, (viewer) => images.detail(request.params.id, viewer));
      return reply;
    },
  );

  app.get(
    '/images/:id/related',
    {
      onRequest: app.guards.optional,
      schema: {
        tags: ['images'],
        summary: 'Approved images related to one (shared tags, same category), most related first',
        params: IdParams,
        querystring: GalleryQuery,
        response: { 200: ImageList, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      // No shared answer for logged-in viewers: the uploader and administrators also see the
      // related images of a picture still under review, which is a 404 for everyone else.
      await publicCache.send(request, reply, (viewer) =>
        images.related(request.params.id, toPage(request.query, GALLERY_PAGE), viewer),
      );
      return reply;
    },
  );

  app.get(
    '/images/:id/interactions',
    {
      onRequest: app.guards.optional,
      schema: {
        tags: ['interactions'],
        summary: 'Reaction counts and the requesting user’s own reactions (D5)',
        params: IdParams,
        response: { 200: InteractionSummary, ...errorResponses(400, 401, 404) },
      },
    },
    (request) => interactions.summary(request.params.id, request.user),
  );

  app.post(
    '/images/:id/interactions',
    {
      // Counts in the kept public lists may lag by a second; see plugins/public-cache.ts.
      config: { rateLimit: RATE_LIMITS.interactions, keepsPublicCache: true },
      onRequest: app.guards.optional,
      schema: {
        tags: ['interactions'],
        summary: 'Toggle a reaction (1, 2, 4, 5, 6; logged in) or record a view (7; anyone)',
        params: IdParams,
        body: InteractionBody,
        response: {
          200: Type.Object({
            action: Type.Union([
              Type.Literal('added'),
              Type.Literal('removed'),
              Type.Literal('exists'),
            ]),
          }),
          ...errorResponses(400, 401, 404),
        },
      },
    },
    (request) =>
      interactions.interact(
        request.params.id,
        request.body.id_tipo_interazione,
        request.user,
        request.ip,
      ),
  );

  app.get(
    '/images/:id/download',
    {
      onRequest: app.guards.user,
      schema: {
        tags: ['images'],
        summary: 'Download the image file; every download of a published image is counted (D5)',
        params: IdParams,
        response: errorResponses(400, 401, 404),
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const image = await images.findVisible(request.params.id, user);
      // Checked before counting: a download that cannot be served is not a download. Until
      // its job makes the full size (moments after the upload) the display size is what
      // there is to download.
      const variant = (
        await Promise.all(
          (['original', 'display'] as const).map(async (kind) => {
            try {
              await fs.access(imageFilePath(ctx.config.dataDir, image.filename, kind));
              return kind;
            } catch {
              return undefined;
            }
          }),
        )
      ).find((kind) => kind !== undefined);
      if (variant === undefined) throw notFound(IMAGE_MESSAGES.notFound);
      // Fastify answers HEAD with this handler too: a client asking for the headers (a
      // download manager's first look) has downloaded nothing yet.
      if (request.method !== 'HEAD') await interactions.recordDownload(image, user);
      reply.header('cache-control', 'private, no-store');
      reply.header('x-content-type-options', 'nosniff');
      // The decorated reply's root is the images folder (app.ts).
      return reply.download(
        `${variant === 'display' ? 'display/' : ''}${image.filename}`,
        downloadName(image),
      );
    },
  );

  // A category's and a tag's galleries differ only in the filter and the 404 check.
  const filteredGalleries = [
    {
      kind: 'category' as const,
      url: '/categories/:id/images',
      group: 'categories',
      summary: 'Approved images of a category, newest first',
      ensureExists: (id: number) => taxonomy.getCategory(id),
    },
    {
      kind: 'tag' as const,
      url: '/tags/:id/images',
      group: 'tags',
      summary: 'Approved images with a tag, newest first',
      ensureExists: (id: number) => taxonomy.getPublicTag(id),
    },
  ];
  for (const gallery of filteredGalleries) {
    app.get(
      gallery.url,
      {
        onRequest: app.guards.optional,
        schema: {
          tags: [gallery.group],
          summary: gallery.summary,
          params: IdParams,
          querystring: CursorGalleryQuery,
          response: { 200: GalleryList, ...errorResponses(400, 401, 404) },
        },
      },
      async (request, reply) => {
        await publicCache.send(
          request,
          reply,
          async (viewer) => {
            await gallery.ensureExists(request.params.id);
            return images.gallery(
              { kind: gallery.kind, id: request.params.id },
              toGalleryPage(request.query, GALLERY_PAGE),
              viewer,
            );
          },
          images.ownReactions,
        );
        return reply;
      },
    );
  }

  app.get(
    '/users/me/images',
    {
      onRequest: app.guards.user,
      schema: {
        tags: ['users'],
        summary: 'The own uploads of every status, with status and rejection reason (D13)',
        querystring: ProfileQuery,
        response: {
          200: Type.Object({
            images: Type.Array(OwnImage),
            total: Type.Integer(),
            pending: Type.Integer({ description: 'How many of all the uploads wait for review' }),
          }),
          ...errorResponses(400, 401),
        },
      },
    },
    (request) => images.own(currentUser(request), toPage(request.query, PROFILE_PAGE)),
  );

  app.get(
    '/users/me/liked-images',
    {
      onRequest: app.guards.user,
      schema: {
        tags: ['users'],
        summary: 'The images the logged-in user likes, newest like first',
        querystring: CursorGalleryQuery,
        response: { 200: GalleryList, ...errorResponses(400, 401) },
      },
    },
    (request) => {
      const user = currentUser(request);
      return images.gallery(
        { kind: 'liked', userId: user.id_utente },
        toGalleryPage(request.query, GALLERY_PAGE),
        user,
      );
    },
  );

  app.get(
    '/users/:id/liked-images',
    {
      onRequest: app.guards.user,
      schema: {
        tags: ['users'],
        summary: 'Liked images: only for the user themself, likes are private (D5)',
        params: IdParams,
        querystring: CursorGalleryQuery,
        response: { 200: GalleryList, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => {
      const user = currentUser(request);
      if (user.id_utente !== request.params.id) throw forbidden();
      return images.gallery(
        { kind: 'liked', userId: user.id_utente },
        toGalleryPage(request.query, GALLERY_PAGE),
        user,
      );
    },
  );

  app.get(
    '/users/:id/images',
    {
      onRequest: app.guards.optional,
      schema: {
        tags: ['users'],
        summary: 'A user’s approved images, newest first, with hasMore',
        params: IdParams,
        querystring: CursorProfileQuery,
        response: { 200: ProfileGalleryList, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      await publicCache.send(
        request,
        reply,
        async (viewer) => {
          await users.getPublic(request.params.id);
          return images.profileGallery(
            request.params.id,
            toGalleryPage(request.query, PROFILE_PAGE),
            viewer,
          );
        },
        images.ownReactions,
      );
      return reply;
    },
  );
};
