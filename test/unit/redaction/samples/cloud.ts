import { b62, b64, b64url, base32, digits, hex, lowerBase32 } from '../fake.js';
import { tp, type SampleTable } from './types.js';

const secretKey = () => b62(32) + '/+' + b62(6);

export const cloudSamples: SampleTable = {
  'gw-caller-token': {
    tp: [tp('Authorization: Bearer ', `gwct_${b62(46)}`), tp('GW_TOKEN=', `gwct_${b62(46)}`, '\n')],
    fp: [`gwct_${b62(45)}`, `gwct_${b62(47)}`, `xgwct_${b62(46)}`],
  },
  'aws-access-key-id': {
    tp: [tp('aws_access_key_id = ', `AKIA${base32(16)}`), tp('temporary: ', `ASIA${base32(16)}`, ' (STS)')],
    // Stand-ins stay, prefix or not (issue 29, decision 1 as revised).
    fp: ['aws_access_key_id = AKIAIOSFODNN7EXAMPLE', 'aws_access_key_id = AKIAZZZZZZZZZZZZZZZZ', `AKIA${base32(15)}`, 'TODAYINASIAASACKOFRICEFELLOVER', `A3T${'Z'.repeat(17)}`],
  },
  'aws-secret-access-key': {
    tp: [tp('aws_secret_access_key = ', secretKey()), tp('export AWS_SECRET_ACCESS_KEY="', secretKey(), '"')],
    fp: ['aws_secret_access_key = ${AWS_SECRET_ACCESS_KEY}', `aws_secret_access_key = ${'a'.repeat(40)}`],
  },
  'aws-session-token': {
    tp: [tp('aws_session_token = ', `IQoJb3JpZ2luX2Vj${b64(300)}`)],
    fp: [`aws_session_token = ${b64(60)}`],
  },
  'aws-bedrock-api-key': {
    tp: [tp('AWS_BEARER_TOKEN_BEDROCK=', `ABSKQmVkcm9ja0FQSUtleS${b62(110)}`)],
    fp: ['ABSKQmVkcm9ja0FQSUtleS1EXAMPLE', `ABSK${b62(110)}`],
  },
  'aws-bedrock-short-term-api-key': {
    tp: [tp('AWS_BEARER_TOKEN_BEDROCK=', `bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t${b64(400)}`)],
    fp: [`bedrock-api-key-${b64(60)}`],
  },
  'gcp-api-key': {
    tp: [tp('GOOGLE_API_KEY=', `AIzaSy${b64url(33)}`), tp('?key=', `AIzaSy${b64url(33)}`, '&q=1')],
    fp: ['AIzaSyabcdefghijklmnopqrstuvwxyz1234567', `AIza${b64url(35)}`, `AIzaSy${b64url(34)}`],
  },
  'gcp-service-account-key-id': {
    tp: [tp('{"type": "service_account", "private_key_id": "', hex(40), '", "client_email": "svc@p.iam.gserviceaccount.com"}')],
    fp: [`"private_key_id": "${hex(32)}"`],
  },
  'google-oauth-client-secret': {
    tp: [tp('"client_secret": "', `GOCSPX-${b64url(28)}`, '"')],
    fp: [`GOCSPX-${b64url(20)}`],
  },
  'google-oauth-access-token': {
    tp: [tp('Authorization: Bearer ', `ya29.${b64url(150)}`)],
    fp: ['ya29.short'],
  },
  'google-oauth-refresh-token': {
    tp: [tp('"refresh_token": "', `1//0${b64url(100)}`, '"')],
    fp: [`see 1//0${b64url(10)}`],
  },
  'azure-ad-client-secret': {
    tp: [tp('AZURE_CLIENT_SECRET=', `${b62(3)}8Q~${b62(30)}.~_-`)],
    fp: [`client_secret=bP88Q~${'x'.repeat(34)}`, '~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~'],
  },
  'azure-storage-account-key': {
    tp: [tp('DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=', `${b64(86)}==`, ';EndpointSuffix=core.windows.net')],
    fp: [`AccountKey=${b64(40)}`],
  },
  'azure-sas-signature': {
    tp: [tp('https://acct.blob.core.windows.net/c/b.txt?sv=2022-11-02&ss=b&srt=o&sp=r&se=2030-01-01T00:00:00Z&sig=', `${b62(43)}%3D`)],
    fp: ['https://acct.blob.core.windows.net/c?sv=2022-11-02&sig=short'],
  },
  'azure-openai-api-key': {
    tp: [tp('AZURE_OPENAI_ENDPOINT=https://acme.openai.azure.com/\nAZURE_OPENAI_API_KEY=', hex(32))],
    fp: [`AZURE_OPENAI_API_KEY=${'a'.repeat(32)}`, `${hex(32)}${' '.repeat(400)}openai.azure.com`],
  },
  'azure-devops-pat': {
    tp: [tp('AZURE_DEVOPS_PAT=', lowerBase32(52)), tp('git clone https://dev.azure.com/acme/p/_git/r # token ', `${b62(76)}AZDO${b62(4)}`)],
    fp: [`azure_devops: ${lowerBase32(40)}`],
  },
  // Found alone: no Azure DevOps name near it.
  'azure-devops-pat-structure': {
    tp: [tp('', `${b62(76)}AZDO${b62(4)}`, '\n'), tp('token: "', `${b62(76)}AZDO${b62(4)}`, '"')],
    fp: [`${b62(75)}AZDO${b62(4)}`, `${b62(76)}AZDO${b62(5)}`, `${b62(76)}azdo${b62(4)}`],
  },
  'azure-app-configuration-id': {
    tp: [tp('Endpoint=https://acme-config.azconfig.io;Id=', `${b62(4)}-l0-s0:${b64(20)}`, `;Secret=${b64(43)}=`)],
    fp: ['Endpoint=https://acme-config.azconfig.io;Id=abc;Secret=x', 'https://acme-config.azconfig.io;Id=1234abcd-l0-s0'],
  },
  'alibaba-access-key-id': {
    tp: [tp('ALIBABA_CLOUD_ACCESS_KEY_ID=', `LTAI${b62(20)}`)],
    fp: [`LTAI${b62(8)}`],
  },
  'alibaba-access-key-secret': {
    tp: [tp('ALIBABA_CLOUD_ACCESS_KEY_SECRET=', b62(30))],
    fp: [`alibaba_secret = ${b62(29)}`, 'alibaba_region = cn-hangzhou'],
  },
  'yandex-api-key': {
    tp: [tp('YC_API_KEY=', `AQVN${b64url(36)}`)],
    fp: [`AQVN${b62(10)}`],
  },
  'yandex-iam-token': {
    tp: [tp('Authorization: Bearer ', `t1.${b64url(40)}.${b64url(86)}`)],
    fp: ['t1.small.thing', `version t1.${digits(3)}`],
  },
};
