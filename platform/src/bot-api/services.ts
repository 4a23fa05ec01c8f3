import type { ReadsUrls } from '../http/urls.js';
import type { PlatformKernel } from '../kernel.js';
import type { OutboundHttpClient } from '../outbound/http-client.js';

/**
 * What the bot API area (with its interactions part) builds its services from: the kernel, the platform's URLs
 * (attachment URLs start with the attachments origin's), outbound HTTP to interactions endpoints, and whether the
 * development routes are served.
 */
export interface BotApiServices extends PlatformKernel, ReadsUrls {
  outbound: OutboundHttpClient;
  devMode: boolean;
}
