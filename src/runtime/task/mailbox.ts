/**
 * The task's mailbox: actions from outside the task's loop (checkpoint
 * triggers, notifications, cancellation) are queued here and run by the loop
 * between batches, so operator code never runs concurrently with itself.
 */
import { Fifo } from "../../util/fifo.ts";

/** An action the task loop runs between batches. */
export type Mail = () => void | Promise<void>;

export class Mailbox {
  private readonly mails = new Fifo<Mail>();

  /** @param onMail wakes the task loop */
  constructor(private readonly onMail: () => void) {}

  put(mail: Mail): void {
    this.mails.push(mail);
    this.onMail();
  }

  take(): Mail | undefined {
    return this.mails.shift();
  }

  get size(): number {
    return this.mails.size;
  }
}
