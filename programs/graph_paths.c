/* Graph algorithms on adjacency matrices: Floyd-Warshall, Dijkstra with an
   O(n^2) scan, BFS over a grid maze with an array queue, DFS topological
   sort and connected components by union-find. */
#include <stdio.h>

int dist[12][12];
int w[12][12];
int INF = 1000000000;

char maze[9][13] = {
    {'#', '#', '#', '#', '#', '#', '#', '#', '#', '#', '#', '#', '#'},
    {'#', 'S', '.', '.', '#', '.', '.', '.', '.', '.', '.', '.', '#'},
    {'#', '.', '#', '.', '#', '.', '#', '#', '#', '#', '#', '.', '#'},
    {'#', '.', '#', '.', '.', '.', '#', '.', '.', '.', '#', '.', '#'},
    {'#', '.', '#', '#', '#', '#', '#', '.', '#', '.', '#', '.', '#'},
    {'#', '.', '.', '.', '.', '.', '.', '.', '#', '.', '.', '.', '#'},
    {'#', '#', '#', '#', '#', '.', '#', '#', '#', '#', '#', '.', '#'},
    {'#', '.', '.', '.', '.', '.', '.', '.', '.', '.', '#', 'E', '#'},
    {'#', '#', '#', '#', '#', '#', '#', '#', '#', '#', '#', '#', '#'}};

int parent[20];

int find(int x) {
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

int adj[8][8];
int visited[8];
int order[8];
int order_n = 0;

void dfs(int v) {
    visited[v] = 1;
    for (int u = 0; u < 8; u++)
        if (adj[v][u] && !visited[u]) dfs(u);
    order[order_n++] = v;
}

int main(void) {
    int n = 12;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int h = (i * 7 + j * 13) % 17;
            w[i][j] = i == j ? 0 : (h < 6 ? h * 3 + 1 : INF);
            dist[i][j] = w[i][j];
        }
    for (int k = 0; k < n; k++)
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                if (dist[i][k] < INF && dist[k][j] < INF && dist[i][k] + dist[k][j] < dist[i][j])
                    dist[i][j] = dist[i][k] + dist[k][j];
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            if (dist[i][j] >= INF) printf("  -");
            else printf("%3d", dist[i][j]);
        }
        printf("\n");
    }
    /* Dijkstra from 0 must agree with Floyd-Warshall */
    int d[12], done[12];
    for (int i = 0; i < n; i++) {
        d[i] = INF;
        done[i] = 0;
    }
    d[0] = 0;
    for (int it = 0; it < n; it++) {
        int u = -1;
        for (int i = 0; i < n; i++)
            if (!done[i] && (u < 0 || d[i] < d[u])) u = i;
        if (d[u] >= INF) break;
        done[u] = 1;
        for (int v = 0; v < n; v++)
            if (w[u][v] < INF && d[u] + w[u][v] < d[v]) d[v] = d[u] + w[u][v];
    }
    int agree = 1;
    for (int i = 0; i < n; i++) if (d[i] != dist[0][i]) agree = 0;
    printf("dijkstra agrees: %d\n", agree);

    /* BFS in the maze */
    int qr[200], qc[200], head = 0, tail = 0;
    int steps[9][13];
    for (int r = 0; r < 9; r++)
        for (int c = 0; c < 13; c++) steps[r][c] = -1;
    qr[tail] = 1;
    qc[tail++] = 1;
    steps[1][1] = 0;
    int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    int er = 0, ec = 0;
    while (head < tail) {
        int r = qr[head], c = qc[head++];
        if (maze[r][c] == 'E') {
            er = r;
            ec = c;
            break;
        }
        for (int k = 0; k < 4; k++) {
            int nr = r + dr[k], nc = c + dc[k];
            if (maze[nr][nc] != '#' && steps[nr][nc] < 0) {
                steps[nr][nc] = steps[r][c] + 1;
                qr[tail] = nr;
                qc[tail++] = nc;
            }
        }
    }
    printf("maze shortest path: %d steps\n", steps[er][ec]);
    /* walk back and mark the path */
    int r = er, c = ec;
    while (steps[r][c] > 0) {
        for (int k = 0; k < 4; k++) {
            int pr = r + dr[k], pc = c + dc[k];
            if (steps[pr][pc] == steps[r][c] - 1) {
                r = pr;
                c = pc;
                break;
            }
        }
        if (maze[r][c] == '.') maze[r][c] = '*';
    }
    for (int i = 0; i < 9; i++) {
        for (int j = 0; j < 13; j++) putchar(maze[i][j]);
        putchar('\n');
    }
    /* union-find */
    for (int i = 0; i < 20; i++) parent[i] = i;
    int edges[10][2] = {{0, 1}, {2, 3}, {1, 3}, {5, 6}, {7, 8}, {8, 9}, {10, 11}, {12, 13}, {13, 5}, {19, 0}};
    for (int e = 0; e < 10; e++) {
        int a = find(edges[e][0]), b = find(edges[e][1]);
        if (a != b) parent[a] = b;
    }
    int comps = 0;
    for (int i = 0; i < 20; i++) comps += find(i) == i;
    printf("components: %d\n", comps);
    /* topological order of a DAG */
    int dag[9][2] = {{0, 2}, {1, 2}, {2, 3}, {3, 4}, {1, 5}, {5, 4}, {6, 7}, {7, 4}, {0, 6}};
    for (int e = 0; e < 9; e++) adj[dag[e][0]][dag[e][1]] = 1;
    for (int v = 0; v < 8; v++)
        if (!visited[v]) dfs(v);
    printf("topological order:");
    for (int i = order_n - 1; i >= 0; i--) printf(" %d", order[i]);
    printf("\n");
    return 0;
}
