/*
 * graphsearch.c - benchmark: breadth-first search, depth-first search and
 * Dijkstra's algorithm over generated graphs.
 *
 * Algorithms: undirected weighted graphs are stored as adjacency arrays
 * (compressed rows: first_edge[], edge_to[], edge_weight[]), built from an
 * edge list by counting sort.  On each graph:
 *   - breadth-first search with a queue array gives hop counts and is
 *     repeated from every unvisited vertex to count connected components;
 *   - iterative depth-first search with an explicit stack of (vertex, next
 *     edge) pairs gives discovery and finishing times;
 *   - Dijkstra's algorithm with an indexed binary heap (decrease-key by
 *     sifting up, extract-min by sifting down) gives weighted distances,
 *     once with the real weights and once with all weights 1.
 * Checks: Dijkstra with unit weights equals the BFS levels; DFS reaches the
 * same vertices as BFS and every DFS tree edge goes from an earlier to a
 * later discovery time; the weighted distances satisfy d[v] <= d[u] + w on
 * every edge and every reached vertex but the source has a tight edge.
 * Data: three graph shapes from a fixed-seed LCG: a sparse random graph
 * (several components), a grid with randomly deleted edges and a ring
 * lattice with random shortcuts (small world).
 *
 * Control flow for path profiling:
 *   - every search is a loop over a work list with an inner loop over the
 *     neighbours of a vertex: a two-level nest whose inner trip count is
 *     the vertex degree, with a data-dependent "already seen / improved"
 *     branch inside;
 *   - the DFS loop alternates between descending (push) and finishing (pop)
 *     paths depending on the graph;
 *   - the heap's sift-up and sift-down are loops with early exits inside
 *     functions called from the Dijkstra loops (calls in loops);
 *   - a switch on the graph shape in the generator.
 *
 * Loop-heavy: yes (nearly all time in the search loops and heap sifts).
 */
#include <stdio.h>

int first_edge[20001];
int edge_to[120000];
int edge_weight[120000];
int list_from[60000], list_to[60000], list_weight[60000];

int level[20000], component[20000];
int queue[20000];
int discovered[20000], finished[20000], dfs_parent[20000];
int stack_vertex[20000], stack_edge[20000];
int distance[20000], unit_distance[20000];
int heap[20000], heap_pos[20000];
int heap_size = 0;

unsigned rng_state = 777u;

int random_below(int n) {
    rng_state = rng_state * 1664525u + 1013904223u;
    /* scale the whole state to [0, n): the high bits of an LCG are the good ones */
    return (int)((unsigned long)rng_state * (unsigned long)n >> 32);
}

/* Generates an edge list of a shape; returns the number of edges. */
int generate(int shape, int n) {
    int m = 0;
    switch (shape) {
    case 0: /* sparse random: about 1.1 edges per vertex */
        while (m < n + n / 10) {
            int a = random_below(n), b = random_below(n);
            if (a == b)
                continue;
            list_from[m] = a;
            list_to[m] = b;
            m++;
        }
        break;
    case 1: { /* 100-wide grid, each edge kept with probability 3/4 */
        int width = 100;
        for (int v = 0; v < n; v++) {
            if ((v + 1) % width != 0 && random_below(4) != 0) {
                list_from[m] = v;
                list_to[m++] = v + 1;
            }
            if (v + width < n && random_below(4) != 0) {
                list_from[m] = v;
                list_to[m++] = v + width;
            }
        }
        break;
    }
    default: /* ring lattice (neighbours at distance 1 and 2) plus shortcuts */
        for (int v = 0; v < n; v++) {
            list_from[m] = v;
            list_to[m++] = (v + 1) % n;
            list_from[m] = v;
            list_to[m++] = (v + 2) % n;
            if (random_below(10) == 0) {
                list_from[m] = v;
                list_to[m++] = random_below(n);
            }
        }
        break;
    }
    for (int e = 0; e < m; e++)
        list_weight[e] = 1 + random_below(100);
    return m;
}

/* Builds the adjacency arrays (both directions of every edge). */
void build_graph(int n, int m) {
    for (int v = 0; v <= n; v++)
        first_edge[v] = 0;
    for (int e = 0; e < m; e++) {
        first_edge[list_from[e] + 1]++;
        first_edge[list_to[e] + 1]++;
    }
    for (int v = 0; v < n; v++)
        first_edge[v + 1] += first_edge[v];
    for (int e = 0; e < m; e++) {
        int a = list_from[e], b = list_to[e];
        edge_to[first_edge[a]] = b;
        edge_weight[first_edge[a]++] = list_weight[e];
        edge_to[first_edge[b]] = a;
        edge_weight[first_edge[b]++] = list_weight[e];
    }
    for (int v = n; v > 0; v--) /* undo the advance of the fill */
        first_edge[v] = first_edge[v - 1];
    first_edge[0] = 0;
}

/* BFS from source over unvisited vertices (level -1); labels them with the
   component number; returns how many it reached. */
int bfs(int source, int label) {
    int head = 0, tail = 0;
    queue[tail++] = source;
    level[source] = 0;
    component[source] = label;
    while (head < tail) {
        int v = queue[head++];
        for (int e = first_edge[v]; e < first_edge[v + 1]; e++) {
            int w = edge_to[e];
            if (level[w] < 0) {
                level[w] = level[v] + 1;
                component[w] = label;
                queue[tail++] = w;
            }
        }
    }
    return tail;
}

/* Iterative DFS from source; returns the number of vertices reached. */
int dfs(int n, int source) {
    for (int v = 0; v < n; v++)
        discovered[v] = -1;
    int clock = 0, top = 0, reached = 0;
    stack_vertex[0] = source;
    stack_edge[0] = first_edge[source];
    discovered[source] = clock++;
    dfs_parent[source] = -1;
    reached++;
    while (top >= 0) {
        int v = stack_vertex[top];
        int e = stack_edge[top];
        if (e == first_edge[v + 1]) { /* all neighbours done: finish v */
            finished[v] = clock++;
            top--;
            continue;
        }
        stack_edge[top] = e + 1;
        int w = edge_to[e];
        if (discovered[w] >= 0)
            continue;
        discovered[w] = clock++;
        dfs_parent[w] = v;
        reached++;
        top++;
        stack_vertex[top] = w;
        stack_edge[top] = first_edge[w];
    }
    return reached;
}

/* ---------- indexed binary min-heap on dist[] ---------- */

void heap_swap(int i, int j) {
    int a = heap[i], b = heap[j];
    heap[i] = b;
    heap[j] = a;
    heap_pos[b] = i;
    heap_pos[a] = j;
}

void sift_up(const int dist[], int i) {
    while (i > 0) {
        int parent = (i - 1) / 2;
        if (dist[heap[parent]] <= dist[heap[i]])
            break;
        heap_swap(i, parent);
        i = parent;
    }
}

void sift_down(const int dist[], int i) {
    for (;;) {
        int smallest = i, left = 2 * i + 1, right = left + 1;
        if (left < heap_size && dist[heap[left]] < dist[heap[smallest]])
            smallest = left;
        if (right < heap_size && dist[heap[right]] < dist[heap[smallest]])
            smallest = right;
        if (smallest == i)
            return;
        heap_swap(i, smallest);
        i = smallest;
    }
}

/* Dijkstra from source; unit != 0 ignores the weights. Unreached: -1. */
void dijkstra(int n, int source, int unit, int dist[]) {
    for (int v = 0; v < n; v++) {
        dist[v] = -1;
        heap_pos[v] = -1;
    }
    heap_size = 0;
    dist[source] = 0;
    heap[heap_size] = source;
    heap_pos[source] = heap_size++;
    while (heap_size > 0) {
        int v = heap[0];
        heap_swap(0, --heap_size);
        heap_pos[v] = -2; /* settled */
        sift_down(dist, 0);
        for (int e = first_edge[v]; e < first_edge[v + 1]; e++) {
            int w = edge_to[e];
            int candidate = dist[v] + (unit ? 1 : edge_weight[e]);
            if (heap_pos[w] == -2 || (dist[w] >= 0 && dist[w] <= candidate))
                continue;
            dist[w] = candidate;
            if (heap_pos[w] < 0) {
                heap[heap_size] = w;
                heap_pos[w] = heap_size++;
            }
            sift_up(dist, heap_pos[w]);
        }
    }
}

/* Counts violations of the shortest-path conditions. */
int check_distances(int n, int source) {
    int bad = 0;
    for (int v = 0; v < n; v++) {
        if (distance[v] < 0)
            continue;
        int tight = v == source;
        for (int e = first_edge[v]; e < first_edge[v + 1]; e++) {
            int w = edge_to[e];
            if (distance[w] < 0 || distance[w] > distance[v] + edge_weight[e])
                bad++; /* a neighbour of a reached vertex must be close */
            if (distance[w] >= 0 && distance[w] + edge_weight[e] == distance[v])
                tight = 1;
        }
        if (!tight)
            bad++;
    }
    return bad;
}

int main(void) {
    int failures = 0;
    int sizes[3] = {20000, 20000, 16000};
    for (int shape = 0; shape < 3; shape++) {
        int n = sizes[shape];
        int m = generate(shape, n);
        build_graph(n, m);
        for (int v = 0; v < n; v++)
            level[v] = -1;
        int components = 0, largest = 0, largest_root = 0;
        for (int v = 0; v < n; v++)
            if (level[v] < 0) {
                int size = bfs(v, components++);
                if (size > largest) {
                    largest = size;
                    largest_root = v;
                }
            }
        printf("shape %d: %d vertices, %d edges, %d components, largest %d\n", shape, n, m,
               components, largest);
        for (int round = 0; round < 5; round++) {
            /* a source in the largest component */
            int source = largest_root;
            for (int tries = 0; tries < 100; tries++) {
                int candidate = random_below(n);
                if (component[candidate] == component[largest_root]) {
                    source = candidate;
                    break;
                }
            }
            for (int v = 0; v < n; v++)
                level[v] = -1;
            int reached = bfs(source, 0);
            int eccentricity = level[queue[reached - 1]];
            int dfs_reached = dfs(n, source);
            int order_errors = 0;
            for (int v = 0; v < n; v++)
                if (discovered[v] >= 0 && dfs_parent[v] >= 0 &&
                    (discovered[dfs_parent[v]] >= discovered[v] ||
                     finished[dfs_parent[v]] <= finished[v]))
                    order_errors++;
            dijkstra(n, source, 1, unit_distance);
            dijkstra(n, source, 0, distance);
            int level_errors = 0;
            long total = 0;
            int farthest = 0;
            for (int v = 0; v < n; v++) {
                if (unit_distance[v] != level[v])
                    level_errors++;
                if (distance[v] > 0) {
                    total += distance[v];
                    if (distance[v] > farthest)
                        farthest = distance[v];
                }
            }
            int bad = check_distances(n, source);
            printf("  source %5d: bfs %d (depth %d), dfs %d, mean distance %.3f, max %d, "
                   "errors %d/%d/%d\n",
                   source, reached, eccentricity, dfs_reached, (double)total / reached, farthest,
                   order_errors, level_errors, bad);
            if (dfs_reached != reached || order_errors || level_errors || bad)
                failures++;
        }
    }
    printf("failures %d\n", failures);
    return failures == 0 ? 0 : 1;
}
