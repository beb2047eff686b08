import type { HeaderMap } from '../pipeline/types.js';
import type { CompanySettings } from '../state/records.js';
import { isValidRepoSlug } from './repo-slug.js';

const MAX_LABEL_BYTES = 200;

export interface Attribution {
  readonly repo?: string;
  readonly application?: string;
  readonly endUser?: string;
  /** A warning for the response (x-gw-warning), e.g. an x-gw-repo that was not valid. */
  readonly warning?: string;
}

function label(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed === '' || Buffer.byteLength(trimmed, 'utf8') > MAX_LABEL_BYTES) return undefined;
  return trimmed;
}

/**
 * The x-gw-* attribution headers, consumed by the gateway (never forwarded).
 * repo is recorded only when the company has repository attribution on, and
 * only when valid; end_user only when end-user recording is on (otherwise
 * dropped silently, spec §2.3); application always.
 */
export function readAttribution(headers: HeaderMap, settings: CompanySettings): Attribution {
  const out: { repo?: string; application?: string; endUser?: string; warning?: string } = {};
  const repo = headers['x-gw-repo'];
  if (repo !== undefined) {
    if (!isValidRepoSlug(repo)) out.warning = 'x-gw-repo ignored: expected <host>/<owner>/<repo>, 1 to 200 bytes, no scheme, credentials or .git';
    else if (settings.repositoryAttribution) out.repo = repo;
  }
  const application = label(headers['x-gw-application']);
  if (application !== undefined) out.application = application;
  if (settings.endUserRecording) {
    const endUser = label(headers['x-gw-end-user']);
    if (endUser !== undefined) out.endUser = endUser;
  }
  return out;
}
