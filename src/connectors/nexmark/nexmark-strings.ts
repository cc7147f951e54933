/**
 * The text fields of Nexmark events. Random strings are slices of two fixed
 * pools (built once from a fixed seed) at offsets and lengths drawn from the
 * event's random numbers: the same distribution of lengths and characters as
 * the Nexmark generator's character-by-character strings, at a fraction of
 * the cost, so that generating an event stays cheap next to processing it.
 */
import { EventRandom } from "./event-random.ts";

const POOL_SIZE = 1 << 16;
/** Shortest random string. */
const MIN_STRING_LENGTH = 3;


/** Hot channels and how many cold ones there are. */
const HOT_CHANNELS = ["Google", "Facebook", "Baidu", "Apple"] as const;
const COLD_CHANNELS = 10_000;

/** Random streams of the fixed tables (apart from every event's stream 0 and 1). */
const WORDS_STREAM = 0x7e1;
const LETTERS_STREAM = 0x7e2;
const URL_STREAM = 0x7e3;

/**
 * A random string of `MIN_STRING_LENGTH` up to `maxLength − 1` characters, letters and
 * single spaces, trimmed.
 */
export function nextString(r: EventRandom, maxLength: number): string {
  const length = MIN_STRING_LENGTH + r.nextInt(maxLength - MIN_STRING_LENGTH);
  const at = r.nextInt(POOL_SIZE - length);
  return pools().words.slice(at, at + length).trim();
}

/** Exactly `length` letters a–z. */
export function nextLetters(r: EventRandom, length: number): string {
  const at = r.nextInt(POOL_SIZE - length);
  return pools().letters.slice(at, at + length);
}

/**
 * Padding such that `currentSize` plus its length is `desiredAverageSize` on average
 * (uniform within ±20 % of the missing size); empty when the event is already that big.
 */
export function nextExtra(r: EventRandom, currentSize: number, desiredAverageSize: number): string {
  if (currentSize >= desiredAverageSize) return "";
  const missing = desiredAverageSize - currentSize;
  const delta = Math.round(missing * 0.2);
  return nextLetters(r, missing - delta + (delta === 0 ? 0 : r.nextInt(2 * delta)));
}

/** A channel and its URL: half of the bids come from one of 4 hot channels, the others from 10 000 cold ones. */
export function nextChannel(r: EventRandom): { readonly channel: string; readonly url: string } {
  const table = channels();
  return r.nextInt(2) > 0 ? table.hot[r.nextInt(HOT_CHANNELS.length)]! : table.cold[r.nextInt(COLD_CHANNELS)]!;
}

interface Channel {
  readonly channel: string;
  readonly url: string;
}

let channelTable: { readonly hot: readonly Channel[]; readonly cold: readonly Channel[] } | null = null;
let poolTable: { readonly words: string; readonly letters: string } | null = null;

/**
 * The string pools, built on first use from a fixed seed (the same in every thread):
 * letters a–z with a space about one character in 13 (names, descriptions), and letters only (padding).
 */
function pools(): { readonly words: string; readonly letters: string } {
  return (poolTable ??= {
    words: pool(WORDS_STREAM, (r) => (r.nextInt(13) === 0 ? " " : letter(r))),
    letters: pool(LETTERS_STREAM, letter),
  });
}

/** The channel tables, built on first use from a fixed seed (the same in every thread). */
function channels(): { readonly hot: readonly Channel[]; readonly cold: readonly Channel[] } {
  if (channelTable) return channelTable;
  const r = new EventRandom(0);
  r.start(0, URL_STREAM);
  const hot = HOT_CHANNELS.map((channel) => ({ channel, url: baseUrl(r) }));
  const cold: Channel[] = [];
  for (let i = 0; i < COLD_CHANNELS; i++) {
    const url = baseUrl(r);
    cold.push({ channel: `channel-${i}`, url: r.nextInt(10) > 0 ? `${url}&channel_id=${i}` : url });
  }
  return (channelTable = { hot, cold });
}

function baseUrl(r: EventRandom): string {
  const part = () => nextString(r, 5).replaceAll(" ", "_");
  return `https://www.nexmark.com/${part()}/${part()}/${part()}/item.htm?query=1`;
}

function letter(r: EventRandom): string {
  return String.fromCharCode(97 + r.nextInt(26));
}

function pool(stream: number, char: (r: EventRandom) => string): string {
  const r = new EventRandom(0);
  r.start(0, stream);
  const chars: string[] = [];
  for (let i = 0; i < POOL_SIZE; i++) chars.push(char(r));
  return chars.join("");
}
