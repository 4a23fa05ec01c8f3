/**
 * d-js-rpc (npm, a fork of the classic client that adds an activity type; unmodified) through the RPC-library scenario.
 */
import { Client } from 'd-js-rpc';
import { classicRpcLibrary, rpcLibraryScenario } from './scenario.js';

rpcLibraryScenario('d-js-rpc', () => classicRpcLibrary(new Client({ transport: 'ipc' })));
