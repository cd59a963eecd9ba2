/**
 * Just enough of an FTP client (RFC 959, passive mode, anonymous) to check the current
 * sandbox's upload queue: store a file, try to list and fetch. Node has no FTP client and
 * the project needs none outside this check.
 */
import { connect, type Socket } from 'node:net';

export interface FtpReply {
  code: number;
  text: string;
}

export interface FtpTransfer {
  /** The last reply: 226 when the transfer went through, 5xx when it was refused. */
  reply: FtpReply;
  data: Buffer;
}

export class FtpSession {
  readonly #control: Socket;
  readonly #host: string;
  #buffer = '';
  #pending: string[] = [];
  readonly #replies: FtpReply[] = [];
  readonly #waiters: ((reply: FtpReply) => void)[] = [];

  private constructor(control: Socket, host: string) {
    this.#control = control;
    this.#host = host;
    control.setEncoding('utf8');
    // A broken connection leaves the pending reply unanswered: the test's timeout reports it.
    control.on('error', () => control.destroy());
    control.on('data', (chunk: string) => {
      this.#read(chunk);
    });
  }

  /** Connects and logs in as `anonymous`. */
  static async open(url: string): Promise<FtpSession> {
    const { hostname, port } = new URL(url);
    const control = connect({ host: hostname, port: Number(port || 21) });
    await new Promise<void>((resolve, reject) => {
      control.once('connect', resolve).once('error', reject);
    });
    const session = new FtpSession(control, hostname);
    await session.expect(session.reply(), 220);
    const user = await session.command('USER anonymous');
    if (user.code === 331) await session.expect(session.command('PASS anonymous@'), 230);
    else if (user.code !== 230) throw new Error(`FTP login refused: ${user.text}`);
    await session.expect(session.command('TYPE I'), 200);
    return session;
  }

  command(line: string): Promise<FtpReply> {
    this.#control.write(`${line}\r\n`);
    return this.reply();
  }

  reply(): Promise<FtpReply> {
    const ready = this.#replies.shift();
    if (ready) return Promise.resolve(ready);
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  async expect(reply: Promise<FtpReply>, code: number): Promise<FtpReply> {
    const got = await reply;
    if (got.code !== code) throw new Error(`FTP: expected ${String(code)}, got ${got.text}`);
    return got;
  }

  /** STOR: sends `body` as the file `name` in the current directory. */
  store(name: string, body: Buffer): Promise<FtpTransfer> {
    return this.#transfer(`STOR ${name}`, body);
  }

  /** LIST or RETR: what comes back on the data connection. */
  fetch(command: string): Promise<FtpTransfer> {
    return this.#transfer(command);
  }

  async close(): Promise<void> {
    await this.command('QUIT').catch(() => undefined);
    this.#control.destroy();
  }

  async #transfer(command: string, body?: Buffer): Promise<FtpTransfer> {
    const pasv = await this.expect(this.command('PASV'), 227);
    const numbers = /\((\d+),(\d+),(\d+),(\d+),(\d+),(\d+)\)/.exec(pasv.text);
    if (!numbers) throw new Error(`FTP: unreadable PASV reply ${pasv.text}`);
    const port = Number(numbers[5]) * 256 + Number(numbers[6]);
    const data = connect({ host: this.#host, port });
    data.on('error', () => data.destroy());
    const received: Buffer[] = [];
    data.on('data', (chunk: Buffer) => received.push(chunk));
    const closed = new Promise<void>((resolve) =>
      data.once('close', () => {
        resolve();
      }),
    );
    await new Promise<void>((resolve, reject) => {
      data.once('connect', resolve).once('close', () => {
        reject(new Error('FTP: no data connection'));
      });
    });
    const first = await this.command(command);
    // 125/150: the transfer starts; anything else refuses it, and the data connection is
    // of no further use.
    if (first.code !== 125 && first.code !== 150) {
      data.destroy();
      return { reply: first, data: Buffer.alloc(0) };
    }
    if (body) data.end(body);
    await closed;
    return { reply: await this.reply(), data: Buffer.concat(received) };
  }

  /** Splits the control stream into replies; a multi-line one ends at "CODE text". */
  #read(chunk: string): void {
    this.#buffer += chunk;
    let end: number;
    while ((end = this.#buffer.indexOf('\r\n')) >= 0) {
      const line = this.#buffer.slice(0, end);
      this.#buffer = this.#buffer.slice(end + 2);
      this.#pending.push(line);
      const code = this.#pending[0]?.slice(0, 3) ?? '';
      const multi = this.#pending[0]?.[3] === '-';
      if (multi ? line.startsWith(`${code} `) : /^\d{3}( |$)/.test(line)) {
        const reply = { code: Number(code), text: this.#pending.join('\n') };
        this.#pending = [];
        const waiter = this.#waiters.shift();
        if (waiter) waiter(reply);
        else this.#replies.push(reply);
      }
    }
  }
}
