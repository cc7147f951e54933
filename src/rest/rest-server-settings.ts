/**
 * Where and how the REST server of `weir run` / `weir sql -f` listens, read
 * from the configuration (`rest.port`, `rest.address`, `rest.bind-address`,
 * `rest.token`, `weir.rest.enabled`; the flags `--web-*` are shorthands of
 * them), with the security check: a non-loopback address needs a token.
 */
import type { Configuration } from "../config/configuration.ts";
import { REST_ADDRESS, REST_BIND_ADDRESS, REST_ENABLED, REST_PORT, REST_TOKEN } from "../config/options/rest-options.ts";
import { isLoopbackAddress } from "./request-security.ts";

/** The REST server's settings, checked. */
export interface RestServerSettings {
  /** The address to bind (`rest.bind-address`, else `rest.address`). */
  readonly host: string;
  /** `rest.port`: the next free port when taken; 0 any. */
  readonly port: number;
  /** `rest.token`, else WEIR_WEB_TOKEN. */
  readonly token?: string;
}

/** Settings that would serve the REST API insecurely (or a bad WEIR_WEB_TOKEN); the message names the keys. */
export class RestSettingsError extends Error {
  override readonly name = "RestSettingsError";
}

/** Environment variable read when `rest.token` is not set. */
export const TOKEN_VARIABLE = "WEIR_WEB_TOKEN";

/**
 * The REST server's settings in `configuration`, or `undefined` when `weir.rest.enabled` is false.
 *
 * @throws {RestSettingsError} for a non-loopback address without a token, or a WEIR_WEB_TOKEN shorter than 8 characters.
 * @example
 * ```ts
 * restServerSettings(new Configuration().setString("rest.port", "9000")); // { host: "127.0.0.1", port: 9000, token: undefined }
 * restServerSettings(new Configuration().setString("rest.address", "0.0.0.0")); // throws RestSettingsError
 * ```
 */
export function restServerSettings(configuration: Configuration, env: NodeJS.ProcessEnv = process.env): RestServerSettings | undefined {
  if (!configuration.get(REST_ENABLED)) return undefined;
  const bindKey = configuration.contains(REST_BIND_ADDRESS) ? REST_BIND_ADDRESS.key : REST_ADDRESS.key;
  const host = configuration.get(REST_BIND_ADDRESS) ?? configuration.get(REST_ADDRESS);
  const fromEnv = env[TOKEN_VARIABLE] || undefined;
  const token = configuration.get(REST_TOKEN) ?? fromEnv;
  if (token !== undefined && token.length < 8) throw new RestSettingsError(`${TOKEN_VARIABLE} must have at least 8 characters`);
  if (!isLoopbackAddress(host) && token === undefined)
    throw new RestSettingsError(
      `${bindKey} ${host} is reachable from other machines: give a token that every call must carry (rest.token: --web-token T, -D rest.token=T or ${TOKEN_VARIABLE}), or bind 127.0.0.1`,
    );
  return { host, port: configuration.get(REST_PORT), token };
}
