import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import type { AppContext } from '../../context.js';
import { errorResponses, IsoDateTime } from '../../lib/schemas.js';
import { currentUser } from '../../plugins/auth.js';
import { IdParams } from '../images/images.schemas.js';
import { Classification } from '../moderation/moderation.schemas.js';
import { REJECTION_REASON_MAX_LENGTH } from '../moderation/moderation.service.js';

const FilenameParams = Type.Object({
  filename: Type.String({ title: 'filename', maxLength: 100 }),
});

const PendingImage = Type.Object({
  id_image: Type.Integer(),
  filename: Type.String(),
  title: Type.Union([Type.String(), Type.Null()]),
  description: Type.Union([Type.String(), Type.Null()]),
  status: Type.String(),
  user: Type.Object({ id_utente: Type.Integer(), username: Type.String() }),
  category: Type.Object({ id_categoria: Type.Integer(), name: Type.String() }),
  tags: Type.Array(Type.String()),
  file_info: Type.Object({
    size_bytes: Type.Integer(),
    width: Type.Integer(),
    height: Type.Integer(),
    mime_type: Type.String(),
  }),
  image_url: Type.String(),
  display_url: Type.String(),
  thumbnail_url: Type.String(),
  extracted_text: Type.Union([Type.String(), Type.Null()]),
  created_at: IsoDateTime,
});

/**
 * Issue 4: what lets an administrator decide at a glance, asked for by the detail dialog of one
 * image. Not sent with the list: finding a thousand images' neighbours took seconds
 * (docs/PERFORMANCE.md, "The pending list without its hints"), and the list reloads after
 * every decision.
 */
const ModerationHints = Type.Object({
  possible_duplicates: Type.Array(
    Type.Object({
      id_image: Type.Integer(),
      titolo_img: Type.Union([Type.String(), Type.Null()]),
      thumbnail_url: Type.String(),
      similarity: Type.Number(),
      kind: Type.String(),
    }),
  ),
  suggested_category: Type.Union([
    Type.Object({ id_categoria: Type.Integer(), nome: Type.String() }),
    Type.Null(),
  ]),
  suggested_tags: Type.Array(Type.Object({ id_tag: Type.Integer(), nome: Type.String() })),
});

const Decision = Type.Object({
  id_image: Type.Integer(),
  filename: Type.String(),
  status: Type.String(),
});

/**
 * D4: the reason arrives as raw text even when the content type says JSON. Accepted: a JSON
 * string, a JSON object with `reason`, or plain text. JSON null, or an object or a list
 * without a `reason` string, is no reason (its JSON is never mailed as one); anything else (a
 * number, text that is not JSON) is taken as typed.
 */
export function parseReason(body: string): string {
  const text = body.trim();
  if (text === '') return '';
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'string') return parsed;
    if (typeof parsed === 'object') {
      const reason = parsed !== null && 'reason' in parsed ? parsed.reason : undefined;
      return typeof reason === 'string' ? reason : '';
    }
  } catch {
    // Not JSON: the text itself is the reason.
  }
  return text;
}

export const moderationRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (
  app,
  { ctx },
) => {
  app.addHook('onRequest', app.guards.admin);

  app.get(
    '/admin/pending-images',
    {
      schema: {
        tags: ['admin'],
        summary: 'Images waiting for review, oldest first',
        response: {
          200: Type.Object({ images: Type.Array(PendingImage), total: Type.Integer() }),
          ...errorResponses(401, 403),
        },
      },
    },
    async (request) => {
      // The files' signed URLs are this administrator's (file-urls.ts).
      const images = await ctx.images.pending(currentUser(request));
      return { images, total: images.length };
    },
  );

  app.get(
    '/admin/pending-images/:id/hints',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Possible duplicates, and a category and tags suggested by images whose text is alike',
        params: IdParams,
        response: { 200: ModerationHints, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => ctx.duplicates.hintsForImage(request.params.id, currentUser(request)),
  );

  app.put(
    '/admin/approve-image/:filename',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Approve a pending image: it becomes public and its uploader is told (D4, D8). No body ' +
          '(SPEC §7), or the category and tags chosen for it, saved with the approval or not at all',
        params: FilenameParams,
        body: Type.Union([Classification, Type.Null()]),
        response: { 200: Decision, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const image = await ctx.moderation.approve(
        request.params.filename,
        currentUser(request),
        request.body ?? undefined,
      );
      return { id_image: image.id_image, filename: image.filename, status: image.status };
    },
  );

  const textBodies: FastifyPluginAsyncTypebox = async (scope) => {
    // In this scope only, bodies arrive as raw text whatever their type says: the reject call
    // sends its reason as text labelled JSON (D4).
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      '*',
      { parseAs: 'string', bodyLimit: 4 * REJECTION_REASON_MAX_LENGTH },
      (_request, body, done) => {
        done(null, body);
      },
    );

    scope.post(
      '/admin/reject-image/:filename',
      {
        schema: {
          tags: ['admin'],
          summary:
            'Reject a pending image with a reason (JSON string, {"reason"} or plain text; D4)',
          params: FilenameParams,
          response: { 200: Decision, ...errorResponses(400, 401, 403, 404, 413) },
        },
      },
      async (request) => {
        const body = typeof request.body === 'string' ? request.body : '';
        const image = await ctx.moderation.reject(
          request.params.filename,
          currentUser(request),
          parseReason(body),
        );
        return { id_image: image.id_image, filename: image.filename, status: image.status };
      },
    );
  };
  await app.register(textBodies);
};
