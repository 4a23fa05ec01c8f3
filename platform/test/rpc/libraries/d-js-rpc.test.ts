/** d-js-rpc (npm, a fork of the classic client that adds an activity type; unmodified) through the RPC-library scenario. */
import { Client } from 'd-js-rpc';
import { rpcLibraryScenario } from './scenario.js';

rpcLibraryScenario('d-js-rpc', () => {
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
