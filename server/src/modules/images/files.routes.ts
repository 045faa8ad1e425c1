import fs from 'node:fs/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import type { AppContext } from '../../context.js';
import { notFound } from '../../lib/errors.js';
import { errorResponses, MAX_ROW_ID } from '../../lib/schemas.js';
import { isUsable } from '../users/users.service.js';
import type { FileKind } from './file-urls.js';
import type { ImageRow } from './images.repository.js';
import { IdParams } from './images.schemas.js';
import { IMAGE_MESSAGES } from './images.service.js';
import { imageFilePath, imagesRoot, STORED_FILENAME, type ImageVariant } from './images.storage.js';

const FilenameParams = Type.Object({ filename: Type.String({ maxLength: 100 }) });
const SignedQuery = Type.Object({
  exp: Type.Optional(Type.String({ maxLength: 20 })),
  // The account the URL was signed for (file-urls.ts).
  u: Type.Optional(Type.String({ maxLength: 20 })),
  sig: Type.Optional(Type.String({ maxLength: 100 })),
});

const FOLDER: Record<ImageVariant, string> = {
  original: '',
  display: 'display/',
  thumb: 'thumbs/',
};

/**
 * The image files (D1): `/static/images/{filename}` (and its display/ and thumbs/ sizes) and
 * `/api/images/{id}/thumbnail`. Approved files are public and immutable (their names are
 * random and never reused). Pending and rejected files are served only to their uploader and
 * administrators: with a bearer token, or with the signed URL the API gave them (D4), while
 * they still may.
 * File names are checked against the stored-name pattern and then looked up in the database,
 * so no request path ever reaches the file system unchecked. Between an upload's answer and
 * its full-size job the full-size URL answers the display size, uncached.
 */
export const filesRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  async function serve(
    request: FastifyRequest,
    reply: FastifyReply,
    image: ImageRow | undefined,
    kind: FileKind,
    query: { exp?: string | undefined; u?: string | undefined; sig?: string | undefined },
  ) {
    if (image === undefined) throw notFound(IMAGE_MESSAGES.notFound);
    if (image.status === 'approved') {
      reply.header('cache-control', 'public, max-age=31536000, immutable');
    } else {
      if (!(await signedForOnlooker(image, kind, query))) {
        await app.guards.optional(request, reply);
        if (!ctx.images.canSee(image, request.user)) throw notFound(IMAGE_MESSAGES.notFound);
      }
      reply.header('cache-control', 'private, max-age=3600');
    }
    // An image is only ever an image: never sniffed as something else, never a document that
    // could run script if a hostile file slipped through.
    reply.header('x-content-type-options', 'nosniff');
    reply.header('content-security-policy', "default-src 'none'; sandbox");
    reply.header('cross-origin-resource-policy', 'same-origin');
    const root = imagesRoot(ctx.config.dataDir);
    if (kind === 'original' && !(await fullSizeExists(image.filename))) {
      // Its job has not made it yet (it is encoded after the upload's answer, issue 8 goal 6):
      // the display size stands in, kept by nobody, so the real file is fetched next time.
      reply.header('cache-control', 'no-store');
      return reply.sendFile(`${FOLDER.display}${image.filename}`, root);
    }
    return reply.sendFile(`${FOLDER[kind]}${image.filename}`, root);
  }

  /**
   * Whether the query is a signature made for an account that may still see the image, as its
   * bearer token would: usable, with the session version it was signed with (a new password,
   * a deactivation or an erasure request moved it on) and still the uploader or an
   * administrator (a demotion is not a new version).
   */
  async function signedForOnlooker(
    image: ImageRow,
    kind: FileKind,
    query: { exp?: string | undefined; u?: string | undefined; sig?: string | undefined },
  ): Promise<boolean> {
    const { exp, u, sig } = query;
    if (exp === undefined || sig === undefined || u === undefined) return false;
    if (!/^[1-9]\d{0,9}$/.test(u) || Number(u) > MAX_ROW_ID) return false;
    const holder = await ctx.users.getCurrent(Number(u));
    return (
      holder !== undefined &&
      isUsable(holder) &&
      ctx.fileUrls.verify(image.filename, kind, { exp, sig }, holder, Date.now()) &&
      ctx.images.canSee(image, holder)
    );
  }

  const fullSizeExists = async (filename: string) => {
    try {
      await fs.access(imageFilePath(ctx.config.dataDir, filename, 'original'));
      return true;
    } catch {
      return false;
    }
  };

  const byFilename = (filename: string) =>
    STORED_FILENAME.test(filename)
      ? ctx.images.findByFilename(filename)
      : Promise.resolve(undefined);

  const fileSchema = (summary: string) => ({
    tags: ['files'],
    summary,
    params: FilenameParams,
    querystring: SignedQuery,
    response: errorResponses(404),
  });

  app.get(
    '/static/images/:filename',
    { schema: fileSchema('The full image file') },
    async (request, reply) =>
      serve(request, reply, await byFilename(request.params.filename), 'original', request.query),
  );

  app.get(
    '/static/images/display/:filename',
    { schema: fileSchema('The display size (1280 px wide at most)') },
    async (request, reply) =>
      serve(request, reply, await byFilename(request.params.filename), 'display', request.query),
  );

  app.get(
    '/static/images/thumbs/:filename',
    { schema: fileSchema('The thumbnail (400 px wide)') },
    async (request, reply) =>
      serve(request, reply, await byFilename(request.params.filename), 'thumb', request.query),
  );

  app.get(
    '/api/images/:id/thumbnail',
    {
      schema: {
        tags: ['files'],
        summary: 'The thumbnail of an image (400 px wide)',
        params: IdParams,
        querystring: SignedQuery,
        response: errorResponses(400, 404),
      },
    },
    async (request, reply) =>
      serve(request, reply, await ctx.images.findById(request.params.id), 'thumb', request.query),
  );
};
