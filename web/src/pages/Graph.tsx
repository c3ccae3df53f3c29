import { useEffect, useRef, useState } from 'preact/hooks';
import cytoscape, { type Core, type ElementDefinition } from 'cytoscape';
import { request } from '../client';
import { navigate } from '../router';
import { pageOf } from '../components/Fields';
import { thumbSrc } from '../components/Thumb';
import { layered, segmentOf } from './graph-layout';
import { EntityGraph, firstGraph, type Graph } from './graph-data';

type GraphNode = Graph['nodes'][number];

const NODE = 26;
const ROOT_NODE = 34;
const LABEL_CHARS = 18;
const CHAR_PX = 6;

/**
 * Above this many nodes, names and relationship types are styled only where they can be read: on
 * every element once the view is zoomed in to {@link LABEL_ZOOM}, and around the selected node.
 * Each styled property costs cytoscape work per element on the first frame (at 1,000 nodes the
 * labels were half of it), and at the zoom that shows a big graph whole no label is drawn anyway
 * (`min-zoomed-font-size`). docs/web-app.md, "The graph at 1,000 nodes".
 */
const LABELS_ALWAYS_MAX = 300;
/** below this zoom no label is drawn (10 px × 0.7 = 7 px, the nodes' `min-zoomed-font-size`) */
const LABEL_ZOOM = 0.7;

const STYLE: cytoscape.StylesheetJson = [
  {
    selector: 'node',
    style: {
      width: NODE,
      height: NODE,
      'border-width': 2,
      'border-color': '#1f2937',
    },
  },
  {
    selector: 'node.lab',
    style: {
      label: 'data(label)',
      'font-size': 10,
      'min-zoomed-font-size': 7,
      'text-valign': 'center',
      'text-halign': 'right',
      'text-margin-x': 4,
    },
  },
  { selector: 'node[type = "dataset"]', style: { shape: 'round-rectangle', 'background-color': '#2563eb' } },
  { selector: 'node[type = "sample"]', style: { shape: 'diamond', 'background-color': '#d97706' } },
  { selector: 'node[image]', style: { 'background-image': 'data(image)', 'background-fit': 'cover' } },
  {
    selector: 'node.root',
    style: { 'border-width': 4, 'border-color': '#dc2626', width: ROOT_NODE, height: ROOT_NODE },
  },
  { selector: 'node:selected', style: { 'border-color': '#16a34a', 'border-width': 5 } },
  {
    selector: 'edge',
    style: {
      width: 1.5,
      'line-color': '#4b5563',
      'target-arrow-color': '#4b5563',
      'target-arrow-shape': 'triangle',
      'curve-style': 'straight',
    },
  },
  {
    // only edges with bends map them (a mapping without its data costs a warning per edge)
    selector: 'edge[weights]',
    style: {
      'curve-style': 'segments',
      'edge-distances': 'node-position',
      'segment-weights': 'data(weights)',
      'segment-distances': 'data(distances)',
    },
  },
  {
    selector: 'edge.lab',
    style: {
      label: 'data(label)',
      'font-size': 9,
      'min-zoomed-font-size': 8,
      'text-background-color': '#ffffff',
      'text-background-opacity': 0.9,
      'text-background-padding': '1px',
      color: '#111827',
    },
  },
  {
    // a bent edge names its relationship on its last leg, above its arrow, when that leg is its
    // own (its target has no other link in: links into one node share their last leg): bent
    // edges share horizontal channels, and labels at their midpoints were drawn over each other
    selector: 'edge[weights][?sole].lab',
    style: {
      label: '',
      'target-label': 'data(label)',
      'target-text-offset': 16,
    },
  },
  {
    selector: 'edge[kind = "sample_dataset"]',
    style: { 'line-style': 'dashed', 'line-color': '#b45309', 'target-arrow-color': '#b45309' },
  },
  {
    selector: 'edge[kind = "sample_sample"]',
    style: { 'line-style': 'dotted', 'line-color': '#b45309', 'target-arrow-color': '#b45309', width: 2 },
  },
];

const nodeLabel = (n: GraphNode): string => n.name ?? n.id;
/** the label drawn beside a node: at most LABEL_CHARS characters (the list and panel show it whole) */
const shortLabel = (n: GraphNode): string => {
  const l = nodeLabel(n);
  return l.length > LABEL_CHARS ? `${l.slice(0, LABEL_CHARS - 1)}…` : l;
};
/** an edge's words: its relationship type, else its kind */
const edgeLabel = (e: Graph['edges'][number]): string => e.relationshipType ?? KIND_WORDS[e.kind];
const KIND_WORDS: Record<string, string> = {
  dataset_dataset: 'derived',
  sample_dataset: 'measured on',
  sample_sample: 'made from',
};

type GraphEdge = Graph['edges'][number];

/** The shape's size of a node. */
const sizeOf = (id: string, root: string | undefined): number => (id === root ? ROOT_NODE : NODE);

/**
 * Every element of the graph with its place: each node's position and each edge's segments come
 * with the element, so cytoscape computes each style once (moving elements after adding them,
 * then fitting the view to their bounds, labels measured, took most of a 1,000-node drawing's
 * time: docs/web-app.md, "The graph at 1,000 nodes"). Also the layout's extent, for the view.
 */
function placedElements(
  nodes: Map<string, GraphNode>,
  edges: Map<string, GraphEdge>,
  root: string | undefined,
  labelled: boolean,
): { elements: ElementDefinition[]; extent: { x1: number; y1: number; x2: number; y2: number } } {
  const laid = [...nodes.values()].map((n) => ({
    id: n.id,
    size: sizeOf(n.id, root),
    labelWidth: 4 + CHAR_PX * shortLabel(n).length,
  }));
  const { positions, bends } = layered(
    laid,
    [...edges.values()].map((e) => [e.source, e.target]),
  );
  performance.mark('graph:laid-out');
  const extent = { x1: Infinity, y1: Infinity, x2: -Infinity, y2: -Infinity };
  const elements: ElementDefinition[] = [];
  for (const l of laid) {
    const n = nodes.get(l.id);
    const position = positions.get(l.id) ?? { x: 0, y: 0 };
    if (!n) continue;
    extent.x1 = Math.min(extent.x1, position.x - l.size / 2);
    extent.x2 = Math.max(extent.x2, position.x + l.size / 2 + 4 + l.labelWidth);
    extent.y1 = Math.min(extent.y1, position.y - l.size / 2);
    extent.y2 = Math.max(extent.y2, position.y + l.size / 2);
    const data: Record<string, unknown> = { id: n.id, label: shortLabel(n), type: n.type };
    if (n.firstThumbnail) data.image = thumbSrc(n.firstThumbnail);
    const classes = [n.id === root ? 'root' : '', labelled ? 'lab' : ''].filter(Boolean).join(' ');
    elements.push({ group: 'nodes', data, position, classes });
  }
  const parents = new Map<string, number>();
  for (const e of edges.values()) parents.set(e.target, (parents.get(e.target) ?? 0) + 1);
  for (const [id, e] of edges) {
    const data: Record<string, unknown> = {
      id,
      source: e.source,
      target: e.target,
      kind: e.kind,
      label: edgeLabel(e),
    };
    const from = positions.get(e.source);
    const to = positions.get(e.target);
    const route = bends.get(id);
    if (from && to && route?.length) {
      const segs = route.map((p) => segmentOf(from, to, p));
      data.weights = segs.map((q) => q.weight);
      data.distances = segs.map((q) => q.distance);
      // its last leg is its own when it is its target's only link in (see the style)
      if (parents.get(e.target) === 1) data.sole = true;
    }
    elements.push({ group: 'edges', data, classes: labelled ? 'lab' : '' });
  }
  return { elements, extent };
}

/**
 * Selects `id` alone, and styles the labels of it, its links and its neighbours (a big graph's
 * labels are otherwise only styled once zoomed in: {@link LABELS_ALWAYS_MAX}).
 */
function select(c: Core, id: string): void {
  c.nodes(':selected').unselect();
  const n = c.getElementById(id);
  n.closedNeighborhood().addClass('lab');
  n.select();
}

/**
 * Walk the entity graph: around a dataset or sample (`root`), or a whole project. Rings by distance
 * from the root (or from the project's roots) keep 1,000 nodes readable and lay out in one pass.
 * Selecting a node (click, or the list for keyboard users) offers its page and its neighbours.
 */
export function GraphPage({ root, project }: { root?: string; project?: string }) {
  /** the drawing's frame (the tests' `.graph`, with its state in data- attributes) */
  const frame = useRef<HTMLDivElement>(null);
  /**
   * cytoscape's container, inside the frame: cytoscape watches its container's attributes and
   * redraws everything on any change (a MutationObserver calling resize()), so the attributes
   * that change with the graph (data-ready, data-nodes, the label) stay off it
   */
  const box = useRef<HTMLDivElement>(null);
  /** labels styled on every element (a small graph, or one zoomed in to read them) */
  const labelAll = useRef(false);
  const [listOpen, setListOpen] = useState(false);
  const cy = useRef<Core | null>(null);
  const [nodes, setNodes] = useState<Map<string, GraphNode>>(new Map());
  const [selected, setSelected] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [ready, setReady] = useState(false);
  const [edgeWords, setEdgeWords] = useState<string[]>([]);

  const graph = useRef({ nodes: new Map<string, GraphNode>(), edges: new Map<string, GraphEdge>() });
  const selectedRef = useRef<string | null>(null);
  selectedRef.current = selected;

  /** Adds what `g` has new, lays the whole graph out again and draws it, the view fitted to it. */
  const merge = (g: Graph) => {
    const { nodes: all, edges } = graph.current;
    let added = 0;
    for (const n of g.nodes) {
      if (all.has(n.id)) continue;
      all.set(n.id, n);
      added++;
    }
    for (const e of g.edges) {
      const id = `${e.source}>${e.target}`;
      if (edges.has(id) || !all.has(e.source) || !all.has(e.target)) continue;
      edges.set(id, e);
      added++;
    }
    setEdgeWords([...new Set([...edges.values()].map(edgeLabel))]);
    setNodes(new Map(all));
    const c = cy.current;
    if (!added || !c) return;
    performance.mark('graph:layout');
    if (all.size <= LABELS_ALWAYS_MAX) labelAll.current = true;
    const { elements, extent } = placedElements(all, edges, root, labelAll.current);
    c.batch(() => {
      c.elements().remove();
      c.add(elements);
      if (selectedRef.current) select(c, selectedRef.current);
    });
    // the view from the layout's extent: fit() would measure every label's bounds
    const pad = 30;
    const zoom = Math.min(
      c.maxZoom(),
      Math.max(
        c.minZoom(),
        Math.min(
          (c.width() - 2 * pad) / (extent.x2 - extent.x1 || 1),
          (c.height() - 2 * pad) / (extent.y2 - extent.y1 || 1),
        ),
      ),
    );
    c.viewport({
      zoom,
      pan: {
        x: (c.width() - zoom * (extent.x1 + extent.x2)) / 2,
        y: (c.height() - zoom * (extent.y1 + extent.y2)) / 2,
      },
    });
    performance.mark('graph:placed');
  };

  useEffect(() => {
    // asked before cytoscape starts (usually already asked while this page's code loaded)
    const load = firstGraph(root, project);
    const c = cytoscape({
      container: box.current,
      style: STYLE,
      wheelSensitivity: 0.3,
      hideEdgesOnViewport: true,
      textureOnViewport: true,
      minZoom: 0.002,
      maxZoom: 4,
    });
    cy.current = c;
    // the drawing, for the browser tests' geometric checks (what is drawn, not what was computed)
    if (frame.current) (frame.current as HTMLDivElement & { cytoscape?: Core }).cytoscape = c;
    // a big graph's labels, once the view is zoomed in far enough to draw them
    c.on('zoom', () => {
      if (labelAll.current || c.zoom() < LABEL_ZOOM) return;
      labelAll.current = true;
      c.batch(() => c.elements().addClass('lab'));
    });
    c.on('tap', 'node', (e) => setSelected((e.target as cytoscape.NodeSingular).id()));
    c.on('dbltap', 'node', (e) => {
      const n = e.target as cytoscape.NodeSingular;
      navigate(pageOf(n.data('type') as string, n.id()));
    });
    load.then(
      (g) => {
        performance.mark('graph:answer');
        merge(g);
        c.one('render', () => performance.mark('graph:drawn'));
        setReady(true);
      },
      (e: unknown) => setError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      c.destroy();
      cy.current = null;
      graph.current = { nodes: new Map(), edges: new Map() };
    };
    // the page is keyed by its root or project (see main.tsx): one drawing per mount
  }, []);

  useEffect(() => {
    const c = cy.current;
    if (!c || !selected) return;
    select(c, selected);
  }, [selected]);

  const expand = async (id: string) => {
    try {
      merge((await request(EntityGraph, { id, depth: 1 })).entityGraph);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  const sel = selected ? nodes.get(selected) : undefined;
  const relations = [...edgeWords].sort();
  const title = root
    ? `Entity graph around ${nodes.get(root)?.name ?? root}`
    : `Graph of project ${project ?? ''}`;
  return (
    <section aria-labelledby="g-title" class="graphpage">
      <h1 id="g-title">{title}</h1>
      <GraphLegend relations={relations} />
      <p class="hint">
        Arrows point from parent to child. Click a node to select it, double-click to open its page; drag to
        pan, scroll to zoom.
        {nodes.size > LABELS_ALWAYS_MAX &&
          ' Names and relationship types are drawn once zoomed in, and around the selected node.'}
      </p>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      <div class="graphwrap">
        <div
          ref={frame}
          class="graph"
          role="img"
          aria-label={`${title}: ${nodes.size} nodes`}
          data-ready={ready ? 'true' : undefined}
          data-nodes={nodes.size}
        >
          <div ref={box} class="graphcanvas" />
        </div>
        <aside class="graphside" aria-label="Selected node">
          {sel ? (
            <>
              <h2>{nodeLabel(sel)}</h2>
              <p>
                {sel.type} <code>{sel.id}</code>
                {sel.measurement ? ` · ${sel.measurement}` : ''}
                {sel.sampleType ? ` · ${sel.sampleType}` : ''}
              </p>
              <p>
                <a href={pageOf(sel.type, sel.id)}>Open {sel.type} page</a>
              </p>
              <button type="button" onClick={() => void expand(sel.id)}>
                Show its neighbours
              </button>
            </>
          ) : (
            <p>No node selected.</p>
          )}
          <details onToggle={(e) => setListOpen(e.currentTarget.open)}>
            <summary>All nodes ({nodes.size})</summary>
            <ul class="nodelist">
              {/* its buttons made when opened: a thousand of them cost the first drawing time */}
              {(listOpen ? [...nodes.values()] : []).map((n) => (
                <li key={n.id}>
                  <button type="button" aria-pressed={n.id === selected} onClick={() => setSelected(n.id)}>
                    {nodeLabel(n)} ({n.type})
                  </button>
                </li>
              ))}
            </ul>
          </details>
        </aside>
      </div>
    </section>
  );
}

/**
 * What the drawing's shapes and lines mean, in words as well as pictures: a dataset is a rounded
 * square, a sample a diamond (not colour alone); the three kinds of link have their own line; the
 * relationship types drawn on the edges are listed.
 */
function GraphLegend({ relations }: { relations: string[] }) {
  return (
    <dl class="graphlegend" aria-label="Legend">
      <div>
        <dt>
          <svg width="16" height="16" aria-hidden="true">
            <rect
              x="2"
              y="2"
              width="12"
              height="12"
              rx="3"
              fill="#2563eb"
              stroke="#1f2937"
              stroke-width="1.5"
            />
          </svg>
        </dt>
        <dd>dataset (rounded square)</dd>
      </div>
      <div>
        <dt>
          <svg width="16" height="16" aria-hidden="true">
            <path d="M8 1 L15 8 L8 15 L1 8 Z" fill="#d97706" stroke="#1f2937" stroke-width="1.5" />
          </svg>
        </dt>
        <dd>sample (diamond)</dd>
      </div>
      <div>
        <dt>
          <svg width="28" height="10" aria-hidden="true">
            <line x1="1" y1="5" x2="27" y2="5" stroke="#4b5563" stroke-width="2" />
          </svg>
        </dt>
        <dd>dataset → derived dataset</dd>
      </div>
      <div>
        <dt>
          <svg width="28" height="10" aria-hidden="true">
            <line x1="1" y1="5" x2="27" y2="5" stroke="#b45309" stroke-width="2" stroke-dasharray="5 3" />
          </svg>
        </dt>
        <dd>sample → dataset measured on it</dd>
      </div>
      <div>
        <dt>
          <svg width="28" height="10" aria-hidden="true">
            <line x1="1" y1="5" x2="27" y2="5" stroke="#b45309" stroke-width="2" stroke-dasharray="2 2" />
          </svg>
        </dt>
        <dd>sample → sample made from it</dd>
      </div>
      {relations.length > 0 && (
        <div class="relations">
          <dt>Relationships drawn</dt>
          <dd>{relations.join(', ')}</dd>
        </div>
      )}
    </dl>
  );
}
