import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import type { AppContext } from '../../context.js';
import {
  holdsForbiddenCharacter,
  FORBIDDEN_CHARACTER_MESSAGE,
  RATE_LIMITS,
} from '../../plugins/security.js';
import { badRequest, HttpError } from '../../lib/errors.js';
import { errorResponses, MAX_ROW_ID } from '../../lib/schemas.js';
import { currentUser } from '../../plugins/auth.js';
import { UNCATEGORISED_ID } from '../taxonomy/taxonomy.service.js';
import {
  DEFAULT_UPLOAD_LIMIT_BYTES,
  formatSizeLimit,
  parseTagsField,
  UPLOAD_MESSAGES,
} from './uploads.service.js';

const FIELD_NAMES = new Set(['title', 'category_id', 'tags', 'description']);

/** What the upload page says and checks before sending a file (D7: the setting in force). */
const UploadLimits = Type.Object({
  upload_max_bytes: Type.Integer({ description: 'The largest file accepted, in bytes' }),
  upload_max_label: Type.String({
    description: 'The same limit as the error messages write it, e.g. "5MB"',
  }),
});

const UploadResult = Type.Object({
  id_image: Type.Integer(),
  filename: Type.String(),
  status: Type.Literal('pending'),
});

/** Multipart errors of @fastify/multipart and busboy, by code, as Italian client errors. */
function multipartError(error: unknown, limitBytes: number): HttpError | undefined {
  const code = (error as { code?: string }).code;
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new HttpError(413, UPLOAD_MESSAGES.tooLarge(limitBytes));
    case 'FST_FILES_LIMIT':
      return badRequest('Puoi caricare un solo file alla volta.');
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return badRequest('La richiesta contiene troppi campi.');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new HttpError(415, 'Invia il file come modulo multipart/form-data.');
    case 'FST_PROTO_VIOLATION':
      return badRequest('La richiesta non è valida.');
    default:
      // busboy's own refusals of a broken body carry no code, only their message: a
      // multipart type without its boundary, a body cut off before its end (else a 500).
      return error instanceof Error && BROKEN_FORM.test(error.message)
        ? badRequest(UPLOAD_MESSAGES.brokenForm)
        : undefined;
  }
}

const BROKEN_FORM =
  /^(Multipart: Boundary not found|Unexpected end of multipart data|Part terminated early|File terminated early)/;

export const uploadsRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (
  app,
  { ctx },
) => {
  // Registered here only: no other route parses multipart bodies. Every limit is explicit. The
  // file size given here is the ceiling; each request applies the administrator's setting.
  await app.register(multipart, {
    limits: {
      fileSize: DEFAULT_UPLOAD_LIMIT_BYTES,
      files: 1,
      fields: FIELD_NAMES.size,
      fieldSize: 16 * 1024,
      fieldNameSize: 100,
      parts: FIELD_NAMES.size + 1,
      headerPairs: 50,
    },
  });

  app.get(
    '/images/export/limits',
    {
      schema: {
        tags: ['uploads'],
        summary: 'The upload size limit in force (D7), for the page to say and check it',
        response: { 200: UploadLimits },
      },
    },
    async (_request, reply) => {
      const bytes = (await ctx.settings.get()).upload_max_bytes;
      // An administrator may change it at any moment: asked again each time, never kept.
      void reply.header('cache-control', 'no-cache');
      return { upload_max_bytes: bytes, upload_max_label: formatSizeLimit(bytes) };
    },
  );

  app.post(
    '/images/export',
    {
      config: { rateLimit: RATE_LIMITS.upload },
      onRequest: app.guards.user,
      schema: {
        tags: ['uploads'],
        summary:
          'Upload an image (multipart: file, title, category_id, tags); it waits for approval',
        description:
          'Fields: `title` (at most 200 characters; the file name without its extension when ' +
          'left out), `description` (at most 2,000), `category_id` (1 when left out), `tags` ' +
          '(a JSON list of names or comma-separated text; at most 10, of at most 50 characters ' +
          'each). A field past its limit is refused with 400, never stored cut.',
        consumes: ['multipart/form-data'],
        response: { 201: UploadResult, ...errorResponses(400, 401, 413, 415, 429, 507) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      // D7: read per request, so a changed limit applies at once on every server.
      const limitBytes = (await ctx.settings.get()).upload_max_bytes;
      const fields = new Map<string, string>();
      let file: { bytes: Buffer; filename: string } | undefined;
      try {
        for await (const part of request.parts({ limits: { fileSize: limitBytes } })) {
          if (part.type === 'file') {
            // Reading the stream to its end even when unused keeps the connection healthy.
            const bytes = await part.toBuffer();
            if (part.fieldname === 'file') file = { bytes, filename: part.filename };
          } else if (FIELD_NAMES.has(part.fieldname) && typeof part.value === 'string') {
            fields.set(part.fieldname, part.value);
          }
        }
      } catch (error) {
        throw multipartError(error, limitBytes) ?? error;
      }
      if (file === undefined) throw badRequest(UPLOAD_MESSAGES.missingFile);

      const categoryField = fields.get('category_id');
      const categoryId =
        categoryField === undefined || categoryField.trim() === ''
          ? UNCATEGORISED_ID
          : Number(categoryField);
      if (!Number.isInteger(categoryId) || categoryId < 1 || categoryId > MAX_ROW_ID) {
        throw badRequest(UPLOAD_MESSAGES.badCategory);
      }

      const tags = parseTagsField(fields.get('tags'));
      // A form's fields skip the NUL check of every JSON request (plugins/security.ts): they
      // are read here, after it. The tags are looked at decoded, where an escaped NUL shows.
      if (holdsForbiddenCharacter([file.filename, ...fields.values(), ...tags])) {
        throw badRequest(FORBIDDEN_CHARACTER_MESSAGE);
      }
      const result = await ctx.uploads.upload(user, {
        bytes: file.bytes,
        originalFilename: file.filename,
        title: fields.get('title'),
        description: fields.get('description'),
        categoryId,
        tags,
      });
      return reply.status(201).send(result);
    },
  );
};
