/** The bookmark APIs: the interface every adapter implements (types.ts) and the registry that lists them (registry.ts). */
export * from './types';
export * from './registry';
