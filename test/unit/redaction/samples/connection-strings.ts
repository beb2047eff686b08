import { b62, b64url, digits } from '../fake.js';
import { tp, type SampleTable, type RuleSamples } from './types.js';

const url = (scheme: string, host: string, rest = ''): RuleSamples => ({
  tp: [tp(`DATABASE_URL=${scheme}://app:`, `${b62(20)}`, `@${host}${rest}`), tp(`url: "${scheme}://:`, `${b62(12)}!x`, `@${host}"`)],
  fp: [`${scheme}://app:\${DB_PASSWORD}@${host}`, `${scheme}://user:password@${host}`, `${scheme}://app@${host}${rest}`],
});

export const connectionStringSamples: SampleTable = {
  'postgres-url-password': url('postgresql', 'db.example.com:5432', '/app?sslmode=require'),
  'mysql-url-password': url('mysql', 'db.example.com:3306', '/app'),
  'mongodb-url-password': url('mongodb+srv', 'cluster0.abcde.mongodb.net', '/app?retryWrites=true'),
  'redis-url-password': url('rediss', 'cache.example.com:6380', '/0'),
  'amqp-url-password': url('amqps', 'mq.example.com:5671', '/vhost'),
  'mssql-url-password': url('mssql', 'sql.example.com:1433', '/app'),
  'clickhouse-url-password': url('clickhouse', 'ch.example.com:9000', '/default'),
  'ldap-url-password': url('ldaps', 'ldap.example.com:636', ''),
  'smtp-url-password': url('smtps', 'smtp.example.com:465', ''),
  'ftp-url-password': url('sftp', 'files.example.com:22', '/upload'),
  'url-credentials': {
    tp: [tp('git clone https://', `deploy:${b62(20)}`, '@git.example.com/acme/repo.git'), tp('https://', `oauth2:${b62(24)}`, '@gitlab.com')],
    fp: ['https://user:pass@example.com', 'https://git@github.com/acme/repo', 'https://twitter.com/@acme'],
  },
  'cloudinary-url': {
    tp: [tp(`CLOUDINARY_URL=cloudinary://${digits(15)}:`, b64url(27), '@acme')],
    fp: [`cloudinary://${digits(15)}:<api_secret>@acme`],
  },
  'jdbc-password': {
    tp: [tp('jdbc:postgresql://db:5432/app?user=app&password=', b62(16), '&ssl=true'), tp('jdbc:sqlserver://db:1433;databaseName=app;user=app;password=', b62(16), ';')],
    fp: [
      'jdbc:mysql://db/app?user=root&password=${DB_PASS}',
      // an empty password in a URL quoted inside JSON, once and twice escaped
      '{"xml": "<Realm connectionURL=\\"jdbc:mysql://db/auth?user=app&amp;password=\\" userTable=\\"users\\"/>"}',
      '{"text": "{\\"xml\\": \\"<Realm connectionURL=\\\\\\"jdbc:mysql://db/auth?user=app&amp;password=\\\\\\" userTable=x/>\\"}"}',
    ],
  },
  'adonet-password': {
    tp: [tp('Server=tcp:db.example.com,1433;Database=app;User ID=app;Password=', `${b62(16)}!`, ';Encrypt=True;')],
    fp: [`Password=${b62(16)};`, 'Server=db;User ID=app;Password=changeme;'],
  },
};
