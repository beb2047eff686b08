import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/errors/gateway-error.js';
import { CREDENTIAL_MESSAGES, MESSAGES } from '../../../src/errors/messages.js';
import { priceFromBase } from '../../../src/models/price.js';
import { PINNABLE_PROVIDERS, type ProviderName } from '../../../src/models/providers.js';
import { ServedModels } from '../../../src/models/served-models.js';
import { authorizeModel, isSwitchedOn, usableIds } from '../../../src/policy/authorize-model.js';
import type { CompanySettings, CredentialRecord } from '../../../src/state/records.js';
import { company, companySettings, credential } from '../support/records.js';

/** A ServedModels whose provider lists are fixed per provider (null: no list can be had). */
function servedStub(lists: Partial<Record<ProviderName, readonly string[] | null>> = {}): { served: ServedModels<CredentialRecord>; fetched: ProviderName[] } {
  const fetched: ProviderName[] = [];
  const served = new ServedModels(async (c: CredentialRecord) => {
    fetched.push(c.provider);
    const list = lists[c.provider];
    if (list === undefined) throw new Error(`no stub list for ${c.provider}`);
    return list;
  });
  return { served, fetched };
}

const vendorKey = credential({ name: 'vendor-key' });
const aKey = credential({ name: 'a-key', provider: 'provider_a', baseUrl: 'https://openrouter.ai/api', authScheme: 'bearer' });
const bKey = credential({ name: 'b-key', provider: 'provider_b', baseUrl: 'https://api.deepseek.com/anthropic' });
const dKey = credential({ name: 'd-key', provider: 'provider_d', baseUrl: 'http://127.0.0.1:11434' });

async function refusal(raw: string, credentials: CredentialRecord[], settings: Partial<CompanySettings> = {}, served = servedStub().served): Promise<GatewayError> {
  const error = await authorizeModel(raw, company({ credentials, settings }), served).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GatewayError);
  expect((error as GatewayError).fault).toBe('model_not_allowed');
  expect((error as GatewayError).status).toBe(403);
  return error as GatewayError;
}

describe('isSwitchedOn', () => {
  it('defaults to on for the vendor and off for every other provider', () => {
    const settings = companySettings();
    expect(isSwitchedOn(settings, 'vendor', ['claudesonnet45'])).toBe(true);
    for (const provider of ['provider_a', 'provider_b', 'provider_c', 'provider_d'] as const) expect(isSwitchedOn(settings, provider, ['x'])).toBe(false);
  });

  it('follows an explicit list, with * for every listed model', () => {
    const settings = companySettings({ enabledModels: { vendor: ['claudehaiku45'], provider_a: ['*'], provider_b: [] } });
    expect(isSwitchedOn(settings, 'vendor', ['claudehaiku45'])).toBe(true);
    expect(isSwitchedOn(settings, 'vendor', ['claudesonnet45'])).toBe(false);
    expect(isSwitchedOn(settings, 'vendor', ['claudesonnet45', 'claudehaiku45'])).toBe(true);
    expect(isSwitchedOn(settings, 'provider_a', ['anything'])).toBe(true);
    expect(isSwitchedOn(settings, 'provider_b', ['x'])).toBe(false);
  });
});

describe('authorizeModel: refusals (403 model_not_allowed)', () => {
  it('refuses a provider with no connected credential, naming it', async () => {
    expect((await refusal('claude-sonnet-4-5', [aKey])).message).toBe(MESSAGES.providerNotConnected('vendor'));
    expect((await refusal('provider_b:deepseek-chat', [vendorKey, aKey])).message).toBe(MESSAGES.providerNotConnected('provider_b'));
    expect((await refusal('provider_d:llama3', [])).message).toBe(MESSAGES.providerNotConnected('provider_d'));
  });

  it('refuses an unknown provider prefix', async () => {
    expect((await refusal('provider_x:m', [vendorKey])).message).toBe(MESSAGES.unknownProvider('provider_x', PINNABLE_PROVIDERS));
  });

  it('refuses a listed vendor model left out of an explicit list, quoting the id as written', async () => {
    const error = await refusal('Claude-Sonnet-4.5', [vendorKey], { enabledModels: { vendor: ['claudehaiku45'] } });
    expect(error.message).toBe(MESSAGES.switchedOff('Claude-Sonnet-4.5'));
    expect(error.message).toBe('gw: "Claude-Sonnet-4.5" is switched off for your company, an owner can switch it on in Models');
  });

  it('refuses a listed model of another provider until an owner switches it on', async () => {
    const error = await refusal('provider_a:anthropic/claude-sonnet-4.5', [aKey]);
    expect(error.message).toBe(MESSAGES.switchedOff('provider_a:anthropic/claude-sonnet-4.5'));
  });

  it('refuses a bare id the vendor does not serve, listing the ids the company can use', async () => {
    const { served } = servedStub({ vendor: ['claude-haiku-4-5-20251001', 'claude-opus-4-8'] });
    const error = await refusal('gpt-4o', [vendorKey], { enabledModels: { vendor: ['claudehaiku420251001'] } }, served);
    expect(error.message).toBe(MESSAGES.notAModel('gpt-4o', ['claude-haiku-4-5-20251001', 'claude-opus-4-8']));
    expect(error.message).toBe('gw: "gpt-4o" is not a model this gateway serves for your company; models you can use: claude-haiku-4-5-20251001, claude-opus-4-8');
  });

  it("refuses a pinned id the provider does not serve, listing that provider's ids with the prefix", async () => {
    const { served } = servedStub({ provider_b: ['deepseek-chat', 'deepseek-reasoner'] });
    const error = await refusal('provider_b:gpt-4o', [vendorKey, bKey], {}, served);
    expect(error.message).toBe(MESSAGES.notServedBy('provider_b:gpt-4o', 'provider_b', ['provider_b:deepseek-chat', 'provider_b:deepseek-reasoner']));
  });

  it('says "(none)" when the provider serves nothing the company can use', async () => {
    const { served } = servedStub({ provider_d: [] });
    const error = await refusal('provider_d:llama3', [dKey], {}, served);
    expect(error.message).toBe('gw: "provider_d:llama3" is not a model provider_d serves for your company; models you can use there: (none)');
  });

  it('refuses a model that no credential of the provider is allowed to carry', async () => {
    const onlyHaiku = credential({ name: 'haiku-only', models: ['claudehaiku45'] });
    const error = await refusal('claude-sonnet-4-5', [onlyHaiku, aKey]);
    expect(error.message).toBe(CREDENTIAL_MESSAGES.notOnCredentials('claude-sonnet-4-5', 'vendor'));
  });

  it('never falls back onto another provider that would serve the model', async () => {
    const { served } = servedStub({ provider_b: ['deepseek-chat'] });
    const error = await refusal('provider_b:claude-sonnet-4-5', [vendorKey, bKey], {}, served);
    expect(error.message).toMatch(/^gw: "provider_b:claude-sonnet-4-5" is not a model provider_b serves/);
  });
});

describe('authorizeModel: switch-on', () => {
  it('lets listed vendor models through by default', async () => {
    const decision = await authorizeModel('claude-sonnet-4-5', company({ credentials: [vendorKey] }), servedStub().served);
    expect(decision).toMatchObject({ provider: 'vendor', forwardId: 'claude-sonnet-4-5', normalized: 'claudesonnet4520250929' });
  });

  it('switches on every listed model of a provider with *', async () => {
    const decision = await authorizeModel('provider_a:anthropic/claude-opus-4.5', company({ credentials: [aKey], settings: { enabledModels: { provider_a: ['*'] } } }), servedStub().served);
    expect(decision.forwardId).toBe('anthropic/claude-opus-4.5');
  });

  it('matches an explicit list by model, whichever spelling the owner or the caller used', async () => {
    const spellings = ['claude-sonnet-4-5', 'claude-sonnet-4-5-20250929', 'Claude-Sonnet-4.5'];
    const enabledForms = ['claudesonnet45', 'claudesonnet4520250929'];
    for (const enabled of enabledForms) {
      for (const raw of spellings) {
        const records = company({ credentials: [vendorKey], settings: { enabledModels: { vendor: [enabled] } } });
        const decision = await authorizeModel(raw, records, servedStub().served);
        expect(decision.normalized, `${raw} with ${enabled} on`).toBe('claudesonnet4520250929');
      }
    }
  });

  it('needs no switch-on for a model the service does not list', async () => {
    const { served } = servedStub({ provider_b: ['deepseek-chat'] });
    const decision = await authorizeModel('provider_b:deepseek-chat', company({ credentials: [bKey] }), served);
    expect(decision).toMatchObject({ provider: 'provider_b', forwardId: 'deepseek-chat' });
  });

  it('does not fetch provider lists for a listed model', async () => {
    const { served, fetched } = servedStub();
    await authorizeModel('claude-haiku-4-5', company({ credentials: [vendorKey] }), served);
    expect(fetched).toEqual([]);
  });
});

describe('authorizeModel: candidates', () => {
  it("keeps only the provider's credentials allowed to carry the model, highest priority first, ties in file order", async () => {
    const creds = [
      credential({ name: 'low', priority: -5 }),
      credential({ name: 'high-1', priority: 10 }),
      credential({ name: 'haiku-only', priority: 100, models: ['claudehaiku45'] }),
      credential({ name: 'mid', priority: 0 }),
      credential({ name: 'high-2', priority: 10 }),
      credential({ name: 'sonnet-only', priority: 1, models: ['claudesonnet45'] }),
      aKey,
    ];
    const decision = await authorizeModel('claude-sonnet-4-5', company({ credentials: creds }), servedStub().served);
    expect(decision.candidates.map((c) => c.name)).toEqual(['high-1', 'high-2', 'sonnet-only', 'mid', 'low']);
  });

  it('matches a credential restriction by model whichever spelling either side used', async () => {
    const restricted = credential({ name: 'pinned-date', models: ['claudesonnet4520250929'] });
    const byAlias = credential({ name: 'by-alias', models: ['claudesonnet45'] });
    for (const raw of ['claude-sonnet-4-5', 'claude-sonnet-4-5-20250929']) {
      const decision = await authorizeModel(raw, company({ credentials: [restricted, byAlias] }), servedStub().served);
      expect(
        decision.candidates.map((c) => c.name),
        raw,
      ).toEqual(['pinned-date', 'by-alias']);
    }
  });

  it('matches a restriction on an unlisted id ignoring capitals, dashes and dots', async () => {
    const { served } = servedStub({ provider_b: ['deepseek-chat'] });
    const decision = await authorizeModel('provider_b:DeepSeek.Chat', company({ credentials: [credential({ ...bKey, models: ['deepseekchat'] })] }), served);
    expect(decision.candidates).toHaveLength(1);
  });
});

describe('authorizeModel: the id sent upstream', () => {
  it.each([
    ['Claude-Sonnet-4.5', 'claude-sonnet-4-5'],
    ['CLAUDE-SONNET-4-5-20250929', 'claude-sonnet-4-5-20250929'],
    ['claude-opus-4-0', 'claude-opus-4-0'],
    ['claude.3.5.haiku.latest', 'claude-3-5-haiku-latest'],
  ])("a bare listed %j goes upstream in the catalogue's spelling %j", async (raw, forwardId) => {
    const decision = await authorizeModel(raw, company({ credentials: [vendorKey] }), servedStub().served);
    expect(decision.forwardId).toBe(forwardId);
    expect(decision.parsed.raw).toBe(raw);
  });

  it("a bare unlisted id goes upstream in the served list's spelling", async () => {
    const { served } = servedStub({ vendor: ['claude-opus-4-8', 'claude-sonnet-5'] });
    const decision = await authorizeModel('Claude-Opus-4.8', company({ credentials: [vendorKey] }), served);
    expect(decision.forwardId).toBe('claude-opus-4-8');
    expect(decision.normalized).toBe('claudeopus48');
  });

  it('a bare unlisted id goes through unchanged when no list can be had', async () => {
    for (const served of [servedStub({ vendor: null }).served, servedStub({}).served]) {
      const decision = await authorizeModel('Claude-Opus-9', company({ credentials: [vendorKey] }), served);
      expect(decision.forwardId).toBe('Claude-Opus-9');
    }
  });

  it('a pinned id goes upstream exactly as written, listed or served in another spelling', async () => {
    const a = await authorizeModel('provider_a:Anthropic/Claude-Sonnet-4.5', company({ credentials: [aKey], settings: { enabledModels: { provider_a: ['*'] } } }), servedStub().served);
    expect(a.forwardId).toBe('Anthropic/Claude-Sonnet-4.5');
    const { served } = servedStub({ provider_b: ['deepseek-chat'] });
    const b = await authorizeModel('provider_b:DeepSeek-Chat', company({ credentials: [bKey] }), served);
    expect(b.forwardId).toBe('DeepSeek-Chat');
    const d = await authorizeModel('provider_d:hf.co/Org/Model:Q4_K_M', company({ credentials: [dKey] }), servedStub({ provider_d: null }).served);
    expect(d.forwardId).toBe('hf.co/Org/Model:Q4_K_M');
  });
});

describe('authorizeModel: price', () => {
  it('prices vendor models from the catalogue families, including ids newer than the catalogue', async () => {
    const listed = await authorizeModel('claude-sonnet-4-5', company({ credentials: [vendorKey] }), servedStub().served);
    expect(listed.price).toEqual(priceFromBase(3, 15));
    const { served } = servedStub({ vendor: ['claude-opus-4-8'] });
    const newer = await authorizeModel('claude-opus-4-8', company({ credentials: [vendorKey] }), served);
    expect(newer.price).toEqual(priceFromBase(5, 25));
  });

  it('prefers a price from the settings over the catalogue', async () => {
    const own = { input: 1, output: 2, cacheWrite5m: 3, cacheWrite1h: 4, cacheRead: 0.5 };
    const decision = await authorizeModel('Claude-Sonnet-4.5', company({ credentials: [vendorKey], settings: { prices: { claudesonnet4520250929: own } } }), servedStub().served);
    expect(decision.price).toEqual(own);
    const byRaw = await authorizeModel('claude-sonnet-4-5', company({ credentials: [vendorKey], settings: { prices: { claudesonnet45: own } } }), servedStub().served);
    expect(byRaw.price).toEqual(own);
  });

  it('prices other providers only from the settings', async () => {
    const own = priceFromBase(0.27, 1.1);
    const { served } = servedStub({ provider_b: ['deepseek-chat'] });
    const unpriced = await authorizeModel('provider_b:deepseek-chat', company({ credentials: [bKey] }), served);
    expect(unpriced.price).toBeUndefined();
    const byId = await authorizeModel('provider_b:deepseek-chat', company({ credentials: [bKey], settings: { prices: { deepseekchat: own } } }), served);
    expect(byId.price).toEqual(own);
    const byPinned = await authorizeModel('provider_b:deepseek-chat', company({ credentials: [bKey], settings: { prices: { 'provider_b:deepseekchat': own } } }), served);
    expect(byPinned.price).toEqual(own);
    const listedElsewhere = await authorizeModel('provider_a:anthropic/claude-sonnet-4.5', company({ credentials: [aKey], settings: { enabledModels: { provider_a: ['*'] } } }), served);
    expect(listedElsewhere.price).toBeUndefined();
  });

  it('leaves an unknown bare non-Claude id unpriced', async () => {
    const decision = await authorizeModel('my-gw-model', company({ credentials: [vendorKey] }), servedStub({ vendor: null }).served);
    expect(decision.price).toBeUndefined();
  });
});

describe('usableIds', () => {
  it('lists switched-on listed models and served ids, prefixed for pinned providers, without duplicates', async () => {
    const { served } = servedStub({ provider_a: ['anthropic/claude-sonnet-4.5', 'openai/gpt-4o'] });
    const records = company({ credentials: [aKey], settings: { enabledModels: { provider_a: ['anthropic/claudesonnet45'] } } });
    expect(await usableIds(records, 'provider_a', served)).toEqual(['provider_a:anthropic/claude-sonnet-4.5', 'provider_a:openai/gpt-4o']);
    expect(await usableIds(records, 'provider_b', served)).toEqual([]);
  });

  it('lists a listed vendor model an owner switched on by its alias', async () => {
    const records = company({ credentials: [vendorKey], settings: { enabledModels: { vendor: ['claudesonnet45'] } } });
    expect(await usableIds(records, 'vendor', servedStub({ vendor: null }).served)).toEqual(['claude-sonnet-4-5-20250929']);
  });

  it('lists at most 40 ids', async () => {
    const many = Array.from({ length: 100 }, (_, i) => `model-${i}`);
    const ids = await usableIds(company({ credentials: [dKey] }), 'provider_d', servedStub({ provider_d: many }).served);
    expect(ids).toHaveLength(40);
    expect(ids[0]).toBe('provider_d:model-0');
  });
});

describe('authorizeModel: unknown bare ids without a vendor credential', () => {
  it('says the id is not a model and lists the ids of the other providers, not "vendor is not connected"', async () => {
    const { served } = servedStub({ provider_a: ['z-ai/glm-4.6'] });
    const error = await refusal('gpt-17-turbo', [aKey], { enabledModels: { provider_a: ['anthropic/claudesonnet45'] } }, served);
    expect(error.message).toBe(MESSAGES.notAModel('gpt-17-turbo', ['provider_a:anthropic/claude-sonnet-4.5', 'provider_a:z-ai/glm-4.6']));
  });

  it('still names the missing connection for a listed vendor model', async () => {
    expect((await refusal('Claude-Sonnet-4.5', [aKey], {}, servedStub({ provider_a: [] }).served)).message).toBe(MESSAGES.providerNotConnected('vendor'));
  });
});

describe('authorizeModel: the canonical id Usage and Logs keep', () => {
  it('is one id for every spelling of a listed model, with the prefix when pinned', async () => {
    const vendorCompany = company({ credentials: [vendorKey] });
    const none = servedStub({ vendor: null }).served;
    for (const raw of ['Claude-Sonnet-4.5', 'claude-sonnet-4-5', 'CLAUDE.SONNET.4.5']) expect((await authorizeModel(raw, vendorCompany, none)).canonicalId).toBe('claude-sonnet-4-5');
    expect((await authorizeModel('claude-sonnet-4-5-20250929', vendorCompany, none)).canonicalId).toBe('claude-sonnet-4-5-20250929');
    const aCompany = company({ credentials: [aKey], settings: { enabledModels: { provider_a: ['*'] } } });
    const decision = await authorizeModel('PROVIDER_A:Anthropic/Claude-Sonnet-4.5', aCompany, servedStub({ provider_a: [] }).served);
    expect(decision.canonicalId).toBe('provider_a:anthropic/claude-sonnet-4.5');
    expect(decision.forwardId).toBe('Anthropic/Claude-Sonnet-4.5');
  });

  it("takes the provider list's spelling for an unlisted id, and the id as written when no list can be had", async () => {
    const listed = servedStub({ vendor: ['claude-opus-4-8'] }).served;
    expect((await authorizeModel('Claude-Opus-4.8', company({ credentials: [vendorKey] }), listed)).canonicalId).toBe('claude-opus-4-8');
    expect((await authorizeModel('my-gw-model', company({ credentials: [vendorKey] }), servedStub({ vendor: null }).served)).canonicalId).toBe('my-gw-model');
  });
});
