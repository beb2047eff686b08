import { b62, b64url, hex, letters } from '../fake.js';
import { tp, type SampleTable } from './types.js';

export const aiProviderSamples: SampleTable = {
  'anthropic-api-key': {
    tp: [tp('ANTHROPIC_API_KEY=', `sk-ant-api03-${b64url(93)}AA`), tp('x-api-key: ', `sk-ant-api03-${b64url(93)}AA`, '\n')],
    fp: [`sk-ant-api03-${b64url(93)}BB`, `sk-ant-api03-${b64url(60)}AA`],
  },
  'anthropic-admin-api-key': {
    tp: [tp('ANTHROPIC_ADMIN_KEY=', `sk-ant-admin01-${b64url(93)}AA`)],
    fp: ['sk-ant-admin01-abc123xyz-456de-klMnopqrstuvwx-3456yza789bcde-1234fghijklmnopAA'],
  },
  'anthropic-token': {
    tp: [tp('CLAUDE_CODE_OAUTH_TOKEN=', `sk-ant-oat01-${b64url(95)}`)],
    fp: [`sk-ant-api03-${b64url(40)}`, 'sk-ant-oat01-short'],
  },
  'openai-project-key': {
    tp: [tp('OPENAI_API_KEY=', `sk-proj-${b64url(74)}T3BlbkFJ${b64url(74)}`)],
    fp: [`sk-proj-${b64url(20)}`],
  },
  'openai-service-account-key': {
    tp: [tp('OPENAI_API_KEY=', `sk-svcacct-${b64url(74)}T3BlbkFJ${b64url(74)}`)],
    fp: [`sk-svcacct-${b64url(20)}`],
  },
  'openai-admin-key': {
    tp: [tp('OPENAI_ADMIN_KEY=', `sk-admin-${b64url(60)}T3BlbkFJ${b64url(60)}`)],
    fp: [`sk-admin-${b64url(20)}`],
  },
  'openai-legacy-key': {
    tp: [tp('openai.api_key = "', `sk-${b62(20)}T3BlbkFJ${b62(20)}`, '"')],
    fp: [`sk-${b62(20)}T3BlbkFJ${b62(10)}`],
  },
  'openrouter-api-key': {
    tp: [tp('OPENROUTER_API_KEY=', `sk-or-v1-${hex(64)}`)],
    fp: [`sk-or-v1-${hex(10)}`],
  },
  'deepseek-api-key': {
    tp: [tp('DEEPSEEK_API_KEY=', `sk-${hex(32)}`)],
    fp: [`client = Client(api_key="sk-${hex(32)}")`],
  },
  'huggingface-access-token': {
    tp: [tp('HF_TOKEN=', `hf_${letters(34)}`)],
    fp: ['- (id)hf_requiredCharacteristicTypesForDisplayMetadata;', `hf_${'x'.repeat(34)}`],
  },
  'huggingface-org-token': {
    tp: [tp('use_auth_token="', `api_org_${letters(34)}`, '"')],
    fp: ["const api_org_controller = require('./controllers');"],
  },
  'groq-api-key': {
    tp: [tp('GROQ_API_KEY=', `gsk_${b62(52)}`)],
    fp: [`gsk_${b62(20)}`],
  },
  'xai-api-key': {
    tp: [tp('XAI_API_KEY=', `xai-${b62(80)}`)],
    fp: [`xai-${b62(10)}`],
  },
  'perplexity-api-key': {
    tp: [tp('PERPLEXITY_API_KEY=', `pplx-${b62(48)}`)],
    fp: [`PERPLEXITY_API_KEY=pplx-${'x'.repeat(48)}`],
  },
  'replicate-api-token': {
    tp: [tp('REPLICATE_API_TOKEN=', `r8_${b62(37)}`)],
    fp: [`r8_${b62(5)}`],
  },
  'langsmith-api-key': {
    tp: [tp('LANGSMITH_API_KEY=', `lsv2_pt_${hex(32)}_${hex(10)}`)],
    fp: [`lsv2_pt_${hex(32)}`],
  },
  'pinecone-api-key': {
    tp: [tp('PINECONE_API_KEY=', `pcsk_${b62(6)}_${b62(63)}`)],
    fp: [`pcsk_${b62(6)}`],
  },
  'nvidia-api-key': {
    tp: [tp('NVIDIA_API_KEY=', `nvapi-${b64url(64)}`)],
    fp: [`nvapi-${b64url(20)}`],
  },
  'tavily-api-key': {
    tp: [tp('TAVILY_API_KEY=', `tvly-${b62(32)}`), tp('key: ', `tvly-dev-${b62(32)}`)],
    fp: [`tvly-${b62(10)}`],
  },
  'cohere-api-key': {
    tp: [tp('COHERE_API_KEY=', b62(40)), tp('export CO_API_KEY=', b62(40))],
    fp: ['cohere_model = "command-r-plus"', `CO_API_KEY=${'x'.repeat(40)}`],
  },
  'mistral-api-key': {
    tp: [tp('MISTRAL_API_KEY=', b62(32))],
    fp: ['mistral_model = mistral-large-latest'],
  },
};
