import { ApiError } from '../../../lib/api.js';
import { InvalidShapeError } from '../../shape.js';
import { MaxAttemptsError } from './retry.js';

/** SPEC §8 'Pending images': the message that replaces the page when the list cannot load. */
export function pendingLoadErrorMessage(error: unknown): string {
  if (error instanceof MaxAttemptsError || error instanceof InvalidShapeError) {
    return error.message;
  }
  if (error instanceof ApiError) {
    if (error.status === 403) return 'Non hai i permessi per accedere a questa pagina.';
    if (error.status === 404) return 'Nessuna immagine in attesa trovata.';
    return `Errore nel caricamento delle immagini: ${networkReason(error)}`;
  }
  return 'Si è verificato un errore imprevisto.';
}

/** What went wrong on the wire, in Italian: the server's own words when it sent any. */
function networkReason(error: ApiError): string {
  if (error.detail !== undefined) return error.detail;
  if (error.status === 0) return 'server non raggiungibile';
  return `risposta del server ${error.status}`;
}
