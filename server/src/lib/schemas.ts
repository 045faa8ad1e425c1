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
