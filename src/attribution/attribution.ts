import type { HeaderMap } from '../http/headers.js';
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

interface Label {
  readonly value: string;
  readonly truncated: boolean;
}

/**
 * A label over the limit keeps its first 200 UTF-8 bytes (cut at a character
 * boundary) rather than vanishing: attribution is never lost silently, and the
 * response says what happened (x-gw-warning).
 */
function label(value: string | undefined): Label | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  if (Buffer.byteLength(trimmed, 'utf8') <= MAX_LABEL_BYTES) return { value: trimmed, truncated: false };
  let end = 0;
  let bytes = 0;
  for (const char of trimmed) {
    const size = Buffer.byteLength(char, 'utf8');
    if (bytes + size > MAX_LABEL_BYTES) break;
    bytes += size;
    end += char.length;
  }
  return { value: trimmed.slice(0, end).trimEnd(), truncated: true };
}

const truncatedWarning = (name: string): string => `${name} truncated to its first ${MAX_LABEL_BYTES} UTF-8 bytes`;

/**
 * The x-gw-* attribution headers, consumed by the gateway (never forwarded).
 * repo is recorded only when the company has repository attribution on, and
 * only when valid; end_user only when end-user recording is on (otherwise
 * dropped silently, spec §2.3); application always.
 */
export function readAttribution(headers: HeaderMap, settings: CompanySettings): Attribution {
  const out: { repo?: string; application?: string; endUser?: string; warning?: string } = {};
  const warnings: string[] = [];
  const repo = headers['x-gw-repo'];
  if (repo !== undefined) {
    if (!isValidRepoSlug(repo)) warnings.push('x-gw-repo ignored: expected <host>/<owner>/<repo>, 1 to 200 bytes, no scheme, credentials or .git');
    else if (settings.repositoryAttribution) out.repo = repo;
  }
  const application = label(headers['x-gw-application']);
  if (application !== undefined) {
    out.application = application.value;
    if (application.truncated) warnings.push(truncatedWarning('x-gw-application'));
  }
  // With end-user recording off the header is dropped without a trace, as spec §2.3 asks.
  if (settings.endUserRecording) {
    const endUser = label(headers['x-gw-end-user']);
    if (endUser !== undefined) {
      out.endUser = endUser.value;
      if (endUser.truncated) warnings.push(truncatedWarning('x-gw-end-user'));
    }
  }
  if (warnings.length > 0) out.warning = warnings.join('; ');
  return out;
}
