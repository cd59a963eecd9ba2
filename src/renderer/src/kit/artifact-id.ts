/** Reads an artifact id from "42", "#42" or a pasted web URL ending in /artifact/42/. */
export function artifactIdFrom(text: string): number | null {
  const trimmed = text.trim();
  const plain = /^#?(\d{1,12})$/.exec(trimmed);
  const fromUrl = /\/artifact\/(\d{1,12})\/?(?:[?#].*)?$/.exec(trimmed);
  const digits = plain?.[1] ?? fromUrl?.[1];
  if (digits === undefined) return null;
  const id = Number(digits);
  return id > 0 ? id : null;
}
