import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.js';
import { errorResponses } from '../../lib/schemas.js';
import { SettingsResponse, UpdateSettingsBody } from './settings.schemas.js';

export const settingsRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (
  app,
  { ctx },
) => {
  app.get(
    '/admin/settings',
    {
      onRequest: app.guards.admin,
      schema: {
        tags: ['admin'],
        summary: 'The server settings now in force (D7)',
        security: [{ bearer: [] }],
        response: { 200: SettingsResponse, ...errorResponses(401, 403) },
      },
    },
    () => ctx.settings.get(),
  );

  app.put(
    '/admin/settings',
    {
      onRequest: app.guards.admin,
      schema: {
        tags: ['admin'],
        summary: 'Change any of the settings; every server obeys at once. Answers all of them',
        security: [{ bearer: [] }],
        body: UpdateSettingsBody,
        response: { 200: SettingsResponse, ...errorResponses(400, 401, 403) },
      },
    },
    (request) => ctx.settings.update(request.body),
  );
};
