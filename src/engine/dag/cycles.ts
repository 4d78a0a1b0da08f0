// Finds the cycles of a graph, one per strongly connected component, each as a node path.
// Iterative throughout so a 500-node chain cannot overflow the call stack.
import type { Adjacency } from './adjacency.js';

/**
 * Tarjan's algorithm with an explicit stack. Returns the components that hold a cycle
 * (more than one node, or one node with an edge to itself), by index.
 */
function cyclicComponents(graph: Adjacency): number[][] {
  const count = graph.ids.length;
  const order = new Array<number>(count).fill(-1);
  const low = new Array<number>(count).fill(0);
  const onStack = new Array<boolean>(count).fill(false);
  const stack: number[] = [];
  const components: number[][] = [];
  let counter = 0;

  const visit = (node: number, work: number[], cursor: number[]): void => {
    order[node] = counter;
    low[node] = counter;
    counter += 1;
    stack.push(node);
    onStack[node] = true;
    work.push(node);
    cursor.push(0);
  };

  for (let root = 0; root < count; root++) {
    if (order[root] !== -1) continue;
    const work: number[] = [];
    const cursor: number[] = [];
    visit(root, work, cursor);
    while (work.length > 0) {
      const node = work[work.length - 1] ?? 0;
      const position = cursor[cursor.length - 1] ?? 0;
      const children = graph.children[node] ?? [];
      if (position < children.length) {
        cursor[cursor.length - 1] = position + 1;
        const child = children[position] ?? 0;
        if (order[child] === -1) visit(child, work, cursor);
        else if (onStack[child] === true) {
          low[node] = Math.min(low[node] ?? 0, order[child] ?? 0);
        }
        continue;
      }
      work.pop();
      cursor.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) low[parent] = Math.min(low[parent] ?? 0, low[node] ?? 0);
      if (low[node] !== order[node]) continue;
      const component: number[] = [];
      for (;;) {
        const member = stack.pop() ?? node;
        onStack[member] = false;
        component.push(member);
        if (member === node) break;
      }
      const selfLoop = (graph.children[node] ?? []).includes(node);
      if (component.length > 1 || selfLoop) components.push(component);
    }
  }
  return components;
}

/** Shortest path from `start` back to itself inside one component, by breadth-first search. */
function cycleThrough(graph: Adjacency, start: number, members: ReadonlySet<number>): number[] {
  const previous = new Map<number, number>();
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head] ?? start;
    for (const child of graph.children[node] ?? []) {
      if (child === start) {
        const path = [start];
        for (let step = node; step !== start; step = previous.get(step) ?? start) {
          path.push(step);
        }
        path.push(start);
        return path.reverse();
      }
      if (!members.has(child) || previous.has(child)) continue;
      previous.set(child, node);
      queue.push(child);
    }
  }
  return [start, start];
}

/**
 * One cycle per cyclic component, as node ids from a node back to itself
 * (`['a', 'b', 'a']`), starting at the component's first node in definition order.
 */
export function findCycles(graph: Adjacency): string[][] {
  return cyclicComponents(graph)
    .map((component) => ({ component, first: Math.min(...component) }))
    .sort((a, b) => a.first - b.first)
    .map(({ component, first }) =>
      cycleThrough(graph, first, new Set(component)).map((index) => graph.ids[index] ?? ''),
    );
}
