/*
 * mrkit.metrics.amr._sema: SEMA's counts of many pairs from their int64-coded triples
 * (mrkit.features._triples.pair_codes), the compiled twin of
 * mrkit.metrics.amr.sema.sema_triple_counts (tested equal on every shared pair).
 *
 *   sema_codes(codes, pairs) -> bytes of int64, (matched, gold triples, system triples)
 *                               per pair; (-1, -1, -1) for a refused pair (n = -1)
 *
 * The same greedy pairing as the Python: the root concepts; then the system relations in
 * the order of a stable sort by source node, each taking the first unused gold relation
 * (gold relations in the same stable order) with the same role and the same concepts at
 * both ends, and pairing the two parents and the two children (each node once, same
 * concept); then attributes counted as a multiset of (role, value, concept of the node).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_codes.h"

static int cmp_rec4(const void *a, const void *b) {
    const int64_t *x = a, *y = b;
    for (int k = 0; k < 4; k++)
        if (x[k] != y[k]) return (x[k] > y[k]) - (x[k] < y[k]);
    return 0;
}

static int cmp_rec3(const void *a, const void *b) {
    const int64_t *x = a, *y = b;
    for (int k = 0; k < 3; k++)
        if (x[k] != y[k]) return (x[k] > y[k]) - (x[k] < y[k]);
    return 0;
}

static int cmp_rec2(const void *a, const void *b) {
    const int64_t *x = a, *y = b;
    for (int k = 0; k < 2; k++)
        if (x[k] != y[k]) return (x[k] > y[k]) - (x[k] < y[k]);
    return 0;
}

typedef struct {
    int64_t *ca, *cb;           /* concept per node, -1: none */
    uint8_t *pa, *pb;           /* paired */
} state;

static int64_t pair_nodes(state *s, int64_t g, int64_t y) {
    if (s->pa[g] || s->pb[y] || s->ca[g] < 0 || s->ca[g] != s->cb[y]) return 0;
    s->pa[g] = 1;
    s->pb[y] = 1;
    return 1;
}

/* order[k]: the relations of g stably sorted by source (records (source, index)) */
static int64_t *by_source(const cgraph *g) {
    int64_t *r = malloc(sizeof(int64_t) * 2 * (size_t)(g->nr + 1));
    if (!r) return NULL;
    for (int64_t k = 0; k < g->nr; k++) { r[2 * k] = g->rel[3 * k]; r[2 * k + 1] = k; }
    qsort(r, (size_t)g->nr, 2 * sizeof(int64_t), cmp_rec2);
    return r;
}

/* 0 ok, -1 memory */
static int sema_pair(const cgraph *a, const cgraph *b, int64_t out[3]) {
    int rv = -1;
    state s = {0};
    int64_t *ga = NULL, *gr = NULL, *sr = NULL, *next = NULL, *ka = NULL, *kb = NULL;
    s.ca = malloc(sizeof(int64_t) * (size_t)(a->n + 1));
    s.cb = malloc(sizeof(int64_t) * (size_t)(b->n + 1));
    s.pa = calloc((size_t)a->n + 1, 1);
    s.pb = calloc((size_t)b->n + 1, 1);
    if (!s.ca || !s.cb || !s.pa || !s.pb) goto done;
    for (int64_t v = 0; v < a->n; v++) s.ca[v] = -1;
    for (int64_t v = 0; v < b->n; v++) s.cb[v] = -1;
    for (int64_t j = 0; j < a->ni; j++) s.ca[a->inst[2 * j]] = a->inst[2 * j + 1];
    for (int64_t j = 0; j < b->ni; j++) s.cb[b->inst[2 * j]] = b->inst[2 * j + 1];
    int64_t matched = 0;
    if (a->nt && b->nt) matched += pair_nodes(&s, a->tops[0], b->tops[0]);
    /* gold relations as (role, concept of source, concept of target, rank) + (source,
     * target); rank = position in the stable order by source */
    ga = by_source(a);
    sr = by_source(b);
    gr = malloc(sizeof(int64_t) * 6 * (size_t)(a->nr + 1));
    next = malloc(sizeof(int64_t) * (size_t)(a->nr + 1));
    if (!ga || !sr || !gr || !next) goto done;
    for (int64_t r = 0; r < a->nr; r++) {
        const int64_t *t = a->rel + 3 * ga[2 * r + 1];
        int64_t *o = gr + 6 * r;
        o[0] = t[1]; o[1] = s.ca[t[0]]; o[2] = s.ca[t[2]]; o[3] = r; o[4] = t[0]; o[5] = t[2];
    }
    qsort(gr, (size_t)a->nr, 6 * sizeof(int64_t), cmp_rec4);
    for (int64_t r = 0; r < a->nr; r++) next[r] = r;
    for (int64_t q = 0; q < b->nr; q++) {
        const int64_t *t = b->rel + 3 * sr[2 * q + 1];
        int64_t key[3] = {t[1], s.cb[t[0]], s.cb[t[2]]};
        /* lower bound of key among the gold records */
        int64_t lo = 0, hi = a->nr;
        while (lo < hi) {
            int64_t mid = lo + (hi - lo) / 2;
            if (cmp_rec3(gr + 6 * mid, key) < 0) lo = mid + 1;
            else hi = mid;
        }
        if (lo >= a->nr) continue;
        int64_t cur = next[lo];
        if (cur < a->nr && cmp_rec3(gr + 6 * cur, key) == 0) {
            next[lo] = cur + 1;
            matched += 1 + pair_nodes(&s, gr[6 * cur + 4], t[0]) + pair_nodes(&s, gr[6 * cur + 5], t[2]);
        }
    }
    /* attributes: a multiset of (role, value, concept) */
    ka = malloc(sizeof(int64_t) * 3 * (size_t)(a->na + 1));
    kb = malloc(sizeof(int64_t) * 3 * (size_t)(b->na + 1));
    if (!ka || !kb) goto done;
    for (int64_t j = 0; j < a->na; j++) {
        ka[3 * j] = a->attr[3 * j + 1]; ka[3 * j + 1] = a->attr[3 * j + 2]; ka[3 * j + 2] = s.ca[a->attr[3 * j]];
    }
    for (int64_t j = 0; j < b->na; j++) {
        kb[3 * j] = b->attr[3 * j + 1]; kb[3 * j + 1] = b->attr[3 * j + 2]; kb[3 * j + 2] = s.cb[b->attr[3 * j]];
    }
    qsort(ka, (size_t)a->na, 3 * sizeof(int64_t), cmp_rec3);
    qsort(kb, (size_t)b->na, 3 * sizeof(int64_t), cmp_rec3);
    {
        int64_t i = 0, j = 0;
        while (i < a->na && j < b->na) {
            int c = cmp_rec3(ka + 3 * i, kb + 3 * j);
            if (c < 0) i++;
            else if (c > 0) j++;
            else { matched++; i++; j++; }
        }
    }
    out[0] = matched;
    out[1] = a->ni + a->nr + a->na;
    out[2] = b->ni + b->nr + b->na;
    rv = 0;
done:
    free(s.ca); free(s.cb); free(s.pa); free(s.pb);
    free(ga); free(gr); free(sr); free(next); free(ka); free(kb);
    return rv;
}

static PyObject *k_sema_codes(PyObject *self, PyObject *args) {
    PyObject *codes;
    Py_ssize_t pairs;
    if (!PyArg_ParseTuple(args, "O!n", &PyBytes_Type, &codes, &pairs)) return NULL;
    if (pairs < 0) return codes_malformed();
    const int64_t *p = (const int64_t *)PyBytes_AS_STRING(codes);
    const int64_t *end = p + PyBytes_GET_SIZE(codes) / (Py_ssize_t)sizeof(int64_t);
    PyObject *res = PyBytes_FromStringAndSize(NULL, pairs * 3 * (Py_ssize_t)sizeof(int64_t));
    if (!res) return NULL;
    int64_t *o = (int64_t *)PyBytes_AS_STRING(res);
    for (Py_ssize_t k = 0; k < pairs; k++) {
        cgraph a, b;
        if (cg_read(&p, end, &a) < 0 || cg_read(&p, end, &b) < 0) { Py_DECREF(res); return codes_malformed(); }
        if (a.n < 0 || b.n < 0) { o[3 * k] = o[3 * k + 1] = o[3 * k + 2] = -1; continue; }
        if (sema_pair(&a, &b, o + 3 * k) < 0) { Py_DECREF(res); return PyErr_NoMemory(); }
    }
    if (p != end) { Py_DECREF(res); return codes_malformed(); }
    return res;
}

static PyMethodDef methods[] = {
    {"sema_codes", k_sema_codes, METH_VARARGS,
     "sema_codes(codes, pairs) -> bytes of int64 (matched, gold, system) per pair; -1s: refused pair"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_sema",
                                       "SEMA's counts of many pairs from their int64-coded triples.", -1, methods};

PyMODINIT_FUNC PyInit__sema(void) { return PyModule_Create(&moduledef); }
