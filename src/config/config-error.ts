/**
 * Every problem with a configuration, reported together. A module of its own
 * so that whatever checks settings (the Envoy settings, the resource loader,
 * the CLI) can throw it without loading the resource schemas.
 */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`configuration has ${problems.length} problem(s):\n  - ${problems.join('\n  - ')}`);
  }
}
