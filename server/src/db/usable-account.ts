import { sql, type RawBuilder, type SqlBool } from 'kysely';

/**
 * The SQL twin of users.service's isUsable: an account that is active and not waiting for its
 * erasure. Queries that list or count accounts people may see (followers, followed accounts,
 * the administrators who can still sign in) take this one condition, so the rule stays one.
 * `table` is the users table's name or alias in the query.
 */
export function usableAccount(table: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`(${sql.ref(`${table}.is_active`)} = 1 and ${sql.ref(`${table}.deletion_requested_at`)} is null)`;
}
