#!/usr/bin/env node
// Entry for the `halyard` bin and `npm start`. tsx lets the CLI run the TypeScript sources
// directly (and load TypeScript strategy plugins) without a build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
