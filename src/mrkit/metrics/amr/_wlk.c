/*
 * mrkit.metrics.amr._wlk: the WLK score of one pair of graphs given by their Smatch
 * triples (no edge-to-node transform), the kernel of mrkit.metrics.amr.wlk's triples path.
 *
 *   wlk_triples(n_a, instances_a, attributes_a, relations_a,
 *               n_b, instances_b, attributes_b, relations_b, k) -> float or None
 *
 * n: number of variables; instances: [(i, concept)]; attributes: [(i, role, value)];
 * relations: [(i, role, j)] (the lists of mrkit.features.triples.Triples).  The same
 * operations as mrkit.metrics.amr.wlk._wlk_triples_lean (the Python reference, tested to
 * the bit against this): nodes are the variables (labelled with their concept, "" without
 * one) then one node per attribute value; round 0 counts the distinct labels and
 * (label, role, label) triples; round i = 1..k relabels every node with (its label, the
 * sorted multiset of (role, label) of its neighbours over edges either way), numbered by
 * one table shared by both graphs, and counts the distinct labels; the score is
 * the cosine with round i weighted 1/(1+i), in the same double operations in the same order.
 * Strings are numbered through a Python dict (equal strings, equal numbers); a round's
 * keys are byte strings of fixed-width integers in a dict (equal keys exactly when the
 * tuples are equal).  None (the caller computes in Python) when an input is not of that
 * shape or a number does not fit the packed round-0 triples.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_triple_arrays.h"

typedef struct {
    Py_ssize_t n;      /* nodes */
    Py_ssize_t m;      /* edges */
    int64_t *label;    /* n: current label numbers */
    int64_t *es, *er, *et; /* m edges: source, role number, target */
    Py_ssize_t *off;   /* n + 1: CSR offsets of neighbours */
    int64_t *nb;       /* 2 m (role, node) pairs */
    uint64_t *trip;    /* m packed round-0 triples */
} G;

static void g_free(G *g) {
    free(g->label); free(g->es); free(g->er); free(g->et); free(g->off); free(g->nb); free(g->trip);
}


/* 1 ok, 0 not our shape (no exception), -1 error */
static int g_build(G *g, PyObject *nobj, PyObject *inst, PyObject *attr, PyObject *rel, PyObject *strings,
                   int64_t empty) {
    memset(g, 0, sizeof(*g));
    int rc = read_triple_arrays(nobj, inst, attr, rel, strings, empty, &g->n, &g->m,
                                &g->label, &g->es, &g->er, &g->et);
    if (rc != 1) return rc;
    g->off = calloc(g->n + 2, sizeof(Py_ssize_t));
    g->nb = malloc(sizeof(int64_t) * (4 * g->m + 1));
    g->trip = malloc(sizeof(uint64_t) * (g->m + 1));
    if (!g->off || !g->nb || !g->trip) { PyErr_NoMemory(); return -1; }
    Py_ssize_t e;
    for (e = 0; e < g->m; e++) { g->off[g->es[e] + 1]++; g->off[g->et[e] + 1]++; }
    for (Py_ssize_t v = 0; v < g->n; v++) g->off[v + 1] += g->off[v];
    Py_ssize_t *fill = malloc(sizeof(Py_ssize_t) * (g->n + 1));
    if (!fill) { PyErr_NoMemory(); return -1; }
    memcpy(fill, g->off, sizeof(Py_ssize_t) * (g->n + 1));
    for (e = 0; e < g->m; e++) {
        Py_ssize_t p = fill[g->es[e]]++;
        g->nb[2 * p] = g->er[e]; g->nb[2 * p + 1] = g->et[e];
        p = fill[g->et[e]]++;
        g->nb[2 * p] = g->er[e]; g->nb[2 * p + 1] = g->es[e];
    }
    free(fill);
    return 1;
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static int cmp_pair(const void *a, const void *b) {
    const int64_t *x = a, *y = b;
    if (x[0] != y[0]) return (x[0] > y[0]) - (x[0] < y[0]);
    return (x[1] > y[1]) - (x[1] < y[1]);
}

static Py_ssize_t uniq(uint64_t *a, Py_ssize_t n) {
    if (n == 0) return 0;
    qsort(a, n, sizeof(uint64_t), cmp_u64);
    Py_ssize_t k = 1;
    for (Py_ssize_t i = 1; i < n; i++)
        if (a[i] != a[k - 1]) a[k++] = a[i];
    return k;
}

static Py_ssize_t inter(const uint64_t *a, Py_ssize_t na, const uint64_t *b, Py_ssize_t nb) {
    Py_ssize_t i = 0, j = 0, c = 0;
    while (i < na && j < nb) {
        if (a[i] < b[j]) i++;
        else if (a[i] > b[j]) j++;
        else { c++; i++; j++; }
    }
    return c;
}

/* the new labels of one round for graph g through table (bytes key -> number); -1 error */
static int relabel(G *g, PyObject *table, int64_t *buf, int64_t *out) {
    for (Py_ssize_t v = 0; v < g->n; v++) {
        Py_ssize_t lo = g->off[v], hi = g->off[v + 1], d = hi - lo;
        buf[0] = g->label[v];
        for (Py_ssize_t p = 0; p < d; p++) {
            buf[1 + 2 * p] = g->nb[2 * (lo + p)];
            buf[2 + 2 * p] = g->label[g->nb[2 * (lo + p) + 1]];
        }
        if (d > 1) qsort(buf + 1, d, 2 * sizeof(int64_t), cmp_pair);
        PyObject *key = PyBytes_FromStringAndSize((const char *)buf, (Py_ssize_t)sizeof(int64_t) * (1 + 2 * d));
        if (!key) return -1;
        int64_t id = intern(table, key);
        Py_DECREF(key);
        if (id < 0) return -1;
        out[v] = id;
    }
    return 0;
}

static Py_ssize_t max_degree(G *g) {
    Py_ssize_t m = 0;
    for (Py_ssize_t v = 0; v < g->n; v++)
        if (g->off[v + 1] - g->off[v] > m) m = g->off[v + 1] - g->off[v];
    return m;
}

static PyObject *k_wlk(PyObject *self, PyObject *args) {
    PyObject *na, *ia, *aa, *ra, *nb, *ib, *ab, *rb;
    int k;
    if (!PyArg_ParseTuple(args, "OOOOOOOOi", &na, &ia, &aa, &ra, &nb, &ib, &ab, &rb, &k)) return NULL;
    if (k < 0) Py_RETURN_NONE;
    PyObject *strings = PyDict_New();
    if (!strings) return NULL;
    PyObject *result = NULL;
    G a, b;
    memset(&a, 0, sizeof(a)); memset(&b, 0, sizeof(b));
    uint64_t *fa = NULL, *fb = NULL;
    int64_t *buf = NULL, *newa = NULL, *newb = NULL;
    unsigned char *mark = NULL;
    PyObject *empty_s = PyUnicode_FromString("");
    if (!empty_s) goto done;
    int64_t empty = intern(strings, empty_s);
    Py_DECREF(empty_s);
    if (empty < 0) goto done;
    int rc = g_build(&a, na, ia, aa, ra, strings, empty);
    if (rc < 0) goto done;
    if (rc == 0) { result = Py_None; Py_INCREF(result); goto done; }
    rc = g_build(&b, nb, ib, ab, rb, strings, empty);
    if (rc < 0) goto done;
    if (rc == 0) { result = Py_None; Py_INCREF(result); goto done; }
    int64_t nstr = PyDict_GET_SIZE(strings);
    if (nstr >= ((int64_t)1 << 21)) { result = Py_None; Py_INCREF(result); goto done; }
    /* round 0: labels (tag 0) and triples (tag 1) packed as 1 + 3 x 21 bits */
    fa = malloc(sizeof(uint64_t) * (a.n + a.m + 1));
    fb = malloc(sizeof(uint64_t) * (b.n + b.m + 1));
    if (!fa || !fb) { PyErr_NoMemory(); goto done; }
    Py_ssize_t ca = 0, cb = 0;
    for (Py_ssize_t v = 0; v < a.n; v++) fa[ca++] = (uint64_t)a.label[v];
    for (Py_ssize_t e = 0; e < a.m; e++)
        fa[ca++] = ((uint64_t)1 << 63) | ((uint64_t)a.label[a.es[e]] << 42) | ((uint64_t)a.er[e] << 21) |
                   (uint64_t)a.label[a.et[e]];
    for (Py_ssize_t v = 0; v < b.n; v++) fb[cb++] = (uint64_t)b.label[v];
    for (Py_ssize_t e = 0; e < b.m; e++)
        fb[cb++] = ((uint64_t)1 << 63) | ((uint64_t)b.label[b.es[e]] << 42) | ((uint64_t)b.er[e] << 21) |
                   (uint64_t)b.label[b.et[e]];
    ca = uniq(fa, ca);
    cb = uniq(fb, cb);
    double dot = (double)inter(fa, ca, fb, cb);
    double sa = (double)ca, sb = (double)cb;
    Py_ssize_t md = max_degree(&a), mdb = max_degree(&b);
    if (mdb > md) md = mdb;
    buf = malloc(sizeof(int64_t) * (1 + 2 * md));
    newa = malloc(sizeof(int64_t) * (a.n + 1));
    newb = malloc(sizeof(int64_t) * (b.n + 1));
    mark = malloc(a.n + b.n + 1);
    if (!buf || !newa || !newb || !mark) { PyErr_NoMemory(); goto done; }
    for (int i = 1; i <= k; i++) {
        PyObject *table = PyDict_New();
        if (!table) goto done;
        if (relabel(&a, table, buf, newa) < 0 || relabel(&b, table, buf, newb) < 0) { Py_DECREF(table); goto done; }
        Py_ssize_t nt = PyDict_GET_SIZE(table);
        Py_DECREF(table);
        memset(mark, 0, nt);
        Py_ssize_t da = 0, db = 0, both = 0;
        for (Py_ssize_t v = 0; v < a.n; v++)
            if (!mark[newa[v]]) { mark[newa[v]] = 1; da++; }
        for (Py_ssize_t v = 0; v < b.n; v++) {
            unsigned char m = mark[newb[v]];
            if (!(m & 2)) { mark[newb[v]] = m | 2; db++; if (m & 1) both++; }
        }
        memcpy(a.label, newa, sizeof(int64_t) * a.n);
        memcpy(b.label, newb, sizeof(int64_t) * b.n);
        double w2 = 1.0 / (double)((1 + i) * (1 + i));
        dot += w2 * (double)both;
        sa += w2 * (double)da;
        sb += w2 * (double)db;
    }
    double score;
    if (sa == 0 && sb == 0) score = 1.0;
    else if (sa == 0 || sb == 0) score = 0.0;
    else {
        score = dot / sqrt(sa * sb);
        if (score > 1.0) score = 1.0;
    }
    result = PyFloat_FromDouble(score);
done:
    g_free(&a); g_free(&b);
    free(fa); free(fb); free(buf); free(newa); free(newb); free(mark);
    Py_DECREF(strings);
    return result;
}

static PyMethodDef methods[] = {
    {"wlk_triples", k_wlk, METH_VARARGS,
     "wlk_triples(n_a, instances_a, attributes_a, relations_a, n_b, ..., k): WLK of one pair, or None"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_wlk",
                                       "The WLK score of one pair of graphs given by their Smatch triples.",
                                       -1, methods};

PyMODINIT_FUNC PyInit__wlk(void) { return PyModule_Create(&moduledef); }
