import { b62, base64Of } from '../fake.js';
import { tp, type SampleTable } from './types.js';

export const httpAuthSamples: SampleTable = {
  'http-basic-auth': {
    tp: [tp("curl -H 'Authorization: Basic ", base64Of(`deploy:${b62(16)}`), "' https://api.example.com")],
    fp: ['Basic authentication is simple to set up', `Authorization: Basic ${base64Of('user:password')}`],
  },
  'http-bearer-token': {
    tp: [tp('Authorization: Bearer ', b62(40)), tp('headers = {"Authorization": "Bearer ', b62(48), '"}')],
    fp: ['Authorization: Bearer $TOKEN', 'Bearer tokens expire after one hour', 'Authorization: Bearer <your-token>'],
  },
  'http-authorization-header': {
    tp: [tp('Authorization: Token ', b62(40)), tp("--header 'Authorization: ", `${b62(8)}-${b62(4)}-${b62(12)}`, "'")],
    fp: ['Authorization: Token **********', 'authorization: required'],
  },
  'http-api-key-header': {
    tp: [tp('curl -H "X-API-Key: ', b62(40), '" https://api.example.com'), tp('PRIVATE-TOKEN: ', b62(24))],
    fp: ['-H "X-API-Key: $API_KEY"', 'x-api-key: required'],
  },
  'curl-user-password': {
    tp: [tp('curl -u ', `deploy:${b62(16)}`, ' https://api.example.com'), tp('curl -X POST \\\n  --user ', `api:${b62(16)}!`, ' \\\n  https://api.example.com')],
    fp: ['curl -u "$USER:$PASS" https://api.example.com', 'curl -u user:pass https://api.example.com', 'curl -i -u test:test https://x'],
  },
  'user-password-option': {
    tp: [tp('    --proxy-user ', `admin:${b62(16)}`, ' \\\n    --proxy https://proxy:8080'), tp('http --user=', `ci:${b62(14)}!`, ' POST https://api.example.com')],
    fp: ['wget --user=admin --ask-password https://localhost', '--proxy-user "$PROXY_USER:$PROXY_PASS"', 'curl --user admin: https://localhost', '--user-agent x:y'],
  },
  'netrc-password': {
    tp: [tp('machine api.example.com\n  login deploy\n  password ', b62(20), '\n')],
    fp: ['machine api.example.com login deploy password $NETRC_PASSWORD'],
  },
};
