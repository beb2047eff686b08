import { Redis, type RedisOptions } from 'ioredis';

/** The channel every Sentinel announces a finished failover on: `<name> <old ip> <old port> <new ip> <new port>`. */
export const SWITCH_MASTER_CHANNEL = '+switch-master';

export interface SwitchMasterOptions {
  /** The primary's name the Sentinels know it by. */
  readonly name: string;
  readonly sentinels: ReadonlyArray<{ readonly host: string; readonly port: number }>;
  /** Connection options for the Sentinels (auth, TLS, timeouts); never the data nodes'. */
  readonly connection: RedisOptions;
  /** Told of each announcement for this primary, after acting on it: whether the client was moved. */
  readonly onAnnounced?: (target: { host: string; port: number }, moved: boolean) => void;
}

export interface SwitchMasterFollower {
  close(): void;
}

/**
 * Follows `+switch-master` on every Sentinel and moves `client` to the new
 * primary, unless it is there already. Sentinel announces the switch only when
 * its failover ends: when the replicas are reconfigured, or after its failover
 * timeout. By then a client whose primary died has usually reconnected through
 * the Sentinels to the promoted node, and ioredis's own detector, which
 * reconnects on any announcement, would drop that good connection and fail
 * every request in the gap (the failover test saw 503s 5 s after a promotion,
 * exactly the Sentinels' failover timeout). A client still on the old primary
 * (paused, so its socket never closed) is moved at once, as before.
 */
export function followSwitchMaster(client: Redis, options: SwitchMasterOptions): SwitchMasterFollower {
  const subscribers = options.sentinels.map(
    (sentinel) =>
      new Redis({
        ...options.connection,
        host: sentinel.host,
        port: sentinel.port,
        // A subscription made while a Sentinel is away is made on connect (and again on every reconnect).
        enableOfflineQueue: true,
        maxRetriesPerRequest: null,
        lazyConnect: false,
      }),
  );
  for (const subscriber of subscribers) {
    // A Sentinel away is normal (the others announce too); its reconnects are ioredis's business, not the log's.
    subscriber.on('error', () => undefined);
    subscriber.subscribe(SWITCH_MASTER_CHANNEL).catch(() => undefined);
    subscriber.on('message', (channel: string, message: string) => {
      if (channel !== SWITCH_MASTER_CHANNEL) return;
      const target = switchTarget(message, options.name);
      if (target === null) return;
      // Not connected: the connect under way asks the Sentinels, which already name the new primary.
      const move = (client.status === 'ready' || client.status === 'connect') && !connectedTo(client, target);
      if (move) client.disconnect(true);
      options.onAnnounced?.(target, move);
    });
  }
  return {
    close(): void {
      for (const subscriber of subscribers) subscriber.disconnect();
    },
  };
}

/** The new primary an announcement names for `name`; null for another primary's or a malformed one. */
export function switchTarget(message: string, name: string): { host: string; port: number } | null {
  const parts = message.split(' ');
  if (parts.length !== 5 || parts[0] !== name) return null;
  const port = Number(parts[4]);
  if (!Number.isInteger(port) || port <= 0 || port > 65_535) return null;
  return { host: parts[3] as string, port };
}

/** Whether the client's socket ends at `target`. A hostname never matches an address, so such a client is moved, as ioredis would. */
function connectedTo(client: Redis, target: { host: string; port: number }): boolean {
  const socket = client.stream as { remoteAddress?: string; remotePort?: number } | undefined;
  if (!socket || socket.remotePort !== target.port) return false;
  const address = socket.remoteAddress?.startsWith('::ffff:') ? socket.remoteAddress.slice(7) : socket.remoteAddress;
  return address === target.host;
}
