/**
 * A cluster job manager's job submission, in Flink's shapes: `POST /jars/upload`
 * (the raw bundle as `application/octet-stream`, its name in `x-weir-filename`),
 * `GET /jars`, and `POST /jars/:jarid/run` → `{ "jobid": … }`.
 */
import type { StoredJar } from "../../cluster/jar-store.ts";
import { RestError } from "../rest-error.ts";
import { ok, type Router } from "../router.ts";

/** Flink's run request (`JarRunRequestBody`, the fields Weir takes). */
export interface JarRunRequest {
  readonly programArgsList?: readonly string[];
  readonly parallelism?: number;
  readonly savepointPath?: string;
  readonly allowNonRestoredState?: boolean;
  readonly flinkConfiguration?: Readonly<Record<string, string>>;
}

/** What the handlers call: the job manager's bundle store and job submission. */
export interface JarService {
  /** Where the bundles are (Flink's `address` of `/jars`). */
  readonly address: string;
  upload(bytes: Uint8Array, filename: string): Promise<StoredJar>;
  list(): StoredJar[];
  /** Runs bundle `jarId`; resolves with the job id. Rejects with a `RestError` (404: no such bundle). */
  run(jarId: string, request: JarRunRequest): Promise<string>;
}

/** Adds the routes of job submission to `router`. */
export function jarRoutes(router: Router, jars: JarService): void {
  router
    .post("/jars/upload", async ({ body, headers }) => {
      if (!Buffer.isBuffer(body) || body.length === 0) throw new RestError(400, "upload the job bundle as the request body, with Content-Type: application/octet-stream");
      const name = headers["x-weir-filename"];
      if (typeof name !== "string" || name === "") throw new RestError(400, "name the bundle in the x-weir-filename header (<name>.mjs or <name>.sql)");
      let jar: StoredJar;
      try {
        jar = await jars.upload(body, name);
      } catch (e) {
        throw new RestError(400, (e as Error).message);
      }
      return ok({ filename: jar.id, status: "success" });
    })
    .get("/jars", () =>
      ok({ address: jars.address, files: jars.list().map((j) => ({ id: j.id, name: j.name, uploaded: Math.round(j.uploaded), entry: [] })) }),
    )
    .post("/jars/:jarid/run", async ({ params, body }) => ok({ jobid: await jars.run(params["jarid"]!, runRequestOf(body)) }));
}

/** The run request in `body`, checked; a 400 when a field has the wrong type. */
function runRequestOf(body: unknown): JarRunRequest {
  if (body === undefined) return {};
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new RestError(400, "the run request must be a JSON object");
  const b = body as Record<string, unknown>;
  const check = (field: string, ok: boolean, what: string) => {
    if (b[field] !== undefined && b[field] !== null && !ok) throw new RestError(400, `${field} must be ${what}`);
  };
  check("programArgsList", Array.isArray(b["programArgsList"]) && (b["programArgsList"] as unknown[]).every((a) => typeof a === "string"), "an array of strings");
  check("parallelism", Number.isInteger(b["parallelism"]) && (b["parallelism"] as number) > 0, "a positive integer");
  check("savepointPath", typeof b["savepointPath"] === "string", "a string");
  check("allowNonRestoredState", typeof b["allowNonRestoredState"] === "boolean", "a boolean");
  const conf = b["flinkConfiguration"];
  check("flinkConfiguration", typeof conf === "object" && !Array.isArray(conf) && Object.values(conf as object).every((v) => typeof v === "string"), "an object of strings");
  const value = <T>(k: string) => (b[k] === null ? undefined : (b[k] as T | undefined));
  return {
    programArgsList: value("programArgsList"),
    parallelism: value("parallelism"),
    savepointPath: value("savepointPath"),
    allowNonRestoredState: value("allowNonRestoredState"),
    flinkConfiguration: value("flinkConfiguration"),
  };
}
