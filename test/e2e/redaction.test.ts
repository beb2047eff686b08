import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateToken } from '../../src/auth/token.js';
import { writeGatewayConfig } from '../support/gateway-config.js';
import { logsCaughtUp, waitForLogs, type GatewayProcess } from '../support/gateway-process.js';
import { DEFAULT_DELTAS, startMockProvider, type MockProvider } from '../support/mock-provider.js';
import { DATA_PLANES } from './data-planes.js';

// Look-alikes built at run time so no credential-shaped literal sits in the source.
const AWS_KEY = 'AKIA' + 'QYLPMN5HZ2W7XK4D';
const GH_TOKEN = 'ghp_' + 'x7Kq2Lm9Rt4Vw8Yz1Bc3Df5Gh6Jk0Np2Qs4U';
const CALLER_TOKEN = generateToken();

// One credential in each shape the rules find by context rather than by a
// vendor prefix, built from a seeded alphabet walk (no literal in the source).
function fake(n: number, alphabet: string, seed: number): string {
  let out = '';
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out += alphabet[(x >>> 16) % alphabet.length];
  }
  return out;
}
const B62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const HEX = '0123456789abcdef';
const SHAPES = {
  jenkinsSecret: `${fake(60, B62, 1)}==`,
  jenkinsApiToken: fake(44, B62, 2),
  storageKeyFlag: `${fake(86, B62, 3)}==`,
  tokenFlag: `t0k${fake(37, B62, 4)}`,
  logLine: fake(40, B62, 5),
  pairId: fake(20, B62, 6),
  pairSecret: fake(40, HEX, 7),
  awsSecond: fake(40, HEX, 8),
  psexecPassword: `Xk9${fake(9, B62, 9)}!q`,
  azureIdentifiable: `${fake(52, B62, 10)}JQQJ99${fake(18, B62, 11)}AZDO${fake(4, B62, 12)}`,
  jiraPat: Buffer.from(`${fake(12, '0123456789', 13)}:${fake(20, B62, 14)}`).toString('base64'),
  vaultToken: `hvs.${fake(92, B62, 15)}`,
  contextSpaced: fake(40, B62, 16),
  contextNextLine: fake(36, B62, 17),
  contextXml: fake(40, HEX, 18),
  // Stand-ins stay, even after a vendor prefix (issue 29, decision 1 as revised).
  placeholderAws: `AKIA${'Z'.repeat(16)}`,
  placeholderGithub: `ghp_${'x'.repeat(36)}`,
  // A Discord bot token alone on its line: its first part decodes to a snowflake id.
  discordBare: `${Buffer.from(`1${fake(18, '0123456789', 19)}`).toString('base64url')}.${fake(6, B62, 20)}.${fake(38, B62, 21)}`,
  // An Azure DevOps PAT of the 84-character format, alone on its line, and both halves of an App Configuration key.
  azdoBare: `${fake(76, B62, 22)}AZDO${fake(4, B62, 23)}`,
  appConfigId: `${fake(4, B62, 24)}-l0-s0:${fake(20, B62, 25)}`,
  appConfigSecret: `${fake(43, B62, 26)}=`,
  // Round six: a name/value record with the value first, a Telegram bot token
  // of the documentation's length, a PyPI token inside a template, a Twitch chat password.
  valueFirst: fake(40, B62, 27),
  telegramBot: `${fake(9, '123456789', 28)}:A${fake(33, `${B62}_-`, 29)}`,
  pypiTemplate: `pypi-AgEIcHlwaS5vcmc${fake(120, B62, 30)}`,
  twitchChat: `${fake(29, 'abcdefghijklmnopqrstuvwxyz0123456789', 31)}7`,
};

// Passwords in the options each command-line tool documents for them, as a
// shell history pasted into a tool result holds them.
const pw = (seed: number): string => `P${fake(10, B62, seed)}!7`;
const CLI_LINES: ReadonlyArray<[rule: string, before: string, secret: string, after: string]> = [
  ['mysql-password-option', 'mysqldump -uroot -p', pw(40), ' --all-databases > all.sql'],
  ['sshpass-password', "sshpass -p '", pw(41), "' ssh deploy@10.0.0.5"],
  ['redis-cli-password', 'redis-cli -h cache.internal -a ', pw(42), ' ping'],
  ['ldap-bind-password', 'ldapsearch -x -D "cn=admin,dc=corp" -w ', pw(43), ' -b dc=corp'],
  ['java-keystore-password', 'keytool -list -keystore ks.jks -storepass ', pw(44), ' -v'],
  ['samba-user-password', 'smbclient //fs/share -U deploy%', pw(45), ' -c ls'],
  ['windows-net-use-password', 'net use Z: \\\\fs01\\share ', pw(46), ' /user:CORP\\deploy'],
  ['remote-shell-password-option', 'xfreerdp /v:10.0.0.7 /u:admin /p:', pw(47), ' /cert:ignore'],
  ['oracle-connect-password', 'sqlplus scott/', pw(48), '@orcl @report.sql'],
  ['zip-password-option', 'zip -P ', pw(49), ' backup.zip db.sql'],
  ['htpasswd-batch-password', 'htpasswd -nbB admin ', pw(50), ' > auth'],
  ['rabbitmqctl-user-password', 'rabbitmqctl add_user deploy ', pw(51), ' && echo ok'],
  ['snmp-privacy-passphrase', 'snmpwalk -v3 -l authPriv -u mon -x AES -X ', pw(52), ' 10.0.0.1'],
  ['mongo-shell-password', 'mongodump --host db -u admin -p ', pw(53), ' --out /backup'],
  ['stdin-password-pipe', "echo '", pw(54), "' | sudo -S systemctl restart app"],
  ['command-line-secret-flag', 'gpg --batch --passphrase ', pw(55), ' -c notes.txt'],
  ['http-session-cookie', 'curl -s -b "sessionid=', fake(32, B62, 58), '" https://app.example.net/api/me'],
  // A Jira Data Center token (base64 of an id and a secret) under a name ending in PAT.
  ['personal-access-token-name', 'export JIRA_PAT=', Buffer.from(`${fake(12, '0123456789', 56)}:${fake(24, B62, 57)}`).toString('base64'), ''],
];

/** Shapes that must reach the provider untouched. */
const STAND_INS = new Set(['placeholderAws', 'placeholderGithub']);

function shapesBody(): string {
  const s = SHAPES;
  return JSON.stringify({
    model: 'claude-haiku-4-5',
    max_tokens: 20,
    system: `Config under review:\n<org.jenkinsci.plugins.plaincredentials.impl.StringCredentialsImpl>\n  <id>deploy</id>\n  <secret>{${s.jenkinsSecret}}</secret>\n</org.jenkinsci.plugins.plaincredentials.impl.StringCredentialsImpl>\n<jenkins.security.ApiTokenProperty><apiToken>{${s.jenkinsApiToken}}</apiToken></jenkins.security.ApiTokenProperty>\n<widgetco><acmekey>${s.contextXml}</acmekey></widgetco>`,
    messages: [
      { role: 'user', content: `Why does this fail?\nAzCopy /Dest:https://acct.blob.core.windows.net/c -storagekey ${s.storageKeyFlag} /S\ncli deploy --token=${s.tokenFlag} --env prod` },
      {
        role: 'assistant',
        content: [
          {
            type: 'tool_use',
            id: 'toolu_1',
            name: 'write_file',
            input: { path: 'settings.py', content: `github = '${s.pairId}', '${s.pairSecret}'\nexport AWS_API_KEY='${AWS_KEY}''${s.awsSecond}'` },
          },
        ],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_1',
            content: `2024-03-11T09:14:22Z DEBUG Using Key=${s.logLine}\npsexec \\\\10.0.0.5 -u Administrator -p ${s.psexecPassword} cmd\nAZURE_DEVOPS_EXT_PAT=${s.azureIdentifiable}\ncurl -H "Authorization: Bearer ${s.jiraPat}" https://jira.example.com/rest/api/2/myself\nVAULT_TOKEN=${s.vaultToken}\nacme secret ${s.contextSpaced}\nacmeApiKey:\n  "${s.contextNextLine}"\n${s.discordBare}\nkeys from the docs: ${s.placeholderAws} ${s.placeholderGithub}\n${s.azdoBare}\nEndpoint=https://acme.azconfig.io;Id=${s.appConfigId};Secret=${s.appConfigSecret}\n{"value": "${s.valueFirst}", "name": "ACME_DB_PASSWORD"}\nbot = Bot("${s.telegramBot}")\n  password: \${{ secrets.${s.pypiTemplate} }}\nPASS oauth:${s.twitchChat}\n"one_time_password": "Engangskode:"`,
          },
        ],
      },
    ],
  });
}

function requestBody(): string {
  return JSON.stringify({
    model: 'claude-haiku-4-5',
    max_tokens: 20,
    system: 'You are a careful assistant.',
    messages: [
      { role: 'user', content: [{ type: 'text', text: `deploy with AWS_ACCESS_KEY_ID=${AWS_KEY} please\nand "quoted"` }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command: `git clone https://${GH_TOKEN}@github.com/acme/w.git` } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: `cloned; token ${CALLER_TOKEN} noted` }] },
    ],
  });
}

describe.each(DATA_PLANES)('secret scanning through $name', (plane) => {
  let vendor: MockProvider;
  let on: GatewayProcess;
  let off: GatewayProcess;
  let onToken: string;
  let offToken: string;

  beforeAll(async () => {
    vendor = await startMockProvider();
    const credentials = [{ name: 'k', provider: 'vendor' as const, baseUrl: vendor.url, secret: 'sk-ant-api03-redaction-secret-0000000' }];
    const withScanning = writeGatewayConfig({ settings: { secretScanning: true }, credentials });
    const without = writeGatewayConfig({ settings: { secretScanning: false }, credentials });
    onToken = withScanning.tokens.alice as string;
    offToken = without.tokens.alice as string;
    on = await plane.start(withScanning.file);
    off = await plane.start(without.file);
  });
  afterAll(async () => {
    await on?.stop();
    await off?.stop();
    await vendor?.close();
  });

  async function send(gateway: GatewayProcess, token: string): Promise<{ res: Response; sent: string }> {
    const before = vendor.messageRequests().length;
    const res = await fetch(`${gateway.url}/v1/messages`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: requestBody() });
    return { res, sent: vendor.messageRequests()[before]?.body.toString('utf8') ?? '' };
  }

  it('[S1-f] [S2.3-c] [S4.3-a] [S4.3-b] [S4.3-c] replaces each credential with [REDACTED: <rule_id>] and forwards the request; the client gets the normal answer', async () => {
    const { res, sent } = await send(on, onToken);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { content: Array<{ text: string }> }).content[0]?.text).toBe(DEFAULT_DELTAS.join(''));
    expect(sent).not.toContain(AWS_KEY);
    expect(sent).not.toContain(GH_TOKEN);
    expect(sent).not.toContain(CALLER_TOKEN);
    expect(sent.match(/\[REDACTED: [a-z0-9-]+\]/g)?.length).toBeGreaterThanOrEqual(3);
    // Still the same JSON, only the secrets changed.
    const parsed = JSON.parse(sent) as { system: string; messages: Array<{ content: Array<{ text?: string }> }> };
    expect(parsed.system).toBe('You are a careful assistant.');
    expect(parsed.messages[0]?.content[0]?.text).toMatch(/^deploy with AWS_ACCESS_KEY_ID=\[REDACTED: [a-z0-9-]+\] please\nand "quoted"$/);
    const [record] = await waitForLogs(on, 1);
    expect(Object.values((record?.redactions ?? {}) as Record<string, number>).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(3);
    await logsCaughtUp(on);
    expect(on.output.join('\n')).not.toContain(AWS_KEY);
  });

  it('scans every byte of a 3.5 MiB body (worker thread) and still answers other requests meanwhile', async () => {
    // Under 4 MiB: the Envoy harness's gRPC client keeps grpc-js's default 4 MiB receive limit for processor answers.
    const filler = 'log line: request served in 12 ms from cache, nothing to see here\n'.repeat(55_000);
    const tail = `GITHUB_TOKEN=${GH_TOKEN}`;
    const big = JSON.stringify({
      model: 'claude-haiku-4-5',
      max_tokens: 20,
      messages: [{ role: 'user', content: `${filler}${tail}` }],
    });
    expect(big.length).toBeGreaterThan(3.5 * 1024 * 1024);
    const before = vendor.messageRequests().length;
    const bigRequest = fetch(`${on.url}/v1/messages`, { method: 'POST', headers: { authorization: `Bearer ${onToken}`, 'content-type': 'application/json' }, body: big });
    const small = await send(on, onToken);
    expect(small.res.status).toBe(200);
    expect(small.sent).not.toContain(GH_TOKEN);
    const res = await bigRequest;
    expect(res.status).toBe(200);
    const sentBig = vendor
      .messageRequests()
      .slice(before)
      .map((r) => r.body.toString('utf8'))
      .find((b) => b.length > 3.5 * 1024 * 1024);
    expect(sentBig).toBeDefined();
    expect(sentBig).not.toContain(GH_TOKEN);
    expect(sentBig!.endsWith('GITHUB_TOKEN=[REDACTED: github-pat]"}]}')).toBe(true);
  });

  it('removes credentials found by their shape: XML elements, flags, log lines, one-line pairs, self-hosted and cloud formats', async () => {
    const before = vendor.messageRequests().length;
    const res = await fetch(`${on.url}/v1/messages`, { method: 'POST', headers: { authorization: `Bearer ${onToken}`, 'content-type': 'application/json' }, body: shapesBody() });
    expect(res.status).toBe(200);
    const sent = vendor.messageRequests()[before]?.body.toString('utf8') ?? '';
    for (const [shape, secret] of Object.entries(SHAPES)) if (!STAND_INS.has(shape)) expect(sent, shape).not.toContain(secret);
    expect(sent).not.toContain(AWS_KEY);
    const parsed = JSON.parse(sent) as { system: string; messages: Array<{ content: unknown }> };
    // Only the values changed: the text around them is as sent.
    expect(parsed.system).toContain('<secret>{[REDACTED: xml-secret-element]}</secret>');
    expect(parsed.messages[0]?.content).toContain('-storagekey [REDACTED: ');
    expect(JSON.stringify(parsed.messages[1]?.content)).toContain("github = '[REDACTED: service-named-credential]', '[REDACTED: service-named-credential]'");
    expect(JSON.stringify(parsed.messages[2]?.content)).toContain('-u Administrator -p [REDACTED: single-dash-secret-flag] cmd');
    // Found by a name ending in key or secret alone, with no vendor prefix.
    expect(parsed.system).toContain('<acmekey>[REDACTED: credential-context]</acmekey>');
    expect(JSON.stringify(parsed.messages[2]?.content)).toContain('acme secret [REDACTED: credential-context]\\nacmeApiKey:\\n  \\"[REDACTED: credential-context]\\"');
    expect(JSON.stringify(parsed.messages[2]?.content)).toContain(
      `\\n[REDACTED: discord-bot-token-structure]\\nkeys from the docs: ${SHAPES.placeholderAws} ${SHAPES.placeholderGithub}\\n[REDACTED: azure-devops-pat-structure]\\nEndpoint=https://acme.azconfig.io;Id=[REDACTED: azure-app-configuration-id];Secret=[REDACTED: `,
    );
    expect(JSON.stringify(parsed.messages[2]?.content)).toContain(
      '{\\"value\\": \\"[REDACTED: value-name-pair]\\", \\"name\\": \\"ACME_DB_PASSWORD\\"}\\nbot = Bot(\\"[REDACTED: telegram-bot-token]\\")\\n  password: ${{ secrets.[REDACTED: pypi-upload-token] }}\\nPASS oauth:[REDACTED: twitch-irc-oauth-token]\\n\\"one_time_password\\": \\"Engangskode:\\"',
    );
  });

  it("removes passwords given in command-line tools' documented options, and leaves the commands around them as sent", async () => {
    const history = CLI_LINES.map(([, before, secret, after]) => before + secret + after).join('\n');
    const body = JSON.stringify({
      model: 'claude-haiku-4-5',
      max_tokens: 20,
      messages: [
        { role: 'user', content: 'Why did the backup job fail?' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command: 'cat ~/.bash_history' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: history }] },
      ],
    });
    const before = vendor.messageRequests().length;
    const res = await fetch(`${on.url}/v1/messages`, { method: 'POST', headers: { authorization: `Bearer ${onToken}`, 'content-type': 'application/json' }, body });
    expect(res.status).toBe(200);
    const sent = JSON.parse(vendor.messageRequests()[before]?.body.toString('utf8') ?? '{}') as { messages: Array<{ content: Array<{ content?: string }> }> };
    const result = sent.messages[2]?.content[0]?.content ?? '';
    const expected = CLI_LINES.map(([rule, before, , after]) => `${before}[REDACTED: ${rule}]${after}`).join('\n');
    expect(result).toBe(expected);
  });

  it('[S2.3-c] forwards the body untouched when the setting is off', async () => {
    const { res, sent } = await send(off, offToken);
    expect(res.status).toBe(200);
    expect(sent).toBe(requestBody());
  });
});
