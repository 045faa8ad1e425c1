import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import type { AppContext } from '../../context.js';
import { errorResponses } from '../../lib/schemas.js';
import { currentUser } from '../../plugins/auth.js';
import { RATE_LIMITS } from '../../plugins/security.js';
import { PASSWORD_MAX_LENGTH } from '../users/users.rules.js';

const DeleteBody = Type.Object(
  {
    password: Type.String({
      title: 'Password',
      minLength: 1,
      maxLength: PASSWORD_MAX_LENGTH,
      errorMessage: { minLength: 'Inserisci la password per confermare.' },
    }),
  },
  { additionalProperties: false },
);

/** D9: 'Scarica i miei dati' and 'Elimina account'. */
export const privacyRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (
  app,
  { ctx },
) => {
  app.get(
    '/users/me/export',
    {
      onRequest: app.guards.user,
      schema: {
        tags: ['privacy'],
        summary: 'Download all own data as JSON: account, uploads, interactions, follows',
        response: { 200: Type.Unknown(), ...errorResponses(401) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const data = await ctx.privacy.exportData(user);
      const name = user.username.replace(/[^A-Za-z0-9._-]/g, '_');
      return reply
        .header('content-disposition', `attachment; filename="muri-parlanti-dati-${name}.json"`)
        .header('cache-control', 'private, no-store')
        .type('application/json; charset=utf-8')
        .send(JSON.stringify(data, null, 2));
    },
  );

  app.delete(
    '/users/me',
    {
      config: { rateLimit: RATE_LIMITS.account },
      onRequest: app.guards.user,
      schema: {
        tags: ['privacy'],
        summary: 'Delete the own account: deactivated now, erased with everything within 5 days',
        body: DeleteBody,
        response: {
          200: Type.Object({ detail: Type.String() }),
          ...errorResponses(400, 401),
        },
      },
    },
    async (request) => {
      await ctx.privacy.requestDeletion(currentUser(request), request.body.password);
      return {
        detail:
          'Il tuo account è stato disattivato. I tuoi dati saranno cancellati definitivamente entro 5 giorni.',
      };
    },
  );
};
