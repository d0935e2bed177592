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
#include <limits.h>
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
    const int32_t *as = b[3].buf, *at = b[4].buf, *bs = b[6].buf, *bt = b[7].buf, *bl = b[8].buf;
    int32_t *mapping = b[9].buf;
    /* CSR: gold node -> incident gold edges (a loop once); system node -> outgoing edges */
    int32_t *inc_ptr = calloc((size_t)nA + 2, sizeof(int32_t));
    int32_t *inc_edge = malloc(sizeof(int32_t) * ((size_t)2 * nE + 1));
    int32_t *bptr = calloc((size_t)nB + 2, sizeof(int32_t));
    int32_t *blab = malloc(sizeof(int32_t) * ((size_t)nEb + 1));
    int32_t *btgt = malloc(sizeof(int32_t) * ((size_t)nEb + 1));
    int32_t *m = malloc(sizeof(int32_t) * (size_t)(nA + 1));
    int32_t *owner = malloc(sizeof(int32_t) * (size_t)(nB + 1));
    int32_t *order = malloc(sizeof(int32_t) * (size_t)(nA + 1));
    int32_t *cand = malloc(sizeof(int32_t) * (size_t)(nB + 1));
    if (!inc_ptr || !inc_edge || !bptr || !blab || !btgt || !m || !owner || !order || !cand) {
        free(inc_ptr); free(inc_edge); free(bptr); free(blab); free(btgt);
        free(m); free(owner); free(order); free(cand);
        release_bufs(b, 10);
        return PyErr_NoMemory();
    }
    long long evals = 0;
    int used = 0;
    double best;
    Py_BEGIN_ALLOW_THREADS
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
    prob_t P = {nA, nB, b[0].buf, b[1].buf, b[2].buf, as, at, b[5].buf,
                inc_ptr, inc_edge, bptr, blab, btgt};
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
    Py_END_ALLOW_THREADS
    free(inc_ptr); free(inc_edge); free(bptr); free(blab); free(btgt);
    free(m); free(owner); free(order); free(cand);
    release_bufs(b, 10);
    return Py_BuildValue("dLi", best, evals, used);
}

/* weights(U, allowed, a_src, a_tgt, a_lab, b_src, b_tgt, b_lab, nA, nB, nEa, nEb, nL, w, useful, mode)
 * Assignment-bound weights, zero where not allowed.  mode 0: w[i, j] = U[i, j] + 1/2 sum
 * over labels and both directions of min(degree of i, degree of j) (each edge paid half at
 * each end); mode 1: U + sum over labels of min(out-degrees) (each edge paid in full at
 * its source); mode 2: the same with in-degrees (paid at its target).  Each is a valid
 * bound.  useful[i, j] = allowed and (U > 0 or some label/direction shared).  Returns the
 * trivial edge bound sum_l min(#gold edges with l, #system edges with l). */
static PyObject *k_weights(PyObject *self, PyObject *args) {
    PyObject *o[10];
    int nA, nB, nEa, nEb, nL, mode = 0;
    if (!PyArg_ParseTuple(args, "OOOOOOOOiiiiiOO|i", &o[0], &o[1], &o[2], &o[3], &o[4], &o[5], &o[6],
                          &o[7], &nA, &nB, &nEa, &nEb, &nL, &o[8], &o[9], &mode))
        return NULL;
    double scale = mode == 0 ? 0.5 : 1.0;
    Py_buffer b[10];
    Py_ssize_t cnt[10] = {(Py_ssize_t)nA * nB, (Py_ssize_t)nA * nB, nEa, nEa, nEa, nEb, nEb, nEb,
                          (Py_ssize_t)nA * nB, (Py_ssize_t)nA * nB};
    Py_ssize_t isz[10] = {8, 1, 4, 4, 4, 4, 4, 4, 8, 1};
    const char *names[10] = {"U", "allowed", "a_src", "a_tgt", "a_lab", "b_src", "b_tgt", "b_lab", "w", "useful"};
    if (get_bufs(o, b, 10, isz, cnt, 8, names) < 0) return NULL;
    const double *U = b[0].buf;
    const uint8_t *allowed = b[1].buf;
    const int32_t *as = b[2].buf, *at = b[3].buf, *al = b[4].buf;
    const int32_t *bs = b[5].buf, *bt = b[6].buf, *bl = b[7].buf;
    double *w = b[8].buf;
    uint8_t *useful = b[9].buf;
    long edge_bound = 0;
    int L2 = 2 * (nL > 0 ? nL : 1);
    int32_t *da = calloc((size_t)nA * L2 + 1, sizeof(int32_t));
    int32_t *db = calloc((size_t)nB * L2 + 1, sizeof(int32_t));
    int32_t *ca = calloc((size_t)L2 + 1, sizeof(int32_t));
    int32_t *cb = calloc((size_t)L2 + 1, sizeof(int32_t));
    /* per gold node: the (slot, count) pairs it has, to skip empty slots */
    int32_t *alist = malloc(sizeof(int32_t) * ((size_t)2 * nEa + 1));
    int32_t *aptr = calloc((size_t)nA + 1, sizeof(int32_t));
    if (!da || !db || !ca || !cb || !alist || !aptr) {
        free(da); free(db); free(ca); free(cb); free(alist); free(aptr);
        release_bufs(b, 10);
        return PyErr_NoMemory();
    }
    Py_BEGIN_ALLOW_THREADS
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
    Py_END_ALLOW_THREADS
    free(da); free(db); free(ca); free(cb); free(alist); free(aptr);
    release_bufs(b, 10);
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
    qsort(tmp, (size_t)n, sizeof(kv_t), cmp_kv);
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
    const double *U = b[0].buf;
    const uint8_t *allowed = b[1].buf;
    const int32_t *as = b[2].buf, *at = b[3].buf, *al = b[4].buf;
    const int32_t *bs = b[5].buf, *bt = b[6].buf, *bl = b[7].buf;
    double best = INFINITY;
    int fail = 0;
    /* count the candidates first */
    long long K = 0;
    for (int e = 0; e < nEa && K <= max_cands; e++)
        for (int f = 0; f < nEb; f++)
            if (is_candidate(e, f, as, at, al, bs, bt, bl, allowed, nB))
                K++;
    if (nA == 0 || nB == 0 || K == 0 || K > max_cands) goto done;
    {
        int n = (int)K, rn = nA <= nB ? nA : nB, rm = nA <= nB ? nB : nA, transpose = nA > nB;
        int32_t *ce = malloc(sizeof(int32_t) * n), *cf = malloc(sizeof(int32_t) * n);
        int32_t *cps = malloc(sizeof(int32_t) * n), *cpt = malloc(sizeof(int32_t) * n);
        int32_t *gid = malloc(sizeof(int32_t) * 4 * (size_t)n);   /* 4 group ids per candidate */
        int32_t *slot = malloc(sizeof(int32_t) * 2 * (size_t)n);  /* pair slot of each end */
        int64_t *key = malloc(sizeof(int64_t) * 2 * (size_t)n);
        kv_t *tmp = malloc(sizeof(kv_t) * 2 * (size_t)n);
        double *lam = malloc(sizeof(double) * n);
        double *W = malloc(sizeof(double) * (size_t)nA * nB);
        double *cost = malloc(sizeof(double) * (size_t)rn * rm);
        int32_t *r2c = malloc(sizeof(int32_t) * (rn + 1));
        uint8_t *x = malloc((size_t)nA * nB);
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
        Py_BEGIN_ALLOW_THREADS
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
        int32_t *spair = malloc(sizeof(int32_t) * ns);
        int32_t *gslot[4];
        double *gmax[4];
        double *sacc = malloc(sizeof(double) * 4 * (size_t)ns);  /* per slot: src A, src B, tgt A, tgt B */
        int ok = spair && sacc;
        for (int g = 0; g < 4; g++) {
            gslot[g] = malloc(sizeof(int32_t) * (ng[g] + 1));
            gmax[g] = malloc(sizeof(double) * (ng[g] + 1));
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
                if (hungarian_min(cost, rn, rm, r2c) < 0) { fail = 1; break; }
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
        free(spair); free(sacc);
        for (int g = 0; g < 4; g++) { free(gslot[g]); free(gmax[g]); }
        Py_END_ALLOW_THREADS
    cleanup:
        free(ce); free(cf); free(cps); free(cpt); free(gid); free(slot); free(key); free(tmp);
        free(lam); free(W); free(cost); free(r2c); free(x);
    }
done:
    release_bufs(b, 8);
    if (fail) return PyErr_NoMemory();
    return PyFloat_FromDouble(best);
}

static PyMethodDef methods[] = {
    {"lsa", k_lsa, METH_VARARGS, "lsa(weights, n, m, out) -> total: maximum-weight assignment"},
    {"climb", k_climb, METH_VARARGS, "hill-climbing with restarts over one-to-one mappings"},
    {"lagrangian", k_lagrangian, METH_VARARGS, "Lagrangian assignment bound (subgradient over edge pay splits)"},
    {"weights", k_weights, METH_VARARGS, "assignment-bound weights, useful pairs, trivial edge bound"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_kernel",
                                       "Compiled inner loops of mrkit's alignment engine.", -1,
                                       methods};

PyMODINIT_FUNC PyInit__kernel(void) { return PyModule_Create(&moduledef); }
