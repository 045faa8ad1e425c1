import type { Kysely, Transaction } from 'kysely';
import type { Database } from './tables.js';

/** What repository functions take: the database or a transaction a service opened. */
export type Executor = Kysely<Database> | Transaction<Database>;
