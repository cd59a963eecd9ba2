/**
 * The nonce and the human-readable challenge of an enrollment. The challenge only lets the
 * user check that the confirmation page belongs to this request, so a short list of plain
 * words is enough; it must match the server's `^\w{4,10}( \w{4,10}){2,7}$`.
 */
import { randomBytes, randomInt } from 'node:crypto';

export const NONCE_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;
export const CHALLENGE_PATTERN = /^\w{4,10}( \w{4,10}){2,7}$/;
export const ENROLLED_TOKEN_PATTERN = /^[A-Za-z0-9]{8,64}$/;

// Easy to read aloud and to compare at a glance; 5 to 8 ASCII letters like xkcdpass's.
const WORDS = `
acorn amber anchor apple arrow aspen badge bakery balloon bamboo banjo barley basket beacon
beetle berry biscuit blanket blossom bottle bramble breeze bridge bright bucket butter cabin
cactus camera candle canyon carpet castle cedar cherry chess cider circle clover cobalt
comet copper coral cotton cradle crayon cricket crystal daisy dancer delta desert dolphin
dragon drizzle eagle easel ember engine falcon feather fennel fiddle forest fossil fountain
garden garnet ginger glacier goblet granite gravel harbor harvest hazel helmet heron honey
icicle island ivory jasmine jigsaw jungle kayak kettle kiwi ladder lantern lemon lilac
linen lizard lobster magnet mango maple marble meadow melon meteor mirror mitten monkey
mosaic muffin nectar needle nickel nutmeg oasis olive onion orbit orchid otter paddle
panda parrot pebble pepper pillow pirate planet plum pocket poppy potato puzzle quartz
quill rabbit radish rainbow raven ribbon river rocket saddle salmon sandal satin shadow
silver sketch sparrow spider spruce squash summit sunset swallow tablet thistle thunder
tiger timber tomato topaz tractor trumpet tulip tunnel turtle umbrella valley velvet
violet walnut walrus willow window winter wizard yarrow zebra zephyr
`
  .trim()
  .split(/\s+/);

/** 16 random bytes, URL-safe base64 (22 characters), like `secrets.token_urlsafe(16)`. */
export function makeNonce(): string {
  return randomBytes(16).toString('base64url');
}

export function makeChallenge(words = 4): string {
  const picked: string[] = [];
  for (let i = 0; i < words; i++) picked.push(WORDS[randomInt(WORDS.length)] ?? 'debusine');
  return picked.join(' ');
}
