import { b62, b64, b64url, base64Of, digits, hex, lowerAlnum, uuid } from '../fake.js';
import { tp, type SampleTable } from './types.js';

const password = () => `Xk9${b62(9)}!q`;

export const shapeSamples: SampleTable = {
  'xml-secret-element': {
    tp: [
      tp('<org.jenkinsci.plugins.plaincredentials.impl.StringCredentialsImpl>\n  <id>deploy</id>\n  <secret>{', `${b64(64)}==`, '}</secret>'),
      tp('<jenkins.security.ApiTokenProperty>\n  <apiToken>{', `${b64(44)}`, '}</apiToken>'),
      tp('<server><id>nexus</id><username>ci</username><password>', password(), '</password></server>'),
      tp('<storageKey>\n    ', `${b64(86)}==`, '\n  </storageKey>'),
    ],
    fp: [
      '<tokenType>Bearer</tokenType>',
      '<secret>${env.JENKINS_SECRET}</secret>',
      '<csrf_token>a8f3k2l9q0w8e7r6t5y4</csrf_token>',
      '<password>changeme</password>',
      '<publicKey>MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE</publicKey>',
      '<maxToken>4096</maxToken>',
    ],
  },
  'single-dash-secret-flag': {
    tp: [
      tp('AzCopy /Source:C:\\data /Dest:https://acct.blob.core.windows.net/c -storagekey ', `${b64(86)}==`, ' /S'),
      tp('Connect-VIServer -Server vc01 -User admin -Password ', password(), '\n'),
      tp('terraform apply -vaultToken ', `s.${b62(24)}`, ''),
      tp('`-vaultToken ', `s.${b62(24)}`, '`'),
      tp('mvn sonar:sonar -Dsonar.login=', hex(40), ' -Dsonar.host.url=https://sonarcloud.io'),
      tp('psexec \\\\10.0.94.120 -u Administrator -p ', password(), ' cmd'),
    ],
    fp: [
      'Connect-VIServer -Server vc01 -User admin -Password $VcPassword',
      'ssh -p 2222 user@host',
      'docker run -p 8080:80 nginx',
      'tool --token=abc',
      'deploy.ps1 -Token (Get-Secret gh)',
      'a pre-token value was 12345678',
    ],
  },
  'service-named-credential': {
    tp: [tp("github = '", b62(20), "'"), tp('SLACK: "', `${b62(24)}7q`, '"'), tp("stripe_live => '", `${b62(32)}`, "',")],
    fp: [`github_sha = '${hex(40)}'`, "slack_channel = 'C024BE91L0000000000000'", "github = 'https://github.com/org/repo'", "jira = 'PROJ-1234-and-some-more-text'", `githubToken = "${b62(20)}"`],
  },
  'network-credential-constructor': {
    tp: [tp('client.Credentials = new NetworkCredential("ci@example.com", "', password(), '");'), tp('var e = new DirectoryEntry("LDAP://dc01",\n  "ADMIN@EXAMPLE.COM",\n  "', password(), '");')],
    fp: ['new NetworkCredential("user", password)', 'new NetworkCredential(user, "")', 'new NetworkCredential("user", "changeme")'],
  },
  'azure-identifiable-key': {
    tp: [
      tp('AZURE_DEVOPS_EXT_PAT=', `${b62(52)}JQQJ99${b62(1)}C${b62(16)}AZDO${b62(4)}`, '\n'),
      tp('"key": "', `${b62(52)}JQQJ9D${b62(1)}L${b62(16)}AZSe${b62(4)}`, '"'),
      tp('AZURE_OPENAI_API_KEY=', `${b62(52)}JQQJ99${b62(1)}B${b62(16)}ACOG${b62(4)}`, '\n'),
      tp('key: ', `${b62(52)}JQQJ99${b62(1)}A${b62(16)}AAAAmsql${b62(2)}==`, '\n'),
    ],
    fp: [
      `${b62(40)}JQQJ9${b62(20)}`,
      `id=${b62(52)}JQQJ98${b62(1)}C${b62(16)}AZDO${b62(4)}`,
      `id=${b62(52)}JQQJ99${b62(1)}Z${b62(16)}AZDO${b62(4)}`,
      `id=${b62(52)}JQQJ99${b62(1)}C${b62(16)}9ZDO${b62(4)}`,
    ],
  },
  'azure-identifiable-key-88': {
    tp: [tp('AccountKey=', `${b64(76)}+ASt${b64(5)}A==`, ';EndpointSuffix=core.windows.net'), tp('"primaryMasterKey": "', `${b64(76)}ACDb${b64(5)}w==`, '"')],
    fp: [`${b64(76)}+ASt${b64(5)}B==`, `${b64(80)}+ASt${b64(5)}A==`, `APIM ${b64(40)}`],
  },
  'azure-identifiable-key-44': {
    tp: [tp('SharedAccessKey=', `${b64(33)}+ASbC${b64(5)}=`, ';EntityPath=q'), tp('REDIS_KEY=', `${b64(33)}AzCaP${b64(5)}=`, '\n')],
    fp: [`${b64(33)}+ASbQ${b64(5)}=`, `${b64(33)}+ASbC${b64(6)}=`, 'AIoT devices ship with secure elements'],
  },
  'azure-identifiable-key-52': {
    tp: [tp('api-key: ', `${b62(42)}AzSeA${b62(5)}`, '\n'), tp('ACR_PASSWORD=', `${b64(42)}+ACRD${b64(5)}`, '\n')],
    fp: [`${b62(42)}AzSeE${b62(5)}`, `${b62(43)}AzSeA${b62(5)}`],
  },
  'azure-functions-key': {
    tp: [tp('x-functions-key: ', `${b64url(44)}AzFu${b64url(5)}g==`, '\n'), tp('https://app.azurewebsites.net/api/f?code=', `${b64url(44)}AzFu${b64url(5)}Q==`, '')],
    fp: [`${b64url(44)}AzFu${b64url(5)}B==`, `${b64url(40)}AzFu${b64url(5)}g==`],
  },
  'azure-storage-key-context': {
    tp: [tp('AccountName=acct;\nthe storage account key is ', `${b64(86)}==`, ''), tp('cosmos primary key: ', `${b64(86)}==`, '\n')],
    fp: [`storage key checksum ${hex(64)}`, `${b64(86)}== (no name near it)`.padStart(400, ' ')],
  },
  'atlassian-data-center-pat': {
    tp: [
      tp('curl -H "Authorization: Bearer ', base64Of(`${digits(12)}:${b62(20)}`), '" https://jira.example.com/rest/api/2/myself'),
      tp('confluence token: ', base64Of(`${digits(12)}:${b62(20)}`), '\n'),
    ],
    fp: [`jira build hash ${b64(44)}`, `Bearer ${base64Of(`user:${b62(28)}`)}`],
  },
  'tableau-pat-secret': {
    tp: [tp('TABLEAU_PAT_SECRET=', `${b62(22)}==:${b62(32)}`, '\n')],
    fp: ['x==:y', `digest ${b62(22)}==:${'a'.repeat(32)}`],
  },
  'smartsheet-api-token': {
    tp: [tp('SMARTSHEET_ACCESS_TOKEN=', b62(37), '\n'), tp('smartsheet token ', b62(26), '')],
    fp: ['smartsheet sheet id 4583173393803140', `smartsheet docs: https://smartsheet.redoc.ly/${'abcdefghij'.repeat(3)}`],
  },
  'dependency-track-api-key': {
    tp: [tp('X-Api-Key: ', `odt_${b62(32)}`, '')],
    fp: ['odt_placeholder', 'odt_', `odt_${b62(31)}`, `odt_${'X'.repeat(32)}`],
  },
  'django-insecure-secret-key': {
    tp: [tp("SECRET_KEY = '", `django-insecure-${b62(30)}^!%(+=@*&${b62(11)}`, "'")],
    fp: ["SECRET_KEY = 'django-insecure-'", 'django-insecure-key warnings in docs', `SECRET_KEY = 'django-insecure-${'x'.repeat(50)}'`],
  },
  'vault-unseal-key': {
    tp: [tp('Unseal Key 2: ', `${b64(43)}=`, '\n'), tp('vault operator unseal ', b64(44), '')],
    fp: ['Unseal Key 1: <redacted>', 'vault operator unseal -migrate'],
  },
  'jenkins-crumb': {
    tp: [
      tp("curl -H 'Jenkins-Crumb:", hex(32), "' -X POST https://ci.example.com/job/x/build"),
      tp('Please use the following password to proceed to installation:\n\n', hex(32), '\n\nThis may also be found at: /var/jenkins_home/secrets/initialAdminPassword'),
      // The same log JSON-escaped once more (a tool result holding JSON): the line breaks are the two characters \n.
      tp('proceed to installation:\\n\\r\\n', hex(32), '\\n'),
    ],
    fp: ['Jenkins-Crumb: ${CRUMB}', 'proceed to installation: see docs'],
  },
  'microsoft-teams-legacy-webhook-url': {
    tp: [tp("url = '", `https://outlook.office.com/webhook/${uuid()}@${uuid()}/IncomingWebhook/${hex(32)}/${uuid()}`, "';")],
    fp: ['https://outlook.office.com/webhook/', 'https://outlook.office.com/mail/inbox'],
  },
  'new-relic-admin-query-key': {
    tp: [tp('admin_access:', `NRAA-${hex(27)}`, ''), tp('"querykey": "', `NRIQ-${b62(32)}`, '"')],
    fp: ['NRAA-', `NRAA-${hex(26)}`, `NRAA-${'0'.repeat(27)}`],
  },
  'kubernetes-bootstrap-token': {
    tp: [
      tp('kubeadm join 10.0.0.1:6443 --token ', `${lowerAlnum(6)}.${lowerAlnum(14)}7q`, ' --discovery-token-ca-cert-hash sha256:x'),
      tp('BOOTSTRAP_TOKEN: "', `${lowerAlnum(6)}.${lowerAlnum(14)}3k`, '"'),
    ],
    fp: ['kubeadm version v1.29.0.abcdefghijklmnop', 'bootstrap: example.com.abcdefghijklmnop'],
  },
};
