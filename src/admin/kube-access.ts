import { createHash } from 'node:crypto';
import { AuthenticationV1Api, AuthorizationV1Api, KubeConfig } from '@kubernetes/client-node';
import { bearerOf } from '../auth/authenticate.js';
import { NO_BEARER, type AccessDecision, type AdminAccess, type AdminResource } from './admin-access.js';

/** The API group of the resources a Role grants to read Usage and Logs (`get` on `usage` / `logs`). */
export const ACCESS_GROUP = 'gw.io';
const CACHE_MS = 10_000;
const CACHE_MAX = 10_000;

/**
 * Kubernetes decides who reads what: the bearer is a Kubernetes token
 * (TokenReview), and each request is a SubjectAccessReview for `get` on
 * `usage` or `logs` in group gw.io in the company's namespace (all
 * namespaces when no company is named). So `kubectl auth can-i get
 * usage.gw.io -n acme --as alice` answers the same question. Decisions are
 * cached for ten seconds, keyed by the token's digest, never the token.
 */
export function kubernetesAccess(kc: KubeConfig): AdminAccess {
  const authn = kc.makeApiClient(AuthenticationV1Api);
  const authz = kc.makeApiClient(AuthorizationV1Api);
  const cache = new Map<string, { at: number; decision: AccessDecision }>();
  return {
    async decide(authorization: string | undefined, resource: AdminResource, company: string | null): Promise<AccessDecision> {
      const token = bearerOf(authorization);
      if (token === null) return NO_BEARER;
      const key = `${createHash('sha256').update(token).digest('hex')}\u0000${resource}\u0000${company ?? ''}`;
      const now = Date.now();
      const hit = cache.get(key);
      if (hit && now - hit.at < CACHE_MS) return hit.decision;
      const review = await authn.createTokenReview({ body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } } });
      const user = review.status?.user;
      let decision: AccessDecision;
      if (!review.status?.authenticated || !user?.username) {
        decision = { ok: false, status: 401, message: 'the bearer token is not a valid Kubernetes token' };
      } else {
        const sar = await authz.createSubjectAccessReview({
          body: {
            apiVersion: 'authorization.k8s.io/v1',
            kind: 'SubjectAccessReview',
            spec: {
              user: user.username,
              ...(user.groups ? { groups: user.groups } : {}),
              ...(user.uid ? { uid: user.uid } : {}),
              ...(user.extra ? { extra: user.extra } : {}),
              resourceAttributes: { group: ACCESS_GROUP, resource, verb: 'get', ...(company !== null ? { namespace: company } : {}) },
            },
          },
        });
        decision = sar.status?.allowed
          ? { ok: true, who: user.username }
          : {
              ok: false,
              status: 403,
              who: user.username,
              message:
                company === null
                  ? `${user.username} may not get ${resource}.${ACCESS_GROUP} in all namespaces: name one with "company", or ask for a cluster-wide binding`
                  : `${user.username} may not get ${resource}.${ACCESS_GROUP} in namespace "${company}"`,
            };
      }
      if (cache.size >= CACHE_MAX) cache.clear();
      cache.set(key, { at: now, decision });
      return decision;
    },
  };
}

export function loadAccessKubeConfig(kubeconfig: string | null): KubeConfig {
  const kc = new KubeConfig();
  if (kubeconfig) kc.loadFromFile(kubeconfig);
  else kc.loadFromCluster();
  return kc;
}
