/** discord-rpc (npm, the classic client; unmodified) through the RPC-library scenario. */
import { Client } from 'discord-rpc';
import { rpcLibraryScenario } from './scenario.js';

rpcLibraryScenario('discord-rpc', () => {
  const client = new Client({ transport: 'ipc' });
  return {
    connect: async (clientId) => {
      await client.login({ clientId });
      return { userId: client.user!.id };
    },
    setActivity: async (activity) => {
      await client.setActivity(activity);
    },
    clearActivity: async () => {
      await client.clearActivity();
    },
    destroy: () => client.destroy(),
  };
});
