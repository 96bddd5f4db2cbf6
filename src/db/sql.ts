// A thin wrapper over Durable Object SQLite: always binds, names the failing query, counts writes.

export type SqlValue = string | number | null | ArrayBuffer;

export interface Sql {
  all<T>(query: string, ...params: SqlValue[]): T[];
  one<T>(query: string, ...params: SqlValue[]): T | undefined;
  run(query: string, ...params: SqlValue[]): { rowsRead: number; rowsWritten: number };
  /** Running totals since this wrapper was made; tests and benches read them to count work. */
  readonly stats: { rowsRead: number; rowsWritten: number };
}

export class SqlError extends Error {
  constructor(query: string, cause: unknown) {
    const head = query.replace(/\s+/g, " ").trim().slice(0, 120);
    super(`SQL failed (${head}): ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = "SqlError";
  }
}

export function createSql(storage: SqlStorage): Sql {
  const stats = { rowsRead: 0, rowsWritten: 0 };
  const exec = (query: string, params: SqlValue[]) => {
    try {
      return storage.exec(query, ...params);
    } catch (err) {
      throw new SqlError(query, err);
    }
  };
  const drain = <T>(query: string, params: SqlValue[]): T[] => {
    const cursor = exec(query, params);
    try {
      // Rows as arrays, made objects here: cheaper than the runtime building each object itself.
      const names = cursor.columnNames;
      const rows = Array.from(cursor.raw(), (values) => {
        const row: Record<string, SqlStorageValue> = {};
        for (let i = 0; i < names.length; i++) row[names[i] as string] = values[i] as SqlStorageValue;
        return row;
      }) as T[];
      stats.rowsRead += cursor.rowsRead;
      stats.rowsWritten += cursor.rowsWritten;
      return rows;
    } catch (err) {
      throw new SqlError(query, err);
    }
  };
  return {
    stats,
    all: (query, ...params) => drain(query, params),
    one: (query, ...params) => drain<never>(query, params)[0],
    run(query, ...params) {
      const cursor = exec(query, params);
      try {
        for (const _ of cursor) {
          // drain: a cursor that is not consumed never finishes executing
        }
      } catch (err) {
        throw new SqlError(query, err);
      }
      stats.rowsRead += cursor.rowsRead;
      stats.rowsWritten += cursor.rowsWritten;
      return { rowsRead: cursor.rowsRead, rowsWritten: cursor.rowsWritten };
    },
  };
}

/**
 * Serializes rows into JSON arrays of at most ~`maxBytes` each, for `INSERT … SELECT … FROM
 * json_each(?)`: one bind per chunk keeps us under the 100-parameter and statement-size limits.
 */
export function jsonChunks(items: readonly unknown[], maxBytes = 900_000): string[] {
  const chunks: string[] = [];
  let parts: string[] = [];
  let size = 2;
  for (const item of items) {
    const json = JSON.stringify(item);
    if (parts.length > 0 && size + json.length + 1 > maxBytes) {
      chunks.push(`[${parts.join(",")}]`);
      parts = [];
      size = 2;
    }
    parts.push(json);
    size += json.length + 1;
  }
  if (parts.length > 0) chunks.push(`[${parts.join(",")}]`);
  return chunks;
}
