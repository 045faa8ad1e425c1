import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import type { AppContext } from '../../context.js';
import { EditRevision, errorResponses, IsoDateTime } from '../../lib/schemas.js';
import { currentUser } from '../../plugins/auth.js';
import { IdParams } from '../images/images.schemas.js';
import { ADMIN_LIST_LIMIT } from '../images/images.service.js';
import { ImageEdit } from '../moderation/moderation.schemas.js';
import type { TaxonomyRow } from '../taxonomy/taxonomy.repository.js';
import {
  CATEGORY_NAME_MAX_LENGTH,
  TAG_NAME_MAX_LENGTH,
  TAXONOMY_MESSAGES,
  toTag,
  TYPED_NAME_MAX_LENGTH,
} from '../taxonomy/taxonomy.service.js';
import { Email, NewPassword, OwnUser, PasswordOrEmpty, Username } from '../users/users.schemas.js';

/*
 * The back-office API (SPEC §7 admin calls, D7). Every route here is for administrators only:
 * the guard reads the flag from the database on each request, so a demoted administrator
 * loses access at once (401 without a token, 403 for anyone else).
 */

const AdminUser = Type.Object({
  id_utente: Type.Integer(),
  username: Type.String(),
  email: Type.String(),
  is_active: Type.Boolean(),
  is_superuser: Type.Boolean(),
  role: Type.Union([Type.Literal('admin'), Type.Literal('user')]),
  images_uploaded: Type.Integer(),
  total_interactions: Type.Integer(),
  received_likes: Type.Integer(),
  image_score: Type.Integer(),
  interaction_score: Type.Integer(),
  total_score: Type.Integer(),
  /** Sent back with an edit: a form filled before someone else's change gets a 409. */
  revision: Type.Integer(),
  created_at: IsoDateTime,
});

/** One account for the edit forms: OwnUser with the revision they send back. */
const AdminUserDetail = Type.Object({ ...OwnUser.properties, revision: Type.Integer() });

const UserBody = (passwordRequired: boolean) =>
  Type.Object(
    {
      username: Username,
      email: Email,
      // Creation: the sign-up's rule and messages; an edit's empty password leaves it as it is.
      password: passwordRequired ? NewPassword : Type.Optional(PasswordOrEmpty('Password')),
      is_active: Type.Optional(Type.Boolean({ title: 'Utente Attivo' })),
      is_superuser: Type.Optional(Type.Boolean({ title: 'Amministratore' })),
    },
    { additionalProperties: false },
  );

/**
 * An edit's body: the creation's fields, the password optional, and (optional, SPEC's body
 * lacks it) the revision of GET /admin/users the form was filled with: a later change makes
 * the edit a 409 instead of being undone by it.
 */
const UserEditBody = Type.Object(
  {
    ...UserBody(false).properties,
    revision: EditRevision,
  },
  { additionalProperties: false },
);

const Stats = Type.Object({
  total_stats: Type.Object({
    users: Type.Integer(),
    images: Type.Integer(),
    pending_images: Type.Integer(),
    categories: Type.Integer(),
    tags: Type.Integer(),
    interactions: Type.Integer(),
  }),
  top_categories: Type.Array(Type.Object({ name: Type.String(), count: Type.Integer() })),
  top_tags: Type.Array(Type.Object({ name: Type.String(), count: Type.Integer() })),
  most_active_users: Type.Array(
    Type.Object({
      id_utente: Type.Integer(),
      username: Type.String(),
      image_score: Type.Integer(),
      interaction_score: Type.Integer(),
      total_score: Type.Integer(),
    }),
  ),
  daily: Type.Array(
    Type.Object({ date: Type.String(), uploads: Type.Integer(), interactions: Type.Integer() }),
  ),
});

const AdminImage = Type.Object({
  id_image: Type.Integer(),
  filename: Type.String(),
  titolo_img: Type.Union([Type.String(), Type.Null()]),
  id_categoria: Type.Integer(),
  categoria_nome: Type.String(),
  username: Type.String(),
  id_utente: Type.Integer(),
  status: Type.String(),
  tags: Type.Array(Type.String()),
  /** Sent back with an edit: a form filled before someone else's change gets a 409. */
  revision: Type.Integer(),
  created_at: IsoDateTime,
  thumbnail_url: Type.String(),
  stats: Type.Object({
    likes: Type.Integer(),
    downloads: Type.Integer(),
    favorites: Type.Integer(),
    total_interactions: Type.Integer(),
  }),
});

/**
 * A category's or a tag's name, refused past its own limit (never cut short in silence): the
 * service checks the limit on the tidied name, this bounds what the edge reads.
 */
const NameBody = (title: string, maxLength: number) =>
  Type.Object(
    {
      nome: Type.String({
        title,
        maxLength: TYPED_NAME_MAX_LENGTH,
        errorMessage: { maxLength: TAXONOMY_MESSAGES.nameTooLong(maxLength) },
      }),
    },
    { additionalProperties: false },
  );

/** A rename: the name, and the revision the dialog was opened with (optional, as SPEC's body). */
const RenameBody = (title: string, maxLength: number) =>
  Type.Object(
    { ...NameBody(title, maxLength).properties, revision: EditRevision },
    { additionalProperties: false },
  );

const AdminCategory = Type.Object({
  id_categoria: Type.Integer(),
  nome: Type.String(),
  image_count: Type.Integer(),
  created_at: IsoDateTime,
  /** Sent back with a rename: a stale one answers 409. */
  revision: Type.Integer(),
});

const AdminTag = Type.Object({
  id_tag: Type.Integer(),
  nome: Type.String(),
  image_count: Type.Integer(),
  created_at: IsoDateTime,
  /** Sent back with a rename: a stale one answers 409. */
  revision: Type.Integer(),
});

const SearchQuery = Type.Object({
  search: Type.Optional(Type.String({ title: 'search', maxLength: 200 })),
});

/**
 * On GET /admin/images: the list's cap when more images match than it holds (the newest
 * ADMIN_LIST_LIMIT are sent), '0' when it holds every match.
 */
export const ADMIN_LIST_TRUNCATED_HEADER = 'x-list-truncated';

const Done = Type.Object({ ok: Type.Literal(true) });

export const adminRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.addHook('onRequest', app.guards.admin);
  const { admin, taxonomy, moderation, images, search } = ctx;
  const schema = <T extends object>(summary: string, rest: T) => ({
    tags: ['admin'],
    summary,
    security: [{ bearer: [] }],
    ...rest,
  });

  app.get(
    '/admin/stats',
    {
      schema: schema('Dashboard figures (D7)', {
        response: { 200: Stats, ...errorResponses(401, 403) },
      }),
    },
    () => admin.stats(),
  );

  // Users ----------------------------------------------------------------------------------
  app.get(
    '/admin/users',
    {
      schema: schema('Every user with scores', {
        response: {
          200: Type.Object({ users: Type.Array(AdminUser), total: Type.Integer() }),
          ...errorResponses(401, 403),
        },
      }),
    },
    () => admin.listUsers(),
  );

  app.get(
    '/admin/users/:id',
    {
      schema: schema('One user, with e-mail', {
        params: IdParams,
        response: { 200: AdminUserDetail, ...errorResponses(400, 401, 403, 404) },
      }),
    },
    (request) => admin.getUser(request.params.id),
  );

  app.post(
    '/admin/users',
    {
      schema: schema('Create a user', {
        body: UserBody(true),
        response: { 201: AdminUserDetail, ...errorResponses(400, 401, 403) },
      }),
    },
    async (request, reply) => reply.status(201).send(await admin.createUser(request.body)),
  );

  app.put(
    '/admin/users/:id',
    {
      schema: schema('Edit a user (empty password: unchanged)', {
        params: IdParams,
        body: UserEditBody,
        response: { 200: AdminUserDetail, ...errorResponses(400, 401, 403, 404, 409) },
      }),
    },
    (request) => admin.updateUser(currentUser(request), request.params.id, request.body),
  );

  app.delete(
    '/admin/users/:id',
    {
      schema: schema('Erase a user with their images, files and interactions', {
        params: IdParams,
        response: { 200: Done, ...errorResponses(400, 401, 403, 404) },
      }),
    },
    async (request) => {
      await admin.deleteUser(currentUser(request), request.params.id);
      return { ok: true as const };
    },
  );

  // Images ---------------------------------------------------------------------------------
  app.get(
    '/admin/images',
    {
      schema: schema('Images of every status, newest first (at most 2000; search narrows)', {
        querystring: SearchQuery,
        response: { 200: Type.Array(AdminImage), ...errorResponses(400, 401, 403) },
      }),
    },
    async (request, reply) => {
      const { images: list, truncated } = await images.adminList(
        request.query.search ?? '',
        currentUser(request),
      );
      // D13 keeps the body a plain list: that more images match than it holds travels aside.
      void reply.header(ADMIN_LIST_TRUNCATED_HEADER, truncated ? String(ADMIN_LIST_LIMIT) : '0');
      return list;
    },
  );

  app.put(
    '/admin/images/:id',
    {
      schema: schema('Edit title, category and tags (by name; missing tags are created)', {
        params: IdParams,
        body: ImageEdit,
        response: { 200: Done, ...errorResponses(400, 401, 403, 404, 409) },
      }),
    },
    async (request) => {
      await moderation.updateImage(request.params.id, request.body);
      return { ok: true as const };
    },
  );

  app.delete(
    '/admin/images/:id',
    {
      schema: schema('Delete an image: row, links, interactions and files', {
        params: IdParams,
        response: { 200: Done, ...errorResponses(400, 401, 403, 404) },
      }),
    },
    async (request) => {
      await moderation.deleteImage(request.params.id);
      return { ok: true as const };
    },
  );

  // Categories and tags --------------------------------------------------------------------
  for (const kind of ['categories', 'tags'] as const) {
    const title = kind === 'categories' ? 'Nome Categoria' : 'Nome Tag';
    const nameMaxLength = kind === 'categories' ? CATEGORY_NAME_MAX_LENGTH : TAG_NAME_MAX_LENGTH;
    // The admin shape of a category says image_count (SPEC §3), not the public `count`.
    const present = (row: TaxonomyRow) =>
      kind === 'categories'
        ? {
            id_categoria: row.id,
            nome: row.nome,
            image_count: row.image_count,
            created_at: row.created_at,
            revision: row.revision,
          }
        : { ...toTag(row), revision: row.revision };
    const Item = kind === 'categories' ? AdminCategory : AdminTag;
    const reindex = (ids: number[]) => search.reindexImages(ids);

    app.get(
      `/admin/${kind}`,
      {
        schema: schema(`All ${kind} with approved image counts`, {
          querystring: SearchQuery,
          response: { 200: Type.Array(Item), ...errorResponses(400, 401, 403) },
        }),
      },
      async (request) => (await taxonomy.searchAll(kind, request.query.search ?? '')).map(present),
    );

    app.post(
      `/admin/${kind}`,
      {
        schema: schema(`Create one of the ${kind} (unique name, case-insensitive)`, {
          body: NameBody(title, nameMaxLength),
          response: { 201: Item, ...errorResponses(400, 401, 403) },
        }),
      },
      async (request, reply) =>
        reply.status(201).send(present(await taxonomy.create(kind, request.body.nome))),
    );

    app.put(
      `/admin/${kind}/:id`,
      {
        schema: schema(`Rename one of the ${kind}`, {
          params: IdParams,
          body: RenameBody(title, nameMaxLength),
          response: { 200: Item, ...errorResponses(400, 401, 403, 404, 409) },
        }),
      },
      async (request) => {
        const row = await taxonomy.rename(
          kind,
          request.params.id,
          request.body.nome,
          request.body.revision,
        );
        await reindex(
          kind === 'categories'
            ? await taxonomy.imageIdsInCategory(row.id)
            : await taxonomy.imageIdsWithTag(row.id),
        );
        return present(row);
      },
    );

    app.delete(
      `/admin/${kind}/:id`,
      {
        schema: schema(
          kind === 'categories'
            ? 'Delete a category; its images move to "Non categorizzata" (D6)'
            : 'Delete a tag and its links',
          {
            params: IdParams,
            response: { 200: Done, ...errorResponses(400, 401, 403, 404) },
          },
        ),
      },
      async (request) => {
        await reindex(await taxonomy.remove(kind, request.params.id));
        return { ok: true as const };
      },
    );
  }
};
