// Wrapper templates: the text around a credential as it reaches a prompt
// (source files in several languages, .env, YAML, JSON, XML, shell, logs,
// stack traces, URLs, prose). Two disjoint families: TUNING templates for
// the half the rules may be tuned on, HELD_OUT templates for the half that
// only scores. Both cover the same classes of shape with different concrete
// wrappers, so the held-out score says whether a fix generalized.
//
// A template is (ctx) => text; every occurrence of ctx.v (or of each of
// ctx.secrets) in the text is a copy that must be redacted.

const pascal = (s) => s.replace(/(^|[^A-Za-z0-9]+)([A-Za-z0-9])/g, (_, __, c) => c.toUpperCase());
const camel = (s) => pascal(s).replace(/^./, (c) => c.toLowerCase());

/** Names derived from the service and its variable. */
export function names(service) {
  const words = service.env.toLowerCase().split('_').filter(Boolean);
  const field = (words.length > 2 ? words.slice(1) : words.length === 2 ? words : words).join('_');
  const slug = service.name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return {
    env: service.env,
    name: service.name,
    slug,
    slug_: slug.replace(/-/g, '_'),
    Pascal: pascal(slug) || 'Service',
    field,
    fieldCamel: camel(field),
    FieldPascal: pascal(field),
    fieldWords: field.replace(/_/g, ' '),
    fieldKebab: field.replace(/_/g, '-'),
    fieldDot: field.replace(/_/g, '.'),
  };
}

// --- Token-shaped values -----------------------------------------------------

export const TOKEN_TUNING = {
  dotenv: (c) => `# ${c.name}\n${c.env}=${c.v}\nLOG_LEVEL=info\n`,
  python: (c) => `import os\n\nos.environ["${c.env}"] = "${c.v}"\nclient = make_client()\n`,
  yaml: (c) => `${c.slug_}:\n  ${c.field}: ${c.v}\n  timeout: 30\n`,
  json: (c) => JSON.stringify({ [c.slug_]: { [c.fieldCamel]: c.v, region: 'us-east-1' } }, null, 2),
  'shell-export': (c) => `export ${c.env}='${c.v}'\n./scripts/deploy.sh --env prod\n`,
  'log-using-key': (c) => `2024-03-11 09:14:22,118 [DEBUG] ${c.Pascal}Client: Using Key=${c.v}\n2024-03-11 09:14:22,301 [INFO] connected\n`,
  javascript: (c) => `const ${c.fieldCamel} = '${c.v}';\nmodule.exports = { ${c.fieldCamel} };\n`,
  'xml-element': (c) =>
    `<settings>\n  <servers>\n    <server>\n      <id>${c.slug}</id>\n      <username>deployer</username>\n      <password>${c.v}</password>\n    </server>\n  </servers>\n</settings>\n`,
  'prose-dash': (c) => `For the record, the ${c.name} ${c.fieldWords} - '${c.v}' is the one the old service used.`,
  'repeated-copy': (c) => `${c.env}=${c.v}\n\nLater in the thread: I pasted ${c.v} into the dashboard and it worked.`,
  'docker-login': (c) => `$ docker login -u ci-bot -p ${c.v} registry.${c.slug}.example.com\nWARNING! Using --password via the CLI is insecure.\nLogin Succeeded\n`,
  go: (c) => `func init() {\n\tos.Setenv("${c.env}", "${c.v}")\n}\n`,
  'cli-flag': (c) => `$ ${c.slug}-cli configure --${c.fieldKebab}=${c.v} --profile prod\n`,
  'yaml-quoted': (c) => `env:\n  ${c.env}: "${c.v}"\n  NODE_ENV: production\n`,
  // Added in the second round (see docs/redaction.md): a name given as data beside its value.
  'ecs-env-json': (c) =>
    JSON.stringify(
      {
        containerDefinitions: [
          {
            name: 'app',
            environment: [
              { name: 'LOG_LEVEL', value: 'info' },
              { name: c.env, value: c.v },
            ],
          },
        ],
      },
      null,
      2,
    ),
  'spring-xml-property': (c) => `<bean id="${c.fieldCamel}Client" class="com.example.${c.Pascal}Client">\n  <property name="${c.fieldCamel}" value="${c.v}"/>\n</bean>\n`,
};

export const TOKEN_HELD_OUT = {
  ruby: (c) => `${c.Pascal}.configure do |config|\n  config.${c.field} = '${c.v}'\nend\n`,
  php: (c) => `<?php\nreturn [\n    '${c.slug_}' => [\n        '${c.field}' => '${c.v}',\n    ],\n];\n`,
  properties: (c) => `${c.slug}.${c.fieldDot}=${c.v}\n${c.slug}.timeout=30\n`,
  toml: (c) => `[${c.slug_}]\n${c.field} = "${c.v}"\nretries = 3\n`,
  'xml-attribute': (c) => `<appSettings>\n  <add key="${c.Pascal}${c.FieldPascal}" value="${c.v}" />\n</appSettings>\n`,
  'jenkins-xml': (c) =>
    `<org.jenkinsci.plugins.plaincredentials.impl.StringCredentialsImpl>\n  <scope>GLOBAL</scope>\n  <id>${c.slug}-${c.fieldKebab}</id>\n  <secret>${c.v}</secret>\n</org.jenkinsci.plugins.plaincredentials.impl.StringCredentialsImpl>\n`,
  'stack-trace': (c) =>
    `Traceback (most recent call last):\n  File "/srv/app/main.py", line 42, in <module>\n    client = ${c.Pascal}Client(${c.field}="${c.v}")\n  File "/srv/app/client.py", line 17, in __init__\n    raise AuthError(resp.status)\n${c.Pascal}AuthError: 401 Unauthorized\n`,
  'log-colon': (c) => `INFO  [main] c.a.${c.Pascal}Config - ${c.fieldWords}: "${c.v}"\nINFO  [main] c.a.Application - started in 2.1s\n`,
  terraform: (c) => `variable "${c.slug_}_${c.field}" {\n  type      = string\n  default   = "${c.v}"\n}\n`,
  'k8s-secret': (c) => `apiVersion: v1\nkind: Secret\nmetadata:\n  name: ${c.slug}\ntype: Opaque\nstringData:\n  ${c.env}: "${c.v}"\n`,
  'prose-arrow': (c) => `The ${c.name} settings printed as { :${c.field} => "${c.v}", :retries => 3 }`,
  powershell: (c) => `PS C:\\> $env:${c.env} = "${c.v}"\nPS C:\\> .\\deploy.ps1\n`,
  'url-query': (c) => `GET https://api.${c.slug}.example.com/v2/items?${c.field}=${c.v}&limit=10 HTTP/1.1\n`,
  'repeated-json-echo': (c) => `${c.fieldWords}: ${c.v}\nThe tool printed ${JSON.stringify({ ok: true, echoed: c.v })}`,
  'k8s-env-list': (c) => `containers:\n  - name: app\n    env:\n      - name: ${c.env}\n        value: "${c.v}"\n`,
  rust: (c) => `let ${c.field} = "${c.v}";\nlet client = Client::new(${c.field});\n`,
};

// --- Connection strings and other structured values ------------------------

const url = (c) => `${c.scheme}://app_user:${c.v}@db-1.internal.example.com${c.port ? `:${c.port}` : ''}/app`;

export const URL_TUNING = {
  dotenv: (c) => `${c.env}=${url(c)}\n`,
  'log-url': (c) => `2024-03-11T10:00:00Z INFO connecting to ${url(c)} (pool=10)\n`,
  python: (c) => `engine = create_engine("${url(c)}", pool_pre_ping=True)\n`,
  yaml: (c) => `database:\n  url: ${url(c)}\n`,
  json: (c) => JSON.stringify({ db: { uri: url(c) } }, null, 2),
};
export const URL_HELD_OUT = {
  'stack-trace': (c) => `sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) could not connect\n(Background on this error at: ${url(c)})\n`,
  toml: (c) => `[storage]\ndsn = "${url(c)}"\n`,
  properties: (c) => `spring.datasource.url=${url(c)}\n`,
  'k8s-secret': (c) => `kind: Secret\nstringData:\n  ${c.env}: ${url(c)}\n`,
  prose: (c) => `You can reach it at ${url(c)} from the VPN.`,
};

export const STRUCTURED = {
  jdbc: {
    tuning: [
      (c) => `spring.datasource.url=jdbc:postgresql://db:5432/app?user=app&password=${c.v}&ssl=true\n`,
      (c) => `JDBC_URL="jdbc:mysql://db:3306/app?user=app&password=${c.v}"\n`,
      (c) => `String url = "jdbc:sqlserver://db:1433;databaseName=app;user=sa;password=${c.v};encrypt=true";\n`,
      (c) => `jdbc:oracle:thin:app/${c.v}@db.example.com:1521/ORCL`,
      (c) => `<property name="url" value="jdbc:postgresql://db/app?user=app&amp;password=${c.v}"/>`,
    ],
    heldOut: [
      (c) => `datasource:\n  url: jdbc:mariadb://db:3306/app?user=app&password=${c.v}\n`,
      (c) => `Caused by: java.sql.SQLException: cannot open jdbc:sqlserver://db:1433;user=sa;password=${c.v};databaseName=app\n`,
      (c) => `jdbcUrl = "jdbc:postgresql://db:5432/app?password=${c.v}&user=app"`,
      (c) => `export JDBC_DATABASE_URL='jdbc:postgresql://db:5432/app?user=u&password=${c.v}'\n`,
      (c) => `db.url=jdbc:db2://db:50000/APP:user=db2;password=${c.v};`,
    ],
  },
  adonet: {
    tuning: [
      (c) => `"ConnectionStrings": { "Default": "Server=tcp:db.example.net,1433;Database=app;User ID=app;Password=${c.v};Encrypt=True;" }`,
      (c) => `<add name="Default" connectionString="Data Source=db;Initial Catalog=app;User Id=sa;Password=${c.v};" />`,
      (c) => `var cs = "Host=db;Database=app;Username=app;Password=${c.v}";\n`,
      (c) => `ConnectionStrings__Default=Server=db;Database=app;Uid=app;Pwd=${c.v};\n`,
      (c) => `Server=db.example.net;Port=3306;Database=app;Uid=root;Pwd=${c.v};SslMode=Required;`,
    ],
    heldOut: [
      (c) => `SqlException: Login failed. Connection: Server=db;Database=app;User Id=app;Password=${c.v};\n`,
      (c) => `options.UseSqlServer("Server=db;Database=app;User ID=sa;Password=${c.v};TrustServerCertificate=true");`,
      (c) => `connection_string: "Server=db;Database=app;User Id=app;Password=${c.v};"\n`,
      (c) => `$conn = New-Object System.Data.SqlClient.SqlConnection("Data Source=db;User ID=sa;Password=${c.v}")`,
      (c) => `DSN: Driver={ODBC Driver 18 for SQL Server};Server=db;UID=app;PWD=${c.v};`,
    ],
  },
  azconn: {
    tuning: [
      (c) => `AZURE_STORAGE_CONNECTION_STRING="DefaultEndpointsProtocol=https;AccountName=acmeprod;AccountKey=${c.v};EndpointSuffix=core.windows.net"\n`,
      (c) => `{ "AzureWebJobsStorage": "DefaultEndpointsProtocol=https;AccountName=acmefn;AccountKey=${c.v}" }`,
      (c) => `az storage blob list --account-name acmeprod --account-key ${c.v} -c logs\n`,
      (c) => `storage_account_key = "${c.v}"\n`,
      (c) => `BlobServiceClient(account_url, credential="${c.v}")`,
    ],
    heldOut: [
      (c) => `<add key="StorageConnectionString" value="DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=${c.v}" />`,
      (c) => `azure:\n  storage:\n    account-key: ${c.v}\n`,
      (c) => `$ctx = New-AzStorageContext -StorageAccountName acme -StorageAccountKey "${c.v}"`,
      (c) => `AccountKey=${c.v}`,
      (c) => `export AZURE_STORAGE_KEY=${c.v}\n`,
    ],
  },
  basic: {
    tuning: [
      (c) => `curl -u deploy:${c.v} https://ci.example.com/api/json\n`,
      (c) => `Authorization: Basic ${c.b64}\n`,
      (c) => `requests.get(url, headers={"Authorization": "Basic ${c.b64}"})`,
      (c) => `curl --user "admin:${c.v}" -X POST https://jenkins.example.com/job/x/build\n`,
      (c) => `wget --http-user=deploy --http-password=${c.v} https://repo.example.com/pkg.tgz\n`,
    ],
    heldOut: [
      (c) => `> GET /api HTTP/1.1\n> Host: example.com\n> Authorization: Basic ${c.b64}\n`,
      (c) => `fetch(url, { headers: { Authorization: 'Basic ${c.b64}' } })`,
      (c) => `$ curl -sS -u "ci:${c.v}" https://nexus.example.com/service/rest/v1/status\n`,
      (c) => `http --auth admin:${c.v} GET https://api.example.com/me\n`,
      (c) => `git clone https://deploy:${c.v}@git.example.com/acme/app.git\n`,
    ],
  },
  dockerauth: {
    tuning: [
      (c) => JSON.stringify({ auths: { 'registry.example.com': { auth: c.b64 } } }, null, 2),
      (c) => `DOCKER_AUTH_CONFIG='{"auths":{"registry.gitlab.com":{"auth":"${c.b64}"}}}'\n`,
      (c) => `echo "${c.v}" | docker login registry.example.com -u ci --password-stdin\ndocker login -u ci -p ${c.v} registry.example.com`,
      (c) => `docker login --username ci --password ${c.v} ghcr.io\n`,
      (c) => `auths:\n  registry.example.com:\n    auth: ${c.b64}\n`,
    ],
    heldOut: [
      (c) => `{\n  "auths": {\n    "https://index.docker.io/v1/": {\n      "auth": "${c.b64}"\n    }\n  }\n}`,
      (c) => `podman login -u ci -p ${c.v} quay.io\n`,
      (c) => `skopeo copy --dest-creds ci:${c.v} docker://a/b docker://c/d\n`,
      (c) => `helm registry login registry.example.com --username ci --password ${c.v}\n`,
      (c) => `kubectl create secret docker-registry regcred --docker-server=r.example.com --docker-username=ci --docker-password=${c.v}\n`,
    ],
  },
  netrc: {
    tuning: [
      (c) => `machine api.example.com\n  login deploy\n  password ${c.v}\n`,
      (c) => `machine github.com login bot password ${c.v}\n`,
      (c) => `cat ~/.netrc\nmachine pypi.example.com login ci password ${c.v}\n`,
      (c) => `default login anonymous password ${c.v}\nmachine x.example.com login a password ${c.v}`,
      (c) => `machine registry.npmjs.org\nlogin bot\npassword ${c.v}\n`,
    ],
    heldOut: [
      (c) => `~/.netrc:\nmachine git.example.com\n    login ci-user\n    password ${c.v}\n`,
      (c) => `machine ftp.example.org login backup password ${c.v} macdef init\n`,
      (c) => `The netrc entry is: machine api.heroku.com login me@example.com password ${c.v}`,
      (c) => `machine 10.0.0.5\n\tlogin root\n\tpassword ${c.v}\n`,
      (c) => `printf 'machine ci.example.com login bot password ${c.v}\\n' > ~/.netrc\n`,
    ],
  },
};
