import { useEffect, useRef, useState } from 'preact/hooks';
import cytoscape, { type Core, type ElementDefinition } from 'cytoscape';
import { graphql } from '../gql';
import type { EntityGraphQuery } from '../gql/graphql';
import { request } from '../client';
import { navigate } from '../router';
import { pageOf } from '../components/Fields';
import { thumbSrc } from '../components/Thumb';
import { levels } from './graph-layout';

graphql(`
  fragment GraphParts on EntityGraph {
    nodes {
      id
      type
      name
      depth
      measurement
      sampleType
      firstThumbnail {
        mimeType
        thumbnailB64str
        thumbnailName
      }
    }
    edges {
      source
      target
      kind
      relationshipType
    }
  }
`);

const EntityGraph = graphql(`
  query EntityGraph($id: ID!, $depth: Int) {
    entityGraph(id: $id, depth: $depth) {
      ...GraphParts
    }
  }
`);

const ProjectGraph = graphql(`
  query ProjectGraph($project: String!) {
    projectGraph(project: $project) {
      ...GraphParts
    }
  }
`);

type Graph = EntityGraphQuery['entityGraph'];
type GraphNode = Graph['nodes'][number];

const STYLE: cytoscape.StylesheetJson = [
  {
    selector: 'node',
    style: {
      label: 'data(label)',
      'font-size': 10,
      'min-zoomed-font-size': 7,
      'text-valign': 'bottom',
      'text-margin-y': 3,
      width: 26,
      height: 26,
      'border-width': 2,
      'border-color': '#1f2937',
    },
  },
  { selector: 'node[type = "dataset"]', style: { shape: 'round-rectangle', 'background-color': '#2563eb' } },
  { selector: 'node[type = "sample"]', style: { shape: 'ellipse', 'background-color': '#d97706' } },
  { selector: 'node[image]', style: { 'background-image': 'data(image)', 'background-fit': 'cover' } },
  { selector: 'node.root', style: { 'border-width': 4, 'border-color': '#dc2626', width: 34, height: 34 } },
  { selector: 'node:selected', style: { 'border-color': '#16a34a', 'border-width': 5 } },
  {
    selector: 'edge',
    style: {
      width: 1.5,
      'line-color': '#6b7280',
      'target-arrow-color': '#6b7280',
      'target-arrow-shape': 'triangle',
      'curve-style': 'straight',
      label: 'data(label)',
      'font-size': 8,
      'min-zoomed-font-size': 8,
      'text-rotation': 'autorotate',
      color: '#374151',
    },
  },
];

const nodeLabel = (n: GraphNode): string => n.name ?? n.id;

function elementsOf(g: Graph, known: Set<string>): ElementDefinition[] {
  const out: ElementDefinition[] = [];
  for (const n of g.nodes) {
    if (known.has(n.id)) continue;
    known.add(n.id);
    const data: Record<string, unknown> = { id: n.id, label: nodeLabel(n), type: n.type };
    if (n.firstThumbnail) data.image = thumbSrc(n.firstThumbnail);
    out.push({ group: 'nodes', data });
  }
  for (const e of g.edges) {
    const id = `${e.source}>${e.target}`;
    if (known.has(id)) continue;
    known.add(id);
    out.push({
      group: 'edges',
      data: { id, source: e.source, target: e.target, label: e.relationshipType ?? e.kind.replace('_', '→') },
    });
  }
  return out;
}

/**
 * Walk the entity graph: around a dataset or sample (`root`), or a whole project. Rings by distance
 * from the root (or from the project's roots) keep 1,000 nodes readable and lay out in one pass.
 * Selecting a node (click, or the list for keyboard users) offers its page and its neighbours.
 */
export function GraphPage({ root, project }: { root?: string; project?: string }) {
  const box = useRef<HTMLDivElement>(null);
  const cy = useRef<Core | null>(null);
  const known = useRef(new Set<string>());
  const [nodes, setNodes] = useState<Map<string, GraphNode>>(new Map());
  const [selected, setSelected] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [ready, setReady] = useState(false);

  const layout = () => {
    const c = cy.current;
    if (!c) return;
    const ring = levels(
      c.nodes().map((n) => n.id()),
      c.edges().map((e) => [e.data('source') as string, e.data('target') as string]),
      root ? [root] : undefined,
    );
    const maxRing = Math.max(0, ...ring.values());
    c.layout({
      name: 'concentric',
      concentric: (n) => maxRing - (ring.get(n.id()) ?? maxRing),
      levelWidth: () => 1,
      minNodeSpacing: 18,
      animate: false,
    }).run();
    c.fit(undefined, 30);
  };

  const merge = (g: Graph) => {
    const add = elementsOf(g, known.current);
    setNodes((m) => {
      const next = new Map(m);
      for (const n of g.nodes) if (!next.has(n.id)) next.set(n.id, n);
      return next;
    });
    if (add.length && cy.current) {
      cy.current.add(add);
      layout();
    }
  };

  useEffect(() => {
    const c = cytoscape({
      container: box.current,
      style: STYLE,
      wheelSensitivity: 0.3,
      hideEdgesOnViewport: true,
      textureOnViewport: true,
      minZoom: 0.05,
      maxZoom: 4,
    });
    cy.current = c;
    c.on('tap', 'node', (e) => setSelected((e.target as cytoscape.NodeSingular).id()));
    c.on('dbltap', 'node', (e) => {
      const n = e.target as cytoscape.NodeSingular;
      navigate(pageOf(n.data('type') as string, n.id()));
    });
    const load = root
      ? request(EntityGraph, { id: root, depth: 2 }).then((r) => r.entityGraph)
      : request(ProjectGraph, { project: project ?? '' }).then((r) => r.projectGraph);
    load.then(
      (g) => {
        merge(g);
        if (root) c.getElementById(root).addClass('root');
        setReady(true);
      },
      (e: unknown) => setError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      c.destroy();
      cy.current = null;
      known.current = new Set();
    };
    // the page is keyed by its root or project (see main.tsx): one drawing per mount
  }, []);

  useEffect(() => {
    const c = cy.current;
    if (!c || !selected) return;
    c.nodes(':selected').unselect();
    c.getElementById(selected).select();
  }, [selected]);

  const expand = async (id: string) => {
    try {
      merge((await request(EntityGraph, { id, depth: 1 })).entityGraph);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  const sel = selected ? nodes.get(selected) : undefined;
  const title = root
    ? `Entity graph around ${nodes.get(root)?.name ?? root}`
    : `Graph of project ${project ?? ''}`;
  return (
    <section aria-labelledby="g-title" class="graphpage">
      <h1 id="g-title">{title}</h1>
      <p class="legend">
        <span class="key dataset" aria-hidden="true" /> dataset <span class="key sample" aria-hidden="true" />{' '}
        sample · arrows point from parent to child · click a node to select it, double-click to open its page;
        drag to pan, scroll to zoom.
      </p>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      <div class="graphwrap">
        <div
          ref={box}
          class="graph"
          role="img"
          aria-label={`${title}: ${nodes.size} nodes`}
          data-ready={ready ? 'true' : undefined}
          data-nodes={nodes.size}
        />
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
          <details>
            <summary>All nodes ({nodes.size})</summary>
            <ul class="nodelist">
              {[...nodes.values()].map((n) => (
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
