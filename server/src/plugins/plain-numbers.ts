import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { badRequest } from '../lib/errors.js';

/*
 * Whole numbers in an address or its query are written in decimal digits, or refused as the
 * validation refuses any other bad number ('Il campo "id" non è valido.'). Ajv's coercion turns
 * any string JavaScript reads as a number into one, and skips the bounds of what is not finite:
 * '1e309' became Infinity past `maximum` (a 500 from either database), '0x10' image 16, ' 1'
 * image 1. Checked before the validation, on the routes whose schema has such fields.
 */

type Part = 'params' | 'query';

interface IntegerField {
  part: Part;
  name: string;
  title: string;
}

const DECIMAL = /^-?[0-9]+$/;

interface PropertySchema {
  type?: unknown;
  title?: unknown;
}

function integerFields(schema: unknown, part: Part): IntegerField[] {
  const properties = (schema as { properties?: Record<string, PropertySchema> } | undefined)
    ?.properties;
  if (properties === undefined) return [];
  return Object.entries(properties)
    .filter(([, property]) => property.type === 'integer')
    .map(([name, property]) => ({
      part,
      name,
      title: typeof property.title === 'string' ? property.title : name,
    }));
}

export const plainNumbersPlugin = fp(
  (app: FastifyInstance) => {
    app.addHook('onRoute', (route: RouteOptions) => {
      const fields = [
        ...integerFields(route.schema?.params, 'params'),
        ...integerFields(route.schema?.querystring, 'query'),
      ];
      if (fields.length === 0) return;
      const check = async (request: FastifyRequest) => {
        for (const field of fields) {
          const value = (request[field.part] as Record<string, unknown> | undefined)?.[field.name];
          // Absent, or repeated (an array, which the validation refuses): not this check's.
          if (typeof value === 'string' && !DECIMAL.test(value)) {
            throw badRequest(`Il campo "${field.title}" non è valido.`);
          }
        }
      };
      const existing = route.preValidation;
      route.preValidation =
        existing === undefined
          ? [check]
          : [...(Array.isArray(existing) ? existing : [existing]), check];
    });
  },
  { name: 'plain-numbers' },
);
