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


/* the neighbour lists (CSR, both directions) and round-0 buffer of g, whose n, m, label,
 * es, er, et are set; 0 ok, -1 memory (no exception set) */
static int g_finish(G *g) {
    g->off = calloc(g->n + 2, sizeof(Py_ssize_t));
    g->nb = malloc(sizeof(int64_t) * (4 * g->m + 1));
    g->trip = malloc(sizeof(uint64_t) * (g->m + 1));
    Py_ssize_t *fill = malloc(sizeof(Py_ssize_t) * (g->n + 1));
    if (!g->off || !g->nb || !g->trip || !fill) { free(fill); return -1; }
    Py_ssize_t e;
    for (e = 0; e < g->m; e++) { g->off[g->es[e] + 1]++; g->off[g->et[e] + 1]++; }
    for (Py_ssize_t v = 0; v < g->n; v++) g->off[v + 1] += g->off[v];
    memcpy(fill, g->off, sizeof(Py_ssize_t) * (g->n + 1));
    for (e = 0; e < g->m; e++) {
        Py_ssize_t p = fill[g->es[e]]++;
        g->nb[2 * p] = g->er[e]; g->nb[2 * p + 1] = g->et[e];
        p = fill[g->et[e]]++;
        g->nb[2 * p] = g->er[e]; g->nb[2 * p + 1] = g->es[e];
    }
    free(fill);
    return 0;
}

#include "_codes.h"
#include "_graph_build.h"   /* g_build, g_build_codes */

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

/* node v's signature in buf: its label, then its (role, neighbour label) pairs sorted;
 * returns its length (1 + 2 x degree) */
static Py_ssize_t signature(const G *g, Py_ssize_t v, int64_t *buf) {
    Py_ssize_t lo = g->off[v], hi = g->off[v + 1], d = hi - lo;
    buf[0] = g->label[v];
    for (Py_ssize_t p = 0; p < d; p++) {
        buf[1 + 2 * p] = g->nb[2 * (lo + p)];
        buf[2 + 2 * p] = g->label[g->nb[2 * (lo + p) + 1]];
    }
    if (d > 1) qsort(buf + 1, d, 2 * sizeof(int64_t), cmp_pair);
    return 1 + 2 * d;
}

/* the new labels of one round for graph g through table (bytes key -> number); -1 error */
static int relabel(G *g, PyObject *table, int64_t *buf, int64_t *out) {
    for (Py_ssize_t v = 0; v < g->n; v++) {
        Py_ssize_t len = signature(g, v, buf);
        PyObject *key = PyBytes_FromStringAndSize((const char *)buf, (Py_ssize_t)sizeof(int64_t) * len);
        if (!key) return -1;
        int64_t id = intern_obj(table, key);
        Py_DECREF(key);
        if (id < 0) return -1;
        out[v] = id;
    }
    return 0;
}

/* round 0's features of g in f (a.n + a.m slots): labels (tag 0) and triples (tag 1)
 * packed as 1 + 3 x 21 bits, sorted and unique; returns their number */
static Py_ssize_t round0(const G *g, uint64_t *f) {
    Py_ssize_t n = 0;
    for (Py_ssize_t v = 0; v < g->n; v++) f[n++] = (uint64_t)g->label[v];
    for (Py_ssize_t e = 0; e < g->m; e++)
        f[n++] = ((uint64_t)1 << 63) | ((uint64_t)g->label[g->es[e]] << 42) | ((uint64_t)g->er[e] << 21) |
                 (uint64_t)g->label[g->et[e]];
    return uniq(f, n);
}

/* iteration i (new labels newa, newb < nt; mark: nt bytes of scratch): adds the weighted
 * distinct-label counts of a, b and both to *sa, *sb, *dot and makes the new labels current */
static void tally(G *a, G *b, const int64_t *newa, const int64_t *newb, unsigned char *mark, Py_ssize_t nt,
                  int i, double *dot, double *sa, double *sb) {
    memset(mark, 0, nt);
    Py_ssize_t da = 0, db = 0, both = 0;
    for (Py_ssize_t v = 0; v < a->n; v++)
        if (!mark[newa[v]]) { mark[newa[v]] = 1; da++; }
    for (Py_ssize_t v = 0; v < b->n; v++) {
        unsigned char m = mark[newb[v]];
        if (!(m & 2)) { mark[newb[v]] = m | 2; db++; if (m & 1) both++; }
    }
    memcpy(a->label, newa, sizeof(int64_t) * a->n);
    memcpy(b->label, newb, sizeof(int64_t) * b->n);
    double w2 = 1.0 / (double)((1 + i) * (1 + i));
    *dot += w2 * (double)both;
    *sa += w2 * (double)da;
    *sb += w2 * (double)db;
}

/* the kernel's cosine of the weighted counts (1 when both are empty, 0 when one is) */
static double cosine(double dot, double sa, double sb) {
    if (sa == 0 && sb == 0) return 1.0;
    if (sa == 0 || sb == 0) return 0.0;
    double score = dot / sqrt(sa * sb);
    return score > 1.0 ? 1.0 : score;
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
    int64_t empty = intern_obj(strings, empty_s);
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
    Py_ssize_t ca = round0(&a, fa), cb = round0(&b, fb);
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
        tally(&a, &b, newa, newb, mark, nt, i, &dot, &sa, &sb);
    }
    double score = cosine(dot, sa, sb);
    result = PyFloat_FromDouble(score);
done:
    g_free(&a); g_free(&b);
    free(fa); free(fb); free(buf); free(newa); free(newb); free(mark);
    Py_DECREF(strings);
    return result;
}

/* ------------------------------------------------------------ coded pairs
 *
 *   wlk_codes(codes, pairs, k) -> bytes of double per pair (NaN: refused pair)
 *
 * wlk_triples of many pairs given by the int64 codes of
 * mrkit.features._triples.pair_codes (see _codes.h), with the same operations: round 0
 * packs string numbers (shared by all pairs of the codes) into 21-bit fields; a round's
 * (label, sorted neighbours) keys are numbered by a C hash table instead of a dict
 * (equal keys, equal numbers, first come first numbered, as the dict).  A pair with a
 * string number of 2^21 or more has its strings renumbered densely within the pair first
 * (the counts do not depend on the numbering); NaN when even that does not fit (the
 * caller computes the pair in Python). */


typedef struct {
    int64_t *arena;     /* entries: length, data[length] */
    size_t alen, acap;
    int64_t *slots;     /* arena offset + 1, 0 empty */
    int64_t *ids;       /* per slot: the number */
    size_t nslots;
    int64_t count;
} ktab;

static int kt_reset(ktab *t, size_t want) {
    size_t ns = 64;
    while (ns < 2 * want + 2) ns *= 2;
    if (ns > t->nslots) {
        free(t->slots); free(t->ids);
        t->slots = malloc(sizeof(int64_t) * ns);
        t->ids = malloc(sizeof(int64_t) * ns);
        if (!t->slots || !t->ids) { t->nslots = 0; return -1; }
        t->nslots = ns;
    }
    memset(t->slots, 0, sizeof(int64_t) * t->nslots);
    t->alen = 0;
    t->count = 0;
    return 0;
}

static uint64_t kt_hash(const int64_t *x, size_t n) {
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ (uint64_t)n;
    for (size_t k = 0; k < n; k++) {
        h ^= (uint64_t)x[k] + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
        h *= 0xff51afd7ed558ccdULL;
    }
    return h ^ (h >> 33);
}

/* the number of key x[0..n) (new keys numbered 0, 1, ...); -1 memory.  The table holds
 * at most `want` keys (kt_reset). */
static int64_t kt_id(ktab *t, const int64_t *x, size_t n) {
    size_t mask = t->nslots - 1, k = (size_t)(kt_hash(x, n) & mask);
    while (t->slots[k]) {
        const int64_t *e = t->arena + t->slots[k] - 1;
        if ((size_t)e[0] == n && memcmp(e + 1, x, n * sizeof(int64_t)) == 0) return t->ids[k];
        k = (k + 1) & mask;
    }
    if (t->alen + n + 1 > t->acap) {
        size_t nc = (t->alen + n + 1) * 2 + 256;
        int64_t *a = realloc(t->arena, nc * sizeof(int64_t));
        if (!a) return -1;
        t->arena = a;
        t->acap = nc;
    }
    t->arena[t->alen] = (int64_t)n;
    memcpy(t->arena + t->alen + 1, x, n * sizeof(int64_t));
    t->slots[k] = (int64_t)t->alen + 1;
    t->ids[k] = t->count;
    t->alen += n + 1;
    return t->count++;
}

static int relabel_c(G *g, ktab *table, int64_t *buf, int64_t *out) {
    for (Py_ssize_t v = 0; v < g->n; v++) {
        int64_t id = kt_id(table, buf, (size_t)signature(g, v, buf));
        if (id < 0) return -1;
        out[v] = id;
    }
    return 0;
}


/* renumber the strings (labels and roles) of a and b densely from 0 when one is 2^21 or
 * more, so that they fit the packed round-0 triples; 0 ok, 1 too many strings, -1 memory */
static int dense_strings(G *a, G *b, ktab *t) {
    int big = 0;
    G *gs[2] = {a, b};
    for (int q = 0; q < 2; q++) {
        for (Py_ssize_t v = 0; v < gs[q]->n; v++) if (gs[q]->label[v] >= ((int64_t)1 << 21)) big = 1;
        for (Py_ssize_t e = 0; e < gs[q]->m; e++) if (gs[q]->er[e] >= ((int64_t)1 << 21)) big = 1;
    }
    if (!big) return 0;
    if (kt_reset(t, (size_t)(a->n + a->m + b->n + b->m + 1)) < 0) return -1;
    for (int q = 0; q < 2; q++) {
        for (Py_ssize_t v = 0; v < gs[q]->n; v++) {
            int64_t id = kt_id(t, &gs[q]->label[v], 1);
            if (id < 0) return -1;
            gs[q]->label[v] = id;
        }
        for (Py_ssize_t e = 0; e < gs[q]->m; e++) {
            int64_t id = kt_id(t, &gs[q]->er[e], 1);
            if (id < 0) return -1;
            gs[q]->er[e] = id;
        }
        /* the neighbour lists hold roles too */
        for (Py_ssize_t p = 0; p < 2 * gs[q]->m; p++) {
            int64_t id = kt_id(t, &gs[q]->nb[2 * p], 1);
            if (id < 0) return -1;
            gs[q]->nb[2 * p] = id;
        }
    }
    return t->count >= ((int64_t)1 << 21);
}

/* the score of one pair; -1 memory */
static int wlk_pair_codes(const cgraph *ca, const cgraph *cb, int k, ktab *table, double *score_out) {
    int rv = -1;
    G a, b;
    uint64_t *fa = NULL, *fb = NULL;
    int64_t *buf = NULL, *newa = NULL, *newb = NULL;
    unsigned char *mark = NULL;
    if (g_build_codes(&a, ca) < 0) { memset(&b, 0, sizeof(b)); goto done; }
    if (g_build_codes(&b, cb) < 0) goto done;
    int ds = dense_strings(&a, &b, table);
    if (ds < 0) goto done;
    if (ds > 0) { *score_out = NAN; rv = 0; goto done; }
    fa = malloc(sizeof(uint64_t) * (a.n + a.m + 1));
    fb = malloc(sizeof(uint64_t) * (b.n + b.m + 1));
    if (!fa || !fb) goto done;
    Py_ssize_t na = round0(&a, fa), nb = round0(&b, fb);
    double dot = (double)inter(fa, na, fb, nb);
    double sa = (double)na, sb = (double)nb;
    Py_ssize_t md = max_degree(&a), mdb = max_degree(&b);
    if (mdb > md) md = mdb;
    buf = malloc(sizeof(int64_t) * (1 + 2 * md));
    newa = malloc(sizeof(int64_t) * (a.n + 1));
    newb = malloc(sizeof(int64_t) * (b.n + 1));
    mark = malloc(a.n + b.n + 1);
    if (!buf || !newa || !newb || !mark) goto done;
    for (int i = 1; i <= k; i++) {
        if (kt_reset(table, (size_t)(a.n + b.n)) < 0) goto done;
        if (relabel_c(&a, table, buf, newa) < 0 || relabel_c(&b, table, buf, newb) < 0) goto done;
        Py_ssize_t nt = (Py_ssize_t)table->count;
        tally(&a, &b, newa, newb, mark, nt, i, &dot, &sa, &sb);
    }
    double score = cosine(dot, sa, sb);
    *score_out = score;
    rv = 0;
done:
    g_free(&a); g_free(&b);
    free(fa); free(fb); free(buf); free(newa); free(newb); free(mark);
    return rv;
}

static PyObject *wlk_codes_of(const int64_t *p, const int64_t *end, Py_ssize_t pairs, int k) {
    if (pairs < 0 || k < 0) return codes_malformed();
    PyObject *res = PyBytes_FromStringAndSize(NULL, pairs * (Py_ssize_t)sizeof(double));
    if (!res) return NULL;
    double *o = (double *)PyBytes_AS_STRING(res);
    ktab table = {0};
    int bad = 0;   /* 1 malformed, 2 memory */
    Py_BEGIN_ALLOW_THREADS   /* C memory only: another thread may run meanwhile */
    for (Py_ssize_t q = 0; q < pairs; q++) {
        cgraph a, b;
        if (cg_read(&p, end, &a) < 0 || cg_read(&p, end, &b) < 0) { bad = 1; break; }
        if (a.n < 0 || b.n < 0) { o[q] = NAN; continue; }
        if (wlk_pair_codes(&a, &b, k, &table, o + q) < 0) { bad = 2; break; }
    }
    if (!bad && p != end) bad = 1;
    free(table.arena); free(table.slots); free(table.ids);
    Py_END_ALLOW_THREADS
    if (bad) {
        Py_CLEAR(res);
        if (bad == 1) codes_malformed();
        else PyErr_NoMemory();
    }
    return res;
}

CODES_KERNEL(k_wlk_codes, "y*ni", wlk_codes_of)

static PyMethodDef methods[] = {
    {"wlk_triples", k_wlk, METH_VARARGS,
     "wlk_triples(n_a, instances_a, attributes_a, relations_a, n_b, ..., k): WLK of one pair, or None"},
    {"wlk_codes", k_wlk_codes, METH_VARARGS,
     "wlk_codes(codes, pairs, k) -> bytes of double per pair (NaN: refused pair)"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_wlk",
                                       "The WLK score of one pair of graphs given by their Smatch triples.",
                                       -1, methods};

PyMODINIT_FUNC PyInit__wlk(void) { return PyModule_Create(&moduledef); }
