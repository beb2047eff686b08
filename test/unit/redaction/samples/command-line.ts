import { b62, b64, hex } from '../fake.js';
import { tp, type SampleTable } from './types.js';

const password = () => `Xk9${b62(9)}!q`;

export const commandLineSamples: SampleTable = {
  'registry-login-password': {
    tp: [
      tp('$ docker login -u ci-bot -p ', password(), ' registry.example.com'),
      tp('podman login --username ci -p "', password(), '" quay.io'),
      tp('helm registry login r.example.com --username ci -p ', password(), '\n'),
    ],
    fp: ['docker login -u ci -p $REGISTRY_PASSWORD registry.example.com', 'docker run -p 8080:80 nginx', 'docker login -p ${{ secrets.TOKEN }} ghcr.io'],
  },
  'registry-password-stdin': {
    tp: [tp('echo "', password(), '" | docker login r.example.com -u ci --password-stdin'), tp("printf '", password(), "' | podman login quay.io -u x --password-stdin")],
    fp: ['echo "$CR_PAT" | docker login ghcr.io -u me --password-stdin', 'echo hello | docker login'],
  },
  'command-line-secret-flag': {
    tp: [
      tp('mysql -h db --password=', password(), ' app'),
      tp('wget --http-password=', password(), ' https://repo.example.com/x.tgz'),
      tp('az storage blob list --account-key ', `${b64(86)}==`, ' -c logs'),
      tp('vault login --token ', `s7${b62(22)}`, '\n'),
      tp('skopeo copy --dest-creds ', `ci:${password()}`, ' docker://a docker://b'),
      // A literal value: a call of password() here would shift every later family's fake values.
      tp('gpg --batch --passphrase ', 'Xk9mQ2vL7pR4!q', ' -c notes.txt'),
    ],
    fp: [
      'wget --user=admin --ask-password https://localhost',
      'mysql --password=$DB_PASSWORD app',
      'tool --token-file=/run/secrets/token',
      'cmd --api-key "${API_KEY}"',
      'gpg --passphrase-fd 0',
      'cli --secret=changeme',
    ],
  },
  'log-key-value': {
    tp: [tp('2024-03-11 09:14:22 [DEBUG] Client: Using Key=', `${b62(30)}7q`, '\n'), tp('INFO api key: ', hex(32), ' loaded')],
    fp: ['sort(key=lambda x: x[1])', 'Stripe publishable key: pk_live_51HxYzAbCdEf1234567890', 'cache key: user:profile:12345', `ssh key: SHA256:${b64(43)}`],
  },
  'generic-camel-key': {
    tp: [tp("const cosmosKey = '", `${b64(86)}==`, "';"), tp('mapsSubscriptionKey: "', `${b62(40)}7q`, '"')],
    fp: ["const primaryKey = 'user_id_and_tenant_id';", `cacheKey = "${hex(40)}"`, 'publicKey: "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE"'],
  },
  'name-value-pair': {
    tp: [
      tp('{"name": "DB_PASSWORD", "value": "', password(), '"}'),
      tp('env:\n  - name: STRIPE_API_KEY\n    value: ', `${b62(30)}7q`, '\n'),
      tp('<add key="TwilioAuthToken" value="', hex(32), '" />'),
      tp('<property name="db.password" value="', password(), '"/>'),
      // `key` as the name's field: settings stores, key/value tag lists.
      tp('{"key": "smtp_password", "value": "', password(), '", "info": "mail"}'),
      tp('secrets:\n  - key: business.password\n    value: ', password(), '\n'),
      tp('<entry>\n  <key>PASS</key>\n  <value>', password(), '</value>\n</entry>'),
      tp('{\\"key\\": \\"ACME_TOKEN\\", \\"value\\": \\"', b62(32), '\\"}'),
      // a numbered twin of the record's fields, and a long generated value
      tp('{"name1": "TEST_PASSWORD_2",\n "value1": "', `${b64(98)}7+`, '"}'),
      tp('- name: SERVICE_PASSWORD_LONG\n  value: ', `${b64(498)}9/`, '\n'),
    ],
    fp: [
      '{"name": "read_file", "value": "Xk9aB3dE7fG!q"}',
      '{"name": "API_KEY_ID", "value": "AB12CD34EF56"}',
      '- name: DB_PASSWORD\n  value: ${DB_PASSWORD}',
      '<add key="AuthEndpoint" value="https://login.example.com/x1" />',
      '{"key": "username", "value": "Xk9aB3dE7fG!q"}',
      '- key: password\n  value: ${DB_PASSWORD}',
      '<entry><key>compass</key><value>Xk9aB3dE7fG!q</value></entry>',
      '{"key": "bypass", "value": "Xk9aB3dE7fG!q"}',
    ],
  },
  'value-name-pair': {
    tp: [
      tp('{"value": "', `${b64(98)}7+`, '", "name": "TEST_PASSWORD_1"}'),
      tp('spec:\n  - value: ', password(), '\n    name: DB_PASSWORD\n'),
      tp('{\\"value\\": \\"', b62(32), '\\", \\"key\\": \\"ACME_TOKEN\\"}'),
    ],
    fp: [
      '{"value": "Xk9aB3dE7fG!q", "name": "read_file"}',
      // the next list item's name is another record's
      '- name: SOME_NAME\n  value: Xk9aB3dE7fG!q\n- name: DB_PASSWORD\n  value: ${DB_PASSWORD}',
      '{"value": "${DB_PASSWORD}", "name": "DB_PASSWORD"}',
      '{"value": "AB12CD34EF56", "name": "API_KEY_ID"}',
    ],
  },
  'command-line-glued-password-flag': {
    tp: [
      tp('curl --tlspassword ', password(), ' https://host.example.com'),
      tp('wget --proxy-tlspassword=', password(), ' https://host.example.com'),
      tp('psql-backup --dbpassword "', password(), '" --db app'),
    ],
    fp: [
      'wget --user=admin --ask-password https://localhost',
      'curl --tlspassword $TLS_PASSWORD https://host',
      `mypassword ${password()}`,
      `x--tlspassword ${password()}`,
      `---tlspassword ${password()}`,
    ],
  },
  'any-url-password': {
    tp: [tp('KAFKA_URL=kafka://app:', password(), '@broker-1.example.com:9093'), tp('nats://svc:', password(), '@nats.internal:4222')],
    fp: ['kafka://app:${KAFKA_PASSWORD}@broker:9093', 'nats://user:password@localhost:4222', 'see https://example.com/a:b@c'],
  },
};
