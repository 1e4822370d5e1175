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
