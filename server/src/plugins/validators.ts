import { Ajv, type Options } from 'ajv';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import type { FastifySchemaCompiler } from 'fastify';

/*
 * The routes' validators. Fastify's default Ajv coerces every part of a request ('array'):
 * right for the address, whose values all arrive as text, wrong for a JSON body, where it
 * took `["admin"]` as the name "admin", `12345678` as a password and `"false"` as false. A
 * body is checked as it was sent; the address, the query and the headers are still coerced.
 */

/**
 * Fastify's defaults for Ajv as far as our schemas use them (its URI resolver and the
 * formatMinimum/formatMaximum keywords are left out: no schema has a $ref to resolve or a
 * bounded format), with what our messages read (lib/validation-messages.ts).
 */
const SHARED: Options = {
  useDefaults: true,
  removeAdditional: true,
  // One error is enough for a message, and all of them is a known denial-of-service lever.
  allErrors: false,
  addUsedSchema: false,
  // Validation errors carry their schema, so messages can use the field's title (D2).
  verbose: true,
  // Annotation read by lib/validation-messages.ts, not a validation keyword.
  keywords: ['errorMessage'],
};

function ajv(coerceTypes: Options['coerceTypes']): Ajv {
  // The formats Fastify adds: ajv-formats' full set, whose email rule lib/email-address.ts shares.
  return new Ajv({ ...SHARED, coerceTypes, formats: fullFormats });
}

/** A compiler for one application: a strict Ajv for bodies and a coercing one for the rest. */
export function validatorCompiler(): FastifySchemaCompiler<unknown> {
  const strict = ajv(false);
  const coercing = ajv('array');
  return ({ schema, httpPart }) => {
    const instance = httpPart === 'body' ? strict : coercing;
    // A schema with an $id is compiled once per instance; Ajv refuses a second compilation.
    const id = typeof schema === 'object' && schema !== null && '$id' in schema ? schema.$id : null;
    return (
      (typeof id === 'string' ? instance.getSchema(id) : undefined) ??
      instance.compile(schema as object)
    );
  };
}
