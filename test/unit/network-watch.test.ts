/**
 * The network as main polls it: the watcher is told when the network goes and comes back,
 * and asked to connect again when the machine moves to another network (its addresses
 * change) while online, which leaves a socket half-open that only the heartbeat would
 * otherwise notice.
 */
import type { NetworkInterfaceInfo } from 'node:os';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addressSignature, watchNetwork, NETWORK_POLL_MS } from '../../src/main/app/network-watch';

const iface = (address: string, internal = false): NetworkInterfaceInfo =>
  ({
    address,
    netmask: '255.255.255.0',
    family: address.includes(':') ? 'IPv6' : 'IPv4',
    mac: '00:00:00:00:00:00',
    internal,
    cidr: null,
    ...(address.includes(':') ? { scopeid: 0 } : {}),
  }) as NetworkInterfaceInfo;

describe('the machine’s addresses', () => {
  it('leave loopback out and do not depend on the order they are listed in', () => {
    const a = addressSignature({
      lo: [iface('127.0.0.1', true)],
      wlan0: [iface('192.168.1.20'), iface('fe80::1')],
    });
    const b = addressSignature({ wlan0: [iface('fe80::1'), iface('192.168.1.20')] });
    expect(a).toBe(b);
    expect(a).not.toContain('127.0.0.1');
    expect(addressSignature({ wlan0: [iface('10.0.0.7')] })).not.toBe(a);
  });
});

describe('watchNetwork', () => {
  let timer: NodeJS.Timeout | undefined;
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    clearInterval(timer);
    vi.useRealTimers();
  });

  it('tells the network’s going and coming, and asks to reconnect after a move while online', () => {
    let online = true;
    let addresses = 'wlan0 IPv4 192.168.1.20';
    const told: string[] = [];
    timer = watchNetwork({
      isOnline: () => online,
      addresses: () => addresses,
      availability: (now) => told.push(now ? 'online' : 'offline'),
      moved: () => told.push('moved'),
    });
    expect(told).toEqual(['online']);
    vi.advanceTimersByTime(NETWORK_POLL_MS * 3);
    expect(told).toEqual(['online']);

    // Another network: new addresses, still online.
    addresses = 'wlan0 IPv4 10.0.0.7';
    vi.advanceTimersByTime(NETWORK_POLL_MS);
    expect(told).toEqual(['online', 'moved']);

    // Gone, then back somewhere else: told as availability, not as a move on top.
    online = false;
    addresses = '';
    vi.advanceTimersByTime(NETWORK_POLL_MS);
    online = true;
    addresses = 'eth0 IPv4 172.16.0.3';
    vi.advanceTimersByTime(NETWORK_POLL_MS);
    expect(told).toEqual(['online', 'moved', 'offline', 'online']);

    // Addresses that change while offline ask for nothing.
    online = false;
    vi.advanceTimersByTime(NETWORK_POLL_MS);
    addresses = 'eth0 IPv4 172.16.0.4';
    vi.advanceTimersByTime(NETWORK_POLL_MS);
    expect(told).toEqual(['online', 'moved', 'offline', 'online', 'offline']);
  });
});
