/**
 * The channels between the subtasks of this thread and those of one other
 * worker: every channel that crosses between the two, both directions. Two
 * kinds: `RemoteLink` (another thread of this process: shared memory and a
 * MessagePort) and `TcpLink` (another process, maybe on another host: one TCP
 * connection). The task manager creates the channels of each attempt on it.
 *
 * @example
 * ```ts
 * link.reset(attempt);               // forget the previous attempt's channels
 * const input = link.input(7);       // this worker consumes channel 7
 * const output = link.output(8);     // this worker produces channel 8
 * link.replayEarly();                // what the peer sent for this attempt before it was deployed here
 * ```
 */
import type { InputChannel, OutputChannel } from "./channel.ts";

export interface Link {
  /** The consumer end of plan channel `channel` for the current attempt (this worker consumes). */
  input(channel: number): InputChannel;
  /** The producer end of plan channel `channel` for the current attempt; `capacity` in messages (default `REMOTE_CHANNEL_CAPACITY`). */
  output(channel: number, capacity?: number): OutputChannel;
  /** Starts attempt `attempt`: forgets the channels of the previous one; its messages still on the way are dropped. */
  reset(attempt: number): void;
  /** Delivers what arrived for the current attempt before `reset`; call after creating its channels. */
  replayEarly(): void;
  /** Releases the link (its connection or port). */
  close(): void;
}
