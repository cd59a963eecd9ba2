/**
 * The one reading of a web address from text others wrote: the log viewer's links, a
 * pasted or deep-linked server's origin. Only http and https with a host are addresses.
 */
import { describe, expect, it } from 'vitest';
import { webAddress } from '../../src/shared/web-address';

describe('webAddress', () => {
  it.each([
    'javascript:alert(1)',
    'file:///etc/passwd',
    'data:text/html,<script>alert(1)</script>',
    'ftp://ftp.debian.org/debian',
    'debusine-desktop://log/1',
    'not an address',
    '',
  ])('refuses %j', (text) => {
    expect(webAddress(text)).toBeNull();
  });

  it('reads http and https, as URL normalises them', () => {
    expect(webAddress('HTTPS://Debusine.Debian.NET/debian/')?.href).toBe(
      'https://debusine.debian.net/debian/',
    );
    expect(webAddress('http://127.0.0.1:18016')?.origin).toBe('http://127.0.0.1:18016');
  });
});
