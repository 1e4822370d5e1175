/**
 * docker-compose.yml's minio-init gives the app's MinIO account its own bucket and nothing else:
 * the policy it writes names only that bucket and its objects, and the built-in "readwrite" (every
 * bucket on the server) is not attached. No MinIO runs here, so the file itself is read.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

interface Statement {
  Effect: string;
  Action: string[];
  Resource: string[];
}

describe("the app's MinIO account", () => {
  it('may use its own bucket only', async () => {
    const compose = await fs.readFile(path.join(ROOT, 'docker-compose.yml'), 'utf8');
    const heredoc = /<<POLICY\n([\s\S]*?)\n\s*POLICY\n/.exec(compose);
    expect(heredoc, 'minio-init writes a policy').not.toBeNull();
    // Compose turns $$ into $, and the shell puts the bucket's name in.
    const policy = JSON.parse(heredoc![1]!.replaceAll('$$S3_BUCKET', 'photos')) as { Statement: Statement[] };
    const resources = policy.Statement.flatMap((statement) => statement.Resource);
    expect(new Set(resources)).toEqual(new Set(['arn:aws:s3:::photos', 'arn:aws:s3:::photos/*']));
    expect(policy.Statement.every((statement) => statement.Effect === 'Allow' && statement.Action.every((action) => action.startsWith('s3:') && !action.includes('*')))).toBe(true);
    expect(policy.Statement.flatMap((statement) => statement.Action)).not.toContain('s3:DeleteBucket');
    expect(compose).toMatch(/mc admin policy attach local "app-\$\$S3_BUCKET" --user/);
    expect(compose).not.toMatch(/policy attach local readwrite/);
  });
});
