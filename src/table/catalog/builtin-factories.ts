/**
 * The option declarations of the built-in connectors (`filesystem`, `print`,
 * `blackhole`, `datagen`, `nexmark`, `kafka`, `upsert-kafka`, `postgres-cdc`, `jdbc`) and formats (`json`, `csv`, `debezium-json`, `canal-json`, `raw`), with
 * Flink's keys and defaults. Declarations only: the connectors themselves are
 * built by the planner from the validated options.
 */
import { option } from "../../config/config-option.ts";
import { type FactoryOptions, FactoryRegistry } from "./factory-options.ts";

const MB = 1024 * 1024;

/** `filesystem`: files under `path` in `format`; bounded, or continuous with `source.monitor-interval`. */
export const FILESYSTEM: FactoryOptions = {
  identifier: "filesystem",
  kind: "connector",
  requiredOptions: [
    option("path", { kind: "string" }, "The directory (or file) to read or write."),
    option("format", { kind: "string" }, "The format of the files: 'json', 'csv', 'debezium-json', 'canal-json' or 'raw'."),
  ],
  optionalOptions: [
    option("source.monitor-interval", { kind: "duration" }, "How often a continuous source looks for new files; unset for a bounded source."),
    option("sink.rolling-policy.file-size", { kind: "memory" }, "The maximum size of a part file before it rolls.", 128 * MB),
    option("sink.rolling-policy.rollover-interval", { kind: "duration" }, "The maximum time a part file stays open before it rolls.", 30 * 60_000),
    option("sink.rolling-policy.inactivity-interval", { kind: "duration" }, "A part file that received nothing for this long rolls.", 30 * 60_000),
    option("sink.rolling-policy.check-interval", { kind: "duration" }, "How often the time-based rolling conditions are checked.", 60_000),
    option("sink.parallelism", { kind: "int" }, "The parallelism of the sink; the input's parallelism when unset."),
    option("sink.shuffle-by-partition.enable", { kind: "boolean" }, "Distribute rows by partition; Weir always does.", false),
    option("partition.default-name", { kind: "string" }, "The directory name of a partition whose value is NULL or empty.", "__DEFAULT_PARTITION__"),
    option("sink.partition-commit.trigger", { kind: "enum", values: ["process-time", "partition-time"] }, "When a partition is committed.", "process-time"),
    option("sink.partition-commit.delay", { kind: "duration" }, "How long after its time (or creation) a partition is committed.", 0),
    option("sink.partition-commit.watermark-time-zone", { kind: "string" }, "The time zone of partition times compared with the watermark.", "UTC"),
    option("partition.time-extractor.timestamp-pattern", { kind: "string" }, "How a partition's time is made of its values, e.g. '$dt $hr:00:00'."),
    option("partition.time-extractor.timestamp-formatter", { kind: "string" }, "The Java date pattern of the extracted partition time, e.g. 'yyyyMMdd HH'."),
    option("sink.partition-commit.policy.kind", { kind: "string" }, "What committing a partition does: 'success-file'."),
    option("sink.partition-commit.success-file.name", { kind: "string" }, "The name of the success file of a committed partition.", "_SUCCESS"),
  ],
};

/** `print`: rows printed as `+I[Mary, 1]` lines. */
export const PRINT: FactoryOptions = {
  identifier: "print",
  kind: "connector",
  requiredOptions: [],
  optionalOptions: [
    option("print-identifier", { kind: "string" }, "A prefix for each printed line."),
    option("standard-error", { kind: "boolean" }, "Print to standard error instead of standard output.", false),
    option("sink.parallelism", { kind: "int" }, "The parallelism of the sink; the input's parallelism when unset."),
  ],
};

/** `blackhole`: a sink that discards every row. */
export const BLACKHOLE: FactoryOptions = { identifier: "blackhole", kind: "connector", requiredOptions: [], optionalOptions: [] };

/** `datagen`: generated rows, configured per field with `fields.<name>.…` keys. */
export const DATAGEN: FactoryOptions = {
  identifier: "datagen",
  kind: "connector",
  requiredOptions: [],
  optionalOptions: [
    option("rows-per-second", { kind: "int" }, "Rows generated per second.", 10_000),
    option("number-of-rows", { kind: "int" }, "The number of rows to generate; unbounded when unset."),
    option("seed", { kind: "int" }, "The seed of the random values, for the same rows on every run (Weir's; Flink has none)."),
    option("fields.#.kind", { kind: "enum", values: ["random", "sequence"] }, "The generator of the field.", "random"),
    option("fields.#.min", { kind: "string" }, "The minimum value of a random numeric field."),
    option("fields.#.max", { kind: "string" }, "The maximum value of a random numeric field."),
    option("fields.#.max-past", { kind: "duration" }, "The maximum past of a random timestamp field relative to now.", 0),
    option("fields.#.length", { kind: "int" }, "The length of a random string, bytes or collection field.", 100),
    option("fields.#.start", { kind: "string" }, "The first value of a sequence field."),
    option("fields.#.end", { kind: "string" }, "The last value of a sequence field."),
    option("fields.#.null-rate", { kind: "double" }, "The fraction of null values of the field.", 0),
  ],
};

/**
 * `nexmark`: the Nexmark benchmark's events (see docs/sql.md, "Nexmark"), with the option
 * keys and defaults of the nexmark project's table source.
 */
export const NEXMARK: FactoryOptions = {
  identifier: "nexmark",
  kind: "connector",
  requiredOptions: [],
  optionalOptions: [
    option("events.num", { kind: "int" }, "The number of events; 0 (the default): unbounded.", 0),
    option("first-event.rate", { kind: "int" }, "Events per second of event time.", 10_000),
    option("next-event.rate", { kind: "int" }, "Must equal 'first-event.rate' (the generator has one rate).", 10_000),
    option("rate.limited", { kind: "boolean" }, "Emit each event when due on the wall clock, at 'first-event.rate'; false: as fast as the job takes them.", false),
    option("person.proportion", { kind: "int" }, "Persons per person + auction + bid events.", 1),
    option("auction.proportion", { kind: "int" }, "Auctions per person + auction + bid events.", 3),
    option("bid.proportion", { kind: "int" }, "Bids per person + auction + bid events.", 46),
    option("person.avg-size", { kind: "memory" }, "The average size of a person (its 'extra' pads it).", 200),
    option("auction.avg-size", { kind: "memory" }, "The average size of an auction.", 500),
    option("bid.avg-size", { kind: "memory" }, "The average size of a bid.", 100),
    option("bid.hot-ratio.auctions", { kind: "int" }, "1 − 1/ratio of the bids go to the hot auction.", 2),
    option("bid.hot-ratio.bidders", { kind: "int" }, "1 − 1/ratio of the bids are made by the hot bidder.", 4),
    option("auction.hot-ratio.sellers", { kind: "int" }, "1 − 1/ratio of the auctions are opened by the hot seller.", 4),
    option("events.max-out-of-orderness", { kind: "duration" }, "Each event's time is moved back by a pseudo-random lag up to this (Weir's option).", 0),
    option("events.base-time", { kind: "string" }, "The event time of the first event, a TIMESTAMP text (Weir's option; default 2026-01-01 00:00:00)."),
    option("events.seed", { kind: "int" }, "The seed of the pseudo-random fields (Weir's option).", 0),
  ],
};

const startupModes = ["earliest-offset", "latest-offset", "group-offsets", "timestamp", "specific-offsets"] as const;
const boundedModes = ["unbounded", "latest-offset", "group-offsets", "timestamp", "specific-offsets"] as const;

const COMMON = [
  option("topic", { kind: "string" }, "The topic(s) to read or write, 'a;b' for several."),
  option("properties.*", { kind: "string" }, "A Kafka client property, passed through without the 'properties.' prefix."),
  option("key.format", { kind: "string" }, "The format of the message key."),
  option("key.fields-prefix", { kind: "string" }, "The prefix of the key columns' names, taken off for the key format.", ""),
  option("value.format", { kind: "string" }, "The format of the message value."),
  option("value.fields-include", { kind: "enum", values: ["ALL", "EXCEPT_KEY"] }, "Whether the value holds every physical column or all but the key's.", "ALL"),
  option("scan.bounded.mode", { kind: "enum", values: boundedModes }, "Where a bounded source stops.", "unbounded"),
  option("scan.bounded.timestamp-millis", { kind: "int" }, "The stop timestamp of 'scan.bounded.mode' = 'timestamp'."),
  option("scan.bounded.specific-offsets", { kind: "string" }, "The stop offsets of 'scan.bounded.mode' = 'specific-offsets': 'partition:0,offset:42;…'."),
  option("scan.topic-partition-discovery.interval", { kind: "duration" }, "How often new partitions are looked for; 0 disables.", 300_000),
  option("sink.parallelism", { kind: "int" }, "The parallelism of the sink; the input's parallelism when unset."),
  option("sink.delivery-guarantee", { kind: "enum", values: ["none", "at-least-once", "exactly-once"] }, "The sink's delivery guarantee.", "at-least-once"),
  option("sink.transactional-id-prefix", { kind: "string" }, "The prefix of the sink's transactional ids (required for exactly-once)."),
];

/** `kafka`: a topic as an append-only table (or a changelog with a changelog value format). */
export const KAFKA: FactoryOptions = {
  identifier: "kafka",
  kind: "connector",
  formatKeys: ["format", "key.format", "value.format"],
  requiredOptions: [option("properties.bootstrap.servers", { kind: "string" }, "The Kafka brokers, 'host:port,…'.")],
  optionalOptions: [
    ...COMMON,
    option("topic-pattern", { kind: "string" }, "A regular expression of the topics to read."),
    option("format", { kind: "string" }, "The format of the message value (or 'value.format')."),
    option("key.fields", { kind: "string" }, "The physical columns in the message key, 'a;b'."),
    option("scan.startup.mode", { kind: "enum", values: startupModes }, "Where the source starts.", "group-offsets"),
    option("scan.startup.timestamp-millis", { kind: "int" }, "The start timestamp of 'scan.startup.mode' = 'timestamp'."),
    option("scan.startup.specific-offsets", { kind: "string" }, "The start offsets of 'scan.startup.mode' = 'specific-offsets': 'partition:0,offset:42;…'."),
    option("scan.parallelism", { kind: "int" }, "The parallelism of the source; the job's when unset."),
    option("sink.partitioner", { kind: "string" }, "How rows are spread over partitions: 'default' (the key's hash) or 'round-robin'.", "default"),
  ],
};

/** `upsert-kafka`: a compacted topic as a table with a primary key (the message key). */
export const UPSERT_KAFKA: FactoryOptions = {
  identifier: "upsert-kafka",
  kind: "connector",
  formatKeys: ["key.format", "value.format"],
  requiredOptions: [option("properties.bootstrap.servers", { kind: "string" }, "The Kafka brokers, 'host:port,…'.")],
  optionalOptions: [...COMMON, option("scan.parallelism", { kind: "int" }, "The parallelism of the source; the job's when unset.")],
};

/** `postgres-cdc`: the changes of a PostgreSQL table (Flink CDC's options), from a logical replication slot with pgoutput. */
export const POSTGRES_CDC: FactoryOptions = {
  identifier: "postgres-cdc",
  kind: "connector",
  requiredOptions: [
    option("hostname", { kind: "string" }, "The PostgreSQL server's host."),
    option("username", { kind: "string" }, "The user (needs the REPLICATION attribute and SELECT on the table)."),
    option("password", { kind: "string" }, "The user's password."),
    option("database-name", { kind: "string" }, "The database of the table."),
    option("schema-name", { kind: "string" }, "The schema of the table."),
    option("table-name", { kind: "string" }, "The table (its exact name)."),
    option("slot.name", { kind: "string" }, "The logical replication slot of this source (lower-case letters, digits, '_'); created when missing."),
  ],
  optionalOptions: [
    option("port", { kind: "int" }, "The server's port.", 5432),
    option("decoding.plugin.name", { kind: "string" }, "The logical decoding plugin: only 'pgoutput' (Flink CDC's default is 'decoderbufs').", "pgoutput"),
    option("scan.startup.mode", { kind: "enum", values: ["initial", "latest-offset"] }, "'initial': a snapshot of the table, then its changes; 'latest-offset': only changes.", "initial"),
    option("changelog-mode", { kind: "enum", values: ["all", "upsert"] }, "'all': +I -U +U -D with before images (needs REPLICA IDENTITY FULL); 'upsert': changes by primary key, normalized in state.", "all"),
    option("scan.snapshot.fetch.size", { kind: "int" }, "Rows per query while reading the snapshot.", 1024),
    option("scan.incremental.snapshot.enabled", { kind: "boolean" }, "Flink CDC's parallel incremental snapshot: not supported (false).", false),
    option("connect.timeout", { kind: "duration" }, "How long connecting may take.", 30_000),
    option("debezium.*", { kind: "string" }, "Debezium properties: only 'debezium.publication.name' (default 'dbz_publication')."),
  ],
};

const timestampStandard = ["SQL", "ISO-8601"] as const;
const mapNullKeyModes = ["FAIL", "DROP", "LITERAL"] as const;

/** `json`: one JSON object per line. */
export const JSON_FORMAT: FactoryOptions = {
  identifier: "json",
  kind: "format",
  requiredOptions: [],
  optionalOptions: [
    option("fail-on-missing-field", { kind: "boolean" }, "Fail when a field is missing instead of reading NULL.", false),
    option("ignore-parse-errors", { kind: "boolean" }, "Skip lines that do not parse instead of failing.", false),
    option("timestamp-format.standard", { kind: "enum", values: timestampStandard }, "The text format of timestamps.", "SQL"),
    option("map-null-key.mode", { kind: "enum", values: mapNullKeyModes }, "What to do with a NULL map key when writing.", "FAIL"),
    option("map-null-key.literal", { kind: "string" }, "The key written for a NULL map key in LITERAL mode.", "null"),
    option("encode.decimal-as-plain-number", { kind: "boolean" }, "Write decimals without scientific notation.", false),
    option("encode.ignore-null-fields", { kind: "boolean" }, "Omit fields whose value is NULL when writing.", false),
  ],
};

/** `csv`: RFC 4180 lines. */
export const CSV_FORMAT: FactoryOptions = {
  identifier: "csv",
  kind: "format",
  requiredOptions: [],
  optionalOptions: [
    option("field-delimiter", { kind: "string" }, "The field delimiter character.", ","),
    option("disable-quote-character", { kind: "boolean" }, "Do not quote fields.", false),
    option("quote-character", { kind: "string" }, "The quote character.", '"'),
    option("allow-comments", { kind: "boolean" }, "Skip lines starting with '#'.", false),
    option("ignore-parse-errors", { kind: "boolean" }, "Skip lines that do not parse instead of failing.", false),
    option("array-element-delimiter", { kind: "string" }, "The delimiter of array elements.", ";"),
    option("escape-character", { kind: "string" }, "The escape character; none when unset."),
    option("null-literal", { kind: "string" }, "The text read and written as NULL; none when unset."),
    option("write-bigdecimal-in-scientific-notation", { kind: "boolean" }, "Write decimals in scientific notation.", true),
  ],
};

/** `debezium-json`: changelogs as Debezium's `op`/`before`/`after` JSON. */
export const DEBEZIUM_JSON_FORMAT: FactoryOptions = {
  identifier: "debezium-json",
  kind: "format",
  requiredOptions: [],
  optionalOptions: [
    option("schema-include", { kind: "boolean" }, "The records carry Debezium's schema envelope.", false),
    option("ignore-parse-errors", { kind: "boolean" }, "Skip lines that do not parse instead of failing.", false),
    option("timestamp-format.standard", { kind: "enum", values: timestampStandard }, "The text format of timestamps.", "SQL"),
    option("map-null-key.mode", { kind: "enum", values: mapNullKeyModes }, "What to do with a NULL map key when writing.", "FAIL"),
    option("map-null-key.literal", { kind: "string" }, "The key written for a NULL map key in LITERAL mode.", "null"),
    option("encode.decimal-as-plain-number", { kind: "boolean" }, "Write decimals without scientific notation.", false),
  ],
};

/** `canal-json`: changelogs as Canal's `data`/`old`/`type` JSON. */
export const CANAL_JSON_FORMAT: FactoryOptions = {
  identifier: "canal-json",
  kind: "format",
  requiredOptions: [],
  optionalOptions: [
    option("ignore-parse-errors", { kind: "boolean" }, "Skip lines that do not parse instead of failing.", false),
    option("timestamp-format.standard", { kind: "enum", values: timestampStandard }, "The text format of timestamps.", "SQL"),
    option("map-null-key.mode", { kind: "enum", values: mapNullKeyModes }, "What to do with a NULL map key when writing.", "FAIL"),
    option("map-null-key.literal", { kind: "string" }, "The key written for a NULL map key in LITERAL mode.", "null"),
    option("encode.decimal-as-plain-number", { kind: "boolean" }, "Write decimals without scientific notation.", false),
    option("database.include", { kind: "string" }, "Read only the messages whose 'database' matches this regular expression."),
    option("table.include", { kind: "string" }, "Read only the messages whose 'table' matches this regular expression."),
  ],
};

/** `raw`: a single STRING or BYTES column holding the whole record. */
export const RAW_FORMAT: FactoryOptions = {
  identifier: "raw",
  kind: "format",
  requiredOptions: [],
  optionalOptions: [
    option("charset", { kind: "string" }, "The charset of the text.", "UTF-8"),
    option("endianness", { kind: "enum", values: ["big-endian", "little-endian"] }, "The byte order of numeric values.", "big-endian"),
  ],
};

/** `jdbc`: a PostgreSQL table (Flink's JDBC SQL connector): a bounded scan, a lookup table, a sink. */
export const JDBC: FactoryOptions = {
  identifier: "jdbc",
  kind: "connector",
  requiredOptions: [
    option("url", { kind: "string" }, "The JDBC URL of the database, 'jdbc:postgresql://host:port/database'."),
    option("table-name", { kind: "string" }, "The PostgreSQL table, 'name' or 'schema.name'."),
  ],
  optionalOptions: [
    option("driver", { kind: "string" }, "The JDBC driver class; only 'org.postgresql.Driver' (PostgreSQL) is supported."),
    option("username", { kind: "string" }, "The user to log in as (else the URL's 'user', else 'postgres')."),
    option("password", { kind: "string" }, "The user's password (else the URL's 'password')."),
    option("connection.max-retry-timeout", { kind: "duration" }, "How long a connection attempt may take.", 60_000),
    option("scan.fetch-size", { kind: "int" }, "Rows the scan fetches per round trip; 0: 1000.", 0),
    option("scan.auto-commit", { kind: "boolean" }, "Accepted for Flink compatibility; the scan always reads in one read-only transaction.", true),
    option("scan.partition.column", { kind: "string" }, "An integer column that splits the scan into 'scan.partition.num' ranges read in parallel."),
    option("scan.partition.num", { kind: "int" }, "The number of ranges of a partitioned scan."),
    option("scan.partition.lower-bound", { kind: "int" }, "The smallest value of the first range of a partitioned scan."),
    option("scan.partition.upper-bound", { kind: "int" }, "The largest value of the last range of a partitioned scan."),
    option("lookup.cache", { kind: "enum", values: ["NONE", "PARTIAL", "FULL"] }, "The lookup cache: 'NONE' or 'PARTIAL' ('FULL' is not supported).", "NONE"),
    option("lookup.partial-cache.max-rows", { kind: "int" }, "The most lookup keys the PARTIAL cache keeps (least recently used go first)."),
    option("lookup.partial-cache.expire-after-write", { kind: "duration" }, "A cached key expires this long after it was looked up."),
    option("lookup.partial-cache.expire-after-access", { kind: "duration" }, "A cached key expires this long after it was last used."),
    option("lookup.partial-cache.cache-missing-key", { kind: "boolean" }, "Cache that a key has no row.", true),
    option("lookup.cache.max-rows", { kind: "int" }, "Deprecated (Flink): 'lookup.cache' = 'PARTIAL' with 'lookup.partial-cache.max-rows'."),
    option("lookup.cache.ttl", { kind: "duration" }, "Deprecated (Flink): 'lookup.partial-cache.expire-after-write'."),
    option("lookup.cache.caching-missing-key", { kind: "boolean" }, "Deprecated (Flink): 'lookup.partial-cache.cache-missing-key'.", true),
    option("lookup.max-retries", { kind: "int" }, "Retries of a failed lookup (after a lost connection: reconnects).", 3),
    option("sink.buffer-flush.max-rows", { kind: "int" }, "Rows buffered before a flush; 0: no row limit.", 100),
    option("sink.buffer-flush.interval", { kind: "duration" }, "The longest time rows wait in the buffer; 0: flush by rows and at checkpoints only.", 1000),
    option("sink.max-retries", { kind: "int" }, "Retries of a failed flush.", 3),
    option("sink.parallelism", { kind: "int" }, "The parallelism of the sink; the input's parallelism when unset."),
    option("sink.delivery-guarantee", { kind: "enum", values: ["none", "at-least-once", "exactly-once"] }, "The sink's delivery guarantee (Weir's option; exactly-once prepares a transaction per checkpoint).", "at-least-once"),
    option("sink.transactional-id-prefix", { kind: "string" }, "The prefix of the exactly-once sink's prepared transaction ids; unique to the job."),
  ],
};

/**
 * A registry with every built-in connector and format.
 *
 * @example
 * ```ts
 * builtinFactories().validate(catalogTable.options).format?.identifier; // "json"
 * ```
 */
export function builtinFactories(): FactoryRegistry {
  const registry = new FactoryRegistry();
  for (const f of [FILESYSTEM, PRINT, BLACKHOLE, DATAGEN, NEXMARK, KAFKA, UPSERT_KAFKA, POSTGRES_CDC, JSON_FORMAT, CSV_FORMAT, DEBEZIUM_JSON_FORMAT, CANAL_JSON_FORMAT, RAW_FORMAT, JDBC]) registry.register(f);
  return registry;
}
