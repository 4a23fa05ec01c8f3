/** discord-rpc (npm, the classic client; unmodified) through the RPC-library scenario. */
import { Client } from 'discord-rpc';
import { classicRpcLibrary, rpcLibraryScenario } from './scenario.js';

rpcLibraryScenario('discord-rpc', () => classicRpcLibrary(new Client({ transport: 'ipc' })));
