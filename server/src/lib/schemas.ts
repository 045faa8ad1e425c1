import Type from 'typebox';

/** `{detail}`: the body of every error response (D2). */
export const ErrorResponse = Type.Object(
  { detail: Type.String({ description: 'Italian message to show the user' }) },
  { $id: 'ErrorResponse' },
);

/** Error responses to declare on a route, by status. */
export function errorResponses(...statuses: number[]): Record<number, typeof ErrorResponse> {
  return Object.fromEntries(statuses.map((status) => [status, ErrorResponse]));
}

export const IsoDateTime = Type.String({ format: 'date-time' });

/** The largest id a row can have: ids are 32-bit integers on PostgreSQL. */
export const MAX_ROW_ID = 2_147_483_647;

/**
 * A row's id in a request. A larger number names no row, and PostgreSQL would refuse it
 * with an error of its own (a 500) before any "not found" could be said.
 */
export function RowId(options: Parameters<typeof Type.Integer>[0] = {}) {
  return Type.Integer({ minimum: 1, maximum: MAX_ROW_ID, ...options });
}

/**
 * The `revision` an edit form sends back (optional: SPEC's bodies lack it): the row's revision
 * when the form was filled, so an edit made since answers 409. A 32-bit integer, as stored.
 */
export const EditRevision = Type.Optional(
  Type.Integer({ title: 'Revisione', minimum: 0, maximum: MAX_ROW_ID }),
);
