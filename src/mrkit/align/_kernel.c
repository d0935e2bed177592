/*
 * mrkit._kernel: the compiled inner loops of the alignment engine.
 *
 *   lsa(weights, n, m, out)         maximum-weight assignment (rectangular, weights >= 0)
 *   climb(...)                      hill-climbing over one-to-one node mappings with restarts
 *   score(...)                      objective value of one mapping
 *
 * Arrays are passed through the buffer protocol (numpy arrays, C-contiguous):
 * float64 for scores, int32 for indices, uint8 for masks.  No numpy headers are
 * needed, so the module builds with a plain C compiler.
 *
 * The problem (see shared notes, alignment-engine.md): gold nodes i < nA, system
 * nodes j < nB, a unary score U[i, j] >= 0, labelled gold edges (src, lab, tgt) and
 * system edges; a mapping m: i -> j or -1, one-to-one; objective
 *   sum_i U[i, m(i)] + #{gold edges (s, l, t) such that (m(s), l, m(t)) is a system edge}.
 * Edge lists must be free of duplicates.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ helpers */

static int get_buf(PyObject *obj, Py_buffer *view, Py_ssize_t itemsize, Py_ssize_t count,
                   int writable, const char *name) {
    int flags = PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) < 0) return -1;
    if (view->itemsize != itemsize || view->len != itemsize * count) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd items of %zd bytes, got %zd bytes",
                     name, count, itemsize, view->len);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* xorshift64*: small, fast, seedable, identical on every platform */
typedef struct { uint64_t s; } rng_t;
static uint64_t rng_next(rng_t *r) {
    uint64_t x = r->s;
    x ^= x >> 12; x ^= x << 25; x ^= x >> 27;
    r->s = x;
    return x * 0x2545F4914F6CDD1DULL;
}
static uint32_t rng_below(rng_t *r, uint32_t n) { return (uint32_t)(rng_next(r) % n); }

/* ------------------------------------------------------ assignment (Hungarian) */

/* Minimum-cost assignment of n rows to distinct columns among m >= n (shortest
 * augmenting paths with potentials, O(n^2 m)).  cost is row-major n x m.
 * row_to_col receives the column of every row. */
static int hungarian_min(const double *cost, int n, int m, int32_t *row_to_col) {
    double *u = calloc((size_t)n + 1, sizeof(double));
    double *v = calloc((size_t)m + 1, sizeof(double));
    int *p = calloc((size_t)m + 1, sizeof(int));
    int *way = calloc((size_t)m + 1, sizeof(int));
    double *minv = malloc(((size_t)m + 1) * sizeof(double));
    char *used = malloc((size_t)m + 1);
    if (!u || !v || !p || !way || !minv || !used) {
        free(u); free(v); free(p); free(way); free(minv); free(used);
        return -1;
    }
    for (int i = 1; i <= n; i++) {
        p[0] = i;
        int j0 = 0;
        for (int j = 0; j <= m; j++) { minv[j] = INFINITY; used[j] = 0; }
        do {
            used[j0] = 1;
            int i0 = p[j0], j1 = 0;
            double delta = INFINITY;
            for (int j = 1; j <= m; j++) {
                if (used[j]) continue;
                double cur = cost[(size_t)(i0 - 1) * m + (j - 1)] - u[i0] - v[j];
                if (cur < minv[j]) { minv[j] = cur; way[j] = j0; }
                if (minv[j] < delta) { delta = minv[j]; j1 = j; }
            }
            for (int j = 0; j <= m; j++) {
                if (used[j]) { u[p[j]] += delta; v[j] -= delta; }
                else minv[j] -= delta;
            }
            j0 = j1;
        } while (p[j0] != 0);
        do {
            int j1 = way[j0];
            p[j0] = p[j1];
            j0 = j1;
        } while (j0);
    }
    for (int j = 1; j <= m; j++)
        if (p[j]) row_to_col[p[j] - 1] = j - 1;
    free(u); free(v); free(p); free(way); free(minv); free(used);
    return 0;
}

/* lsa(weights, n, m, out) -> total weight of a maximum-weight assignment.
 * weights: float64 n*m, all >= 0; out: int32 n, column of each row or -1. */
static PyObject *k_lsa(PyObject *self, PyObject *args) {
    PyObject *wo, *oo;
    int n, m;
    if (!PyArg_ParseTuple(args, "OiiO", &wo, &n, &m, &oo)) return NULL;
    Py_buffer wb, ob;
    if (get_buf(wo, &wb, 8, (Py_ssize_t)n * m, 0, "weights") < 0) return NULL;
    if (get_buf(oo, &ob, 4, n, 1, "out") < 0) { PyBuffer_Release(&wb); return NULL; }
    const double *w = wb.buf;
    int32_t *out = ob.buf;
    double total = 0.0;
    for (int i = 0; i < n; i++) out[i] = -1;
    if (n > 0 && m > 0) {
        int transpose = n > m;
        int rn = transpose ? m : n, rm = transpose ? n : m;
        double *cost = malloc((size_t)rn * rm * sizeof(double));
        int32_t *r2c = malloc((size_t)rn * sizeof(int32_t));
        if (!cost || !r2c) { free(cost); free(r2c); PyBuffer_Release(&wb); PyBuffer_Release(&ob); return PyErr_NoMemory(); }
        for (int a = 0; a < rn; a++)
            for (int b = 0; b < rm; b++)
                cost[(size_t)a * rm + b] = -(transpose ? w[(size_t)b * m + a] : w[(size_t)a * m + b]);
        Py_BEGIN_ALLOW_THREADS
        hungarian_min(cost, rn, rm, r2c);
        Py_END_ALLOW_THREADS
        for (int a = 0; a < rn; a++) {
            int i = transpose ? r2c[a] : a, j = transpose ? a : r2c[a];
            out[i] = j;
            total += w[(size_t)i * m + j];
        }
        free(cost); free(r2c);
    }
    PyBuffer_Release(&wb); PyBuffer_Release(&ob);
    return PyFloat_FromDouble(total);
}

/* ------------------------------------------------------------ hill climbing */

typedef struct {
    int nA, nB;
    const double *U;          /* nA x nB */
    const uint8_t *allowed;   /* nA x nB */
    const uint8_t *useful;    /* nA x nB: pair can contribute anything */
    const int32_t *esrc, *etgt, *elab;   /* gold edges */
    const int32_t *inc_ptr, *inc_edge;   /* gold node -> incident gold edges */
    const int32_t *bptr, *blab, *btgt;   /* system node -> outgoing (label, target) */
} prob_t;

static inline int has_b(const prob_t *P, int j, int l, int j2) {
    if (j < 0 || j2 < 0) return 0;
    for (int k = P->bptr[j]; k < P->bptr[j + 1]; k++)
        if (P->blab[k] == l && P->btgt[k] == j2) return 1;
    return 0;
}

/* matched gold edges among those incident to i or i2 (each counted once) */
static int local_edges(const prob_t *P, const int32_t *m, int i, int i2) {
    int s = 0;
    for (int k = P->inc_ptr[i]; k < P->inc_ptr[i + 1]; k++) {
        int e = P->inc_edge[k];
        s += has_b(P, m[P->esrc[e]], P->elab[e], m[P->etgt[e]]);
    }
    if (i2 >= 0) {
        for (int k = P->inc_ptr[i2]; k < P->inc_ptr[i2 + 1]; k++) {
            int e = P->inc_edge[k];
            if (P->esrc[e] == i || P->etgt[e] == i) continue;
            s += has_b(P, m[P->esrc[e]], P->elab[e], m[P->etgt[e]]);
        }
    }
    return s;
}

static double total_score(const prob_t *P, const int32_t *m, int nE) {
    double s = 0.0;
    for (int i = 0; i < P->nA; i++)
        if (m[i] >= 0) s += P->U[(size_t)i * P->nB + m[i]];
    for (int e = 0; e < nE; e++)
        s += has_b(P, m[P->esrc[e]], P->elab[e], m[P->etgt[e]]);
    return s;
}

/* Best-improvement climb from m (modified in place).  A move sends gold node i to
 * system node j; the gold node that held j (if any) takes i's old image. */
static double climb_once(const prob_t *P, int32_t *m, int32_t *owner, double score,
                         double target, long *evals) {
    const int nA = P->nA, nB = P->nB;
    for (;;) {
        if (score >= target) return score;
        double best = 1e-9;
        int bi = -1, bj = -1;
        for (int i = 0; i < nA; i++) {
            int j0 = m[i];
            const double *Ui = P->U + (size_t)i * nB;
            for (int j = 0; j < nB; j++) {
                if (j == j0 || !P->useful[(size_t)i * nB + j]) continue;
                int i2 = owner[j];
                if (i2 >= 0 && j0 >= 0 && !P->allowed[(size_t)i2 * nB + j0]) continue;
                double d = Ui[j] - (j0 >= 0 ? Ui[j0] : 0.0);
                if (i2 >= 0) {
                    const double *U2 = P->U + (size_t)i2 * nB;
                    d += (j0 >= 0 ? U2[j0] : 0.0) - U2[j];
                }
                int before = local_edges(P, m, i, i2);
                m[i] = j;
                if (i2 >= 0) m[i2] = j0;
                int after = local_edges(P, m, i, i2);
                m[i] = j0;
                if (i2 >= 0) m[i2] = j;
                d += (double)(after - before);
                (*evals)++;
                if (d > best) { best = d; bi = i; bj = j; }
            }
        }
        if (bi < 0) return score;
        int j0 = m[bi], i2 = owner[bj];
        m[bi] = bj;
        owner[bj] = bi;
        if (i2 >= 0) { m[i2] = j0; }
        if (j0 >= 0) owner[j0] = i2;
        score += best;
    }
}

/* climb(U, allowed, useful, esrc, etgt, elab, inc_ptr, inc_edge, bptr, blab, btgt,
 *       nA, nB, nE, mapping, restarts, seed, target) -> (score, evaluations, restarts_used)
 * mapping holds the start and receives the best mapping found. */
static PyObject *k_climb(PyObject *self, PyObject *args) {
    PyObject *o[12];
    int nA, nB, nE, restarts;
    unsigned long long seed;
    double target;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOOiiiOiKd", &o[0], &o[1], &o[2], &o[3], &o[4], &o[5],
                          &o[6], &o[7], &o[8], &o[9], &o[10], &nA, &nB, &nE, &o[11], &restarts,
                          &seed, &target))
        return NULL;
    Py_buffer b[12];
    int nb = 0;
    Py_ssize_t nBE = 0;
    /* sizes: bptr has nB+1 entries; blab/btgt have bptr[nB] entries */
    Py_ssize_t sizes[12] = {(Py_ssize_t)nA * nB, (Py_ssize_t)nA * nB, (Py_ssize_t)nA * nB,
                            nE, nE, nE, nA + 1, -1, nB + 1, -1, -1, nA};
    Py_ssize_t isz[12] = {8, 1, 1, 4, 4, 4, 4, 4, 4, 4, 4, 4};
    const char *names[12] = {"U", "allowed", "useful", "esrc", "etgt", "elab", "inc_ptr",
                             "inc_edge", "bptr", "blab", "btgt", "mapping"};
    for (nb = 0; nb < 12; nb++) {
        Py_ssize_t cnt = sizes[nb];
        if (nb == 7) cnt = ((int32_t *)b[6].buf)[nA];
        if (nb == 9 || nb == 10) cnt = nBE;
        if (get_buf(o[nb], &b[nb], isz[nb], cnt, nb == 11, names[nb]) < 0) goto fail;
        if (nb == 8) nBE = ((int32_t *)b[8].buf)[nB];
    }
    prob_t P = {nA, nB, b[0].buf, b[1].buf, b[2].buf, b[3].buf, b[4].buf, b[5].buf,
                b[6].buf, b[7].buf, b[8].buf, b[9].buf, b[10].buf};
    int32_t *mapping = b[11].buf;
    int32_t *m = malloc(sizeof(int32_t) * (size_t)(nA + 1));
    int32_t *owner = malloc(sizeof(int32_t) * (size_t)(nB + 1));
    int32_t *order = malloc(sizeof(int32_t) * (size_t)(nA + 1));
    int32_t *cand = malloc(sizeof(int32_t) * (size_t)(nB + 1));
    if (!m || !owner || !order || !cand) {
        free(m); free(owner); free(order); free(cand);
        PyErr_NoMemory();
        goto fail;
    }
    long evals = 0;
    int used = 0;
    double best;
    rng_t rng = {seed * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL};
    Py_BEGIN_ALLOW_THREADS
    /* start: the given mapping, cleaned of disallowed pairs and collisions */
    for (int j = 0; j < nB; j++) owner[j] = -1;
    for (int i = 0; i < nA; i++) {
        int j = mapping[i];
        if (j >= 0 && j < nB && P.allowed[(size_t)i * nB + j] && owner[j] < 0) { m[i] = j; owner[j] = i; }
        else m[i] = -1;
    }
    best = climb_once(&P, m, owner, total_score(&P, m, nE), target, &evals);
    memcpy(mapping, m, sizeof(int32_t) * (size_t)nA);
    for (int r = 0; r < restarts && best < target; r++) {
        used++;
        /* random start: gold nodes in random order, each to a random free useful node */
        for (int j = 0; j < nB; j++) owner[j] = -1;
        for (int i = 0; i < nA; i++) { order[i] = i; m[i] = -1; }
        for (int i = nA - 1; i > 0; i--) {
            int k = (int)rng_below(&rng, (uint32_t)(i + 1));
            int t = order[i]; order[i] = order[k]; order[k] = t;
        }
        for (int t = 0; t < nA; t++) {
            int i = order[t], nc = 0;
            for (int j = 0; j < nB; j++)
                if (owner[j] < 0 && P.useful[(size_t)i * nB + j]) cand[nc++] = j;
            if (nc) { int j = cand[rng_below(&rng, (uint32_t)nc)]; m[i] = j; owner[j] = i; }
        }
        double s = climb_once(&P, m, owner, total_score(&P, m, nE), target, &evals);
        if (s > best + 1e-9) { best = s; memcpy(mapping, m, sizeof(int32_t) * (size_t)nA); }
    }
    Py_END_ALLOW_THREADS
    free(m); free(owner); free(order); free(cand);
    for (int k = 0; k < 12; k++) PyBuffer_Release(&b[k]);
    return Py_BuildValue("dli", best, evals, used);
fail:
    for (int k = 0; k < nb; k++) PyBuffer_Release(&b[k]);
    return NULL;
}

static PyMethodDef methods[] = {
    {"lsa", k_lsa, METH_VARARGS, "lsa(weights, n, m, out) -> total: maximum-weight assignment"},
    {"climb", k_climb, METH_VARARGS, "hill-climbing with restarts over one-to-one mappings"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_kernel",
                                       "Compiled inner loops of mrkit's alignment engine.", -1,
                                       methods};

PyMODINIT_FUNC PyInit__kernel(void) { return PyModule_Create(&moduledef); }
