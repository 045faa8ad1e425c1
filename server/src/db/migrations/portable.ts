import {
  PostgresAdapter,
  sql,
  type ColumnDefinitionBuilder,
  type Kysely,
  type RawBuilder,
} from 'kysely';

/**
 * The few column definitions that differ between SQLite and PostgreSQL, so each migration is
 * written once. Migrations only: application queries never need this.
 */
export function schemaDialect(db: Kysely<any>): {
  idColumn: (column: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;
  timestamp: 'timestamptz' | 'text';
  now: RawBuilder<unknown>;
} {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  return postgres
    ? {
        idColumn: (c) => c.primaryKey().generatedByDefaultAsIdentity(),
        timestamp: 'timestamptz',
        now: sql`now()`,
      }
    : {
        // AUTOINCREMENT: ids of deleted rows are never handed out again, so an old link to a
        // deleted image can never show another one.
        idColumn: (c) => c.primaryKey().autoIncrement(),
        timestamp: 'text',
        // The same shape as Date.prototype.toISOString(), so text comparison orders by time.
        now: sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`,
      };
}
