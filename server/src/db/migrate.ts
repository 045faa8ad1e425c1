import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import * as initialSchema from './migrations/2026-11-21T1430-initial-schema.js';
import * as search from './migrations/2026-11-21T1500-search.js';
import * as duplicates from './migrations/2026-11-21T1600-duplicates.js';
import * as ocrConfidence from './migrations/2026-11-22T0300-ocr-confidence.js';
import * as reactionsVersion from './migrations/2026-11-22T0700-reactions-version.js';
import * as searchVocabulary from './migrations/2026-11-25T0800-search-vocabulary.js';
import * as searchTerms from './migrations/2026-11-25T2100-search-terms.js';
import * as ocrAlternates from './migrations/2026-11-26T0100-ocr-alternates.js';
import * as searchTermsApproved from './migrations/2026-11-27T0900-search-terms-approved.js';
import * as fullCaseKeys from './migrations/2026-11-27T2200-full-case-keys.js';
import * as interactionsByImage from './migrations/2026-11-28T0100-interactions-by-image.js';
import * as unicodeLower from './migrations/2026-11-28T1500-unicode-lower.js';
import * as searchTermBlocks from './migrations/2026-11-29T0900-search-term-blocks.js';
import * as searchPublishedBounds from './migrations/2026-12-01T2100-search-published-bounds.js';
import * as searchRankDocuments from './migrations/2026-12-02T1400-search-rank-documents.js';
import * as accentlessLower from './migrations/2026-12-03T0800-accentless-lower.js';
import * as passwordResets from './migrations/2026-12-04T0100-password-resets.js';
import * as editRevisions from './migrations/2026-12-04T0300-edit-revisions.js';
import * as taxonomyRevisions from './migrations/2026-12-04T1900-taxonomy-revisions.js';
import * as dottedCapitalIKeys from './migrations/2026-12-08T0900-dotted-capital-i-keys.js';
import type { Database } from './tables.js';

/*
 * Migrations are listed here rather than read from the folder at run time, so the same list
 * works from TypeScript sources (tests, tsx) and from the compiled build. Names sort by time.
 */
const migrations: Record<string, Migration> = {
  '2026-11-21T1430-initial-schema': initialSchema,
  '2026-11-21T1500-search': search,
  '2026-11-21T1600-duplicates': duplicates,
  '2026-11-22T0300-ocr-confidence': ocrConfidence,
  '2026-11-22T0700-reactions-version': reactionsVersion,
  '2026-11-25T0800-search-vocabulary': searchVocabulary,
  '2026-11-25T2100-search-terms': searchTerms,
  '2026-11-26T0100-ocr-alternates': ocrAlternates,
  '2026-11-27T0900-search-terms-approved': searchTermsApproved,
  '2026-11-27T2200-full-case-keys': fullCaseKeys,
  '2026-11-28T0100-interactions-by-image': interactionsByImage,
  '2026-11-28T1500-unicode-lower': unicodeLower,
  '2026-11-29T0900-search-term-blocks': searchTermBlocks,
  '2026-12-01T2100-search-published-bounds': searchPublishedBounds,
  '2026-12-02T1400-search-rank-documents': searchRankDocuments,
  '2026-12-03T0800-accentless-lower': accentlessLower,
  '2026-12-04T0100-password-resets': passwordResets,
  '2026-12-04T0300-edit-revisions': editRevisions,
  '2026-12-04T1900-taxonomy-revisions': taxonomyRevisions,
  '2026-12-08T0900-dotted-capital-i-keys': dottedCapitalIKeys,
};

const provider: MigrationProvider = { getMigrations: () => Promise.resolve(migrations) };

/** Brings the schema up to date; Kysely's lock table makes concurrent starts safe on PostgreSQL. */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    // None ran: the database could not be reached or locked, which its own error says.
    if (failed === undefined) {
      throw error instanceof Error
        ? error
        : new Error('Database migrations failed', { cause: error });
    }
    throw new Error(`Database migration "${failed}" failed`, { cause: error });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
