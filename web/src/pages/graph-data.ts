import { graphql } from '../gql';
import type { EntityGraphQuery } from '../gql/graphql';
import { request } from '../client';

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
        url
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

export const EntityGraph = graphql(`
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

export type Graph = EntityGraphQuery['entityGraph'];

/** The graph a page opens with: two steps around a record, or a whole project. */
const ask = (root: string | undefined, project: string | undefined): Promise<Graph> =>
  root
    ? request(EntityGraph, { id: root, depth: 2 }).then((r) => r.entityGraph)
    : request(ProjectGraph, { project: project ?? '' }).then((r) => r.projectGraph);

let early: { key: string; answer: Promise<Graph>; taken: boolean } | null = null;

/**
 * Asks for a graph page's first graph as soon as its address is known (main.tsx, while the graph
 * chunk loads), so the server answers while cytoscape downloads and starts: at 1,000 nodes the
 * answer was on the page's critical path (docs/web-app.md, "The graph at 1,000 nodes"). Asked
 * once per address in a row: drawn again for the same address, the page asks anew.
 */
export function askGraphEarly(root: string | undefined, project: string | undefined): void {
  const key = `${root ?? ''}|${project ?? ''}`;
  if (early?.key === key) return;
  const answer = ask(root, project);
  // its failure is reported by the page that takes it
  answer.catch(() => undefined);
  early = { key, answer, taken: false };
}

/** The graph page's first graph: the one asked early for this address if not yet taken, else asked now. */
export function firstGraph(root: string | undefined, project: string | undefined): Promise<Graph> {
  const key = `${root ?? ''}|${project ?? ''}`;
  if (early?.key === key && !early.taken) {
    early.taken = true;
    return early.answer;
  }
  return ask(root, project);
}
