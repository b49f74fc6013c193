import { fileURLToPath } from 'node:url';

// Where the files Desk reads beside its code live (the screen's assets, the demo business).
// This module sits one folder below the package root both as a source (src/root.ts) and in the
// build, where it is bundled into a chunk directly under dist/.
export const PACKAGE_ROOT = fileURLToPath(new URL('../', import.meta.url));
