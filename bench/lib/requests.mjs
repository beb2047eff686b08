// The requests every case sends: a Claude Code client's headers and a Claude Code-like body of a chosen size.

export const VENDOR_KEY = 'sk-ant-api03-bench-vendor-key-not-a-real-key';

export const SDK_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json',
  'anthropic-version': '2023-06-01',
  'anthropic-beta': 'claude-code-20250219,interleaved-thinking-2025-05-14',
  'user-agent': 'claude-cli/2.0.14 (external, cli)',
  'x-app': 'cli',
  'x-stainless-lang': 'js',
  'x-stainless-package-version': '0.60.0',
  'x-stainless-os': 'Linux',
  'x-stainless-arch': 'x64',
  'x-stainless-runtime': 'node',
  'x-stainless-runtime-version': 'v20.18.1',
  'x-stainless-retry-count': '0',
  'x-stainless-timeout': '600',
  'anthropic-dangerous-direct-browser-access': 'true',
};

const PROSE =
  'You are an interactive CLI tool that helps users with software engineering tasks. Use the instructions below and the tools available to you to assist the user. ' +
  'When you reference code, include the file path and line number. Keep answers short and direct; do not add preamble. Prefer editing existing files to creating new ones. ';
const CODE =
  'export async function loadOrders(client: Client, since: Date): Promise<Order[]> {\n  const rows = await client.query(`select * from orders where created_at > $1 order by id`, [since]);\n  return rows.map((row) => ({ id: row.id, total: Number(row.total), customer: row.customer_id }));\n}\n';

/** A Claude Code-like request body of about `bytes` bytes (system prompt, a conversation, code). */
export function requestBody(bytes, stream) {
  const system = [{ type: 'text', text: PROSE.repeat(Math.max(1, Math.round((bytes * 0.35) / PROSE.length))) }];
  const code = CODE.repeat(Math.max(1, Math.round((bytes * 0.5) / CODE.length)));
  return JSON.stringify({
    model: 'claude-sonnet-4-5-20250929',
    max_tokens: 4096,
    stream,
    system,
    metadata: { user_id: 'user_4f1c0b3e_account__session_0d9e6c1a-5b7f-4a2e-9c3d-1e2f3a4b5c6d' },
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'Why does loadOrders return totals as strings on the staging database? Here is the file:\n\n' + code }] },
      { role: 'assistant', content: [{ type: 'text', text: 'The driver returns NUMERIC columns as strings; the mapping converts them with Number().' }] },
      { role: 'user', content: [{ type: 'text', text: 'Then why do I still see strings in the API response?' }] },
    ],
  });
}
