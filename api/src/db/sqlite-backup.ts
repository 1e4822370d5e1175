import Database from 'better-sqlite3';

/**
 * The embedded database's online backup (docs/operations.md, "Backup and restore"): SQLite's
 * backup API copies every page in one step, inside one read transaction, so the copy is the
 * database exactly as it was at one moment while the server goes on writing (WAL readers never
 * block writers). The copy is then switched to a rollback journal, so it is one self-contained
 * file, and checked.
 */
const ALL_PAGES = 0x7fffffff;

export async function snapshotSqlite(sourceFile: string, targetFile: string): Promise<{ pages: number }> {
  const source = new Database(sourceFile, { fileMustExist: true });
  let pages = 0;
  try {
    source.pragma('busy_timeout = 5000');
    await source.backup(targetFile, {
      // All remaining pages in one step: a copy made in several steps restarts whenever the server
      // writes in between, and a busy server would keep it restarting.
      progress: ({ totalPages }) => {
        pages = totalPages;
        return ALL_PAGES;
      },
    });
  } finally {
    source.close();
  }
  const copy = new Database(targetFile);
  try {
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
  return { pages };
}

/** `PRAGMA integrity_check` of a database file: "ok", or the problems SQLite found. */
export function integrityCheck(file: string): string {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const rows = db.pragma('integrity_check') as { integrity_check: string }[];
    return rows.map((row) => row.integrity_check).join('; ');
  } finally {
    db.close();
  }
}
