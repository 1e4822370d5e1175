import type { Knex } from 'knex';
import { Redis } from 'ioredis';
import type { Config } from './config';
import { assertSecretStrength } from './config';
import { createKnex, databaseTarget } from './db/knex';
import { migrationSource } from '../../db/migrations/index';
import type { Logger } from './logger';
import type { Deps } from './deps';
import { createTokenService } from './http/auth';
import { createAccessService } from './http/access';
import { createRateLimits } from './http/rate-limit';
import { createMediaService } from './media/media.service';

export async function migrate(knex: Knex): Promise<void> {
  await knex.migrate.latest({ migrationSource });
}

export interface Runtime extends Deps {
  close(): Promise<void>;
}

/** Connects, migrates and wires the dependencies once (server, tests and benchmark share this). */
export async function buildRuntime(config: Config, logger: Logger): Promise<Runtime> {
  assertSecretStrength(config.jwtSecret);
  const target = databaseTarget(config.databaseUrl);
  const knex = createKnex(target);
  await migrate(knex);
  const redis = config.redisUrl ? new Redis(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 }) : null;
  redis?.on('error', (err) => logger.warn({ err }, 'redis error'));
  const media = await createMediaService({ storageDir: config.storageDir, businessName: config.businessName, logger });
  const deps: Deps = {
    config,
    knex,
    dialect: target.dialect,
    database: target.database,
    logger,
    tokens: createTokenService(config.jwtSecret, knex),
    access: createAccessService(config.jwtSecret),
    limits: createRateLimits({ knex, dialect: target.dialect, database: target.database, redis }),
    media,
  };
  return {
    ...deps,
    async close() {
      redis?.disconnect();
      await knex.destroy();
    },
  };
}
