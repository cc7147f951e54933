/**
 * Where each vertex of a job graph goes on the page: a layered (Sugiyama)
 * layout from left to right computed by dagre, with the edges' bend points.
 * The dashboard draws the boxes and arrows itself from these positions.
 *
 * @example
 * ```ts
 * const layout = layoutGraph(
 *   [{ id: "a", width: 280, height: 120 }, { id: "b", width: 280, height: 120 }],
 *   [{ from: "a", to: "b", label: "HASH" }],
 * );
 * layout.nodes[1].x; // left edge of "b", right of "a"
 * ```
 */
import dagre from "@dagrejs/dagre";

/** A box to place. */
export interface GraphBox {
  readonly id: string;
  readonly width: number;
  readonly height: number;
}

/** An edge between two boxes, with its label (how records are shipped). */
export interface GraphArrow {
  readonly from: string;
  readonly to: string;
  readonly label: string;
}

/** A placed box: `x`, `y` its top-left corner. */
export interface PlacedBox extends GraphBox {
  readonly x: number;
  readonly y: number;
}

/** A routed edge: the points of its polyline, and where its label goes. */
export interface RoutedArrow extends GraphArrow {
  readonly points: readonly { readonly x: number; readonly y: number }[];
  readonly labelAt: { readonly x: number; readonly y: number };
}

/** The whole drawing: its size and every box and edge. */
export interface GraphLayout {
  readonly width: number;
  readonly height: number;
  readonly nodes: readonly PlacedBox[];
  readonly edges: readonly RoutedArrow[];
}

const MARGIN = 16;

/** Lays out `boxes` and `arrows` left to right (arrows to unknown boxes are left out). */
export function layoutGraph(boxes: readonly GraphBox[], arrows: readonly GraphArrow[]): GraphLayout {
  const g = new dagre.graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: "LR", nodesep: 28, ranksep: 70, marginx: MARGIN, marginy: MARGIN });
  g.setDefaultEdgeLabel(() => ({}));
  for (const b of boxes) g.setNode(b.id, { width: b.width, height: b.height });
  const known = new Set(boxes.map((b) => b.id));
  const kept = arrows.filter((a) => known.has(a.from) && known.has(a.to));
  kept.forEach((a, i) => g.setEdge(a.from, a.to, { width: a.label.length * 7, height: 14, labelpos: "c" }, String(i)));
  dagre.layout(g);
  const nodes = boxes.map((b) => {
    const n = g.node(b.id);
    return { ...b, x: n.x - b.width / 2, y: n.y - b.height / 2 };
  });
  const edges = kept.map((a, i) => {
    const e = g.edge({ v: a.from, w: a.to, name: String(i) });
    const points = (e.points ?? []).map((p: { x: number; y: number }) => ({ x: p.x, y: p.y }));
    const mid = points[Math.floor(points.length / 2)] ?? { x: 0, y: 0 };
    return { ...a, points, labelAt: { x: e.x ?? mid.x, y: e.y ?? mid.y } };
  });
  const graph = g.graph();
  return { width: graph.width ?? 0, height: graph.height ?? 0, nodes, edges };
}
