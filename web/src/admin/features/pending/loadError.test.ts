import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api.js';
import { InvalidShapeError } from '../../shape.js';
import { pendingLoadErrorMessage } from './loadError.js';
import { MaxAttemptsError } from './retry.js';

describe('the pending list load errors (SPEC §8)', () => {
  it('names missing permission and an absent list', () => {
    expect(pendingLoadErrorMessage(new ApiError(403, 'Vietato'))).toBe(
      'Non hai i permessi per accedere a questa pagina.',
    );
    expect(pendingLoadErrorMessage(new ApiError(404, undefined))).toBe(
      'Nessuna immagine in attesa trovata.',
    );
  });

  it('gives other network errors with their message', () => {
    expect(pendingLoadErrorMessage(new ApiError(500, 'Errore interno del server'))).toBe(
      'Errore nel caricamento delle immagini: Errore interno del server',
    );
    expect(pendingLoadErrorMessage(new ApiError(0, undefined))).toBe(
      'Errore nel caricamento delle immagini: server non raggiungibile',
    );
    expect(pendingLoadErrorMessage(new ApiError(502, undefined))).toBe(
      'Errore nel caricamento delle immagini: risposta del server 502',
    );
  });

  it('keeps the retry limit and shape messages, and hides anything else', () => {
    expect(pendingLoadErrorMessage(new MaxAttemptsError())).toBe(
      'Numero massimo di tentativi raggiunto. Riprova più tardi.',
    );
    expect(pendingLoadErrorMessage(new InvalidShapeError())).toBe(
      'Formato dati non valido ricevuto dal server',
    );
    expect(pendingLoadErrorMessage(new TypeError('x is undefined'))).toBe(
      'Si è verificato un errore imprevisto.',
    );
  });
});
