import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrationSource } from '../../../db/migrations/index';

const folder = path.resolve(import.meta.dirname, '../../../db/migrations');

describe('the migration list', () => {
  it('names every migration file once, in the order of their timestamps, so every database runs them alike', async () => {
    const listed = await migrationSource.getMigrations([]);
    const files = fs.readdirSync(folder).filter((name) => /^\d{14}_.+\.ts$/.test(name)).map((name) => name.replace(/\.ts$/, '')).sort();
    expect(listed).toEqual(files);
  });
});
