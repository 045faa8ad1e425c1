import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import type { AppContext } from '../../context.js';
import { errorResponses, IsoDateTime, RowId } from '../../lib/schemas.js';
import { currentUser } from '../../plugins/auth.js';
import { IdParams } from '../images/images.schemas.js';
import { MAX_DISMISSED_IMAGES } from './duplicates.service.js';

/*
 * 'Gestione Immagini Duplicate' (SPEC §2, D7): the groups, how many images are still to be
 * read (until then an empty list proves nothing), deleting one image, and marking a group
 * 'Non sono duplicati'. Administrators only: the guard reads the flag from the database
 * on every request (401 without a token, 403 for anyone else).
 */

const Kind = Type.Union([Type.Literal('text'), Type.Literal('visual')]);

const GroupImage = Type.Object({
  id_image: Type.Integer(),
  titolo_img: Type.Union([Type.String(), Type.Null()]),
  filename: Type.String(),
  status: Type.String({ description: "'approved' or 'pending'" }),
  user: Type.Object({ username: Type.String() }),
  created_at: IsoDateTime,
  published_at: Type.Union([IsoDateTime, Type.Null()]),
  stats: Type.Object({ likes: Type.Integer(), downloads: Type.Integer() }),
  size: Type.Integer({ description: 'bytes' }),
  width: Type.Integer(),
  height: Type.Integer(),
  thumbnail_url: Type.String({ description: 'signed for pending images' }),
  image_url: Type.String(),
});

const Group = Type.Object({
  count: Type.Integer(),
  testo_estratto: Type.String({ description: 'the text read on the wall; empty when none' }),
  kind: Kind,
  images: Type.Array(GroupImage),
});

const AnalysisProgress = Type.Object({
  images_to_analyse: Type.Integer({
    minimum: 0,
    description: 'images whose text and hash are still to come (groups form once they are read)',
  }),
});

const DismissBody = Type.Object(
  {
    image_ids: Type.Array(
      RowId({
        errorMessage: 'Gli id delle immagini devono essere numeri interi positivi.',
      }),
      {
        title: 'image_ids',
        minItems: 2,
        maxItems: MAX_DISMISSED_IMAGES,
        errorMessage: `Indica da 2 a ${MAX_DISMISSED_IMAGES} immagini del gruppo.`,
      },
    ),
  },
  { additionalProperties: false },
);

const Done = Type.Object({ ok: Type.Literal(true) });

export const duplicatesRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (
  app,
  { ctx },
) => {
  const schema = <T extends object>(summary: string, rest: T) => ({
    tags: ['admin'],
    summary,
    security: [{ bearer: [] }],
    ...rest,
  });

  app.get(
    '/admin/duplicate-images',
    {
      onRequest: app.guards.admin,
      schema: schema('Groups of duplicate images (approved and pending), largest first', {
        response: { 200: Type.Array(Group), ...errorResponses(401, 403) },
      }),
    },
    (request) => ctx.duplicates.listGroups(currentUser(request)),
  );

  app.get(
    '/admin/duplicate-images/analysis',
    {
      onRequest: app.guards.admin,
      schema: schema('How many images the duplicate finder is still to read', {
        response: { 200: AnalysisProgress, ...errorResponses(401, 403) },
      }),
    },
    () => ctx.duplicates.analysisProgress(),
  );

  app.delete(
    '/admin/duplicate-images/:id',
    {
      onRequest: app.guards.admin,
      schema: schema('Delete one image of a group: row, links, interactions and files', {
        params: IdParams,
        response: { 200: Done, ...errorResponses(400, 401, 403, 404) },
      }),
    },
    async (request) => {
      await ctx.moderation.deleteImage(request.params.id);
      return { ok: true as const };
    },
  );

  app.post(
    '/admin/duplicate-images/dismiss',
    {
      onRequest: app.guards.admin,
      schema: schema("Mark a group 'Non sono duplicati': hidden until another image joins it", {
        body: DismissBody,
        response: {
          200: Type.Object({ ok: Type.Literal(true), image_ids: Type.Array(Type.Integer()) }),
          ...errorResponses(400, 401, 403, 404),
        },
      }),
    },
    async (request) => ({
      ok: true as const,
      image_ids: await ctx.duplicates.dismissGroup(request.body.image_ids, currentUser(request)),
    }),
  );
};
