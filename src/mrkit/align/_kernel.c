/*
 * mrkit._kernel: the compiled inner loops of the alignment engine.
 *
 *   lsa(weights, n, m, out)         maximum-weight assignment (rectangular, weights >= 0)
 *   climb(...)                      hill-climbing over one-to-one node mappings with restarts
 *   score(...)                      objective value of one mapping
 *   smatch_stage(codes, work)       align()'s stages up to the LP (bounds, climbing, branch-and-bound) on integer-coded Smatch triples
 *   mapped_stage(codes, allowed, work)  the same under a candidate constraint, with the probe, returning the mapping (document Smatch)
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
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_arena.h"

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

/* n buffers o[k] -> b[k] (writable from index first_writable on); on failure the ones
 * acquired are released and -1 returned with the Python error set */
static void release_bufs(Py_buffer *b, int n) {
    for (int k = 0; k < n; k++) PyBuffer_Release(&b[k]);
}

static int get_bufs(PyObject **o, Py_buffer *b, int n, const Py_ssize_t *isz, const Py_ssize_t *cnt,
                    int first_writable, const char **names) {
    for (int k = 0; k < n; k++)
        if (get_buf(o[k], &b[k], isz[k], cnt[k], k >= first_writable, names[k]) < 0) {
            release_bufs(b, k);
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
 * row_to_col receives the column of every row; its work arrays come from A. */
static int hungarian_min(arena_t *A, const double *cost, int n, int m, int32_t *row_to_col) {
    amark_t mk = arena_mark(A);
    double *u = arena_zalloc(A, (size_t)n + 1, sizeof(double));
    double *v = arena_zalloc(A, (size_t)m + 1, sizeof(double));
    int *p = arena_zalloc(A, (size_t)m + 1, sizeof(int));
    int *way = arena_zalloc(A, (size_t)m + 1, sizeof(int));
    double *minv = arena_alloc(A, ((size_t)m + 1) * sizeof(double));
    char *used = arena_alloc(A, (size_t)m + 1);
    if (!u || !v || !p || !way || !minv || !used) {
        arena_release(A, mk);
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
    arena_release(A, mk);
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
        arena_t A = ARENA_INIT;
        int rc;
        Py_BEGIN_ALLOW_THREADS
        rc = hungarian_min(&A, cost, rn, rm, r2c);
        Py_END_ALLOW_THREADS
        arena_free(&A);
        if (rc < 0) { free(cost); free(r2c); PyBuffer_Release(&wb); PyBuffer_Release(&ob); return PyErr_NoMemory(); }
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
                         double target, long long *evals, long long max_evals) {
    const int nA = P->nA, nB = P->nB;
    for (;;) {
        if (score >= target || *evals >= max_evals) return score;
        double best = 1e-9;
        int bi = -1, bj = -1;
        for (int i = 0; i < nA; i++) {
            /* out of work: stop before the next row, keeping the mapping as it is (the
             * moves of a partial sweep are not applied: the result stays deterministic) */
            if (*evals >= max_evals) return score;
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

/* climb(U, allowed, useful, a_src, a_tgt, a_lab, b_src, b_tgt, b_lab,
 *       nA, nB, nEa, nEb, mapping, restarts, seed, target[, max_evals])
 *   -> (score, evaluations, restarts_used)
 * mapping holds the start and receives the best mapping found.  max_evals (default: no
 * limit) bounds the move evaluations: a deterministic work limit, checked before every
 * row of a sweep and before every restart. */
/* the work of climb() on plain arrays: returns the best score (mapping receives its
 * mapping), evaluations and restarts used in *evals, *used; -INFINITY: no memory */
static double climb_core(arena_t *A, const double *U, const uint8_t *allowed, const uint8_t *useful,
                         const int32_t *as, const int32_t *at, const int32_t *al,
                         const int32_t *bs, const int32_t *bt, const int32_t *bl,
                         int nA, int nB, int nE, int nEb, int32_t *mapping, int restarts,
                         unsigned long long seed, double target, long long max_evals,
                         long long *evals_out, int *used_out) {
    /* CSR: gold node -> incident gold edges (a loop once); system node -> outgoing edges */
    amark_t mk = arena_mark(A);
    int32_t *inc_ptr = arena_zalloc(A, (size_t)nA + 2, sizeof(int32_t));
    int32_t *inc_edge = arena_alloc(A, sizeof(int32_t) * ((size_t)2 * nE + 1));
    int32_t *bptr = arena_zalloc(A, (size_t)nB + 2, sizeof(int32_t));
    int32_t *blab = arena_alloc(A, sizeof(int32_t) * ((size_t)nEb + 1));
    int32_t *btgt = arena_alloc(A, sizeof(int32_t) * ((size_t)nEb + 1));
    int32_t *m = arena_alloc(A, sizeof(int32_t) * (size_t)(nA + 1));
    int32_t *owner = arena_alloc(A, sizeof(int32_t) * (size_t)(nB + 1));
    int32_t *order = arena_alloc(A, sizeof(int32_t) * (size_t)(nA + 1));
    int32_t *cand = arena_alloc(A, sizeof(int32_t) * (size_t)(nB + 1));
    if (!inc_ptr || !inc_edge || !bptr || !blab || !btgt || !m || !owner || !order || !cand) {
        arena_release(A, mk);
        return -INFINITY;
    }
    long long evals = 0;
    int used = 0;
    double best;
    for (int e = 0; e < nE; e++) {
        inc_ptr[as[e] + 2]++;
        if (at[e] != as[e]) inc_ptr[at[e] + 2]++;
    }
    for (int i = 0; i < nA; i++) inc_ptr[i + 2] += inc_ptr[i + 1];
    for (int e = 0; e < nE; e++) {
        inc_edge[inc_ptr[as[e] + 1]++] = e;
        if (at[e] != as[e]) inc_edge[inc_ptr[at[e] + 1]++] = e;
    }
    for (int e = 0; e < nEb; e++) bptr[bs[e] + 2]++;
    for (int j = 0; j < nB; j++) bptr[j + 2] += bptr[j + 1];
    for (int e = 0; e < nEb; e++) {
        int k = bptr[bs[e] + 1]++;
        blab[k] = bl[e];
        btgt[k] = bt[e];
    }
    prob_t P = {nA, nB, U, allowed, useful, as, at, al, inc_ptr, inc_edge, bptr, blab, btgt};
    rng_t rng = {seed * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL};
    /* start: the given mapping, cleaned of disallowed pairs and collisions */
    for (int j = 0; j < nB; j++) owner[j] = -1;
    for (int i = 0; i < nA; i++) {
        int j = mapping[i];
        if (j >= 0 && j < nB && P.allowed[(size_t)i * nB + j] && owner[j] < 0) { m[i] = j; owner[j] = i; }
        else m[i] = -1;
    }
    best = climb_once(&P, m, owner, total_score(&P, m, nE), target, &evals, max_evals);
    memcpy(mapping, m, sizeof(int32_t) * (size_t)nA);
    for (int r = 0; r < restarts && best < target && evals < max_evals; r++) {
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
        double s = climb_once(&P, m, owner, total_score(&P, m, nE), target, &evals, max_evals);
        if (s > best + 1e-9) { best = s; memcpy(mapping, m, sizeof(int32_t) * (size_t)nA); }
    }
    arena_release(A, mk);
    *evals_out = evals;
    *used_out = used;
    return best;
}

static PyObject *k_climb(PyObject *self, PyObject *args) {
    PyObject *o[10];
    int nA, nB, nE, nEb, restarts;
    unsigned long long seed;
    double target;
    long long max_evals = LLONG_MAX;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOiiiiOiKd|L", &o[0], &o[1], &o[2], &o[3], &o[4], &o[5],
                          &o[6], &o[7], &o[8], &nA, &nB, &nE, &nEb, &o[9], &restarts, &seed, &target,
                          &max_evals))
        return NULL;
    if (max_evals < 0) max_evals = LLONG_MAX;
    Py_buffer b[10];
    Py_ssize_t sizes[10] = {(Py_ssize_t)nA * nB, (Py_ssize_t)nA * nB, (Py_ssize_t)nA * nB,
                            nE, nE, nE, nEb, nEb, nEb, nA};
    Py_ssize_t isz[10] = {8, 1, 1, 4, 4, 4, 4, 4, 4, 4};
    const char *names[10] = {"U", "allowed", "useful", "a_src", "a_tgt", "a_lab",
                             "b_src", "b_tgt", "b_lab", "mapping"};
    if (get_bufs(o, b, 10, isz, sizes, 9, names) < 0) return NULL;
    long long evals = 0;
    int used = 0;
    double best;
    arena_t A = ARENA_INIT;
    Py_BEGIN_ALLOW_THREADS
    best = climb_core(&A, b[0].buf, b[1].buf, b[2].buf, b[3].buf, b[4].buf, b[5].buf, b[6].buf, b[7].buf,
                      b[8].buf, nA, nB, nE, nEb, b[9].buf, restarts, seed, target, max_evals, &evals, &used);
    Py_END_ALLOW_THREADS
    arena_free(&A);
    release_bufs(b, 10);
    if (best == -INFINITY) return PyErr_NoMemory();
    return Py_BuildValue("dLi", best, evals, used);
}

/* weights(U, allowed, a_src, a_tgt, a_lab, b_src, b_tgt, b_lab, nA, nB, nEa, nEb, nL, w, useful, mode)
 * Assignment-bound weights, zero where not allowed.  mode 0: w[i, j] = U[i, j] + 1/2 sum
 * over labels and both directions of min(degree of i, degree of j) (each edge paid half at
 * each end); mode 1: U + sum over labels of min(out-degrees) (each edge paid in full at
 * its source); mode 2: the same with in-degrees (paid at its target).  Each is a valid
 * bound.  useful[i, j] = allowed and (U > 0 or some label/direction shared).  Returns the
 * trivial edge bound sum_l min(#gold edges with l, #system edges with l). */
/* the work of weights() on plain arrays; returns the trivial edge bound, -1: no memory */
static long weights_core(arena_t *A, const double *U, const uint8_t *allowed, const int32_t *as, const int32_t *at,
                         const int32_t *al, const int32_t *bs, const int32_t *bt, const int32_t *bl,
                         int nA, int nB, int nEa, int nEb, int nL, double *w, uint8_t *useful, int mode) {
    double scale = mode == 0 ? 0.5 : 1.0;
    long edge_bound = 0;
    int L2 = 2 * (nL > 0 ? nL : 1);
    amark_t mk = arena_mark(A);
    int32_t *da = arena_zalloc(A, (size_t)nA * L2 + 1, sizeof(int32_t));
    int32_t *db = arena_zalloc(A, (size_t)nB * L2 + 1, sizeof(int32_t));
    int32_t *ca = arena_zalloc(A, (size_t)L2 + 1, sizeof(int32_t));
    int32_t *cb = arena_zalloc(A, (size_t)L2 + 1, sizeof(int32_t));
    /* per gold node: the (slot, count) pairs it has, to skip empty slots */
    int32_t *alist = arena_alloc(A, sizeof(int32_t) * ((size_t)2 * nEa + 1));
    int32_t *aptr = arena_zalloc(A, (size_t)nA + 1, sizeof(int32_t));
    if (!da || !db || !ca || !cb || !alist || !aptr) {
        arena_release(A, mk);
        return -1;
    }
    for (int e = 0; e < nEa; e++) {
        da[(size_t)as[e] * L2 + 2 * al[e]]++;
        da[(size_t)at[e] * L2 + 2 * al[e] + 1]++;
        ca[al[e]]++;
    }
    for (int e = 0; e < nEb; e++) {
        db[(size_t)bs[e] * L2 + 2 * bl[e]]++;
        db[(size_t)bt[e] * L2 + 2 * bl[e] + 1]++;
        cb[bl[e]]++;
    }
    for (int l = 0; l < nL; l++) edge_bound += ca[l] < cb[l] ? ca[l] : cb[l];
    int na = 0;
    for (int i = 0; i < nA; i++) {
        aptr[i] = na;
        for (int k = 0; k < L2; k++)
            if (da[(size_t)i * L2 + k]) alist[na++] = k;
    }
    aptr[nA] = na;
    for (int i = 0; i < nA; i++) {
        for (int j = 0; j < nB; j++) {
            size_t ij = (size_t)i * nB + j;
            if (!allowed[ij]) { w[ij] = 0.0; useful[ij] = 0; continue; }
            double s = 0.0, sd = 0.0;
            for (int t = aptr[i]; t < aptr[i + 1]; t++) {
                int k = alist[t];
                int x = da[(size_t)i * L2 + k], y = db[(size_t)j * L2 + k];
                int mn = x < y ? x : y;
                s += mn;
                if ((mode == 1 && !(k & 1)) || (mode == 2 && (k & 1))) sd += mn;
            }
            w[ij] = U[ij] + scale * (mode == 0 ? s : sd);
            useful[ij] = (U[ij] > 0.0 || s > 0.0) ? 1 : 0;
        }
    }
    arena_release(A, mk);
    return edge_bound;
}

static PyObject *k_weights(PyObject *self, PyObject *args) {
    PyObject *o[10];
    int nA, nB, nEa, nEb, nL, mode = 0;
    if (!PyArg_ParseTuple(args, "OOOOOOOOiiiiiOO|i", &o[0], &o[1], &o[2], &o[3], &o[4], &o[5], &o[6],
                          &o[7], &nA, &nB, &nEa, &nEb, &nL, &o[8], &o[9], &mode))
        return NULL;
    Py_buffer b[10];
    Py_ssize_t cnt[10] = {(Py_ssize_t)nA * nB, (Py_ssize_t)nA * nB, nEa, nEa, nEa, nEb, nEb, nEb,
                          (Py_ssize_t)nA * nB, (Py_ssize_t)nA * nB};
    Py_ssize_t isz[10] = {8, 1, 4, 4, 4, 4, 4, 4, 8, 1};
    const char *names[10] = {"U", "allowed", "a_src", "a_tgt", "a_lab", "b_src", "b_tgt", "b_lab", "w", "useful"};
    if (get_bufs(o, b, 10, isz, cnt, 8, names) < 0) return NULL;
    long edge_bound;
    arena_t A = ARENA_INIT;
    Py_BEGIN_ALLOW_THREADS
    edge_bound = weights_core(&A, b[0].buf, b[1].buf, b[2].buf, b[3].buf, b[4].buf, b[5].buf, b[6].buf,
                              b[7].buf, nA, nB, nEa, nEb, nL, b[8].buf, b[9].buf, mode);
    Py_END_ALLOW_THREADS
    arena_free(&A);
    release_bufs(b, 10);
    if (edge_bound < 0) return PyErr_NoMemory();
    return PyLong_FromLong(edge_bound);
}

/* ------------------------------------------------------- Lagrangian bound */

typedef struct { int64_t key; int32_t k; } kv_t;

static int cmp_kv(const void *a, const void *b) {
    int64_t x = ((const kv_t *)a)->key, y = ((const kv_t *)b)->key;
    return (x > y) - (x < y);
}

/* out[k] = dense rank of key[k] among the distinct keys; returns their number */
static int dense_ids(const int64_t *key, int n, int32_t *out, kv_t *tmp) {
    for (int k = 0; k < n; k++) { tmp[k].key = key[k]; tmp[k].k = k; }
    if (n > 24) qsort(tmp, (size_t)n, sizeof(kv_t), cmp_kv);
    else   /* (insertion sort for a few: the ranks do not depend on the order of equal keys) */
        for (int i = 1; i < n; i++) {
            kv_t x = tmp[i];
            int j = i;
            while (j > 0 && tmp[j - 1].key > x.key) { tmp[j] = tmp[j - 1]; j--; }
            tmp[j] = x;
        }
    int id = -1;
    for (int t = 0; t < n; t++) {
        if (t == 0 || tmp[t].key != tmp[t - 1].key) id++;
        out[tmp[t].k] = id;
    }
    return id + 1;
}

/* gold edge e and system edge f can match: same label, a loop only with a loop, and
 * both end pairs allowed */
static inline int is_candidate(int e, int f, const int32_t *as, const int32_t *at, const int32_t *al,
                               const int32_t *bs, const int32_t *bt, const int32_t *bl,
                               const uint8_t *allowed, int nB) {
    return al[e] == bl[f] && (as[e] == at[e]) == (bs[f] == bt[f])
           && allowed[(size_t)as[e] * nB + bs[f]] && allowed[(size_t)at[e] * nB + bt[f]];
}

/* lagrangian(U, allowed, a_src, a_tgt, a_lab, b_src, b_tgt, b_lab, nA, nB, nEa, nEb,
 *            iters, target, max_cands) -> best bound found (inf when skipped)
 *
 * Every candidate edge match c = (gold edge e, system edge f with e's label, both endpoint
 * pairs allowed) is paid lam_c at its source pair and 1 - lam_c at its target pair.  For a
 * node pair (i, j) the edge matches a mapping can realise at one end form a matching
 * between i's and j's edges, so that end earns at most min(sum over gold edges of their
 * best lam, sum over system edges of their best lam).  With these earnings added to U, a
 * maximum-weight assignment bounds the objective for every lam in [0, 1]; lam starts at
 * 1/2 (the half-and-half bound, made tighter by skipping edge matches whose other end is
 * not allowed) and follows the subgradient: a candidate paid at an end the assignment uses
 * while its other end is not used moves its pay to the other end.  Stops as soon as the
 * bound drops below target. */
/* the work of lagrangian() on plain arrays; *fail set on memory failure */
static double lagrangian_core(arena_t *A, const double *U, const uint8_t *allowed, const int32_t *as, const int32_t *at,
                              const int32_t *al, const int32_t *bs, const int32_t *bt, const int32_t *bl,
                              int nA, int nB, int nEa, int nEb, int iters, double target, long long max_cands,
                              int *fail_out) {
    double best = INFINITY;
    int fail = 0;
    /* count the candidates first */
    long long K = 0;
    for (int e = 0; e < nEa && K <= max_cands; e++)
        for (int f = 0; f < nEb; f++)
            if (is_candidate(e, f, as, at, al, bs, bt, bl, allowed, nB))
                K++;
    if (nA == 0 || nB == 0 || K == 0 || K > max_cands) goto done_core;
    {
        int n = (int)K, rn = nA <= nB ? nA : nB, rm = nA <= nB ? nB : nA, transpose = nA > nB;
        amark_t mk = arena_mark(A);
        int32_t *ce = arena_alloc(A, sizeof(int32_t) * n), *cf = arena_alloc(A, sizeof(int32_t) * n);
        int32_t *cps = arena_alloc(A, sizeof(int32_t) * n), *cpt = arena_alloc(A, sizeof(int32_t) * n);
        int32_t *gid = arena_alloc(A, sizeof(int32_t) * 4 * (size_t)n);   /* 4 group ids per candidate */
        int32_t *slot = arena_alloc(A, sizeof(int32_t) * 2 * (size_t)n);  /* pair slot of each end */
        int64_t *key = arena_alloc(A, sizeof(int64_t) * 2 * (size_t)n);
        kv_t *tmp = arena_alloc(A, sizeof(kv_t) * 2 * (size_t)n);
        double *lam = arena_alloc(A, sizeof(double) * n);
        double *W = arena_alloc(A, sizeof(double) * (size_t)nA * nB);
        double *cost = arena_alloc(A, sizeof(double) * (size_t)rn * rm);
        int32_t *r2c = arena_alloc(A, sizeof(int32_t) * (rn + 1));
        uint8_t *x = arena_alloc(A, (size_t)nA * nB);
        if (!ce || !cf || !cps || !cpt || !gid || !slot || !key || !tmp || !lam || !W || !cost || !r2c || !x) {
            fail = 1;
            goto cleanup;
        }
        int c = 0;
        for (int e = 0; e < nEa; e++)
            for (int f = 0; f < nEb; f++)
                if (is_candidate(e, f, as, at, al, bs, bt, bl, allowed, nB)) {
                    ce[c] = e; cf[c] = f;
                    cps[c] = as[e] * nB + bs[f];
                    cpt[c] = at[e] * nB + bt[f];
                    c++;
                }
        /* groups: (source pair, e), (source pair, f), (target pair, e), (target pair, f) */
        int ng[4];
        for (int g = 0; g < 4; g++) {
            for (int k = 0; k < n; k++) {
                int64_t pair = g < 2 ? cps[k] : cpt[k];
                key[k] = pair * (int64_t)(nEa + nEb + 1) + ((g & 1) ? cf[k] : ce[k]);
            }
            ng[g] = dense_ids(key, n, gid + (size_t)g * n, tmp);
        }
        /* pair slots over both ends */
        for (int k = 0; k < n; k++) { key[k] = cps[k]; key[n + k] = cpt[k]; }
        int ns = dense_ids(key, 2 * n, slot, tmp);
        int32_t *spair = arena_alloc(A, sizeof(int32_t) * ns);
        int32_t *gslot[4];
        double *gmax[4];
        double *sacc = arena_alloc(A, sizeof(double) * 4 * (size_t)ns);  /* per slot: src A, src B, tgt A, tgt B */
        int ok = spair && sacc;
        for (int g = 0; g < 4; g++) {
            gslot[g] = arena_alloc(A, sizeof(int32_t) * (ng[g] + 1));
            gmax[g] = arena_alloc(A, sizeof(double) * (ng[g] + 1));
            ok = ok && gslot[g] && gmax[g];
        }
        if (ok) {
            for (int k = 0; k < n; k++) {
                spair[slot[k]] = cps[k];
                spair[slot[n + k]] = cpt[k];
                for (int g = 0; g < 4; g++) gslot[g][gid[(size_t)g * n + k]] = slot[(g < 2 ? 0 : n) + k];
            }
            for (int k = 0; k < n; k++) lam[k] = 0.5;
            double step = 0.5;
            for (int it = 0; it < iters; it++) {
                for (int g = 0; g < 4; g++) memset(gmax[g], 0, sizeof(double) * ng[g]);
                for (int k = 0; k < n; k++) {
                    double v = lam[k], w = 1.0 - lam[k];
                    double *m0 = &gmax[0][gid[k]], *m1 = &gmax[1][gid[(size_t)n + k]];
                    double *m2 = &gmax[2][gid[(size_t)2 * n + k]], *m3 = &gmax[3][gid[(size_t)3 * n + k]];
                    if (v > *m0) *m0 = v;
                    if (v > *m1) *m1 = v;
                    if (w > *m2) *m2 = w;
                    if (w > *m3) *m3 = w;
                }
                memset(sacc, 0, sizeof(double) * 4 * (size_t)ns);
                for (int g = 0; g < 4; g++)
                    for (int q = 0; q < ng[g]; q++) sacc[(size_t)4 * gslot[g][q] + g] += gmax[g][q];
                for (size_t ij = 0; ij < (size_t)nA * nB; ij++) W[ij] = allowed[ij] ? U[ij] : 0.0;
                for (int s = 0; s < ns; s++) {
                    const double *a = sacc + (size_t)4 * s;
                    W[spair[s]] += (a[0] < a[1] ? a[0] : a[1]) + (a[2] < a[3] ? a[2] : a[3]);
                }
                for (int r = 0; r < rn; r++)
                    for (int q = 0; q < rm; q++)
                        cost[(size_t)r * rm + q] = -(transpose ? W[(size_t)q * nB + r] : W[(size_t)r * nB + q]);
                if (hungarian_min(A, cost, rn, rm, r2c) < 0) { fail = 1; break; }
                double total = 0.0;
                memset(x, 0, (size_t)nA * nB);
                for (int r = 0; r < rn; r++) {
                    size_t ij = transpose ? (size_t)r2c[r] * nB + r : (size_t)r * nB + r2c[r];
                    total += W[ij];
                    x[ij] = 1;
                }
                if (total < best) best = total;
                if (best < target) break;
                int moved = 0;
                for (int k = 0; k < n; k++) {
                    int d = (int)x[cps[k]] - (int)x[cpt[k]];
                    if (d) {
                        double l = lam[k] - step * d;
                        lam[k] = l < 0.0 ? 0.0 : (l > 1.0 ? 1.0 : l);
                        moved = 1;
                    }
                }
                if (!moved) break;
                step *= 0.9;
            }
        } else {
            fail = 1;
        }
    cleanup:
        arena_release(A, mk);
    }
done_core:
    *fail_out = fail;
    return best;
}

static PyObject *k_lagrangian(PyObject *self, PyObject *args) {
    PyObject *o[8];
    int nA, nB, nEa, nEb, iters;
    double target;
    long long max_cands;
    if (!PyArg_ParseTuple(args, "OOOOOOOOiiiiidL", &o[0], &o[1], &o[2], &o[3], &o[4], &o[5], &o[6],
                          &o[7], &nA, &nB, &nEa, &nEb, &iters, &target, &max_cands))
        return NULL;
    Py_buffer b[8];
    Py_ssize_t cnt[8] = {(Py_ssize_t)nA * nB, (Py_ssize_t)nA * nB, nEa, nEa, nEa, nEb, nEb, nEb};
    Py_ssize_t isz[8] = {8, 1, 4, 4, 4, 4, 4, 4};
    const char *names[8] = {"U", "allowed", "a_src", "a_tgt", "a_lab", "b_src", "b_tgt", "b_lab"};
    if (get_bufs(o, b, 8, isz, cnt, 8, names) < 0) return NULL;
    int fail = 0;
    double best;
    arena_t A = ARENA_INIT;
    Py_BEGIN_ALLOW_THREADS
    best = lagrangian_core(&A, b[0].buf, b[1].buf, b[2].buf, b[3].buf, b[4].buf, b[5].buf, b[6].buf, b[7].buf,
                           nA, nB, nEa, nEb, iters, target, max_cands, &fail);
    Py_END_ALLOW_THREADS
    arena_free(&A);
    release_bufs(b, 8);
    if (fail) return PyErr_NoMemory();
    return PyFloat_FromDouble(best);
}

/* ------------------------------------------------ the first stage of Smatch */

static int cmp_i32(const void *a, const void *b) {
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* Python's float floor division (floatobject.c), for a work limit computed exactly as
 * engine.py computes it */
static double py_floordiv(double vx, double wx) {
    double mod = fmod(vx, wx), div = (vx - mod) / wx, floordiv;
    if (mod) {
        if ((wx < 0) != (mod < 0)) div -= 1.0;
    }
    if (div) {
        floordiv = floor(div);
        if (div - floordiv > 0.5) floordiv += 1.0;
    } else {
        floordiv = copysign(0.0, vx / wx);
    }
    return floordiv;
}

/* ---------------------------------------------- branch-and-bound (engine.py) */

/* U under a candidate constraint: restrict() of problem.py */
static void restrict_u(const double *U, const uint8_t *allow, double *Uq, size_t nm) {
    for (size_t k = 0; k < nm; k++) Uq[k] = allow[k] ? U[k] : 0.0;
}

/* objective of a full mapping on the unrestricted problem: Problem.score() */
static double mapping_score(const double *U, const int32_t *m, int nA, int nB,
                            const int32_t *as, const int32_t *at, const int32_t *al, int nEa,
                            const int32_t *bs, const int32_t *bt, const int32_t *bl, int nEb) {
    double s = 0.0;
    for (int i = 0; i < nA; i++)
        if (m[i] >= 0) s += U[(size_t)i * nB + m[i]];
    if (nEa && nEb)
        for (int e = 0; e < nEa; e++) {
            int x = m[as[e]], y = m[at[e]];
            if (x < 0 || y < 0) continue;
            for (int f = 0; f < nEb; f++)
                if (bs[f] == x && bt[f] == y && bl[f] == al[e]) { s += 1.0; break; }
        }
    return s;
}

typedef struct {
    uint8_t **items;
    int n, cap;
    size_t nm;
} stack_t_;

/* a copy of `allowed` pushed on the stack (the caller edits it through the pointer
 * returned); NULL: no memory */
static uint8_t *push_copy(stack_t_ *S, const uint8_t *allowed) {
    if (S->n == S->cap) {
        int cap = S->cap ? 2 * S->cap : 64;
        uint8_t **items = realloc(S->items, sizeof(uint8_t *) * (size_t)cap);
        if (!items) return NULL;
        S->items = items;
        S->cap = cap;
    }
    uint8_t *c = malloc(S->nm ? S->nm : 1);
    if (!c) return NULL;
    memcpy(c, allowed, S->nm);
    S->items[S->n++] = c;
    return c;
}

/* engine._branch_and_bound on plain arrays (every allowed pair allowed at the root, as
 * in Smatch), step for step: the same nodes in the same order, the same Lagrangian bound
 * per node, the same climbs from the same starts with the same seed, the same budget
 * accounting (`*left`, when `limited`).  Returns 1 when every branch was closed (*score
 * is then the optimum), 0 when the node limit or the budget stopped it, -1 on memory
 * failure.  *score receives the best score found. */
#define BRANCH_NODES 64
/* round_bound() of bounds.py: integral problems have integral optima */
static inline double round_bound_c(int integral, double b) { return integral ? floor(b + 1e-9) : b; }
/* _goal() of engine.py: a bound below this certifies `score` */
static inline double goal_c(int integral, double score) { return score + (integral ? 1.0 - 2e-9 : 1e-9); }

/* integral: the problem's scores are integers (bounds rounded down, as round_bound());
 * best_map (nA entries, may be NULL): holds the caller's best mapping and receives the
 * mapping of the best score found, as _branch_and_bound returns it */
static int branch_core_ex(arena_t *A, const double *U, const uint8_t *allowed0, const int32_t *as, const int32_t *at,
                          const int32_t *al, const int32_t *bs, const int32_t *bt, const int32_t *bl,
                          int nA, int nB, int nEa, int nEb, int nL, unsigned long long seed,
                          int limited, double *left, double *score_io, int integral, int32_t *best_map) {
    size_t nm = (size_t)nA * nB;
    int rn = nA <= nB ? nA : nB, rm = nA <= nB ? nB : nA, transpose = nA > nB;
    double score = *score_io;
    double node_cost = 0.1 * 50 * rn * rn * rm + 4.0 * nA * nB;
    double ecost = 2.0 + 4.0 * nEa / (double)(nA > 1 ? nA : 1);
    int result = -1, nodes = 0;
    stack_t_ S = {NULL, 0, 0, nm};
    amark_t mk = arena_mark(A);
    double *Uq = arena_alloc(A, sizeof(double) * (nm + 1)), *w = arena_alloc(A, sizeof(double) * (nm + 1));
    double *cost = arena_alloc(A, sizeof(double) * (nm + 1));
    uint8_t *useful = arena_alloc(A, nm + 1);
    int32_t *degree = arena_zalloc(A, (size_t)nA + 1, sizeof(int32_t));
    int32_t *options = arena_alloc(A, sizeof(int32_t) * ((size_t)nA + 1));
    int32_t *claims = arena_alloc(A, sizeof(int32_t) * ((size_t)nB + 1));
    int32_t *m = arena_alloc(A, sizeof(int32_t) * ((size_t)nA + 1));
    int32_t *r2c = arena_alloc(A, sizeof(int32_t) * ((size_t)rn + 1));
    if (!Uq || !w || !cost || !useful || !degree || !options || !claims || !m || !r2c) goto done;
    for (int e = 0; e < nEa; e++) { degree[as[e]]++; degree[at[e]]++; }
    if (!push_copy(&S, allowed0)) goto done;
    while (S.n) {
        if (nodes == BRANCH_NODES) { result = 0; goto done; }
        if (limited) {
            if (node_cost > *left) { result = 0; goto done; }
            *left -= node_cost;
        }
        nodes++;
        uint8_t *allowed = S.items[--S.n];
        restrict_u(U, allowed, Uq, nm);
        if (weights_core(A, Uq, allowed, as, at, al, bs, bt, bl, nA, nB, nEa, nEb, nL, w, useful, 0) < 0) {
            free(allowed);
            goto done;
        }
        int lfail = 0;
        double b = lagrangian_core(A, Uq, allowed, as, at, al, bs, bt, bl, nA, nB, nEa, nEb, 50,
                                   goal_c(integral, score), 2000000LL, &lfail);
        if (lfail) { free(allowed); goto done; }
        if (round_bound_c(integral, b) <= score + 1e-9) { free(allowed); continue; }
        int nsplit = 0;
        for (int i = 0; i < nA; i++) {
            int c = 0;
            for (int j = 0; j < nB; j++) c += useful[(size_t)i * nB + j] > 0;
            options[i] = c;
            nsplit += c >= 2;
        }
        if (nsplit == 0) {
            int cmax = 0, jmax = 0;
            for (int j = 0; j < nB; j++) claims[j] = 0;
            for (size_t k = 0; k < nm; k++)
                if (useful[k]) claims[k % nB]++;
            for (int j = 0; j < nB; j++)
                if (claims[j] > cmax) { cmax = claims[j]; jmax = j; }
            if (cmax <= 1) {
                for (int i = 0; i < nA; i++) m[i] = -1;
                for (size_t k = 0; k < nm; k++)
                    if (useful[k]) m[k / nB] = (int32_t)(k % nB);
                double value = mapping_score(U, m, nA, nB, as, at, al, nEa, bs, bt, bl, nEb);
                if (value > score) {
                    score = value;
                    if (best_map) memcpy(best_map, m, sizeof(int32_t) * (size_t)nA);
                }
                free(allowed);
                continue;
            }
            uint8_t *child = push_copy(&S, allowed);
            if (!child) { free(allowed); goto done; }
            for (int i = 0; i < nA; i++) child[(size_t)i * nB + jmax] = 0;
            for (int i = 0; i < nA; i++) {
                if (!useful[(size_t)i * nB + jmax]) continue;
                child = push_copy(&S, allowed);
                if (!child) { free(allowed); goto done; }
                for (int i2 = 0; i2 < nA; i2++) child[(size_t)i2 * nB + jmax] = 0;
                child[(size_t)i * nB + jmax] = 1;
            }
            free(allowed);
            continue;
        }
        /* climb inside the branch from its assignment's mapping (one seeded restart) */
        for (int a = 0; a < rn; a++)
            for (int c = 0; c < rm; c++)
                cost[(size_t)a * rm + c] = -(transpose ? w[(size_t)c * nB + a] : w[(size_t)a * nB + c]);
        if (hungarian_min(A, cost, rn, rm, r2c) < 0) { free(allowed); goto done; }
        for (int i = 0; i < nA; i++) m[i] = -1;
        for (int a = 0; a < rn; a++) {
            int i = transpose ? r2c[a] : a, j = transpose ? a : r2c[a];
            m[i] = j;
        }
        for (int i = 0; i < nA; i++)
            if (m[i] >= 0 && !useful[(size_t)i * nB + m[i]]) m[i] = -1;
        long long max_evals = LLONG_MAX, evals = 0;
        int used = 0;
        if (limited) {
            double fd = py_floordiv(*left > 0.0 ? *left : 0.0, ecost);
            max_evals = fd >= 9.2e18 ? LLONG_MAX : (long long)fd;
        }
        double s2 = climb_core(A, Uq, allowed, useful, as, at, al, bs, bt, bl, nA, nB, nEa, nEb, m, 1, seed,
                               INFINITY, max_evals, &evals, &used);
        if (s2 == -INFINITY) { free(allowed); goto done; }
        if (limited) *left -= evals * ecost + nA + nB + nEa;
        if (s2 > score) {
            score = s2;
            if (best_map) memcpy(best_map, m, sizeof(int32_t) * (size_t)nA);
            if (round_bound_c(integral, b) <= score + 1e-9) { free(allowed); continue; }
        }
        /* split on the gold node of highest degree among those with two or more images */
        int bi = -1;
        double bestkey = 0.0;
        for (int i = 0; i < nA; i++) {
            if (options[i] < 2) continue;
            double key = (double)degree[i] * (nB + 1) - options[i];
            if (bi < 0 || key > bestkey) { bi = i; bestkey = key; }
        }
        uint8_t *child = push_copy(&S, allowed);
        if (!child) { free(allowed); goto done; }
        memset(child + (size_t)bi * nB, 0, (size_t)nB);
        for (int j = 0; j < nB; j++) {
            if (!useful[(size_t)bi * nB + j]) continue;
            child = push_copy(&S, allowed);
            if (!child) { free(allowed); goto done; }
            memset(child + (size_t)bi * nB, 0, (size_t)nB);
            for (int i2 = 0; i2 < nA; i2++) child[(size_t)i2 * nB + j] = 0;
            child[(size_t)bi * nB + j] = 1;
        }
        free(allowed);
    }
    result = 1;
done:
    for (int k = 0; k < S.n; k++) free(S.items[k]);
    free(S.items);
    arena_release(A, mk);
    *score_io = score;
    return result;
}

static int stage_core(arena_t *A, const double *U, int nA, int nB, const int32_t *as, const int32_t *at, const int32_t *al,
                      const int32_t *bs, const int32_t *bt, const int32_t *bl, int nEa, int nEb, int nL,
                      int integral, double work, int restarts, unsigned long long seed,
                      const uint8_t *mask, int mapped, int probe,
                      double *score_out, double *bound_out, int *method_out, int32_t *mapping_out);

/* The problem of a pair's integer codes (smatch_stage's layout, checked by the caller),
 * for stage_core: U[i, j] = the size of the intersection of gold node i's and system node
 * j's sorted feature lists (left as it is where `mask`, if given, is 0: the caller zeroes
 * U), the edge columns as, at, al (nEa each), bs, bt, bl (nEb each) one after the other in
 * `cols`, with dense label ids; `labels` (nEa + nEb) is scratch.  Returns the number of labels. */
static int code_problem(const int64_t *c, const uint8_t *mask, double *U, int32_t *cols, int32_t *labels) {
    int nA = (int)c[0], nB = (int)c[1], nEa = (int)c[2], nEb = (int)c[3];
    int64_t nFa = c[4], nFb = c[5];
    const int64_t *pa = c + 6, *fa = pa + nA + 1, *pb = fa + nFa, *fb = pb + nB + 1;
    const int64_t *ea = fb + nFb, *eb = ea + 3 * (int64_t)nEa;
    /* U: sizes of the intersections of the nodes' sorted feature lists */
    for (int i = 0; i < nA; i++)
        for (int j = 0; j < nB; j++) {
            if (mask && !mask[(size_t)i * nB + j]) continue;
            int64_t x = pa[i], xe = pa[i + 1], y = pb[j], ye = pb[j + 1];
            int shared = 0;
            while (x < xe && y < ye) {
                if (fa[x] == fb[y]) { shared++; x++; y++; }
                else if (fa[x] < fb[y]) x++;
                else y++;
            }
            U[(size_t)i * nB + j] = (double)shared;
        }
    /* edge columns with dense label ids */
    int nE = nEa + nEb, nL = 0;
    for (int e = 0; e < nEa; e++) labels[e] = (int32_t)ea[3 * e + 2];
    for (int e = 0; e < nEb; e++) labels[nEa + e] = (int32_t)eb[3 * e + 2];
    if (nE > 24) qsort(labels, (size_t)nE, sizeof(int32_t), cmp_i32);
    else   /* (insertion sort for the few labels of a sentence's graphs) */
        for (int i = 1; i < nE; i++) {
            int32_t x = labels[i];
            int j = i;
            while (j > 0 && labels[j - 1] > x) { labels[j] = labels[j - 1]; j--; }
            labels[j] = x;
        }
    for (int k = 0; k < nE; k++)
        if (k == 0 || labels[k] != labels[k - 1]) labels[nL++] = labels[k];
    int32_t *as = cols, *at = as + nEa, *al = at + nEa, *bs = al + nEa, *bt = bs + nEb, *bl = bt + nEb;
    for (int e = 0; e < nE; e++) {
        const int64_t *src = e < nEa ? ea + 3 * e : eb + 3 * (e - nEa);
        int32_t lab = (int32_t)src[2];
        int lo = 0, hi = nL - 1;
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (labels[mid] < lab) lo = mid + 1; else hi = mid;
        }
        if (e < nEa) { as[e] = (int32_t)src[0]; at[e] = (int32_t)src[1]; al[e] = lo; }
        else { int f = e - nEa; bs[f] = (int32_t)src[0]; bt[f] = (int32_t)src[1]; bl[f] = lo; }
    }
    return nL;
}

/* The work arrays of one coded pair (smatch_stage, mapped_stage): the unary table U
 * (nm = nA x nB, zeroed), the edges' columns and labels (nE edges of both graphs), the
 * mapping (nA). */
typedef struct { double *U; int32_t *cols, *labels, *mapping; } pair_buffers;

/* 0, or -1 with MemoryError set; *b is always safe to pass to pair_buffers_free. */
static int pair_buffers_alloc(pair_buffers *b, size_t nm, int nE, int nA) {
    b->U = calloc(nm, sizeof(double));
    b->cols = malloc(sizeof(int32_t) * (6 * (size_t)nE + 1));
    b->labels = malloc(sizeof(int32_t) * ((size_t)nE + 1));
    b->mapping = malloc(sizeof(int32_t) * ((size_t)nA + 1));
    if (!b->U || !b->cols || !b->labels || !b->mapping) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void pair_buffers_free(pair_buffers *b) {
    free(b->U); free(b->cols); free(b->labels); free(b->mapping);
}

/* smatch_stage(codes, work) -> score | None
 *
 * The first stage of engine.py's align() on an integer-coded Smatch problem (the codes of
 * mrkit.features._triples.code_pair): unary scores U[i, j] = shared features of gold node
 * i and system node j, the trivial and the assignment bound, hill-climbing from the
 * assignment's mapping under the pair's work budget (`work` steps, as engine.Budget
 * counts them; negative: unlimited), then the directed and Lagrangian bounds, seeded
 * restarts and the branch-and-bound (branch_core_ex), as align() runs them before its LP (stage_core).
 * When a bound is reached or every branch is closed, the score is the certified optimum
 * and is returned; otherwise None (the caller runs the whole engine, which starts with
 * these very stages and goes on to the LP / ILP).  Every array and every step is the one
 * align() computes, so a score returned here is the one align() returns. */
static PyObject *k_smatch_stage(PyObject *self, PyObject *args) {
    Py_buffer cb;
    double work;
    int restarts = 0;
    unsigned long long seed = 0;
    if (!PyArg_ParseTuple(args, "y*d|iK", &cb, &work, &restarts, &seed)) return NULL;
    const int64_t *c = cb.buf;
    Py_ssize_t nwords = cb.len / (Py_ssize_t)sizeof(int64_t);
    if (nwords < 6) { PyBuffer_Release(&cb); PyErr_SetString(PyExc_ValueError, "codes too short"); return NULL; }
    int nA = (int)c[0], nB = (int)c[1], nEa = (int)c[2], nEb = (int)c[3];
    int64_t nFa = c[4], nFb = c[5];
    if (6 + (nA + 1) + nFa + (nB + 1) + nFb + 3 * (int64_t)nEa + 3 * (int64_t)nEb != nwords) {
        PyBuffer_Release(&cb);
        PyErr_SetString(PyExc_ValueError, "codes of the wrong length");
        return NULL;
    }
    if (nA == 0 || nB == 0) { PyBuffer_Release(&cb); return PyFloat_FromDouble(0.0); }
    size_t nm = (size_t)nA * nB;
    pair_buffers buf;
    PyObject *result = NULL;
    if (pair_buffers_alloc(&buf, nm, nEa + nEb, nA) < 0) goto out;
    double *U = buf.U;
    int32_t *cols = buf.cols, *labels = buf.labels, *mapping = buf.mapping;
    int certified = 0;
    double score = 0.0;
    int fail = 0;
    Py_BEGIN_ALLOW_THREADS
    int nL = code_problem(c, NULL, U, cols, labels);
    int32_t *as = cols, *at = as + nEa, *al = at + nEa, *bs = al + nEa, *bt = bs + nEb, *bl = bt + nEb;
    {
        double bound = 0.0;
        int method = 0;
        arena_t A = ARENA_INIT;
        int rc = stage_core(&A, U, nA, nB, as, at, al, bs, bt, bl, nEa, nEb, nL, 1, work, restarts, seed, NULL,
                            0, 0, &score, &bound, &method, mapping);
        arena_free(&A);
        if (rc < 0) fail = 1;
        else certified = rc;
    }
    Py_END_ALLOW_THREADS
    if (fail) PyErr_NoMemory();
    else if (certified) result = PyFloat_FromDouble(score);
    else { result = Py_None; Py_INCREF(result); }
out:
    pair_buffers_free(&buf);
    PyBuffer_Release(&cb);
    return result;
}

/* smatch_stages(codes, offsets, work, restarts, seed) -> scores
 *
 * smatch_stage of every pair of a chunk (mrkit.features._triples.code_pairs_units): pair k's
 * codes are the int64 values offsets[k]:offsets[k + 1] of `codes`; an empty range (a pair
 * the coder refused) is skipped.  Returns float64 bytes, one per pair: the certified
 * score, or NaN where smatch_stage gives None (not certified, or skipped).  The whole
 * chunk runs without the GIL, with the work arrays of one pair reused for the next (U
 * zeroed as calloc gives it): each pair's steps are smatch_stage's. */
static PyObject *k_smatch_stages(PyObject *self, PyObject *args) {
    Py_buffer cb, ob;
    double work;
    int restarts = 0;
    unsigned long long seed = 0;
    if (!PyArg_ParseTuple(args, "y*y*d|iK", &cb, &ob, &work, &restarts, &seed)) return NULL;
    PyObject *result = NULL;
    const int64_t *codes = cb.buf, *off = ob.buf;
    Py_ssize_t nwords = cb.len / (Py_ssize_t)sizeof(int64_t);
    Py_ssize_t np = ob.len / (Py_ssize_t)sizeof(int64_t) - 1;
    if (np < 0 || ob.len % (Py_ssize_t)sizeof(int64_t) || cb.len % (Py_ssize_t)sizeof(int64_t)
        || ((uintptr_t)cb.buf % sizeof(int64_t)) || ((uintptr_t)ob.buf % sizeof(int64_t))) {
        PyErr_SetString(PyExc_ValueError, "smatch_stages: codes and offsets must be aligned int64 values");
        goto done;
    }
    result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)sizeof(double) * np);
    if (!result) goto done;
    double *scores = (double *)PyBytes_AS_STRING(result);
    int fail = 0;   /* 1 memory, 2 codes of the wrong length */
    Py_BEGIN_ALLOW_THREADS
    size_t ucap = 0, ecap = 0, acap = 0;
    arena_t A = ARENA_INIT;   /* the work arrays of stage_core, the same memory pair after pair */
    double *U = NULL;
    int32_t *cols = NULL, *labels = NULL, *mapping = NULL;
    for (Py_ssize_t k = 0; k < np && !fail; k++) {
        int64_t a = off[k], b = off[k + 1];
        scores[k] = NAN;
        if (a == b) continue;
        if (a < 0 || b < a || b > nwords || b - a < 6) { fail = 2; break; }
        const int64_t *c = codes + a;
        int nA = (int)c[0], nB = (int)c[1], nEa = (int)c[2], nEb = (int)c[3];
        int64_t nFa = c[4], nFb = c[5];
        if (nA < 0 || nB < 0 || nEa < 0 || nEb < 0 || nFa < 0 || nFb < 0
            || 6 + (nA + 1) + nFa + (nB + 1) + nFb + 3 * (int64_t)nEa + 3 * (int64_t)nEb != b - a) {
            fail = 2;
            break;
        }
        if (nA == 0 || nB == 0) { scores[k] = 0.0; continue; }
        size_t nm = (size_t)nA * nB, nE = (size_t)nEa + (size_t)nEb;
        if (nm > ucap) {
            free(U);
            ucap = nm * 2;
            if (!(U = malloc(ucap * sizeof(double)))) { ucap = 0; fail = 1; break; }
        }
        if (nE + 1 > ecap) {
            free(cols); free(labels);
            ecap = (nE + 1) * 2;
            cols = malloc(sizeof(int32_t) * 6 * ecap);
            labels = malloc(sizeof(int32_t) * ecap);
            if (!cols || !labels) { ecap = 0; fail = 1; break; }
        }
        if ((size_t)nA + 1 > acap) {
            free(mapping);
            acap = ((size_t)nA + 1) * 2;
            if (!(mapping = malloc(sizeof(int32_t) * acap))) { acap = 0; fail = 1; break; }
        }
        memset(U, 0, nm * sizeof(double));
        int nL = code_problem(c, NULL, U, cols, labels);
        int32_t *as = cols, *at = as + nEa, *al = at + nEa, *bs = al + nEa, *bt = bs + nEb, *bl = bt + nEb;
        double score = 0.0, bound = 0.0;
        int method = 0;
        int rc = stage_core(&A, U, nA, nB, as, at, al, bs, bt, bl, nEa, nEb, nL, 1, work, restarts, seed, NULL,
                            0, 0, &score, &bound, &method, mapping);
        if (rc < 0) { fail = 1; break; }
        if (rc) scores[k] = score;
    }
    free(U); free(cols); free(labels); free(mapping);
    arena_free(&A);
    Py_END_ALLOW_THREADS
    if (fail) {
        Py_CLEAR(result);
        if (fail == 1) PyErr_NoMemory();
        else PyErr_SetString(PyExc_ValueError, "smatch_stages: codes of the wrong length");
    }
done:
    PyBuffer_Release(&cb);
    PyBuffer_Release(&ob);
    return result;
}

/* -------------------------------------- align()'s stages before the LP, in C */

/* numpy's sum of a contiguous float64 array (pairwise summation, as
 * numpy/_core/src/umath/loops_utils.h.src pairwise_sum, added to the reduction's
 * initial 0.0): the trivial bound of bounds.py to the bit on graded scores */
static double np_pairwise_sum(const double *a, Py_ssize_t n) {
    if (n < 8) {
        double res = 0.0;
        for (Py_ssize_t i = 0; i < n; i++) res += a[i];
        return res;
    }
    if (n <= 128) {
        double r[8];
        Py_ssize_t i;
        for (int k = 0; k < 8; k++) r[k] = a[k];
        for (i = 8; i < n - (n % 8); i += 8)
            for (int k = 0; k < 8; k++) r[k] += a[i + k];
        double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; i++) res += a[i];
        return res;
    }
    Py_ssize_t n2 = n / 2;
    n2 -= n2 % 8;
    return np_pairwise_sum(a, n2) + np_pairwise_sum(a + n2, n - n2);
}

static double np_sum(const double *a, Py_ssize_t n) { return 0.0 + np_pairwise_sum(a, n); }

/* engine._lagrangian_probe: 10 subgradient steps towards the score; 1 (and *bound_io
 * lowered to the probe's bound) when it certifies the score, 0 when not, -1 on memory failure */
static int probe_core(arena_t *A, const double *U, const uint8_t *allowed, const int32_t *as, const int32_t *at,
                      const int32_t *al, const int32_t *bs, const int32_t *bt, const int32_t *bl,
                      int nA, int nB, int nEa, int nEb, int integral, double score, double *bound_io) {
    int lfail = 0;
    double b = lagrangian_core(A, U, allowed, as, at, al, bs, bt, bl, nA, nB, nEa, nEb, 10,
                               goal_c(integral, score), 2000000LL, &lfail);
    if (lfail) return -1;
    b = round_bound_c(integral, *bound_io < b ? *bound_io : b);
    if (score >= b - 1e-9) { *bound_io = b; return 1; }
    return 0;
}

/* stage_core: engine.align() up to its LP on a problem whose pairs are all allowed
 * (unary U, nA x nB, nA and nB > 0; edge columns with dense label ids < nL; `integral`:
 * every U is an integer), step for step: the trivial and assignment bounds, the climb from
 * the assignment's mapping, the directed and Lagrangian bounds, seeded restarts and the
 * branch-and-bound, under the work budget `work` (as engine.Budget counts it; negative:
 * unlimited).  Returns 1 when align() certifies the pair in these stages: *score_out,
 * *bound_out, *method_out (0 "bound", 1 "branch") and mapping_out (nA) are then align()'s;
 * 0 when align() would go on (LP / ILP, greedy start, stopped: the caller runs it);
 * -1 on memory failure.
 * `mask` (nA x nB bytes, NULL: every pair) restricts the pairs to the candidates (U must
 * be 0 where the mask is, as build_problem() makes it).  `mapped` (integral problems
 * only) is mapped_stage's rule after the Lagrangian stage: no branch-and-bound (a pair
 * that needs it is left to the engine); when the full Lagrangian stage was skipped and
 * `probe` is set (exact is not "never"), engine._lagrangian_probe, tried once before the
 * restarts when it is sure to run after them and once after them; otherwise the pair is
 * left to the engine.  mapped = 0 (smatch_stage, graded_stage): mask and probe unused. */
static int stage_core(arena_t *A, const double *U, int nA, int nB, const int32_t *as, const int32_t *at, const int32_t *al,
                      const int32_t *bs, const int32_t *bt, const int32_t *bl, int nEa, int nEb, int nL,
                      int integral, double work, int restarts, unsigned long long seed,
                      const uint8_t *mask, int mapped, int probe,
                      double *score_out, double *bound_out, int *method_out, int32_t *mapping_out) {
    size_t nm = (size_t)nA * nB;
    int rn = nA <= nB ? nA : nB, rm = nA <= nB ? nB : nA, transpose = nA > nB;
    amark_t mk = arena_mark(A);
    double *w = arena_alloc(A, sizeof(double) * (nm + 1)), *cost = arena_alloc(A, sizeof(double) * (nm + 1));
    double *mx = arena_alloc(A, sizeof(double) * ((size_t)(nA > nB ? nA : nB) + 1));
    uint8_t *allowed = arena_alloc(A, nm + 1), *useful = arena_alloc(A, nm + 1);
    int32_t *r2c = arena_alloc(A, sizeof(int32_t) * ((size_t)rn + 1));
    int32_t *mapping = mapping_out, *m2 = arena_alloc(A, sizeof(int32_t) * ((size_t)nA + 1));
    int result = -1, method = 0;
    double score = 0.0, bound;
    if (!w || !cost || !mx || !allowed || !useful || !r2c || !m2) goto out;
    if (mask) for (size_t k = 0; k < nm; k++) allowed[k] = mask[k] != 0;
    else memset(allowed, 1, nm);
    long edge_bound = weights_core(A, U, allowed, as, at, al, bs, bt, bl, nA, nB, nEa, nEb, nL, w, useful, 0);
    if (edge_bound < 0) goto out;
    result = 0;
    /* trivial_bound: min(U.max(axis=1).sum(), U.max(axis=0).sum()) + edge bound */
    for (int i = 0; i < nA; i++) {
        double v = U[(size_t)i * nB];
        for (int j = 1; j < nB; j++) if (U[(size_t)i * nB + j] > v) v = U[(size_t)i * nB + j];
        mx[i] = v;
    }
    double rows = np_sum(mx, nA);
    for (int j = 0; j < nB; j++) {
        double v = U[j];
        for (int i = 1; i < nA; i++) if (U[(size_t)i * nB + j] > v) v = U[(size_t)i * nB + j];
        mx[j] = v;
    }
    double colsum = np_sum(mx, nB);
    double trivial = (colsum < rows ? colsum : rows) + (double)edge_bound;
    /* the budget, as engine.Budget counts it */
    int limited = work >= 0.0;
    double left = work;
    left -= (double)nA * nB + nEa + nEb;
    double a_cost = 0.1 * rn * rn * rm + (double)nA * nB;
    if (limited && a_cost > left) goto out;   /* align() takes the greedy start */
    left -= a_cost;
    /* the assignment bound and its mapping */
    for (int a = 0; a < rn; a++)
        for (int b = 0; b < rm; b++)
            cost[(size_t)a * rm + b] = -(transpose ? w[(size_t)b * nB + a] : w[(size_t)a * nB + b]);
    if (hungarian_min(A, cost, rn, rm, r2c) < 0) { result = -1; goto out; }
    double total = 0.0;
    for (int i = 0; i < nA; i++) mapping[i] = -1;
    for (int a = 0; a < rn; a++) {
        int i = transpose ? r2c[a] : a, j = transpose ? a : r2c[a];
        mapping[i] = j;
        total += w[(size_t)i * nB + j];
    }
    for (int i = 0; i < nA; i++)
        if (mapping[i] >= 0 && !useful[(size_t)i * nB + mapping[i]]) mapping[i] = -1;
    bound = round_bound_c(integral, trivial < total ? trivial : total);
    double target = bound - 1e-9;
    double ecost = 2.0 + 4.0 * nEa / (double)(nA > 1 ? nA : 1);
    long long max_evals = LLONG_MAX;
    if (limited) {
        double fd = py_floordiv(left > 0.0 ? left : 0.0, ecost);
        max_evals = fd >= 9.2e18 ? LLONG_MAX : (long long)fd;
    }
    long long evals = 0;
    int used = 0;
    score = climb_core(A, U, allowed, useful, as, at, al, bs, bt, bl, nA, nB, nEa, nEb, mapping, 0, 0ULL,
                       target, max_evals, &evals, &used);
    if (score == -INFINITY) { result = -1; goto out; }
    left -= evals * ecost + nA + nB + nEa;
    if (score >= target) { result = 1; goto out; }
    if (limited && max_evals >= 0 && evals >= max_evals) goto out;   /* stopped: "work" */
    /* the directed bounds (when affordable; else align() stops uncertified) */
    if (limited && 2 * a_cost > left) goto out;
    left -= 2 * a_cost;
    {
        double best = INFINITY;
        for (int mode = 1; mode <= 2; mode++) {
            if (weights_core(A, U, allowed, as, at, al, bs, bt, bl, nA, nB, nEa, nEb, nL, w, useful, mode) < 0) {
                result = -1;
                goto out;
            }
            for (int a = 0; a < rn; a++)
                for (int b = 0; b < rm; b++)
                    cost[(size_t)a * rm + b] = -(transpose ? w[(size_t)b * nB + a] : w[(size_t)a * nB + b]);
            if (hungarian_min(A, cost, rn, rm, r2c) < 0) { result = -1; goto out; }
            double t = 0.0;
            for (int a = 0; a < rn; a++) {
                int i = transpose ? r2c[a] : a, j = transpose ? a : r2c[a];
                t += w[(size_t)i * nB + j];
            }
            if (t < best) best = t;
        }
        bound = round_bound_c(integral, best < bound ? best : bound);
    }
    if (score >= bound - 1e-9) { result = 1; goto out; }
    /* the Lagrangian bound */
    double lag = INFINITY;
    {
        double lag_work = 50.0 * rn * rn * rm, lag_cost = 0.1 * lag_work;
        if (lag_work <= 5e7 && !(limited && lag_cost > left)) {
            left -= lag_cost;
            if ((double)rn * rn * rm * 50 <= 5e7) {
                int lfail = 0;
                lag = lagrangian_core(A, U, allowed, as, at, al, bs, bt, bl, nA, nB, nEa, nEb, 50,
                                      goal_c(integral, score), 2000000LL, &lfail);
                if (lfail) { result = -1; goto out; }
            }
            bound = round_bound_c(integral, lag < bound ? lag : bound);
            if (score >= bound - 1e-9) { result = 1; goto out; }
        }
    }
    if (mapped) {
        /* The probe before the restarts, when it is sure to run after them: if it certifies
         * the score now, the restarts cannot change the result (they replace the mapping only
         * by a strictly better one, and none exists; they leave the bound alone), so the
         * mapping, score and bound are the ones align() reaches after them.  "Sure to run":
         * an upper bound on the restarts' work still leaves the probe's cost in the budget.
         * Each climb sweep evaluates at most the useful pairs and makes one move, each move
         * gains at least 1 (integral scores), and no climb exceeds the optimum, which is the
         * score if the probe certifies it: at most (restarts + 1) * (score + 1) sweeps. */
        /* Without the probe to follow (too big, a full Lagrangian bound already computed, or
         * exact "never"), only the restarts could still certify here, rarely: the pair is left
         * to the engine now, which runs them itself, rather than climbing twice. */
        if (!(probe && lag == INFINITY && (double)rn * rn * rm * 10 <= 1e8)) goto out;
        if (restarts && !(limited && 0.0 > left)) {
            double cost_p = 0.1 * 10 * (double)rn * rn * rm;
            double n_useful = 0.0;
            for (size_t k = 0; k < nm; k++) n_useful += useful[k] != 0;
            double wmax = ((double)restarts + 1.0) * (score + 1.0) * n_useful * ecost + nA + nB + nEa;
            if (!limited || left - (1.01 * wmax + 1000.0) >= cost_p) {
                int pr = probe_core(A, U, allowed, as, at, al, bs, bt, bl, nA, nB, nEa, nEb, integral, score, &bound);
                if (pr) { result = pr; goto out; }
            }
        }
    }
    /* seeded restarts from the best mapping */
    if (restarts && !(limited && 0.0 > left)) {
        long long me = LLONG_MAX;
        if (limited) {
            double fd = py_floordiv(left > 0.0 ? left : 0.0, ecost);
            me = fd >= 9.2e18 ? LLONG_MAX : (long long)fd;
        }
        memcpy(m2, mapping, sizeof(int32_t) * (size_t)nA);
        double s2 = climb_core(A, U, allowed, useful, as, at, al, bs, bt, bl, nA, nB, nEa, nEb, m2,
                               restarts, seed, bound - 1e-9, me, &evals, &used);
        if (s2 == -INFINITY) { result = -1; goto out; }
        left -= evals * ecost + nA + nB + nEa;   /* as _climb charges it (branching follows) */
        if (s2 > score) { score = s2; memcpy(mapping, m2, sizeof(int32_t) * (size_t)nA); }
        if (score >= bound - 1e-9) { result = 1; goto out; }
    }
    if (mapped) {
        /* engine._lagrangian_probe (exact != "never"; the full Lagrangian stage was skipped;
         * no branch-and-bound then: it needs the Lagrangian bound) */
        double cost_p = 0.1 * 10 * (double)rn * rn * rm;
        if (!(limited && cost_p > left))
            result = probe_core(A, U, allowed, as, at, al, bs, bt, bl, nA, nB, nEa, nEb, integral, score, &bound);
        goto out;
    }
    /* branch-and-bound on the Lagrangian bound (engine._branch_and_bound) */
    if (lag < INFINITY && (double)rn * rn * rm <= 2e5) {
        int closed = branch_core_ex(A, U, allowed, as, at, al, bs, bt, bl, nA, nB, nEa, nEb, nL, seed, limited,
                                    &left, &score, integral, mapping);
        if (closed < 0) { result = -1; goto out; }
        if (closed) { result = 1; method = 1; bound = score; }
    }
out:
    if (result == 1) { *score_out = score; *bound_out = bound; *method_out = method; }
    arena_release(A, mk);
    return result;
}

/* graded_stage(S, nA, nB, a_attributes, b_attributes, a_relations, b_relations, a_tops, b_tops,
 *              work[, restarts, seed]) -> (score, bound, method, mapping) | None
 *
 * stage_core on the problem S2match hands the engine (metrics/amr/s2match.py _score):
 * nodes 0..nA-1 and 0..nB-1 (S is the float64 nA x nB table of graded concept
 * similarities), U[i, j] = (number of shared (role, value) attribute features of i and
 * j, as a multiset) + S[i, j], plus S[i, j] once more for every (gold top i, system top
 * j); edges: the relations (i, role, k), de-duplicated in order, label ids in order of
 * first appearance (gold, then system), as build_problem() numbers them.  The lists are
 * those of mrkit.features.triples.Triples.  Returns align()'s certified result (method
 * "bound" or "branch", mapping a list of system indices, -1 unmapped) or None when align()
 * would go on past these stages: the caller then runs the whole engine. */
#include "_intern.h"

static int read_attr_keys(PyObject *lst, int n, PyObject *strings, int64_t **keys, int32_t **ptr) {
    /* per node, the sorted (role id, value id) keys of its attribute features */
    Py_ssize_t k = PyList_GET_SIZE(lst);
    int64_t *key = malloc(sizeof(int64_t) * ((size_t)k + 1));
    int32_t *node = malloc(sizeof(int32_t) * ((size_t)k + 1));
    int32_t *p = calloc((size_t)n + 2, sizeof(int32_t));
    int64_t *out = malloc(sizeof(int64_t) * ((size_t)k + 1));
    *keys = out; *ptr = p;
    if (!key || !node || !p || !out) { free(key); free(node); PyErr_NoMemory(); return -1; }
    for (Py_ssize_t t = 0; t < k; t++) {
        PyObject *tup = PyList_GET_ITEM(lst, t);
        if (!PyTuple_Check(tup) || PyTuple_GET_SIZE(tup) != 3) {
            free(key); free(node);
            PyErr_SetString(PyExc_ValueError, "attributes: expected (node, role, value) tuples");
            return -1;
        }
        Py_ssize_t i = PyNumber_AsSsize_t(PyTuple_GET_ITEM(tup, 0), NULL);
        if (i < 0 || i >= n) {
            free(key); free(node);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "attributes: node out of range");
            return -1;
        }
        int64_t r = intern_obj(strings, PyTuple_GET_ITEM(tup, 1));
        int64_t v = r < 0 ? -1 : intern_obj(strings, PyTuple_GET_ITEM(tup, 2));
        if (v < 0) { free(key); free(node); return -1; }
        key[t] = (r << 32) | v;
        node[t] = (int32_t)i;
        p[i + 2]++;
    }
    for (int i = 0; i < n; i++) p[i + 2] += p[i + 1];
    for (Py_ssize_t t = 0; t < k; t++) out[p[node[t] + 1]++] = key[t];
    for (int i = 0; i < n; i++) {   /* sort each node's keys (few: insertion sort) */
        for (int x = p[i] + 1; x < p[i + 1]; x++) {
            int64_t v = out[x];
            int y = x - 1;
            while (y >= p[i] && out[y] > v) { out[y + 1] = out[y]; y--; }
            out[y + 1] = v;
        }
    }
    free(key); free(node);
    return 0;
}

/* relations (i, role, k) of a list -> edge columns (s, t, label id); duplicates dropped
 * (the first kept); returns the number of edges, -1 on error */
static int read_relations(PyObject *lst, int n, PyObject *labels, int32_t *s, int32_t *t, int32_t *l) {
    Py_ssize_t k = PyList_GET_SIZE(lst);
    int ne = 0;
    for (Py_ssize_t q = 0; q < k; q++) {
        PyObject *tup = PyList_GET_ITEM(lst, q);
        if (!PyTuple_Check(tup) || PyTuple_GET_SIZE(tup) != 3) {
            PyErr_SetString(PyExc_ValueError, "relations: expected (node, role, node) tuples");
            return -1;
        }
        Py_ssize_t x = PyNumber_AsSsize_t(PyTuple_GET_ITEM(tup, 0), NULL);
        Py_ssize_t y = PyNumber_AsSsize_t(PyTuple_GET_ITEM(tup, 2), NULL);
        if (x < 0 || x >= n || y < 0 || y >= n) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "relations: node out of range");
            return -1;
        }
        int64_t lab = intern_obj(labels, PyTuple_GET_ITEM(tup, 1));
        if (lab < 0) return -1;
        int dup = 0;
        for (int e = 0; e < ne && !dup; e++) dup = s[e] == x && t[e] == y && l[e] == lab;
        if (dup) continue;
        s[ne] = (int32_t)x; t[ne] = (int32_t)y; l[ne] = (int32_t)lab;
        ne++;
    }
    return ne;
}

static PyObject *k_graded_stage(PyObject *self, PyObject *args) {
    PyObject *So, *aat, *bat, *arel, *brel, *atop, *btop;
    int nA, nB, restarts = 0;
    double work;
    unsigned long long seed = 0;
    if (!PyArg_ParseTuple(args, "OiiO!O!O!O!O!O!d|iK", &So, &nA, &nB, &PyList_Type, &aat, &PyList_Type, &bat,
                          &PyList_Type, &arel, &PyList_Type, &brel, &PyList_Type, &atop, &PyList_Type, &btop,
                          &work, &restarts, &seed))
        return NULL;
    if (nA < 0 || nB < 0) { PyErr_SetString(PyExc_ValueError, "negative node count"); return NULL; }
    Py_buffer sb;
    if (get_buf(So, &sb, 8, (Py_ssize_t)nA * nB, 0, "S") < 0) return NULL;
    PyObject *result = NULL, *strings = PyDict_New(), *labels = PyDict_New();
    size_t nm = (size_t)nA * nB;
    Py_ssize_t nRa = PyList_GET_SIZE(arel), nRb = PyList_GET_SIZE(brel);
    double *U = malloc(sizeof(double) * (nm + 1));
    int32_t *cols = malloc(sizeof(int32_t) * (3 * (size_t)(nRa + nRb) + 1));
    int32_t *mapping = malloc(sizeof(int32_t) * ((size_t)nA + 1));
    int64_t *ka = NULL, *kb = NULL;
    int32_t *pa = NULL, *pb = NULL;
    if (!strings || !labels || !U || !cols || !mapping) { PyErr_NoMemory(); goto out; }
    if (nA == 0 || nB == 0) {   /* align(): nothing to map */
        PyObject *lst = PyList_New(nA);
        if (!lst) goto out;
        for (int i = 0; i < nA; i++) PyList_SET_ITEM(lst, i, PyLong_FromLong(-1));
        result = Py_BuildValue("ddsN", 0.0, 0.0, "bound", lst);
        goto out;
    }
    if (read_attr_keys(aat, nA, strings, &ka, &pa) < 0 || read_attr_keys(bat, nB, strings, &kb, &pb) < 0) goto out;
    /* U = shared attribute features + S, + S again on (top, top) pairs (in this order) */
    const double *S = sb.buf;
    for (int i = 0; i < nA; i++)
        for (int j = 0; j < nB; j++) {
            int x = pa[i], xe = pa[i + 1], y = pb[j], ye = pb[j + 1], shared = 0;
            while (x < xe && y < ye) {
                if (ka[x] == kb[y]) { shared++; x++; y++; }
                else if (ka[x] < kb[y]) x++;
                else y++;
            }
            size_t ij = (size_t)i * nB + j;
            U[ij] = (double)shared + S[ij];
        }
    for (Py_ssize_t p = 0; p < PyList_GET_SIZE(atop); p++) {
        Py_ssize_t i = PyNumber_AsSsize_t(PyList_GET_ITEM(atop, p), NULL);
        if (i < 0 || i >= nA) { if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "top out of range"); goto out; }
        for (Py_ssize_t q = 0; q < PyList_GET_SIZE(btop); q++) {
            Py_ssize_t j = PyNumber_AsSsize_t(PyList_GET_ITEM(btop, q), NULL);
            if (j < 0 || j >= nB) { if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "top out of range"); goto out; }
            U[(size_t)i * nB + j] += S[(size_t)i * nB + j];
        }
    }
    int integral = 1;
    for (size_t k = 0; k < nm && integral; k++) integral = U[k] == nearbyint(U[k]);
    int32_t *as = cols, *at = as + nRa, *al = at + nRa, *bs = al + nRa, *bt = bs + nRb, *bl = bt + nRb;
    int nEa = read_relations(arel, nA, labels, as, at, al);
    if (nEa < 0) goto out;
    int nEb = read_relations(brel, nB, labels, bs, bt, bl);
    if (nEb < 0) goto out;
    int nL = (int)PyDict_GET_SIZE(labels);
    double score = 0.0, bound = 0.0;
    int method = 0, rc;
    Py_BEGIN_ALLOW_THREADS
    arena_t A = ARENA_INIT;
    rc = stage_core(&A, U, nA, nB, as, at, al, bs, bt, bl, nEa, nEb, nL, integral, work, restarts, seed,
                    NULL, 0, 0, &score, &bound, &method, mapping);
    arena_free(&A);
    Py_END_ALLOW_THREADS
    if (rc < 0) { PyErr_NoMemory(); goto out; }
    if (rc == 0) { result = Py_None; Py_INCREF(result); goto out; }
    PyObject *lst = PyList_New(nA);
    if (!lst) goto out;
    for (int i = 0; i < nA; i++) PyList_SET_ITEM(lst, i, PyLong_FromLong(mapping[i]));
    result = Py_BuildValue("ddsN", score, bound, method ? "branch" : "bound", lst);
out:
    Py_XDECREF(strings); Py_XDECREF(labels);
    free(U); free(cols); free(mapping); free(ka); free(kb); free(pa); free(pb);
    PyBuffer_Release(&sb);
    return result;
}

/* mapped_stage(codes, allowed, work[, restarts, seed, probe]) -> (score, bound, mapping) | None
 *
 * smatch_stage's stages under a candidate constraint, for document Smatch, with the best
 * mapping returned (the coreference subscore and the chains need it): `codes` as for
 * smatch_stage; `allowed` the (nA x nB) candidate mask as bytes (None: every pair), which
 * zeroes U where it is 0 as build_problem() does.  After the stages smatch_stage runs, a
 * pair that needs engine._branch_and_bound (small problems, whose mapping branch_core does
 * not keep) is left to the engine; a pair too big for the full Lagrangian stage gets
 * engine._lagrangian_probe (`probe` true: exact is not "never"): up to 10 subgradient steps,
 * charged only when they certify.  Returns the certified score, its bound and the mapping
 * (system index of every gold node, -1 unmapped), as align() computes them, or None when
 * align() would go on (the caller then runs the whole engine). */
static PyObject *k_mapped_stage(PyObject *self, PyObject *args) {
    Py_buffer cb, ab = {0};
    PyObject *ao;
    double work;
    int restarts = 0, probe = 1, have_allowed = 0;
    unsigned long long seed = 0;
    if (!PyArg_ParseTuple(args, "y*Od|iKp", &cb, &ao, &work, &restarts, &seed, &probe)) return NULL;
    const int64_t *c = cb.buf;
    Py_ssize_t nwords = cb.len / (Py_ssize_t)sizeof(int64_t);
    if (nwords < 6) { PyBuffer_Release(&cb); PyErr_SetString(PyExc_ValueError, "codes too short"); return NULL; }
    int nA = (int)c[0], nB = (int)c[1], nEa = (int)c[2], nEb = (int)c[3];
    int64_t nFa = c[4], nFb = c[5];
    if (nA < 0 || nB < 0 || nEa < 0 || nEb < 0 || nFa < 0 || nFb < 0
        || 6 + (nA + 1) + nFa + (nB + 1) + nFb + 3 * (int64_t)nEa + 3 * (int64_t)nEb != nwords) {
        PyBuffer_Release(&cb);
        PyErr_SetString(PyExc_ValueError, "codes of the wrong length");
        return NULL;
    }
    size_t nm = (size_t)nA * nB;
    if (ao != Py_None) {
        if (get_buf(ao, &ab, 1, (Py_ssize_t)nm, 0, "allowed") < 0) { PyBuffer_Release(&cb); return NULL; }
        have_allowed = 1;
    }
    const int64_t *pa = c + 6, *pb = pa + nA + 1 + nFa, *ea = pb + nB + 1 + nFb;
    int bad = pa[0] != 0 || pa[nA] != nFa || pb[0] != 0 || pb[nB] != nFb;
    for (int i = 0; i < nA && !bad; i++) bad = pa[i] > pa[i + 1];
    for (int j = 0; j < nB && !bad; j++) bad = pb[j] > pb[j + 1];
    for (int64_t k = 0; k < 3 * (int64_t)(nEa + nEb) && !bad; k++) {   /* node ids in range, labels >= 0 */
        int64_t v = ea[k], lim = (k % 3 == 2) ? INT32_MAX : (k < 3 * (int64_t)nEa ? nA : nB);
        bad = v < 0 || v >= lim;
    }
    {
        if (bad) {
            if (have_allowed) PyBuffer_Release(&ab);
            PyBuffer_Release(&cb);
            PyErr_SetString(PyExc_ValueError, "codes: a feature list or an edge out of range");
            return NULL;
        }
    }
    if (nA == 0 || nB == 0) {
        if (have_allowed) PyBuffer_Release(&ab);
        PyBuffer_Release(&cb);
        PyObject *m0 = PyList_New(nA);
        if (!m0) return NULL;
        for (int i = 0; i < nA; i++) PyList_SET_ITEM(m0, i, PyLong_FromLong(-1));
        return Py_BuildValue("ddN", 0.0, 0.0, m0);
    }
    pair_buffers buf;
    PyObject *result = NULL;
    if (pair_buffers_alloc(&buf, nm, nEa + nEb, nA) < 0) goto out;
    double *U = buf.U;
    int32_t *cols = buf.cols, *labels = buf.labels, *mapping = buf.mapping;
    double score = 0.0, bound = 0.0;
    int rc, method = 0;
    Py_BEGIN_ALLOW_THREADS
    /* U is 0 where not allowed, as build_problem() makes it */
    const uint8_t *mask = have_allowed ? ab.buf : NULL;
    int nL = code_problem(c, mask, U, cols, labels);
    int32_t *as = cols, *at = as + nEa, *al = at + nEa, *bs = al + nEa, *bt = bs + nEb, *bl = bt + nEb;
    arena_t A = ARENA_INIT;
    rc = stage_core(&A, U, nA, nB, as, at, al, bs, bt, bl, nEa, nEb, nL, 1, work, restarts, seed, mask, 1, probe,
                    &score, &bound, &method, mapping);
    arena_free(&A);
    Py_END_ALLOW_THREADS
    if (rc < 0) PyErr_NoMemory();
    else if (rc) {
        PyObject *ml = PyList_New(nA);
        if (ml) {
            for (int i = 0; i < nA; i++) {
                PyObject *v = PyLong_FromLong(mapping[i]);
                if (!v) { Py_DECREF(ml); ml = NULL; break; }
                PyList_SET_ITEM(ml, i, v);
            }
        }
        if (ml) result = Py_BuildValue("ddN", score, bound, ml);
    } else {
        result = Py_None;
        Py_INCREF(result);
    }
out:
    pair_buffers_free(&buf);
    if (have_allowed) PyBuffer_Release(&ab);
    PyBuffer_Release(&cb);
    return result;
}

static PyMethodDef methods[] = {
    {"lsa", k_lsa, METH_VARARGS, "lsa(weights, n, m, out) -> total: maximum-weight assignment"},
    {"climb", k_climb, METH_VARARGS, "hill-climbing with restarts over one-to-one mappings"},
    {"lagrangian", k_lagrangian, METH_VARARGS, "Lagrangian assignment bound (subgradient over edge pay splits)"},
    {"weights", k_weights, METH_VARARGS, "assignment-bound weights, useful pairs, trivial edge bound"},
    {"graded_stage", k_graded_stage, METH_VARARGS,
     "graded_stage(S, nA, nB, a_attributes, b_attributes, a_relations, b_relations, a_tops, b_tops, work"
     "[, restarts, seed]) -> (score, bound, method, mapping) certified by align()'s stages before the LP, or None"},
    {"smatch_stages", k_smatch_stages, METH_VARARGS,
     "smatch_stages(codes, offsets, work, restarts=0, seed=0) -> float64 bytes: smatch_stage of a chunk's pairs"},
    {"smatch_stage", k_smatch_stage, METH_VARARGS,
     "smatch_stage(codes, work[, restarts, seed]) -> score certified by align()'s stages before the LP, or None"},
    {"mapped_stage", k_mapped_stage, METH_VARARGS,
     "mapped_stage(codes, allowed, work[, restarts, seed, probe]) -> (score, bound, mapping) certified "
     "by align()'s stages before the LP (the Lagrangian probe included), or None"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_kernel",
                                       "Compiled inner loops of mrkit's alignment engine.", -1,
                                       methods};

PyMODINIT_FUNC PyInit__kernel(void) { return PyModule_Create(&moduledef); }
