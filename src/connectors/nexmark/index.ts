/** The Nexmark benchmark's event stream as a source (see docs/connectors.md). */
export { NexmarkSource } from "./nexmark-source.ts";
export { NexmarkGenerator } from "./nexmark-generator.ts";
export { NexmarkOptionError } from "./nexmark-option-error.ts";
export { NEXMARK_DEFAULT_BASE_TIME, type NexmarkOptions } from "./nexmark-options.ts";
export type { NexmarkSplit } from "./nexmark-split.ts";
export {
  NexmarkEventType,
  nexmarkEventTime,
  type Auction,
  type AuctionEvent,
  type Bid,
  type BidEvent,
  type NexmarkEvent,
  type Person,
  type PersonEvent,
} from "./nexmark-event.ts";
