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
 * The greedy node pairs are SEMA's optimum when they reach the bound of the Python's
 * _node_bound (per concept, the fewer of the gold and system nodes of that concept that
 * end a relation whose key the other graph has, paired roots left out); a pair below it
 * is left to the caller (-1s), which finds the optimum (mrkit.align.carried).
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

static inline int cmp_rec3(const int64_t *x, const int64_t *y) {
    for (int k = 0; k < 3; k++)
        if (x[k] != y[k]) return (x[k] > y[k]) - (x[k] < y[k]);
    return 0;
}

static int cmp_rec3_q(const void *a, const void *b) { return cmp_rec3(a, b); }

/* records of `w` int64 sorted by their first `c` fields: insertion sort for the few
 * records of a graph, qsort beyond.  Only used where records equal in those fields are
 * equal as a whole or never occur (a distinct rank among them), so any sort gives the
 * same array. */
static void sort_recs(int64_t *r, size_t n, int w, int c) {
    if (n > 32) {
        qsort(r, n, (size_t)w * sizeof(int64_t), c == 4 ? cmp_rec4 : cmp_rec3_q);
        return;
    }
    for (size_t i = 1; i < n; i++) {
        int64_t x[6];
        memcpy(x, r + (size_t)w * i, (size_t)w * sizeof(int64_t));
        size_t j = i;
        while (j > 0) {
            const int64_t *y = r + (size_t)w * (j - 1);
            int k = 0;
            while (k < c && y[k] == x[k]) k++;
            if (k == c || y[k] < x[k]) break;
            memcpy(r + (size_t)w * j, y, (size_t)w * sizeof(int64_t));
            j--;
        }
        memcpy(r + (size_t)w * j, x, (size_t)w * sizeof(int64_t));
    }
}

/* the work arrays of sema_pair, kept from pair to pair of one sema_codes call */
typedef struct {
    int64_t *ca, *cb;           /* concept per node, -1: none */
    uint8_t *pa, *pb;           /* paired */
    int64_t *ga, *sr;           /* relation numbers of a and b, stably sorted by source */
    int64_t *gr, *next;         /* gold relation records; next free record per key */
    int64_t *ka, *kb;           /* attribute keys */
    int64_t *cnt;               /* counting sort: per source node */
    uint8_t *rm;                /* per gold record: the ends of its key's run flagged */
    uint8_t *fa, *fb;           /* node ends a relation whose key the other graph has */
    int64_t *xa, *xb;           /* concepts of those nodes, sorted */
    size_t nodes, rels, atts;   /* capacities: nodes (per graph), relations, attributes */
} state;

static void state_free(state *s) {
    free(s->ca); free(s->cb); free(s->pa); free(s->pb); free(s->ga); free(s->sr); free(s->gr);
    free(s->next); free(s->ka); free(s->kb); free(s->cnt);
    free(s->rm); free(s->fa); free(s->fb); free(s->xa); free(s->xb);
}

/* room for graphs of at most n nodes, r relations and a attributes; 0 ok, -1 memory */
static int state_room(state *s, size_t n, size_t r, size_t a) {
#define ROOM(ptr, cap, need, per)                                          \
    if ((need) > (cap)) {                                                  \
        void *q_ = realloc((ptr), (per) * (need));                         \
        if (!q_) return -1;                                                \
        (ptr) = q_;                                                        \
    }
    size_t nn = n + 1 > s->nodes ? (n + 1) * 2 : s->nodes;
    size_t rr = r + 1 > s->rels ? (r + 1) * 2 : s->rels;
    size_t aa = a + 1 > s->atts ? (a + 1) * 2 : s->atts;
    ROOM(s->ca, s->nodes, nn, sizeof(int64_t)) ROOM(s->cb, s->nodes, nn, sizeof(int64_t))
    ROOM(s->pa, s->nodes, nn, 1) ROOM(s->pb, s->nodes, nn, 1) ROOM(s->cnt, s->nodes, nn, sizeof(int64_t))
    ROOM(s->fa, s->nodes, nn, 1) ROOM(s->fb, s->nodes, nn, 1)
    ROOM(s->xa, s->nodes, nn, sizeof(int64_t)) ROOM(s->xb, s->nodes, nn, sizeof(int64_t))
    s->nodes = nn;
    ROOM(s->ga, s->rels, rr, sizeof(int64_t)) ROOM(s->sr, s->rels, rr, sizeof(int64_t))
    ROOM(s->gr, s->rels, rr, 6 * sizeof(int64_t)) ROOM(s->next, s->rels, rr, sizeof(int64_t))
    ROOM(s->rm, s->rels, rr, 1)
    s->rels = rr;
    ROOM(s->ka, s->atts, aa, 3 * sizeof(int64_t)) ROOM(s->kb, s->atts, aa, 3 * sizeof(int64_t))
    s->atts = aa;
#undef ROOM
    return 0;
}

static inline int64_t pair_nodes(state *s, int64_t g, int64_t y) {
    if (s->pa[g] || s->pb[y] || s->ca[g] < 0 || s->ca[g] != s->cb[y]) return 0;
    s->pa[g] = 1;
    s->pb[y] = 1;
    return 1;
}

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* the concepts (>= 0) of the nodes flagged in f and not `skip`, sorted, into x; their number */
static int64_t flagged_concepts(const uint8_t *f, const int64_t *c, int64_t n, int64_t skip, int64_t *x) {
    int64_t m = 0;
    for (int64_t v = 0; v < n; v++)
        if (f[v] && v != skip && c[v] >= 0) x[m++] = c[v];
    if (m > 32) {
        qsort(x, (size_t)m, sizeof(int64_t), cmp_i64);
    } else {
        for (int64_t i = 1; i < m; i++) {
            int64_t y = x[i], j = i;
            while (j > 0 && x[j - 1] > y) { x[j] = x[j - 1]; j--; }
            x[j] = y;
        }
    }
    return m;
}

/* the lower bound of key among n sorted records of w int64 (first 3 fields compared) */
static int64_t lower_bound3(const int64_t *r, int64_t n, int w, const int64_t *key) {
    int64_t lo = 0, hi = n;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (cmp_rec3(r + (size_t)w * mid, key) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* order[k]: the relations of g stably sorted by source (a counting sort over the nodes) */
static void by_source(const cgraph *g, int64_t *cnt, int64_t *order) {
    for (int64_t v = 0; v <= g->n; v++) cnt[v] = 0;
    for (int64_t k = 0; k < g->nr; k++) cnt[g->rel[3 * k] + 1]++;
    for (int64_t v = 0; v < g->n; v++) cnt[v + 1] += cnt[v];
    for (int64_t k = 0; k < g->nr; k++) order[cnt[g->rel[3 * k]]++] = k;
}

/* 0 ok, -1 memory */
static int sema_pair(const cgraph *a, const cgraph *b, state *s, int64_t out[3]) {
    size_t n = (size_t)(a->n > b->n ? a->n : b->n), r = (size_t)(a->nr > b->nr ? a->nr : b->nr);
    size_t at = (size_t)(a->na > b->na ? a->na : b->na);
    if (state_room(s, n, r, at) < 0) return -1;
    int64_t *gr = s->gr, *next = s->next, *ka = s->ka, *kb = s->kb;
    for (int64_t v = 0; v < a->n; v++) s->ca[v] = -1;
    for (int64_t v = 0; v < b->n; v++) s->cb[v] = -1;
    memset(s->pa, 0, (size_t)a->n);
    memset(s->pb, 0, (size_t)b->n);
    for (int64_t j = 0; j < a->ni; j++) s->ca[a->inst[2 * j]] = a->inst[2 * j + 1];
    for (int64_t j = 0; j < b->ni; j++) s->cb[b->inst[2 * j]] = b->inst[2 * j + 1];
    int64_t matched = 0, nodes = 0, root_a = -1, root_b = -1;
    if (a->nt && b->nt && pair_nodes(s, a->tops[0], b->tops[0])) {
        matched = 1;
        root_a = a->tops[0];
        root_b = b->tops[0];
    }
    memset(s->fa, 0, (size_t)a->n);
    memset(s->fb, 0, (size_t)b->n);
    /* gold relations as (role, concept of source, concept of target, rank) + (source,
     * target); rank = position in the stable order by source */
    by_source(a, s->cnt, s->ga);
    by_source(b, s->cnt, s->sr);
    for (int64_t q = 0; q < a->nr; q++) {
        const int64_t *t = a->rel + 3 * s->ga[q];
        int64_t *o = gr + 6 * q;
        o[0] = t[1]; o[1] = s->ca[t[0]]; o[2] = s->ca[t[2]]; o[3] = q; o[4] = t[0]; o[5] = t[2];
    }
    sort_recs(gr, (size_t)a->nr, 6, 4);
    for (int64_t q = 0; q < a->nr; q++) next[q] = q;
    memset(s->rm, 0, (size_t)a->nr);
    for (int64_t q = 0; q < b->nr; q++) {
        const int64_t *t = b->rel + 3 * s->sr[q];
        int64_t key[3] = {t[1], s->cb[t[0]], s->cb[t[2]]};
        int64_t lo = lower_bound3(gr, a->nr, 6, key);
        if (lo >= a->nr || cmp_rec3(gr + 6 * lo, key) != 0) continue;
        /* both graphs have the key: the ends of its relations are flagged (the bound) */
        s->fb[t[0]] = s->fb[t[2]] = 1;
        if (!s->rm[lo]) {
            s->rm[lo] = 1;
            for (int64_t r = lo; r < a->nr && cmp_rec3(gr + 6 * r, key) == 0; r++)
                s->fa[gr[6 * r + 4]] = s->fa[gr[6 * r + 5]] = 1;
        }
        int64_t cur = next[lo];
        if (cur < a->nr && cmp_rec3(gr + 6 * cur, key) == 0) {
            next[lo] = cur + 1;
            int64_t got = pair_nodes(s, gr[6 * cur + 4], t[0]) + pair_nodes(s, gr[6 * cur + 5], t[2]);
            matched += 1 + got;
            nodes += got;
        }
    }
    /* the bound of the node pairs: a greedy pairing below it is left to the caller.  First
     * the fewer flagged nodes of either graph (no sort), which is at least the bound */
    int64_t na_ = 0, nb_ = 0;
    for (int64_t v = 0; v < a->n; v++) na_ += s->fa[v] && v != root_a && s->ca[v] >= 0;
    for (int64_t v = 0; v < b->n; v++) nb_ += s->fb[v] && v != root_b && s->cb[v] >= 0;
    if (nodes < (na_ < nb_ ? na_ : nb_)) {
        int64_t ma = flagged_concepts(s->fa, s->ca, a->n, root_a, s->xa);
        int64_t mb = flagged_concepts(s->fb, s->cb, b->n, root_b, s->xb);
        int64_t bound = 0, i = 0, j = 0;
        while (i < ma && j < mb) {
            if (s->xa[i] < s->xb[j]) i++;
            else if (s->xa[i] > s->xb[j]) j++;
            else {
                int64_t c = s->xa[i], na = 0, nb = 0;
                while (i < ma && s->xa[i] == c) { i++; na++; }
                while (j < mb && s->xb[j] == c) { j++; nb++; }
                bound += na < nb ? na : nb;
            }
        }
        if (nodes < bound) {
            out[0] = out[1] = out[2] = -1;
            return 0;
        }
    }
    /* attributes: a multiset of (role, value, concept) */
    for (int64_t j = 0; j < a->na; j++) {
        ka[3 * j] = a->attr[3 * j + 1]; ka[3 * j + 1] = a->attr[3 * j + 2]; ka[3 * j + 2] = s->ca[a->attr[3 * j]];
    }
    for (int64_t j = 0; j < b->na; j++) {
        kb[3 * j] = b->attr[3 * j + 1]; kb[3 * j + 1] = b->attr[3 * j + 2]; kb[3 * j + 2] = s->cb[b->attr[3 * j]];
    }
    sort_recs(ka, (size_t)a->na, 3, 3);
    sort_recs(kb, (size_t)b->na, 3, 3);
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
    return 0;
}

static PyObject *sema_codes_of(const int64_t *p, const int64_t *end, Py_ssize_t pairs, int unused) {
    (void)unused;
    if (pairs < 0) return codes_malformed();
    PyObject *res = PyBytes_FromStringAndSize(NULL, pairs * 3 * (Py_ssize_t)sizeof(int64_t));
    if (!res) return NULL;
    int64_t *o = (int64_t *)PyBytes_AS_STRING(res);
    state s;
    memset(&s, 0, sizeof s);
    int nomem = 0;
    Py_BEGIN_ALLOW_THREADS   /* C memory only: another thread may run meanwhile */
    for (Py_ssize_t k = 0; k < pairs; k++) {
        cgraph a, b;
        if (cg_read(&p, end, &a) < 0 || cg_read(&p, end, &b) < 0) { p = NULL; break; }
        if (a.n < 0 || b.n < 0) { o[3 * k] = o[3 * k + 1] = o[3 * k + 2] = -1; continue; }
        if (sema_pair(&a, &b, &s, o + 3 * k) < 0) { nomem = 1; break; }
    }
    state_free(&s);
    Py_END_ALLOW_THREADS
    if (nomem) { Py_DECREF(res); return PyErr_NoMemory(); }
    if (p != end) { Py_DECREF(res); return codes_malformed(); }
    return res;
}

CODES_KERNEL(k_sema_codes, "y*n|i", sema_codes_of)

static PyMethodDef methods[] = {
    {"sema_codes", k_sema_codes, METH_VARARGS,
     "sema_codes(codes, pairs) -> bytes of int64 (matched, gold, system) per pair; -1s: refused pair"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_sema",
                                       "SEMA's counts of many pairs from their int64-coded triples.", -1, methods};

PyMODINIT_FUNC PyInit__sema(void) { return PyModule_Create(&moduledef); }
