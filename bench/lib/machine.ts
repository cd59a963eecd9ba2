import { execFileSync } from 'node:child_process';
import { cpus, release, totalmem } from 'node:os';

export interface MachineInfo {
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  kernel: string;
  node: string;
  openssl: string;
  curl: string;
  date: string;
}

function firstLine(command: string, args: string[]): string {
  try {
    return execFileSync(command, args, { encoding: 'utf8' }).split('\n')[0]?.trim() ?? '';
  } catch {
    return 'not installed';
  }
}

export function machineInfo(): MachineInfo {
  return {
    cpuModel: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    kernel: release(),
    node: process.version,
    openssl: firstLine('openssl', ['version']),
    curl: firstLine('curl', ['--version']),
    date: new Date().toISOString(),
  };
}
