import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import type { AppContext } from '../../context.js';
import { errorResponses, IsoDateTime } from '../../lib/schemas.js';
import { IdParams } from '../images/images.schemas.js';
import { toCategory, toTag } from './taxonomy.service.js';

const Category = Type.Object({
  id_categoria: Type.Integer(),
  nome: Type.String(),
  count: Type.Integer({ description: 'approved images in the category' }),
  created_at: IsoDateTime,
});

const Tag = Type.Object({
  id_tag: Type.Integer(),
  nome: Type.String(),
  image_count: Type.Integer({ description: 'approved images with the tag' }),
  created_at: IsoDateTime,
});

const PopularQuery = Type.Object({
  // SPEC §9: 10 for the menu, 20 on home, 50 for the category strip.
  // No maximum: a larger list is cut to 50 below (D2), not refused.
  limit: Type.Optional(Type.Integer({ title: 'limit', minimum: 1, default: 10 })),
});

/** D13: lists are JSON arrays; single items are the object itself. */
export const taxonomyRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (
  app,
  { ctx },
) => {
  app.get(
    '/categories',
    {
      schema: {
        tags: ['categories'],
        summary: 'Every category, by name, with its count of approved images',
        response: { 200: Type.Array(Category) },
      },
    },
    async () => (await ctx.taxonomy.listCategories()).map(toCategory),
  );

  app.get(
    '/categories/popular',
    {
      schema: {
        tags: ['categories'],
        summary: 'The categories with most approved images',
        querystring: PopularQuery,
        response: { 200: Type.Array(Category), ...errorResponses(400) },
      },
    },
    async (request) =>
      (await ctx.taxonomy.popularCategories(Math.min(request.query.limit ?? 10, 50))).map(
        toCategory,
      ),
  );

  app.get(
    '/categories/:id',
    {
      schema: {
        tags: ['categories'],
        summary: 'One category',
        params: IdParams,
        response: { 200: Category, ...errorResponses(400, 404) },
      },
    },
    async (request) => toCategory(await ctx.taxonomy.getCategory(request.params.id)),
  );

  app.get(
    '/tags',
    {
      schema: {
        tags: ['tags'],
        summary: 'The tags in use on approved images, by name',
        response: { 200: Type.Array(Tag) },
      },
    },
    async () => (await ctx.taxonomy.listUsedTags()).map(toTag),
  );

  app.get(
    '/tags/:id',
    {
      schema: {
        tags: ['tags'],
        summary: 'One tag with approved images (its name for the tag page)',
        params: IdParams,
        response: { 200: Tag, ...errorResponses(400, 404) },
      },
    },
    async (request) => toTag(await ctx.taxonomy.getPublicTag(request.params.id)),
  );
};
