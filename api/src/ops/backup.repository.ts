import Database from 'better-sqlite3';

/** A photo's files as the backed-up database names them. */
export interface ReferencedPhoto {
  storageKey: string;
  mimeType: string;
}

/**
 * What a backed-up SQLite database refers to in storage (docs/operations.md, "Backup and restore"):
 * every photo's files and every example product image. Read from the backup's own copy, never from
 * the live database.
 */
export function readStorageReferences(file: string): { photos: ReferencedPhoto[]; exampleImages: string[] } {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const photos = db.prepare('SELECT storage_key, mime_type FROM photos').all() as { storage_key: string; mime_type: string }[];
    const examples = db.prepare('SELECT DISTINCT example_image FROM price_list_items WHERE example_image IS NOT NULL').all() as { example_image: string }[];
    return {
      photos: photos.map((row) => ({ storageKey: row.storage_key, mimeType: row.mime_type })),
      exampleImages: examples.map((row) => row.example_image),
    };
  } finally {
    db.close();
  }
}

/** What a database file says of itself: whether it is this product's, and which migrations it has. */
export type DatabaseIdentity = { kind: 'not-sqlite' } | { kind: 'foreign' } | { kind: 'ours'; migrations: string[] };

/**
 * Whether a file is an SQLite database of this product (docs/operations.md, "Backup and restore"):
 * its knex_migrations table lists this product's first migration. Never throws for a file that is
 * not a database at all.
 */
export function databaseIdentity(file: string, firstMigration: string): DatabaseIdentity {
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch {
    return { kind: 'not-sqlite' };
  }
  try {
    const table = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'knex_migrations'").get();
    if (!table) return { kind: 'foreign' };
    const names = (db.prepare('SELECT name FROM knex_migrations ORDER BY id').all() as { name: unknown }[]).map((row) => String(row.name));
    return names.includes(firstMigration) ? { kind: 'ours', migrations: names } : { kind: 'foreign' };
  } catch {
    // "file is not a database" surfaces at the first read, not at open.
    return { kind: 'not-sqlite' };
  } finally {
    db.close();
  }
}
