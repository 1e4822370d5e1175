import type { Knex } from 'knex';
import type { Config } from './config';
import type { Dialect } from './db/knex';
import type { Logger } from './logger';
import type { TokenService } from './http/auth';
import type { AccessService } from './http/access';
import type { RateLimits } from './http/rate-limit';
import type { MediaService } from './media/media.types';

/** Everything a feature needs, wired once at the edge (createApp). No module-level singletons. */
export interface Deps {
  config: Config;
  knex: Knex;
  dialect: Dialect;
  /** Database name (MySQL) or file (SQLite). */
  database: string;
  logger: Logger;
  tokens: TokenService;
  access: AccessService;
  limits: RateLimits;
  media: MediaService;
}
