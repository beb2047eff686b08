import { decodeBase64, notPlaceholder } from '../filters.js';
import { AFTER, BEFORE, prefixedToken, Specificity, type Rule } from '../rule.js';

// Inside a PEM body: base64, line breaks (real ones, or the two characters
// `\n` when the key sits in a JSON string that was escaped twice) and the
// `Proc-Type:`/`DEK-Info:` headers of legacy encrypted keys.
const PEM_BODY = '[A-Za-z0-9+/=\\\\\\r\\n\\t :,.]';
const PEM_HEADERS = '(?:(?:\\r?\\n|(?:\\\\r)?\\\\n)(?:Proc-Type|DEK-Info|Version|Comment|Hash|Charset):[^\\r\\n\\\\]{0,200}){0,6}';
const PEM_LABEL = '[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----';
// Longer than any RSA-8192 or PGP key with subkeys; also the most one header
// can make the engine read.
const PEM_MAX = 24576;

// The decoded text of a base64-wrapped JWT: a base64url JSON header at least.
const JWT_TEXT = /^eyJ[A-Za-z0-9_-]{8}/;

export const keyRules: readonly Rule[] = [
  {
    id: 'private-key',
    description: 'PEM private key block (RSA, EC, DSA, OpenSSH, PKCS#8, encrypted, PGP), BEGIN to END; a truncated block is redacted to its end.',
    keywords: ['-----BEGIN'],
    // Greedy over a body with no dash, so a header with no END costs the
    // distance to the next dash, not PEM_MAX: linear even for a body of
    // thousands of unterminated headers. Armor headers (Proc-Type, DEK-Info,
    // Version, Comment) may hold dashes and come first.
    pattern: new RegExp(`(-----BEGIN${PEM_LABEL}${PEM_HEADERS}(?:${PEM_BODY}{64,${PEM_MAX}}-----END${PEM_LABEL}|[A-Za-z0-9+/=\\\\\\r\\n\\t]{64,${PEM_MAX}}))`),
    specificity: Specificity.keyBlock,
  },
  // A private key's base64 body without its BEGIN line (a key pasted into
  // an environment variable, a JSON field or a one-line config): the DER
  // encoding fixes its first bytes, so the base64 starts the same way for
  // every RSA key — PKCS#1 RSAPrivateKey (RFC 8017: SEQUENCE, version 0,
  // INTEGER modulus: MII[A-L]?[AQgw]IBAAK[BC]) and PKCS#8 PrivateKeyInfo
  // (RFC 5208: SEQUENCE, version 0, the rsaEncryption algorithm, OCTET
  // STRING: …IBADANBgkqhkiG9w0BAQEFAAS[BC]). Public keys and certificates
  // have no version 0 there. The body may be wrapped in spaces or line
  // breaks (real or escaped), as a pasted key is.
  {
    id: 'private-key-der-body',
    description: 'Base64 body of an RSA private key (PKCS#1 or PKCS#8 DER) without its PEM armour.',
    keywords: ['IBAAK', 'IBADANBgkqhkiG9w0BAQEFAAS'],
    anchorBack: 6,
    pattern: new RegExp(
      `(?<![A-Za-z0-9+/])(MII[A-L][A-Za-z0-9+/][AQgw]IBA(?:AK[BC]|DANBgkqhkiG9w0BAQEFAAS[BC])(?:[A-Za-z0-9+/]|(?:[ \\t]|\\r?\\n|(?:\\\\r)?\\\\n)(?=[A-Za-z0-9+/])){400,12000}={0,2})(?![A-Za-z0-9+/=])`,
    ),
    specificity: Specificity.keyBlock,
  },
  {
    id: 'putty-private-key',
    description: 'PuTTY .ppk private key: the base64 lines after Private-Lines:.',
    keywords: ['private-lines:'],
    pattern: /Private-Lines:[ \t]{0,4}[0-9]{1,3}(?:\r?\n|(?:\\r)?\\n)((?:[A-Za-z0-9+/=]{1,64}(?:\r?\n|(?:\\r)?\\n|$)){1,128})/,
    specificity: Specificity.keyBlock,
  },
  {
    ...prefixedToken({
      id: 'age-secret-key',
      description: 'age encryption secret key: AGE-SECRET-KEY-1 and 58 bech32 characters.',
      keywords: ['AGE-SECRET-KEY-1'],
      token: 'AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}',
    }),
    // The bech32 prefix is unambiguous; even a low-variety body is a key
    // someone generated or typed into a key slot.
    accept: () => true,
  },
  {
    id: 'jwt',
    description: 'JSON Web Token: base64url header and payload that both decode to JSON objects (eyJ…), and a signature (possibly empty).',
    keywords: ['eyJ'],
    pattern: new RegExp(`${BEFORE}(eyJ[A-Za-z0-9_-]{8,4096}\\.eyJ[A-Za-z0-9_-]{4,16384}\\.(?:[A-Za-z0-9_-]{8,4096}={0,2})?)(?![A-Za-z0-9_+/=.-])`),
    entropy: 3.5,
    specificity: Specificity.structured,
  },
  {
    id: 'jwt-base64',
    description: 'A JWT that was base64-encoded once more (ZXlK…), as in Kubernetes secrets and config files.',
    keywords: ['ZXlK'],
    pattern: new RegExp(`${BEFORE}(ZXlK[A-Za-z0-9+/]{40,16384}={0,2})${AFTER}`),
    entropy: 4,
    specificity: Specificity.structured,
    accept: (s) => {
      const bytes = decodeBase64(s);
      return bytes !== null && JWT_TEXT.test(bytes.toString('latin1')) && notPlaceholder(s);
    },
  },
];
