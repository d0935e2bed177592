/*
 * Shared by _wlk.c and _sembleu.c: the two ways into the file's graph G, from the lists of
 * mrkit.features.triples.Triples (_triple_arrays.h) and from integer codes (_codes.h).
 * Include it after both headers, the file's G (n, m, label, es, er, et, and the fields its
 * g_finish fills) and its g_finish(G *) (0 ok, -1 memory, no exception set).
 */
#ifndef MRKIT_GRAPH_BUILD_H
#define MRKIT_GRAPH_BUILD_H

/* 1 ok, 0 not our shape (no exception), -1 error */
static int g_build(G *g, PyObject *nobj, PyObject *inst, PyObject *attr, PyObject *rel, PyObject *strings,
                   int64_t empty) {
    memset(g, 0, sizeof(*g));
    int rc = read_triple_arrays(nobj, inst, attr, rel, strings, empty, &g->n, &g->m,
                                &g->label, &g->es, &g->er, &g->et);
    if (rc != 1) return rc;
    if (g_finish(g) < 0) { PyErr_NoMemory(); return -1; }
    return 1;
}

/* G of a coded graph (g_free frees it); 0 ok, -1 memory */
static inline int g_build_codes(G *g, const cgraph *c) {
    memset(g, 0, sizeof(*g));
    int64_t n, m;
    if (cg_arrays(c, &n, &m, &g->label, &g->es, &g->er, &g->et) < 0) return -1;
    g->n = (Py_ssize_t)n;
    g->m = (Py_ssize_t)m;
    return g_finish(g);
}

#endif
