import { shannonEntropy } from './entropy.js';
import { notPlaceholder } from './filters.js';
import { allOf, maxMatchLength, nameRunWithin, prefixedTokenPrecheck, tokenRunWithin, type Precheck } from './prechecks.js';

/** Where a candidate was found, for acceptance tests that need to look around it. */
export interface MatchContext {
  /** The scanned text (a decoded JSON string value, or the whole plain text). */
  readonly text: string;
  /** Offset in `text` of the whole regex match. */
  readonly matchStart: number;
  /** Offsets in `text` of the secret (the capture group). */
  readonly secretStart: number;
  readonly secretEnd: number;
}

export interface Rule {
  /** Stable id: it is the `<rule_id>` of `[REDACTED: <rule_id>]`, and a metric label. */
  readonly id: string;
  readonly description: string;
  /**
   * ASCII strings, at least one of which occurs in or next to every match.
   * The prefilter finds them case-insensitively; a keyword that contains an
   * upper-case letter must also match exactly.
   */
  readonly keywords: readonly string[];
  /**
   * The secret is the first capture group that participates in the match.
   * Quantifiers are bounded (a unit test enforces it); the engine adds the
   * `g`/`y`/`d` flags it needs, so the pattern carries at most `i`.
   */
  readonly pattern: RegExp;
  /**
   * Absent: the match starts at the keyword hit minus `anchorBack`, which
   * costs one anchored attempt per hit. Present: the pattern is searched in
   * the window [hit - before, hit end + after].
   */
  readonly window?: { readonly before: number; readonly after: number };
  readonly anchorBack?: number;
  /**
   * A cheap necessary condition for a match starting at `at`, asked before
   * each anchored attempt (windowed rules ignore it): false only where the
   * pattern cannot match there. See prechecks.ts.
   */
  readonly precheck?: Precheck;
  /** Minimum Shannon entropy (bits per character) of the secret. */
  readonly entropy?: number;
  /** When findings overlap, the higher value names the replacement. */
  readonly specificity: number;
  /** The service whose credential this is (for docs/redaction.md); absent for formats such as PEM keys or JWTs. */
  readonly service?: string;
  /** Final say on a candidate; defaults to `notPlaceholder`. */
  readonly accept?: (secret: string, context: MatchContext) => boolean;
}

/** Specificity levels, so families rank consistently against each other. */
export const Specificity = {
  gateway: 100,
  keyBlock: 90,
  prefixed: 80,
  structured: 60,
  contextual: 40,
  header: 30,
  generic: 10,
} as const;

export interface PrefixedTokenSpec {
  id: string;
  description: string;
  keywords: readonly string[];
  /** Regex source of the whole token, starting with its literal prefix. */
  token: string;
  entropy?: number;
  flags?: string;
  /**
   * The test for a match that does not start with a distinctive prefix (see
   * `distinctivePrefix`); the default is `notPlaceholder`.
   */
  accept?: (secret: string, context: MatchContext) => boolean;
  /** The prefix is distinctive although short (`SG.` with its two-dot structure). */
  strongPrefix?: boolean;
}

// Characters that may neither precede nor follow a token: without them a
// token shape would also match inside a longer identifier or base64 run. A
// literal `\n` escape (text that was JSON-escaped twice) still counts as a
// line break before a token.
export const BEFORE = '(?:(?<![A-Za-z0-9_+/.])|(?<=\\\\[nrt]))';
export const AFTER = '(?![A-Za-z0-9_+/=-])';

// A keyword that is only an everyday word and a separator (`live_`,
// `secret-`, `pat.`) says little on its own: identifiers start that way.
const WORD_PREFIX = /^(?:live|test|prod|production|api|sdk|pat|sat|secret|access|token|key|sk|pk|rk|as|ak|pa|re|fw)[_.-]?$/i;

/**
 * Whether a token's literal prefix is evidence enough that the match is a
 * credential, whatever its body looks like (owner decision of issue 29,
 * docs/redaction.md): four characters or more, two of them letters, no run
 * of three of one character (`EAAA`, `AAAA…`), and not just a word and a
 * separator. Short vendor prefixes (`SK`, `hf_`, `EAA`) keep the body tests.
 */
export function distinctivePrefix(keyword: string): boolean {
  if (keyword.length < 4 || WORD_PREFIX.test(keyword) || /(.)\1\1/.test(keyword)) return false;
  return (keyword.match(/[A-Za-z]/g) ?? []).length >= 2;
}

/**
 * Makes a rule's distinctive literal prefix evidence enough: when a match
 * starts with one of its keywords that `distinctivePrefix` accepts (or any
 * of them, with `strong`), the rule's entropy floor is lifted (a real key
 * can draw a body with little entropy), but its test for stand-ins stays
 * (`AKIAZZZZZZZZZZZZZZZZ`, `ghp_xxxx…`, `…EXAMPLE`): no service issues one,
 * and documentation and tests are full of them (owner decision 1 of issue
 * 29, revised; docs/redaction.md).
 */
export function withPrefixEvidence(rule: Rule, strong = false): Rule {
  const evidence = rule.keywords.filter((k) => strong || distinctivePrefix(k));
  if (evidence.length === 0) return rule;
  const base = rule.accept ?? notPlaceholder;
  const floor = rule.entropy ?? 0;
  const { entropy: _dropped, ...rest } = rule;
  return {
    ...rest,
    accept: (secret, context) => (floor === 0 || evidence.some((k) => secret.startsWith(k)) || shannonEntropy(secret) >= floor) && base(secret, context),
  };
}

/**
 * A token with a distinctive literal prefix: found without any context,
 * and with the prefix as evidence (`withPrefixEvidence`) when it is
 * distinctive. `spec.accept` (default `notPlaceholder`) and the entropy
 * floor judge matches that do not start with such a prefix.
 */
export function prefixedToken(spec: PrefixedTokenSpec): Rule {
  return withPrefixEvidence(
    {
      id: spec.id,
      description: spec.description,
      keywords: spec.keywords,
      pattern: new RegExp(`${BEFORE}(${spec.token})${AFTER}`, spec.flags ?? ''),
      precheck: prefixedTokenPrecheck(maxMatchLength(spec.token)),
      ...(spec.entropy !== undefined ? { entropy: spec.entropy } : {}),
      specificity: Specificity.prefixed,
      accept: spec.accept ?? notPlaceholder,
    },
    spec.strongPrefix === true,
  );
}

// `=>` (Ruby, PHP), `:=`, `::=`, `?=`, `.=`, `=`, `:`, and in prose a
// spaced dash before a quoted value (`the auth token - 'value'`).
const OPERATOR = `(?:=>|:{1,3}=|[?.]=|=|:|(?<=[ \\t])-(?=[ \\t]{1,4}\\\\{0,3}["'\`]))`;

/**
 * The part between a name and its value in the many assignment syntaxes a
 * prompt carries: `k = v`, `k: v`, `"k": "v"`, `k := v`, `$k .= "v"`,
 * `"k" => "v"`, `K ?= v`, `var k string = "v"`, and after a quoted name also
 * `setProperty("K", "v")`. It stops before the value's opening quote.
 */
export const ASSIGN_OPERATOR = `(?:\\\\{0,3}["'\`](?:\\])?[ \\t]{0,16}(?:${OPERATOR}|,)|\\][ \\t]{0,16}${OPERATOR}|(?:[ \\t]{1,4}(?:string|str|String|char\\*?))?[ \\t]{0,16}${OPERATOR})[ \\t]{0,16}`;

/** `ASSIGN_OPERATOR` and the value's optional opening quote. */
export const ASSIGN = `${ASSIGN_OPERATOR}(?:\\\\{0,3}["'\`])?`;

/**
 * Whether a name starts at `at` inside an identifier: after a non-letter, or
 * at a camelCase boundary (`myOktaToken`), not inside a word (`rookTable`).
 * Checked in code because the patterns are case-insensitive.
 */
export function startsName(text: string, at: number): boolean {
  const before = text.charCodeAt(at - 1);
  const lower = before >= 97 && before <= 122;
  if (!lower && !(before >= 65 && before <= 90)) return true;
  const first = text.charCodeAt(at);
  return lower && first >= 65 && first <= 90;
}

/** Contextual values have no shape of their own; demand the look of a random token. */
export function randomLooking(value: string): boolean {
  return notPlaceholder(value) && /[0-9]/.test(value);
}

export interface ContextualSpec {
  id: string;
  description: string;
  /** Words that name the service; the value must follow one in an assignment. */
  keywords: readonly string[];
  /** Regex source of the name, matched case-insensitively from the keyword on. */
  name: string;
  /** Regex source of the value. */
  value: string;
  entropy?: number;
  accept?: (secret: string, context: MatchContext) => boolean;
}

/**
 * A value with no distinctive shape, recognised by the service name in the
 * variable or key it is assigned to (`DATADOG_API_KEY=...`).
 */
export function contextualAssignment(spec: ContextualSpec): Rule {
  const source = `(?:${spec.name})[A-Za-z0-9_.-]{0,32}${ASSIGN}(${spec.value})(?![A-Za-z0-9_+/=-])`;
  return {
    id: spec.id,
    description: spec.description,
    keywords: spec.keywords,
    pattern: new RegExp(source, 'i'),
    // `aws_session_token=aws_session_token=…` is one run of value
    // characters; `aws.secretaws.secret…` one run of name characters,
    // longer than the name and the `.` of `.=`.
    precheck: allOf(tokenRunWithin(maxMatchLength(source)), nameRunWithin(maxMatchLength(`(?:${spec.name})[A-Za-z0-9_.-]{0,32}`) + 1)),
    ...(spec.entropy !== undefined ? { entropy: spec.entropy } : {}),
    specificity: Specificity.contextual,
    accept: (secret, context) => startsName(context.text, context.matchStart) && (spec.accept ?? randomLooking)(secret, context),
  };
}
