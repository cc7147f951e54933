/**
 * Options of the REST server every `weir run` / `weir sql` job serves (Flink's
 * `RestOptions`; the token is Weir's).
 */
import { ConfigOptions } from "../config-option.ts";

const port = (n: number) => (n >= 0 && n <= 65_535 ? undefined : "a port from 0 to 65535");

/** `rest.port`: the next free port when taken; 0 picks any. */
export const REST_PORT = ConfigOptions.int("rest.port", "The port of the REST API and dashboard (the next free one when taken; 0: any free port).", 8081, { check: port });

/** `rest.address`: the address clients use; bound unless `rest.bind-address` is set. */
export const REST_ADDRESS = ConfigOptions.string("rest.address", "The address clients use to reach the REST server; the server binds it unless rest.bind-address is set.", "127.0.0.1");

/** `rest.bind-address`: unset binds `rest.address`. */
export const REST_BIND_ADDRESS = ConfigOptions.string(
  "rest.bind-address",
  "The address the REST server binds; unset: rest.address. Binding a non-loopback address requires rest.token.",
);

/** `rest.token`: the bearer token (Weir's). */
export const REST_TOKEN = ConfigOptions.string(
  "rest.token",
  "The bearer token REST calls must carry (Authorization: Bearer <token>), at least 8 characters; required to bind a non-loopback address; unset: the environment variable WEIR_WEB_TOKEN (Weir's option).",
  undefined,
  { check: (t) => (t.length >= 8 ? undefined : "at least 8 characters") },
);

/** `web.checkpoints.history`: how many recent checkpoints `/jobs/:jid/checkpoints` lists (Flink's `WebOptions`). */
export const WEB_CHECKPOINTS_HISTORY = ConfigOptions.int(
  "web.checkpoints.history",
  "How many of the most recent checkpoints (completed, failed or in progress) the REST API and dashboard list in a job's checkpoint history (at most 100 of each kind are kept).",
  10,
  { check: (n) => (n >= 0 ? undefined : "a count of 0 or more") },
);

/** `weir.rest.enabled`: whether `weir run` / `weir sql -f` serve the REST API at all (Weir's). */
export const REST_ENABLED = ConfigOptions.boolean(
  "weir.rest.enabled",
  "Whether weir run and weir sql -f/-e serve the REST API, the dashboard and /metrics while the job runs (--no-web: false).",
  true,
);

export const REST_OPTIONS = [REST_PORT, REST_ADDRESS, REST_BIND_ADDRESS, REST_TOKEN, REST_ENABLED, WEB_CHECKPOINTS_HISTORY] as const;
