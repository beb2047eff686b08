/** The Ready condition reconcile computes for one resource; the operator turns it into status. */
export interface ResourceCondition {
  readonly kind: 'GatewayToken' | 'ProviderCredential' | 'GatewaySettings';
  readonly namespace: string;
  readonly name: string;
  readonly ready: boolean;
  readonly reason: string;
  readonly message: string;
  /** GatewayToken only: the address it spends under. */
  readonly address?: string;
}

export function ready(kind: ResourceCondition['kind'], namespace: string, name: string, message: string, extra: { address?: string } = {}): ResourceCondition {
  return { kind, namespace, name, ready: true, reason: 'Reconciled', message, ...extra };
}

export function notReady(kind: ResourceCondition['kind'], namespace: string, name: string, reason: string, message: string): ResourceCondition {
  return { kind, namespace, name, ready: false, reason, message };
}
