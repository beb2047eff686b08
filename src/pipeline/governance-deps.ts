import type { PipelineConfig } from './config.js';
import type { PipelineEvents } from './events.js';
import type { CredentialHealthPort, PipelineState } from './ports.js';

/** What the governance steps of a request (caller slot, spend, credential lease) work with. */
export interface GovernanceDeps {
  readonly state: PipelineState;
  readonly events: PipelineEvents;
  readonly config: PipelineConfig;
  /** Null when nothing confirms key rejections: then health never changes. */
  readonly health: CredentialHealthPort | null;
  readonly now: () => number;
}
