/**
 * Package-List as python-debian splits it, which is how the Debusine client and dput-ng
 * send a .dsc's fields: the integration test dput-compare.test.ts compares the whole
 * artifacts with dput-ng's on a real server; this pins the splitting itself.
 */
import { describe, expect, it } from 'vitest';
import { parseControlFileText } from '../../src/main/artifacts/local/debian-files';

const DSC = (packageList: string) => `Format: 1.0
Source: hello
Version: 1.0
Package-List:${packageList}
Files:
 0123456789abcdef0123456789abcdef 10 hello_1.0.tar.xz
`;

describe('Package-List', () => {
  it('is one object per line, the last column taking the rest of the line', () => {
    const { fields } = parseControlFileText(
      'dsc',
      DSC(
        '\n hello deb misc optional arch=any profile=!nocheck\n hello-doc deb doc optional arch=all',
      ),
      'hello_1.0.dsc',
    );
    expect(fields['Package-List']).toEqual([
      {
        package: 'hello',
        'package-type': 'deb',
        section: 'misc',
        priority: 'optional',
        _other: 'arch=any profile=!nocheck',
      },
      {
        package: 'hello-doc',
        'package-type': 'deb',
        section: 'doc',
        priority: 'optional',
        _other: 'arch=all',
      },
    ]);
  });

  it('is one object on one line, and a short line names only its columns', () => {
    const { fields } = parseControlFileText('dsc', DSC(' hello deb'), 'hello_1.0.dsc');
    expect(fields['Package-List']).toEqual({ package: 'hello', 'package-type': 'deb' });
  });
});
