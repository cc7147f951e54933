/** Answers about asynchronous operations: triggering a savepoint or a stop, and asking how it went. */
import { closed, hexId, oneOfText, text, type Schema } from "./shape.ts";

/** `POST /jobs/:jid/savepoints` and `POST /jobs/:jid/stop`: the id to ask about the operation with. */
export const triggered: Schema = closed({ "request-id": hexId });

/** A Java exception as Flink writes it: its class, its stack trace, and the serialized object (base64). */
const failureCause: Schema = closed({ class: text, "stack-trace": text, "serialized-throwable": text }, ["serialized-throwable"]);

/**
 * `GET /jobs/:jid/savepoints/:rid`: the operation's status; once `COMPLETED`, the `operation` holds
 * either where the savepoint was written or why it failed.
 */
export const operationStatus: Schema = {
  ...closed({ status: closed({ id: oneOfText("IN_PROGRESS", "COMPLETED") }), operation: closed({ location: text, "failure-cause": failureCause }, ["location", "failure-cause"]) }, ["operation"]),
  if: { properties: { status: { properties: { id: { const: "COMPLETED" } } } } },
  then: { required: ["operation"], properties: { operation: { oneOf: [{ required: ["location"] }, { required: ["failure-cause"] }] } } },
  else: { not: { required: ["operation"] } },
};
