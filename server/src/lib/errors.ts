/**
 * The one error type services and routes throw. It carries the HTTP status and the Italian
 * `detail` the client shows (D2); the error plugin turns it into `{detail}`.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly detail: string,
  ) {
    super(detail);
    this.name = 'HttpError';
  }
}

export const badRequest = (detail: string): HttpError => new HttpError(400, detail);
export const unauthorized = (detail: string = MESSAGES.authRequired): HttpError =>
  new HttpError(401, detail);
export const forbidden = (detail: string = MESSAGES.forbidden): HttpError =>
  new HttpError(403, detail);
export const notFound = (detail: string = MESSAGES.notFound): HttpError =>
  new HttpError(404, detail);
/** The request was made from a state of the resource that has changed since (a stale form). */
export const conflict = (detail: string): HttpError => new HttpError(409, detail);

/** Messages shared by several modules; feature-specific ones live with their feature. */
export const MESSAGES = {
  authRequired: 'Devi effettuare l’accesso per continuare.',
  invalidToken: 'Sessione non valida o scaduta: effettua di nuovo l’accesso.',
  forbidden: 'Non hai i permessi per accedere a questa pagina.',
  notFound: 'Risorsa non trovata.',
  invalidJson: 'Il corpo della richiesta non è un JSON valido.',
  invalidBody: 'Il corpo della richiesta non è valido.',
  payloadTooLarge: 'La richiesta è troppo grande.',
  unsupportedMediaType: 'Tipo di contenuto non supportato.',
  tooManyRequests: 'Troppe richieste. Riprova tra poco.',
  shuttingDown: 'Il server si sta riavviando. Riprova tra qualche istante.',
  unavailable: 'Servizio temporaneamente non disponibile. Riprova tra poco.',
  diskFull: 'Spazio su disco esaurito: riprova più tardi.',
  internal: (requestId: string) =>
    `Si è verificato un errore interno. Riprova più tardi. (Codice richiesta: ${requestId})`,
} as const;

/** A generic Italian message for a status when nothing more precise is known. */
export function messageForStatus(status: number): string {
  switch (status) {
    case 400:
      return 'Richiesta non valida.';
    case 401:
      return MESSAGES.authRequired;
    case 403:
      return MESSAGES.forbidden;
    case 404:
      return MESSAGES.notFound;
    case 405:
      return 'Metodo non consentito.';
    case 406:
      return 'Formato di risposta non disponibile.';
    case 408:
      return 'La richiesta ha impiegato troppo tempo.';
    case 409:
      return 'I dati sono stati modificati nel frattempo: ricarica e riprova.';
    case 413:
      return MESSAGES.payloadTooLarge;
    case 414:
      return 'L’indirizzo richiesto è troppo lungo.';
    case 415:
      return MESSAGES.unsupportedMediaType;
    case 429:
      return MESSAGES.tooManyRequests;
    case 431:
      return 'Le intestazioni della richiesta sono troppo grandi.';
    case 503:
      return MESSAGES.unavailable;
    case 507:
      return MESSAGES.diskFull;
    default:
      return status >= 500 ? 'Si è verificato un errore interno.' : 'Richiesta non valida.';
  }
}
