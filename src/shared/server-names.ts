/**
 * Server profile names that read alike, and the host that tells servers apart. A server's
 * name is how the user recognises it in the top bar, the switcher and a link's answer; a
 * profile named "dеbusine.example" (with a Cyrillic е) beside "debusine.example" would be
 * taken for it. So names that read the same are refused, and wherever a server is named,
 * its host is shown beside the name, in punycode where it is not ASCII (what `new URL`
 * gives), which no look-alike letter survives.
 */

/**
 * Letters of other scripts that look like a Latin one, and that Latin letter. Both cases,
 * as they are written before case folding: Greek Η looks like H, but its η like n. Drawn
 * from Unicode's confusables (UTS #39) for the Cyrillic and Greek letters, and the few
 * Latin ones (dotless ı, script ɑ and ɡ), that a name could be written with.
 */
const LOOK_ALIKES: Readonly<Record<string, string>> = {
  // Cyrillic
  А: 'A',
  а: 'a',
  В: 'B',
  Е: 'E',
  е: 'e',
  Ё: 'Ë',
  ё: 'ë',
  З: '3',
  І: 'I',
  і: 'i',
  Ї: 'Ï',
  ї: 'ï',
  Ј: 'J',
  ј: 'j',
  К: 'K',
  к: 'k',
  М: 'M',
  Н: 'H',
  О: 'O',
  о: 'o',
  Р: 'P',
  р: 'p',
  С: 'C',
  с: 'c',
  Т: 'T',
  У: 'Y',
  у: 'y',
  Х: 'X',
  х: 'x',
  Ѕ: 'S',
  ѕ: 's',
  Ԁ: 'D',
  ԁ: 'd',
  Һ: 'H',
  һ: 'h',
  Ӏ: 'I',
  ӏ: 'l',
  Ԛ: 'Q',
  ԛ: 'q',
  Ԝ: 'W',
  ԝ: 'w',
  Ү: 'Y',
  ү: 'y',
  // Greek
  Α: 'A',
  α: 'a',
  Β: 'B',
  Ε: 'E',
  Ζ: 'Z',
  Η: 'H',
  η: 'n',
  Ι: 'I',
  ι: 'i',
  Κ: 'K',
  κ: 'k',
  Μ: 'M',
  Ν: 'N',
  ν: 'v',
  Ο: 'O',
  ο: 'o',
  Ρ: 'P',
  ρ: 'p',
  Τ: 'T',
  Υ: 'Y',
  υ: 'u',
  Χ: 'X',
  χ: 'x',
  ϲ: 'c',
  Ϲ: 'C',
  ϳ: 'j',
  // Latin
  ı: 'i',
  ɑ: 'a',
  ɡ: 'g',
};

/**
 * What a name reads as: compatibility forms folded (NFKC: fullwidth ｄ is d), look-alike
 * letters made Latin, case folded, characters that show nothing dropped, and spaces
 * collapsed. Two names with the same skeleton read the same.
 */
export function nameSkeleton(name: string): string {
  // Letter by letter: every look-alike is a single code point of the BMP.
  const folded = name.normalize('NFKC').replace(/[^\p{ASCII}]/gu, (c) => LOOK_ALIKES[c] ?? c);
  return folded
    .toLowerCase()
    .normalize('NFKC')
    .replace(/[\p{Cf}\p{Cc}]/gu, '')
    .replace(/\s+/gu, ' ')
    .trim();
}

/** Whether two server names read the same (nameSkeleton), identical ones included. */
export function namesReadAlike(a: string, b: string): boolean {
  return nameSkeleton(a) === nameSkeleton(b);
}

/**
 * The host of a server's API URL (with its port, when it has one), in punycode where it is
 * not ASCII; the text as it is when it is no URL.
 */
export function serverHost(apiUrl: string): string {
  try {
    return new URL(apiUrl).host;
  } catch {
    return apiUrl;
  }
}

/**
 * The host to show beside a server's name, or undefined where the name is that host
 * already (a profile named after its server, as first start names it): the same text twice
 * tells the user nothing more. A name that only reads like its host still gets it.
 */
export function hostBeside(name: string, apiUrl: string): string | undefined {
  const host = serverHost(apiUrl);
  return name.trim().toLowerCase() === host.toLowerCase() ? undefined : host;
}
