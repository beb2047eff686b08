import { b62, b64, b64url, base64Of } from '../fake.js';
import { tp, type SampleTable } from './types.js';

export const kubernetesSamples: SampleTable = {
  'kubernetes-secret-data': {
    tp: [
      tp('apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ntype: Opaque\ndata:\n', `  password: ${base64Of(b62(18))}\n  username: ${base64Of('admin')}\n`),
      tp('apiVersion: v1\ndata:\n', `  token: "${base64Of(b62(30))}"\n`, 'kind: Secret\nmetadata:\n  name: api\n'),
    ],
    fp: [
      'apiVersion: v1\nkind: ConfigMap\ndata:\n  mode: Default\n  level: None\n',
      'apiVersion: v1\nkind: Secret\ndata:\n  extra: YmFyCg==\n',
      'apiVersion: v1\nkind: Secret\ndata:\n  htpasswd: {{ htpasswd }}\n',
    ],
  },
  'kubernetes-dockerconfig-data': {
    tp: [
      tp('type: kubernetes.io/dockerconfigjson\ndata:\n  .dockerconfigjson: ', Buffer.from(`{"auths":{"registry.example.com":{"auth":"${b64(24)}"}}}`).toString('base64'), '\n'),
      tp('{"data": {".dockercfg": "', Buffer.from(`{"https://index.docker.io/v1/":{"auth":"${b64(28)}"}}`).toString('base64'), '"}}'),
      tp('  .dockercfg: ', 'ewE1x9a3MpLe', '\n'),
    ],
    fp: ['type: kubernetes.io/dockerconfigjson', `.dockerconfigjson: '{"auths":{}}'`, 'cat ~/.dockercfg: no such file', `  .dockerconfigjson: ${'A'.repeat(40)}`, '  .dockercfg: notbase64!'],
  },
  'kubeconfig-client-key': {
    tp: [tp('users:\n- name: admin\n  user:\n    client-key-data: ', b64(400), '\n')],
    fp: [`    client-key-data: ${b64(20)}\n`],
  },
  'openshift-token': {
    tp: [tp('oc login --token=', `sha256~${b64url(43)}`, ' --server=https://api.example.com:6443')],
    fp: ['--set token="sha256~XXXXXXXXXX_PUT_YOUR_TOKEN_HERE_XXXXXXXXXXXX"'],
  },
};
