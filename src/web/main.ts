/**
 * The dashboard's entry (bundled by scripts/web-bundle.mjs into
 * `<dist>/web/dashboard.js` and `dashboard.css`, served by the job's REST
 * server at `/`): the styles, and every element of the page registered under
 * its tag (index.html holds `<weir-dashboard>`).
 *
 * @example
 * ```ts
 * // index.html: <weir-dashboard></weir-dashboard><script defer src="dashboard.js"></script>
 * ```
 */
import "uplot/dist/uPlot.min.css";
import "./dashboard.css";
import { CheckpointDetails } from "./checkpoint-details.ts";
import { CheckpointsView } from "./checkpoints-view.ts";
import { DashboardApp } from "./dashboard-app.ts";
import { ExceptionsView } from "./exceptions-view.ts";
import { JobActions } from "./job-actions.ts";
import { JobConfigView } from "./job-config-view.ts";
import { JobGraph } from "./job-graph.ts";
import { JobList } from "./job-list.ts";
import { JobPage } from "./job-page.ts";
import { ThroughputChart } from "./throughput-chart.ts";

const ELEMENTS: Record<string, CustomElementConstructor> = {
  "weir-dashboard": DashboardApp,
  "weir-job-list": JobList,
  "weir-job-page": JobPage,
  "weir-job-actions": JobActions,
  "weir-job-graph": JobGraph,
  "weir-throughput-chart": ThroughputChart,
  "weir-checkpoints": CheckpointsView,
  "weir-checkpoint-details": CheckpointDetails,
  "weir-exceptions": ExceptionsView,
  "weir-job-config": JobConfigView,
};
for (const [tag, element] of Object.entries(ELEMENTS)) customElements.define(tag, element);
