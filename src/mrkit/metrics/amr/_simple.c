/*
 * mrkit.metrics.amr._simple: SIMPLE's Jaccard score of many pairs from their int64-coded
 * triples (mrkit.features._triples.pair_codes), the compiled twin of
 * mrkit.metrics.amr.simple.simple_triples_pair (tested equal on every shared pair).
 *
 *   simple_codes(codes, pairs, bags) -> bytes of double per pair; NaN for a refused pair
 *
 * The labels of a graph: the concept of every variable ("" without one), every attribute
 * value, and ":" + role of every relation and attribute (the codes number roles as
 * ":" + role, in the same table as the labels, so equal numbers are equal strings).
 * Sets: |A & B| / |A | B|; bags: sum of min / sum of max; 1 when both are empty.  The
 * division is the one double division of the Python's int / int (both exact below 2^53).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_codes.h"

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* the sorted label bag of g in *buf (kept from pair to pair, grown as needed); NULL on
 * memory error.  Insertion sort for the few labels of a graph, qsort beyond (equal
 * labels are equal numbers: any sort gives the same array) */
static int64_t *bag(const cgraph *g, int64_t *len, int64_t **buf, size_t *cap) {
    int64_t n = g->n + g->na + g->nr + g->na;
    if ((size_t)n + 1 > *cap) {
        int64_t *nb = realloc(*buf, sizeof(int64_t) * 2 * ((size_t)n + 1));
        if (!nb) return NULL;
        *buf = nb;
        *cap = 2 * ((size_t)n + 1);
    }
    int64_t *b = *buf;
    int64_t c = 0;
    for (int64_t v = 0; v < g->n; v++) b[v] = 0;
    for (int64_t j = 0; j < g->ni; j++) b[g->inst[2 * j]] = g->inst[2 * j + 1];
    c = g->n;
    for (int64_t j = 0; j < g->na; j++) b[c++] = g->attr[3 * j + 2];
    for (int64_t j = 0; j < g->nr; j++) b[c++] = g->rel[3 * j + 1];
    for (int64_t j = 0; j < g->na; j++) b[c++] = g->attr[3 * j + 1];
    if (c > 32) {
        qsort(b, (size_t)c, sizeof(int64_t), cmp_i64);
    } else {
        for (int64_t i = 1; i < c; i++) {
            int64_t x = b[i], j = i;
            while (j > 0 && b[j - 1] > x) { b[j] = b[j - 1]; j--; }
            b[j] = x;
        }
    }
    *len = c;
    return b;
}

static double jaccard(const int64_t *a, int64_t na, const int64_t *b, int64_t nb, int bags) {
    int64_t inter = 0, uni = 0, i = 0, j = 0;
    while (i < na || j < nb) {
        int64_t x;
        if (j >= nb || (i < na && a[i] < b[j])) x = a[i];
        else x = b[j];
        int64_t ca = 0, cb = 0;
        while (i < na && a[i] == x) { ca++; i++; }
        while (j < nb && b[j] == x) { cb++; j++; }
        if (bags) {
            inter += ca < cb ? ca : cb;
            uni += ca > cb ? ca : cb;
        } else {
            inter += (ca > 0 && cb > 0);
            uni += 1;
        }
    }
    return uni ? (double)inter / (double)uni : 1.0;
}

static PyObject *simple_codes_of(const int64_t *p, const int64_t *end, Py_ssize_t pairs, int bags) {
    if (pairs < 0) return codes_malformed();
    PyObject *res = PyBytes_FromStringAndSize(NULL, pairs * (Py_ssize_t)sizeof(double));
    if (!res) return NULL;
    double *o = (double *)PyBytes_AS_STRING(res);
    int64_t *buf[2] = {NULL, NULL};   /* the two bags, kept from pair to pair */
    size_t cap[2] = {0, 0};
    int nomem = 0;
    Py_BEGIN_ALLOW_THREADS   /* C memory only: another thread may run meanwhile */
    for (Py_ssize_t k = 0; k < pairs; k++) {
        cgraph a, b;
        if (cg_read(&p, end, &a) < 0 || cg_read(&p, end, &b) < 0) { p = NULL; break; }
        if (a.n < 0 || b.n < 0) { o[k] = NAN; continue; }
        int64_t la, lb;
        int64_t *ba = bag(&a, &la, &buf[0], &cap[0]), *bb = ba ? bag(&b, &lb, &buf[1], &cap[1]) : NULL;
        if (!ba || !bb) { nomem = 1; break; }
        o[k] = jaccard(ba, la, bb, lb, bags);
    }
    free(buf[0]); free(buf[1]);
    Py_END_ALLOW_THREADS
    if (nomem) { Py_DECREF(res); return PyErr_NoMemory(); }
    if (p != end) { Py_DECREF(res); return codes_malformed(); }
    return res;
}

CODES_KERNEL(k_simple_codes, "y*np", simple_codes_of)

static PyMethodDef methods[] = {
    {"simple_codes", k_simple_codes, METH_VARARGS,
     "simple_codes(codes, pairs, bags) -> bytes of double per pair (NaN: refused pair)"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_simple",
                                       "SIMPLE's scores of many pairs from their int64-coded triples.", -1, methods};

PyMODINIT_FUNC PyInit__simple(void) { return PyModule_Create(&moduledef); }
