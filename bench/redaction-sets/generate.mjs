// Builds the independent evaluation sets for secret redaction.
//
//   generateSet('tuning')    seed 0x7e57, TUNING templates: rules may be tuned on it
//   generateSet('held-out')  seed 0x4e1d, HELD_OUT templates: used only to score
//
// Positives: for every service in services.mjs, values drawn from the
// provider's documented format (prefix, alphabet, length) with a seeded
// generator, wrapped in templates.mjs (≥ 5 per service and set). Negatives:
// negatives.mjs. Nothing here reads or samples a rule of src/redaction.
import { A, fromFormat, rng } from './random.mjs';
import { SERVICES } from './services.mjs';
import { NEGATIVES_HELD_OUT, NEGATIVES_TUNING } from './negatives.mjs';
import { names, STRUCTURED, TOKEN_HELD_OUT, TOKEN_TUNING, URL_HELD_OUT, URL_TUNING } from './templates.mjs';

export const SETS = {
  tuning: { seed: 0x7e57, tokens: TOKEN_TUNING, urls: URL_TUNING, structured: 'tuning', negatives: NEGATIVES_TUNING },
  'held-out': { seed: 0x4e1d, tokens: TOKEN_HELD_OUT, urls: URL_HELD_OUT, structured: 'heldOut', negatives: NEGATIVES_HELD_OUT },
};

export const VARIATIONS = 6;
export const NEGATIVES_PER_SHAPE = 20;

function pemBlock(r, label) {
  const lines = [];
  const first =
    label === 'OPENSSH PRIVATE KEY'
      ? 'b3BlbnNzaC1rZXktdjEAAAAA'
      : label === 'RSA PRIVATE KEY'
        ? 'MIIEpAIBAAKCAQEA'
        : label === 'EC PRIVATE KEY'
          ? 'MHcCAQEEI'
          : label === 'PRIVATE KEY'
            ? 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC'
            : 'lQdGBGX';
  let body = first + r.chars(A.b64, r.int(1400, 1700));
  while (body.length > 0) {
    lines.push(body.slice(0, 64));
    body = body.slice(64);
  }
  const armor = label.includes('PGP') ? '\n\n' : '\n';
  return `-----BEGIN ${label}-----${armor}${lines.join('\n')}\n-----END ${label}-----`;
}

const PEM_TEMPLATES = {
  tuning: [
    (k) => ({ text: `$ cat ~/.ssh/deploy_key\n${k}\n`, secret: k }),
    (k) => ({
      text: `tls:\n  key: |\n${k
        .split('\n')
        .map((l) => `    ${l}`)
        .join('\n')}\n`,
      secret: null,
    }),
    (k) => ({ text: `PRIVATE_KEY="${k.replace(/\n/g, '\\n')}"\n`, secret: k.replace(/\n/g, '\\n') }),
    (k) => ({ text: `Here is the key file:\n\n\`\`\`\n${k}\n\`\`\`\n`, secret: k }),
    (k) => ({ text: `resource "tls_private_key" "x" {}\nprivate_key_pem = <<EOT\n${k}\nEOT\n`, secret: k }),
    (k) => ({ text: JSON.stringify({ key: k }), secret: JSON.stringify(k).slice(1, -1) }),
  ],
  heldOut: [
    (k) => ({ text: `-- key.pem --\n${k}\n-- end --`, secret: k }),
    (k) => ({
      text: `ssh_private_key: |\n${k
        .split('\n')
        .map((l) => `  ${l}`)
        .join('\n')}\n`,
      secret: null,
    }),
    (k) => ({ text: `{"private_key": "${k.replace(/\n/g, '\\n')}"}`, secret: k.replace(/\n/g, '\\n') }),
    (k) => ({ text: `Error loading key: invalid format\n${k}\n(at crypto.js:112)`, secret: k }),
    (k) => ({ text: `export SSH_KEY='${k}'\n`, secret: k }),
    (k) => ({ text: `<key>${k}</key>`, secret: k }),
  ],
};

function ppk(r) {
  const pub = r.chars(A.b64, 64 * 5 + 20);
  const priv = r.chars(A.b64, 64 * 13 + 40);
  const lines = (s) => s.match(/.{1,64}/g);
  const privLines = lines(priv);
  const text = `PuTTY-User-Key-File-3: ssh-rsa\nEncryption: none\nComment: deploy@ci\nPublic-Lines: ${lines(pub).length}\n${lines(pub).join('\n')}\nPrivate-Lines: ${privLines.length}\n${privLines.join('\n')}\nPrivate-MAC: ${r.chars(A.hex, 64)}\n`;
  return { text, secret: privLines.join('\n') };
}

function b64url(text) {
  return Buffer.from(text).toString('base64url');
}

function jwt(r) {
  const header = b64url(JSON.stringify({ alg: r.pick(['HS256', 'RS256', 'ES256']), typ: 'JWT' }));
  const payload = b64url(JSON.stringify({ sub: `user_${r.chars(A.digits, 6)}`, iss: 'https://auth.example.com', exp: 1900000000 + r.int(0, 99999), scope: 'read write' }));
  return `${header}.${payload}.${r.chars(A.b64url, 43)}`;
}

const JWT_TEMPLATES = {
  tuning: [
    (t) => `Authorization: Bearer ${t}`,
    (t) => `ACCESS_TOKEN=${t}\n`,
    (t) => `document.cookie = "session=${t}; path=/"`,
    (t) => `localStorage: {"auth": {"token": "${t}"}}`,
    (t) => `curl -H 'Authorization: Bearer ${t}' https://api.example.com/me`,
    (t) => `jwt: ${t}`,
  ],
  heldOut: [
    (t) => `Set-Cookie: id_token=${t}; HttpOnly; Secure`,
    (t) => `> Authorization: Bearer ${t}\n< HTTP/1.1 200 OK`,
    (t) => `token expired: ${t} (exp in the past)`,
    (t) => `const headers = { Authorization: \`Bearer ${t}\` };`,
    (t) => `https://app.example.com/callback#access_token=${t}&token_type=bearer`,
    (t) => `{"refresh": "${t}"}`,
  ],
};

function gcpServiceAccount(r, held) {
  const key = pemBlock(r, 'PRIVATE KEY');
  const id = r.chars(A.hex, 40);
  const doc = {
    type: 'service_account',
    project_id: 'acme-prod',
    private_key_id: id,
    private_key: `${key}\n`,
    client_email: 'ci@acme-prod.iam.gserviceaccount.com',
    client_id: r.chars(A.digits, 21),
  };
  const text = held ? JSON.stringify(doc) : JSON.stringify(doc, null, 2);
  return { text, secrets: [JSON.stringify(key).slice(1, -1), id] };
}

/** Every case of one set: { set, kind: 'positive'|'negative', service, widely, shape, text, secrets }. */
export function generateSet(name) {
  const set = SETS[name];
  if (set === undefined) throw new Error(`unknown set ${name}`);
  const r = rng(set.seed);
  const cases = [];
  const half = set.structured;
  SERVICES.forEach((service, index) => {
    const n = names(service);
    const add = (shape, text, secrets) => {
      const present = secrets.filter((s) => s && text.includes(s));
      if (present.length === 0) throw new Error(`${service.id}/${shape}: no secret in the text`);
      cases.push({ set: name, kind: 'positive', service: service.id, widely: service.w, shape, text, secrets: present });
    };
    for (let k = 0; k < VARIATIONS; k++) {
      const v = fromFormat(r, service.parts);
      switch (service.kind) {
        case 'token': {
          const entries = Object.entries(set.tokens);
          // Each service gets VARIATIONS different templates, rotated by its index.
          const [shape, template] = entries[(index * 5 + k * 3) % entries.length];
          add(shape, template({ ...n, v }), [service.secret ? service.secret(v) : v]);
          break;
        }
        case 'url': {
          const entries = Object.entries(set.urls);
          const [shape, template] = entries[(index + k) % entries.length];
          add(`url:${shape}`, template({ ...n, v, scheme: service.scheme, port: service.port }), [v]);
          break;
        }
        case 'jdbc':
        case 'adonet':
        case 'azconn':
        case 'basic':
        case 'dockerauth':
        case 'netrc': {
          const list = STRUCTURED[service.kind][half];
          const user = r.pick(['deploy', 'ci', 'admin', 'svc']);
          const b64 = Buffer.from(`${user}:${v}`).toString('base64');
          const text = list[k % list.length]({ ...n, v, b64 });
          add(`${service.kind}:${k % list.length}`, text, [v, b64]);
          break;
        }
        case 'pem': {
          const block = pemBlock(r, service.label);
          const tpl = PEM_TEMPLATES[half][k % PEM_TEMPLATES[half].length];
          const { text, secret } = tpl(block);
          // A key indented inside YAML: each base64 line must go.
          const secrets = secret ?? block.split('\n').filter((l) => !l.startsWith('-----') && l.length > 0);
          add(`pem:${k % PEM_TEMPLATES[half].length}`, text, Array.isArray(secrets) ? secrets : [secrets]);
          break;
        }
        case 'ppk': {
          const { text, secret } = ppk(r);
          add('putty', half === 'tuning' ? text : `key file follows\n${text.replace(/\n/g, '\r\n')}`, half === 'tuning' ? [secret] : [secret.replace(/\n/g, '\r\n')]);
          break;
        }
        case 'gcpsa': {
          const { text, secrets } = gcpServiceAccount(r, half !== 'tuning');
          add('gcp-service-account-json', text, secrets);
          break;
        }
        case 'jwt': {
          const token = jwt(r);
          const list = JWT_TEMPLATES[half];
          add(`jwt:${k % list.length}`, list[k % list.length](token), [token]);
          break;
        }
        default:
          throw new Error(`unknown kind ${service.kind}`);
      }
    }
  });
  for (const [shape, make] of Object.entries(set.negatives)) {
    for (let k = 0; k < NEGATIVES_PER_SHAPE; k++) cases.push({ set: name, kind: 'negative', service: null, widely: false, shape, text: make(r), secrets: [] });
  }
  return cases;
}
