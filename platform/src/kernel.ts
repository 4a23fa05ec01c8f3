import type { Logger } from 'pino';
import type { EventBus } from './events/bus.js';
import type { SnowflakeGenerator } from './ids/snowflake.js';
import type { Store } from './store/types.js';

/**
 * What every area needs (the database, ids, the clock, the logger, the event bus), and nothing that belongs to an
 * area: this module imports none, so any area can take a kernel without knowing the others. A service that needs
 * more than this takes those things as constructor arguments of its own.
 */
export interface PlatformKernel {
  store: Store;
  ids: SnowflakeGenerator;
  logger: Logger;
  bus: EventBus;
  now(): number;
}
