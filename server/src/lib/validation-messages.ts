import type { FastifySchemaValidationError } from 'fastify/types/schema.js';

/*
 * Turns a schema validation failure into one clear Italian sentence (D2). Schemas name their
 * fields with the standard `title` annotation (the label a person sees in the form) and may
 * override the sentence with `errorMessage`: a string for any failure of that field, or an
 * object keyed by the failing keyword. One definition thus drives validation, the message and
 * the API documentation.
 */

type ErrorMessage = string | Partial<Record<string, string>>;

interface AnnotatedSchema {
  title?: string;
  errorMessage?: ErrorMessage;
  properties?: Record<string, AnnotatedSchema>;
  required?: string[];
}

/** Ajv's error object when `verbose` is on: it knows the schema that failed and the data. */
type VerboseError = FastifySchemaValidationError & {
  parentSchema?: AnnotatedSchema;
  data?: unknown;
};

const WHOLE_PART_INVALID: Record<string, string> = {
  body: 'Il corpo della richiesta non è valido.',
  querystring: 'I parametri della richiesta non sono validi.',
  params: 'L’indirizzo richiesto non è valido.',
  headers: 'Le intestazioni della richiesta non sono valide.',
};

export function validationMessage(errors: readonly VerboseError[], context: string): string {
  const error = errors[0];
  if (error === undefined) return 'Richiesta non valida.';
  const params = error.params;

  if (error.keyword === 'required') {
    return missingFieldMessage(error.parentSchema, String(params['missingProperty']));
  }

  const fieldName = error.instancePath.split('/').filter(Boolean).pop();
  // No body at all (none sent, an empty one labelled JSON, or `null`; Ajv sees null for each)
  // where fields are required: the first of them is what is missing, as for an empty object.
  const firstRequired = error.parentSchema?.required?.[0];
  const noBody = context === 'body' && (error.data === null || error.data === undefined);
  if (fieldName === undefined && noBody && firstRequired !== undefined) {
    return missingFieldMessage(error.parentSchema, firstRequired);
  }
  if (fieldName === undefined) {
    return WHOLE_PART_INVALID[context] ?? 'Richiesta non valida.';
  }
  const override = pickOverride(error.parentSchema?.errorMessage, error.keyword);
  if (override !== undefined) return override;

  const label = `"${error.parentSchema?.title ?? fieldName}"`;
  switch (error.keyword) {
    case 'minLength':
      return Number(params['limit']) === 1
        ? `Il campo ${label} non può essere vuoto.`
        : `Il campo ${label} deve contenere almeno ${String(params['limit'])} caratteri.`;
    case 'maxLength':
      return tooLongMessage(error.parentSchema?.title ?? fieldName, Number(params['limit']));
    case 'format':
      return params['format'] === 'email'
        ? 'Inserisci un indirizzo email valido.'
        : `Il formato del campo ${label} non è valido.`;
    case 'pattern':
      return `Il campo ${label} contiene caratteri non ammessi.`;
    case 'minimum':
    case 'exclusiveMinimum':
      return `Il campo ${label} è troppo piccolo.`;
    case 'maximum':
    case 'exclusiveMaximum':
      return `Il campo ${label} è troppo grande.`;
    default:
      return `Il campo ${label} non è valido.`;
  }
}

/** A text field past its limit, as the schemas' own refusal says it. */
export function tooLongMessage(title: string, max: number): string {
  return `Il campo "${title}" può contenere al massimo ${String(max)} caratteri.`;
}

function missingFieldMessage(schema: AnnotatedSchema | undefined, missing: string): string {
  const fieldSchema = schema?.properties?.[missing];
  return (
    pickOverride(fieldSchema?.errorMessage, 'required') ??
    `Il campo "${fieldSchema?.title ?? missing}" è obbligatorio.`
  );
}

function pickOverride(message: ErrorMessage | undefined, keyword: string): string | undefined {
  if (message === undefined) return undefined;
  return typeof message === 'string' ? message : message[keyword];
}
