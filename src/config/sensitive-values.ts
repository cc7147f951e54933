/**
 * Values that must not be shown (Flink's `GlobalConfiguration.isSensitive` and
 * `ConfigurationUtils.hideSensitiveValues`): a key naming a password, secret or
 * token, e.g. `rest.token`, is shown as `******` by the REST API.
 */

/** What a hidden value shows (Flink's `HIDDEN_CONTENT`). */
export const HIDDEN_CONTENT = "******";

const SENSITIVE = ["password", "secret", "token", "apikey", "auth-params", "service-key", "basic-auth", "jaas.config", "http-headers"];

/** Whether the value of `key` is sensitive (case-insensitive, as Flink's list). */
export function isSensitiveKey(key: string): boolean {
  const k = key.toLowerCase();
  return SENSITIVE.some((word) => k.includes(word));
}

/**
 * `map` with every sensitive value replaced by {@link HIDDEN_CONTENT}.
 *
 * @example
 * ```ts
 * hideSensitiveValues({ "rest.token": "s3cr3t-token", "rest.port": "8081" }); // { "rest.token": "******", "rest.port": "8081" }
 * ```
 */
export function hideSensitiveValues(map: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(map).map(([k, v]) => [k, isSensitiveKey(k) ? HIDDEN_CONTENT : v]));
}
