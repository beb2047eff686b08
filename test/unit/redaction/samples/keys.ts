import { b62, b64, bech32, hex, jwt, pem } from '../fake.js';
import { tp, type SampleTable } from './types.js';

const ppkPublic = `PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: deploy\nPublic-Lines: 2\n${b64(64)}\n${b64(16)}\n`;

export const keySamples: SampleTable = {
  'private-key': {
    tp: [
      tp('key file:\n', pem('RSA PRIVATE KEY'), '\n'),
      tp('', pem('OPENSSH PRIVATE KEY', 8)),
      // Escaped once more, as in a pasted service-account JSON.
      tp('"private_key": "', pem('PRIVATE KEY', 10, '\\n'), '\\n"'),
    ],
    fp: ['-----BEGIN PRIVATE KEY-----\nanything\n-----END PRIVATE KEY-----', '-----BEGIN OPENSSH PRIVATE KEY----------END OPENSSH PRIVATE KEY-----', pem('PUBLIC KEY'), pem('CERTIFICATE')],
  },
  'private-key-der-body': {
    tp: [
      tp('PRIVATE_KEY=', `MIIEowIBAAKCAQEA${b64(1560)}`),
      tp('{"private_key": "', `MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQ${b64(1560)}==`, '"}'),
      tp('key: ', `MIICXAIBAAKBgQ${b64(60)} ${b64(76)} ${b64(76)} ${b64(76)} ${b64(76)} ${b64(76)} ${b64(76)} ${b64(70)}`, '\n'),
      tp('"', `MIIJKAIBAAKCAgEA${b64(48)}\\n${b64(64)}\\n${b64(64)}\\n${b64(64)}\\n${b64(64)}\\n${b64(64)}\\n${b64(64)}\\n${b64(64)}`, '"'),
    ],
    fp: [
      `PUBLIC_KEY=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA${b64(360)}IDAQAB`,
      `MIIDdzCCAl+gAwIBAgIJAKS0yiqKtlhoMA0GCSqGSIb3DQEBCwUAMFIxCzAJBgNVBAYTAlVT${b64(900)}`,
      `MIIEowIBAAKCAQEA${b64(120)}`,
      `data:image/png;base64,${b64(40)}MIIEowIBAAKCAQEA${b64(900)}`,
    ],
  },
  'putty-private-key': {
    tp: [tp(`${ppkPublic}Private-Lines: 1\n`, `${b64(44)}\n`, `Private-MAC: ${hex(64)}\n`)],
    fp: [`${ppkPublic}Private-Lines: 1\n\nPrivate-MAC: ${hex(64)}\n`],
  },
  'age-secret-key': {
    tp: [tp('# created: 2024-06-01\n', `AGE-SECRET-KEY-1${bech32(58)}`, '\n')],
    fp: [`AGE-SECRET-KEY-1${bech32(20)}`],
  },
  jwt: {
    tp: [tp('Authorization: Bearer ', jwt()), tp('SUPABASE_SERVICE_ROLE_KEY=', jwt(), '\n')],
    fp: ['eyJhbGciOiJIUzI1NiJ9', 'eyJhbGci.eyJzdWIi.sig', `eyJ${b62(40)}.${b62(40)}.${b62(40)}`],
  },
  'jwt-base64': {
    tp: [tp('token: ', Buffer.from(jwt()).toString('base64'))],
    fp: [`ZXlK${b64(60)}`],
  },
};
